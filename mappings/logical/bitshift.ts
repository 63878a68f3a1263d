import { A } from '../../src/graph/attr.js';
import { attrString } from '../../src/graph/attr-read.js';
import { elementType } from '../../src/graph/element-type.js';
import { typedScalar } from '../typed-consts.js';
import { NUMPY_BROADCAST, string, type OpMapping } from '../spec.js';

/**
 * ONNX BitShift (direction LEFT / RIGHT) ⇄ IR BitwiseLeftShift-15 / BitwiseRightShift-15. ONNX
 * BitShift takes unsigned integers from opset 11 and signed ones from opset 28; IR takes any
 * integer type, so IR → ONNX refuses signed operands below opset 28 (naming it).
 *
 * Both shift arithmetically, but ONNX defines shifts by a negative amount or by the bit width or
 * more (LEFT: 0; RIGHT: the sign fill) while OpenVINO's CPU plugin masks the amount (measured:
 * i32 -1 << 40 is -256). Unless the amount is a constant within [0, width), ONNX → IR selects the
 * ONNX result for those amounts: Select(amount out of range, fill, shift).
 */
const SIGNED = new Set(['i8', 'i16', 'i32', 'i64']);

function bitShift(direction: 'LEFT' | 'RIGHT', ir: string): OpMapping {
  return {
    onnx: { op: 'BitShift', since: 11 },
    ir: { op: ir, version: 'opset15' },
    when: (n) => (attrString(n, 'direction') ?? '') === direction,
    attrs: [...NUMPY_BROADCAST, string('direction').onnxOnly().onlyValues(direction)],
    toIr: (c) => {
      const x = c.input(0)!;
      const amount = c.input(1)!;
      const shifted = c.emit(ir, [x, amount], { auto_broadcast: 'numpy' }, 1, 'opset15')[0]!;
      const elem = c.elem(0);
      const width = elem === null ? 0 : elementType(elem).bits;
      const known = c.constNumbers(1);
      if (known !== null && known.every((k) => k >= 0 && k < width)) { c.output(0, shifted); return; }
      const signed = elem !== null && SIGNED.has(elem);
      const zero = elem === null ? null : typedScalar(elem, 0);
      const last = elem === null ? null : typedScalar(elem, width - 1);
      if (zero === null || last === null) { c.error(`BitShift of ${elem ?? 'an unknown element type'} (integers of 8..64 bits only)`); return; }
      const tooFar = c.emit('Greater', [amount, c.constant(last)], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
      const out = signed
        ? c.emit('LogicalOr', [tooFar, c.emit('Less', [amount, c.constant(zero)], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!
        : tooFar;
      const fill = direction === 'RIGHT' && signed
        ? c.emit(ir, [x, c.constant(last)], { auto_broadcast: 'numpy' }, 1, 'opset15')[0]!
        : c.constant(zero);
      c.output(0, c.emit('Select', [out, fill, shifted], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!);
    },
    toOnnx: (c) => {
      const elem = c.elem(0);
      if (elem !== null && SIGNED.has(elem) && c.opset < 28) {
        c.error(`ONNX BitShift takes signed integers (${elem}) from opset 28 (target opset ${c.opset})`);
        return;
      }
      c.output(0, c.emit('BitShift', [c.input(0), c.input(1)], { direction: A.string(direction) })[0]!);
    },
  };
}

export const BITSHIFT: readonly OpMapping[] = [bitShift('LEFT', 'BitwiseLeftShift'), bitShift('RIGHT', 'BitwiseRightShift')];
