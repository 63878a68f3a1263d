import { readFloats, type Tensor } from '../../src/graph/tensor.js';
import type { Value } from '../../src/graph/value.js';
import { irOnly, never } from '../ir-only/onnx-build.js';
import type { ConvertContext, OpMapping, StateInitial } from '../spec.js';

/**
 * OpenVINO's state variables (a stateful model keeps a value between inference calls: ReadValue
 * reads variable `variable_id`, Assign writes the value the next call reads). ONNX has no state,
 * so IR → ONNX makes the state explicit, as stateless exports of stateful models do (optimum's
 * past/present key-values): each variable is a main graph input named `variable_id`, which every
 * ReadValue of it reads, and the value its Assign writes is a graph output named
 * `variable_id.next`, after the model's own outputs. Every call feeds the previous call's `.next`.
 * - The input is required, never an initializer-backed default: onnxruntime-node does not feed an
 *   input that has one (it lists it among neither inputs nor feeds: measured, 1.23), so the state
 *   would silently stay at its default after the first call.
 * - What the first call feeds is OpenVINO's initial value, which the warning states: zeros (no init
 *   input, or an init constants compute to zeros), the IR's constant init (its values when at most
 *   16), or a value the IR computes from other values at the first call.
 * - Every variable is reported (CONVERT_STATE_VARIABLE, with the names it became), and the pairs
 *   are recorded in the model's metadata (`ovir.state_variables`), a constant initial value as an
 *   initializer `<variable_id>.initial` (src/convert/state-variables.ts): ONNX → IR makes them
 *   variables again.
 * - A variable inside a body (Loop, If, TensorIterator) is refused: a body's inputs are not the
 *   caller's.
 */
function readValue(c: ConvertContext): void {
  const id = c.attr.string('variable_id');
  if (id === undefined) { c.error("attribute 'variable_id' is required"); return; }
  const v = c.stateInput(id, c.typeOf(c.node.outputs[0]!), initialOf(c.node.inputs[0] ?? null, c.folded(0)));
  if (v) c.output(0, v);
}

/** What the variable holds before the first call: ReadValue's init (none: zeros, as OpenVINO starts). */
function initialOf(init: Value | null, t: Tensor | null): StateInitial {
  if (!init) return { kind: 'zeros', detail: 'zeros (the IR starts the variable at zeros)', tensor: null };
  if (!t) return { kind: 'computed', detail: `the value the IR computes for it (from ${init.producer?.path ?? init.label}) at the first call`, tensor: null };
  const values = t.elem === 'string' ? null : readFloats(t);
  if (values && values.every((x) => x === 0)) return { kind: 'zeros', detail: `zeros of shape [${t.dims.join(', ')}]`, tensor: t };
  const shown = values && values.length <= 16 ? `: [${values.map((x) => Number(x.toPrecision(7))).join(', ')}]` : '';
  return { kind: 'constant', detail: `the IR's constant init of shape [${t.dims.join(', ')}]${shown}`, tensor: t };
}

function assign(c: ConvertContext): void {
  const id = c.attr.string('variable_id');
  if (id === undefined) { c.error("attribute 'variable_id' is required"); return; }
  const v = c.input(0);
  if (!v) { c.error('input 0 (the value assigned) is required'); return; }
  c.stateOutput(id, v);
  // Assign's own output repeats the value (nothing reads it in OpenVINO's models; it may be read)
  c.output(0, v);
}

export const STATE_VARIABLES: readonly OpMapping[] = [
  {
    onnx: { op: 'Identity', since: 1 },
    ir: { op: 'ReadValue', version: 'opset6', reads: ['opset3'] },
    when: never,
    handles: { ir: ['variable_id', 'variable_type', 'variable_shape'] },
    note: 'a main graph input named variable_id, fed by the caller (the first call: the initial value the warning states; CONVERT_STATE_VARIABLE)',
    toIr: irOnly,
    toOnnx: readValue,
  },
  {
    onnx: { op: 'Identity', since: 1 },
    ir: { op: 'Assign', version: 'opset6', reads: ['opset3'] },
    when: never,
    handles: { ir: ['variable_id'] },
    note: 'a main graph output named variable_id.next, after the model\'s own outputs',
    toIr: irOnly,
    toOnnx: assign,
  },
];
