import { A } from '../../src/graph/attr.js';
import type { Value } from '../../src/graph/value.js';
import { string, type ConvertContext, type OpMapping } from '../spec.js';



/** Swaps the last two dims of a rank-`r` value (MatMul transpose_a/b). */
function swapLast(c: ConvertContext, v: Value, r: number): Value {
  const perm = Array.from({ length: r }, (_, i) => BigInt(i));
  [perm[r - 2], perm[r - 1]] = [perm[r - 1]!, perm[r - 2]!];
  return c.emit('Transpose', [v], { perm: A.ints(perm) })[0]!;
}

/**
 * ONNX → IR: the value under operand `i` when that operand is a Transpose of the last two dims
 * read by this MatMul only (what IR → ONNX writes for transpose_a/b), else null. IR MatMul then
 * transposes it itself, so a round trip gives the source's MatMul back.
 */
function swappedOperand(c: ConvertContext, i: number): Value | null {
  const v = c.node.inputs[i];
  const t = v?.producer;
  if (!v || !t || t.dialect !== 'onnx' || !t.is('Transpose') || v.uses.length !== 1 || v.graph.outputs.includes(v)) return null;
  const perm = t.attrs.get('perm');
  if (perm?.type !== 'ints') return null;
  const r = perm.value.length;
  const swaps = r >= 2 && perm.value.every((p, k) => Number(p) === (k < r - 2 ? k : k === r - 2 ? r - 1 : r - 2));
  return swaps ? c.converted(t.inputs[0] ?? null) : null;
}

export const MATMUL: readonly OpMapping[] = [
  {
    onnx: { op: 'Einsum', since: 12 },
    ir: { op: 'Einsum', version: 'opset7' },
    attrs: [string('equation')],
    // ONNX allows spaces in the equation ("bij, bjk -> bik"); OpenVINO rejects them.
    toIr: (c) => {
      const attrs = c.attrs();
      const eq = attrs.get('equation');
      if (eq?.type === 'raw' || eq?.type === 'string') attrs.set('equation', A.raw(eq.value.replace(/\s+/g, '')));
      const inputs = Array.from({ length: c.numInputs }, (_, i) => c.input(i));
      c.output(0, c.emit('Einsum', inputs, attrs)[0]!);
    },
  },
  {
    // ONNX MatMul never transposes; IR transpose_a/b become a Transpose of the last two dims.
    onnx: { op: 'MatMul', since: 1 },
    ir: { op: 'MatMul', version: 'opset1' },
    handles: { ir: ['transpose_a', 'transpose_b'] },
    toIr: (c) => {
      const [a, b] = [swappedOperand(c, 0), swappedOperand(c, 1)];
      c.output(0, c.emit('MatMul', [a ?? c.input(0), b ?? c.input(1)], { transpose_a: String(a !== null), transpose_b: String(b !== null) })[0]!);
    },
    toOnnx: (c) => {
      const ins = [c.input(0)!, c.input(1)!];
      for (const [i, name] of [[0, 'transpose_a'], [1, 'transpose_b']] as const) {
        if (!(c.attr.bool(name) ?? false)) continue;
        const r = c.rank(i);
        if (r === null) { c.error(`${name}=true needs the rank of input ${i}, which is not known`); return; }
        if (r >= 2) ins[i] = swapLast(c, ins[i], r);
      }
      c.output(0, c.emit('MatMul', ins)[0]!);
    },
  },
];
