import { makeTensor } from '../../src/graph/tensor.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * ONNX optionals, resolved at conversion time as sequences are (mappings/sequence/): IR has no
 * optional type, so an optional is the list of the at most one tensor it holds.
 *  - Optional(input?; type): [input], or [] when the input is absent (`type` only types it).
 *  - OptionalHasElement(input?): "true if the input is an optional that contains an element, or a
 *    tensor or sequence (opset 18)", false for an empty optional or an absent input: a boolean
 *    scalar constant.
 *  - OptionalGetElement(input): the tensor the optional holds; a tensor or sequence input (opset 18)
 *    is itself. An empty optional has no element (onnxruntime fails on it too).
 * An optional holding a sequence is not resolved (refused), nor is an optional graph input.
 */
const kindOf = (c: ConvertContext, i: number): string | null => c.type(i)?.kind ?? null;

function hasElement(c: ConvertContext): void {
  let has: boolean;
  if (!c.node.inputs[0]) has = false;
  else if (kindOf(c, 0) === 'optional') {
    const elems = c.sequence(0);
    if (!elems) return;
    has = elems.length > 0;
  } else if (kindOf(c, 0) === 'tensor' || kindOf(c, 0) === 'sequence') has = true;
  else { c.error('the input type is not known: whether it holds an element cannot be decided'); return; }
  c.output(0, c.constant(makeTensor('boolean', [], Uint8Array.of(has ? 1 : 0))));
}

function getElement(c: ConvertContext): void {
  const kind = kindOf(c, 0);
  if (kind === 'tensor') { c.output(0, c.input(0)!); return; }
  if (kind === 'sequence') { const s = c.sequence(0); if (s) c.outputSequence(0, [...s]); return; }
  if (kind !== 'optional') { c.error('the input type is not known: an optional, a tensor or a sequence is expected'); return; }
  const elems = c.sequence(0);
  if (!elems) return;
  if (!elems.length) { c.error('the optional is empty: it has no element to get'); return; }
  c.output(0, elems[0]!.value);
}

function optional(c: ConvertContext): void {
  if (!c.node.inputs[0]) { c.outputSequence(0, []); return; }
  if (kindOf(c, 0) !== 'tensor') { c.error(`an optional of ${kindOf(c, 0) ?? 'an unknown type'} is not resolved at conversion time (optional tensors only)`); return; }
  c.outputSequence(0, [{ value: c.input(0)!, type: c.type(0) }]);
}

export const OPTIONAL: readonly OpMapping[] = [
  {
    onnx: { op: 'Optional', since: 15 }, ir: null, decomposes: [], sequences: true, handles: { onnx: ['type'] }, toIr: optional,
    note: 'resolved at conversion time: a list of at most one tensor',
  },
  {
    onnx: { op: 'OptionalHasElement', since: 15 }, ir: null, decomposes: [], sequences: true, toIr: hasElement,
    note: 'resolved at conversion time: a boolean constant',
  },
  {
    onnx: { op: 'OptionalGetElement', since: 15 }, ir: null, decomposes: [], sequences: true, toIr: getElement,
    note: 'resolved at conversion time: the tensor held (a tensor or sequence input is itself)',
  },
];
