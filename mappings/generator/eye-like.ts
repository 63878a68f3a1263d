import { A } from '../../src/graph/attr.js';
import { fromIrElementType, fromOnnxDataType } from '../../src/graph/element-type.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const, i64Scalar } from '../helpers.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * ONNX EyeLike-9(input; dtype?, k = 0) ⇄ IR Eye-9(num_rows, num_columns, diagonal_index,
 * batch_shape?; output_type). ONNX takes the 2-D shape from a tensor, IR from two scalars: ONNX →
 * IR reads them off ShapeOf (as OpenVINO's frontend does); IR → ONNX builds that tensor with
 * ConstantOfShape (batch_shape: an Expand of the matrix), the diagonal must be a constant.
 */
function asI64Vector(c: ConvertContext, i: number): Value {
  const v = c.input(i)!;
  const cast = c.elem(i) === 'i64' ? v : c.emit('Cast', [v], { to: A.int(7) })[0]!;
  return c.emit('Reshape', [cast, i64Const(c, [-1n])])[0]!;
}

export const EYE: readonly OpMapping[] = [
  {
    onnx: { op: 'EyeLike', since: 9 },
    ir: { op: 'Eye', version: 'opset9' },
    handles: { onnx: ['dtype', 'k'], ir: ['output_type'] },
    toIr: (c) => {
      if (c.rank(0) !== null && c.rank(0) !== 2) { c.error(`EyeLike takes a 2-D input (rank ${c.rank(0)})`); return; }
      const d = c.attr.int('dtype');
      const elem = d === undefined ? c.elem(0) : fromOnnxDataType(Number(d))?.name ?? null;
      if (elem === null) { c.error(d === undefined ? 'EyeLike needs the element type of its input to be known' : `unknown dtype ${d}`); return; }
      const shape = c.emit('ShapeOf', [c.input(0)], { output_type: 'i64' }, 1, 'opset3')[0]!;
      const dim = (k: bigint): Value => c.emit('Gather', [shape, i64Scalar(c, k), i64Scalar(c, 0n)], { batch_dims: '0' }, 1, 'opset8')[0]!;
      const k = c.attr.int('k') ?? 0n;
      c.output(0, c.emit('Eye', [dim(0n), dim(1n), i64Scalar(c, k)], { output_type: elem }, 1, 'opset9')[0]!);
    },
    toOnnx: (c) => {
      const diag = c.constInts(2);
      if (diag === null || diag.length !== 1) { c.needsConstant(2, 'diagonal_index (ONNX EyeLike k is an attribute)'); return; }
      const out = fromIrElementType((c.attr.string('output_type') ?? 'f32').trim());
      if (!out || out.onnx === null) { c.unsupportedAttr('output_type', c.attr.string('output_type') ?? '', 'no ONNX element type'); return; }
      const size = c.emit('Concat', [asI64Vector(c, 0), asI64Vector(c, 1)], { axis: A.int(0) })[0]!;
      const zeros = c.emit('ConstantOfShape', [size])[0]!;
      let eye = c.emit('EyeLike', [zeros], { dtype: A.int(out.onnx), ...(diag[0] !== 0n ? { k: A.int(diag[0]!) } : {}) })[0]!;
      if (c.numInputs > 3 && c.input(3)) {
        const full = c.emit('Concat', [asI64Vector(c, 3), size], { axis: A.int(0) })[0]!;
        eye = c.emit('Expand', [eye, full])[0]!;
      }
      c.output(0, eye);
    },
  },
];
