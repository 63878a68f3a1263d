import type { Value } from '../../src/graph/value.js';
import { scalarLike } from '../generator/constant-of-shape.js';
import { i64Const, i64Scalar } from '../helpers.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * ONNX AffineGrid → IR (OpenVINO has no such op; its frontend builds the grid from IR ops, so
 * does ovir). For size [N, C, (D,) H, W] the base grid holds, at each spatial position, the
 * normalized coordinates (x, y, (z,) 1) — x along W — where coordinate i of a dim of size S is
 *   align_corners=0: (2i + 1) / S - 1        align_corners=1: 2i / max(S - 1, 1) - 1
 * (ONNX's reference gives -1 for S = 1 with align_corners, as the max() does). Each point is
 * then multiplied by theta [N, n, n+1]:
 *   grid [P, n+1] (P = prod(spatial)) · thetaᵀ → [N, P, n] → Reshape [N, (D,) H, W, n]
 */
function affineGridToIr(c: ConvertContext): void {
  const st = c.type(1);
  const len = st?.kind === 'tensor' && st.shape?.length === 1 ? st.shape[0] : null;
  if (len !== 4 && len !== 5) { c.error(`size must be a 1-D tensor of 4 or 5 dims (got ${len === null || len === undefined ? 'an unknown length' : len})`); return; }
  const align = c.attr.int('align_corners', 0n) !== 0n;
  const n = len - 2;
  const elem = c.elem(0);
  if (elem === null) { c.error('AffineGrid needs the element type of theta'); return; }
  const k = (v: number): Value | null => scalarLike(c, 0, v, 'AffineGrid');
  const [one, two] = [k(1), k(2)];
  if (!one || !two) return;
  const bin = (op: string, a: Value, b: Value): Value =>
    c.emit(op, [a, b], op === 'Divide' ? { auto_broadcast: 'numpy', m_pythondiv: 'true' } : { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
  const size = c.elem(1) === 'i64' ? c.input(1)! : c.emit('Convert', [c.input(1)], { destination_type: 'i64' }, 1, 'opset1')[0]!;
  const slice = (from: number, to: number): Value =>
    c.emit('Slice', [size, i64Const(c, [BigInt(from)]), i64Const(c, [BigInt(to)]), i64Const(c, [1n]), i64Const(c, [0n])], {}, 1, 'opset8')[0]!;
  const spatial = slice(2, len);
  // coordinates along spatial dim d (0 = D or H, n-1 = W), shaped to broadcast over the others
  const coords: Value[] = [];
  for (let d = 0; d < n; d++) {
    const s = c.emit('Squeeze', [slice(2 + d, 3 + d), i64Const(c, [0n])], {}, 1, 'opset1')[0]!;
    const idx = c.emit('Range', [i64Scalar(c, 0n), s, i64Scalar(c, 1n)], { output_type: elem }, 1, 'opset4')[0]!;
    const sf = c.emit('Convert', [s], { destination_type: elem }, 1, 'opset1')[0]!;
    const twice = bin('Multiply', idx, two);
    const v = align
      ? bin('Subtract', bin('Divide', twice, bin('Maximum', bin('Subtract', sf, one), one)), one)
      : bin('Subtract', bin('Divide', bin('Add', twice, one), sf), one);
    const others = Array.from({ length: n }, (_, i) => i).filter((i) => i !== d).map(BigInt);
    const shaped = others.length ? c.emit('Unsqueeze', [v, i64Const(c, others)], {}, 1, 'opset1')[0]! : v;
    coords.push(c.emit('Broadcast', [shaped, spatial], { mode: 'numpy' }, 1, 'opset3')[0]!);
  }
  const ones = c.emit('Broadcast', [one, spatial], { mode: 'numpy' }, 1, 'opset3')[0]!;
  const last = i64Const(c, [BigInt(n)]);
  const parts = [...coords.reverse(), ones].map((v) => c.emit('Unsqueeze', [v, last], {}, 1, 'opset1')[0]!);
  const grid = c.emit('Concat', parts, { axis: String(n) }, 1, 'opset1')[0]!;
  const flat = c.emit('Reshape', [grid, i64Const(c, [-1n, BigInt(n + 1)])], { special_zero: 'false' }, 1, 'opset1')[0]!;
  const out = c.emit('MatMul', [flat, c.input(0)], { transpose_a: 'false', transpose_b: 'true' }, 1, 'opset1')[0]!;
  const shape = c.emit('Concat', [slice(0, 1), spatial, i64Const(c, [BigInt(n)])], { axis: '0' }, 1, 'opset1')[0]!;
  c.output(0, c.emit('Reshape', [out, shape], { special_zero: 'false' }, 1, 'opset1')[0]!);
}

export const AFFINE_GRID: readonly OpMapping[] = [
  {
    onnx: { op: 'AffineGrid', since: 20 },
    ir: null,
    decomposes: ['Range', 'Broadcast', 'Concat', 'Reshape', 'MatMul'],
    handles: { onnx: ['align_corners'] },
    note: 'IR: the base grid of normalized coordinates from Range, times thetaᵀ by MatMul',
    toIr: affineGridToIr,
  },
];
