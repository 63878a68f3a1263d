import { A } from '../../src/graph/attr.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const, i64Scalar } from '../helpers.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { typedScalar } from '../typed-consts.js';

/**
 * ONNX OneHot(indices, depth, values = [off, on]; axis) ⇄ IR OneHot-16(indices, depth scalar,
 * on_value, off_value; axis, negative_indices_mode). ONNX-11 counts negative indices from the end
 * (IR `normalize`); ONNX-9 leaves them all-off (IR `ignore_negative`, IR OneHot-1's only mode).
 * IR needs integer indices and depth: other types get a Convert, as OpenVINO's frontend does.
 */
const INTS = new Set(['i32', 'i64']);
const SIGNED = new Set(['i8', 'i16', 'i32', 'i64', 'f16', 'f32', 'f64', 'bf16']);

function asIrInt(c: ConvertContext, i: number): Value {
  const v = c.input(i)!;
  return INTS.has(c.elem(i) ?? '') ? v : c.emit('Convert', [v], { destination_type: 'i64' }, 1, 'opset1')[0]!;
}

/**
 * onnxruntime's OneHot kernels (indices, values, depth types), measured with onnxruntime 1.31: the
 * spec allows any numeric types, the runtime only these. IR → ONNX casts indices (between i32 and
 * i64) and depth (a count: exact in any of these types) to the first kernel with the values' type.
 */
const ORT_KERNELS: ReadonlyArray<readonly [string, string, string]> = [
  ['i64', 'i64', 'i64'], ['i64', 'f32', 'i64'], ['i64', 'f32', 'f32'], ['i64', 'f32', 'i32'], ['i64', 'i32', 'f32'],
  ['i32', 'f32', 'i32'], ['i32', 'f32', 'f32'], ['f32', 'i64', 'i64'], ['f32', 'f32', 'f32'],
];
const ONNX_TYPE: Record<string, number> = { i32: 6, i64: 7, f32: 1 };

function castTo(c: ConvertContext, v: Value, from: string | null, to: string): Value {
  return from === to ? v : c.emit('Cast', [v], { to: A.int(ONNX_TYPE[to]!) })[0]!;
}

const ONE_HOT: OpMapping = {
  onnx: { op: 'OneHot', since: 9 },
  ir: { op: 'OneHot', version: 'opset16', reads: ['opset1'] },
  handles: { onnx: ['axis'], ir: ['axis', 'negative_indices_mode'] },
  toIr: (c) => {
    let depth = asIrInt(c, 1);
    if (c.rank(1) !== 0) depth = c.emit('Reshape', [depth, i64Const(c, [])], { special_zero: 'false' }, 1, 'opset1')[0]!;
    const pick = (k: bigint): Value => c.emit('Gather', [c.input(2), i64Scalar(c, k), i64Scalar(c, 0n)], { batch_dims: '0' }, 1, 'opset8')[0]!;
    const axis = c.attr.int('axis') ?? -1n;
    const mode = c.opset >= 11 ? 'normalize' : 'ignore_negative';
    c.output(0, c.emit('OneHot', [asIrInt(c, 0), depth, pick(1n), pick(0n)], { axis: String(axis), negative_indices_mode: mode }, 1, 'opset16')[0]!);
  },
  toOnnx: (c) => {
    const mode = c.node.version === 'opset1' ? 'ignore_negative' : (c.attr.string('negative_indices_mode') ?? 'ignore_negative').trim().toLowerCase();
    if (mode !== 'normalize' && mode !== 'ignore_negative') { c.unsupportedAttr('negative_indices_mode', mode, 'supported: normalize, ignore_negative'); return; }
    const elem = c.elem(0);
    const mayBeNegative = elem === null || (SIGNED.has(elem) && !(c.constNumbers(0)?.every((v) => v >= 0) ?? false));
    let indices = c.input(0)!;
    if (mayBeNegative && mode === 'normalize' && c.opset < 11) {
      c.unsupportedAttr('negative_indices_mode', mode, `ONNX OneHot counts negative indices from the end from opset 11 (target opset ${c.opset})`); return;
    }
    if (mayBeNegative && mode === 'ignore_negative' && c.opset >= 11) {
      // ONNX-11 would count them from the end: make negative indices out of range instead
      const zero = elem === null ? null : typedScalar(elem, 0);
      const far = elem === null ? null : typedScalar(elem, elem === 'i8' ? 127 : elem === 'i16' ? 32767 : 2147483647);
      if (zero === null || far === null) { c.error(`OneHot ignore_negative with ${elem ?? 'unknown'} indices`); return; }
      const neg = c.emit('Less', [indices, c.constant(zero)])[0]!;
      indices = c.emit('Where', [neg, c.constant(far), indices])[0]!;
    }
    const one = (i: number): Value => c.emit('Reshape', [c.input(i), i64Const(c, [1n])])[0]!;
    const values = c.emit('Concat', [one(3), one(2)], { axis: A.int(0) })[0]!;
    const axis = c.attr.int('axis') ?? -1n;
    let depth = c.input(1)!;
    const [ti, to, td] = [elem, c.elem(2), c.elem(1)];
    const exact = ORT_KERNELS.some(([i, o, d]) => i === ti && o === to && d === td);
    const intIndex = ti === 'i32' || ti === 'i64';
    const kernel = exact || !intIndex ? undefined : ORT_KERNELS.find(([i, o]) => o === to && (i === 'i32' || i === 'i64'));
    if (kernel) { indices = castTo(c, indices, ti, kernel[0]); depth = castTo(c, depth, td, kernel[2]); }
    c.output(0, c.emit('OneHot', [indices, depth, values], axis === -1n ? {} : { axis: A.int(axis) })[0]!);
  },
};

export const ONE_HOT_OPS: readonly OpMapping[] = [ONE_HOT];
