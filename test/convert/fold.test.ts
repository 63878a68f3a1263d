import { describe, expect, it } from 'vitest';
import { foldConstants } from '../../src/convert/fold.js';
import { toHost } from '../../src/convert/host-tensor.js';
import { A, tensorFromFloat32, tensorFromInt32, tensorFromInt64, type Attr, type Dialect, type Tensor, type Value } from '../../src/graph/index.js';
import { inferTypes } from '../../src/shape/infer.js';
import { Builder } from './builder.js';

/** Folds `op(consts…)` alone in a graph; returns the constant it became (or null if left). */
function fold(dialect: Dialect, op: string, ins: Tensor[], attrs: Record<string, Attr> = {}, version?: string): { elem: string; dims: readonly number[]; values: (number | bigint)[] } | null {
  const b = new Builder(dialect);
  const vs = ins.map((t, k) => b.init(`c${k}`, t));
  const y = b.op(b.graph, op, vs, 'y', attrs, version ? { version } : dialect === 'ov' ? { version: 'opset1' } : {});
  b.output(y);
  foldConstants(b.graph);
  const out: Value = b.graph.outputs[0]!;
  if (!out.constant) return null;
  const h = toHost(out.constant)!;
  return { elem: h.elem, dims: h.dims, values: [...h.values] };
}

const i64 = (v: number[], dims?: number[]) => tensorFromInt64(v, dims ?? [v.length]);

describe('constant folding follows each spec exactly', () => {
  it('integer division: ONNX Div truncates toward zero, OpenVINO Divide floors (m_pythondiv default true)', () => {
    expect(fold('onnx', 'Div', [i64([-7, 7]), i64([2, -2])])!.values).toEqual([-3n, -3n]);
    expect(fold('ov', 'Divide', [i64([-7, 7]), i64([2, -2])])!.values).toEqual([-4n, -4n]);
    expect(fold('ov', 'Divide', [i64([-7]), i64([2])], { m_pythondiv: A.bool(false) })!.values).toEqual([-3n]);
    expect(fold('onnx', 'Div', [i64([1]), i64([0])])).toBeNull(); // undefined: left to the engine
  });

  it('broadcasting (numpy), comparison to boolean, Where', () => {
    expect(fold('onnx', 'Add', [tensorFromFloat32([1, 2, 3, 4], [2, 2]), tensorFromFloat32([10, 20], [2])])).toEqual({ elem: 'f32', dims: [2, 2], values: [11, 22, 13, 24] });
    expect(fold('onnx', 'Equal', [i64([16000]), i64([16000, 8000])])!.values).toEqual([1, 0]);
    expect(fold('ov', 'Select', [toBool([true, false]), i64([1, 2]), i64([5])])!.values).toEqual([1n, 5n]);
  });

  it('Reshape: 0 copies the dim unless ONNX allowzero=1 / OpenVINO special_zero=false; -1 infers', () => {
    const t = tensorFromFloat32([1, 2, 3, 4, 5, 6], [2, 3]);
    expect(fold('onnx', 'Reshape', [t, i64([0, -1])])!.dims).toEqual([2, 3]);
    expect(fold('ov', 'Reshape', [t, i64([0, -1])], { special_zero: A.bool(true) })!.dims).toEqual([2, 3]);
    expect(fold('ov', 'Reshape', [t, i64([0, -1])], { special_zero: A.bool(false) })).toBeNull(); // 0 × ? = 6: impossible
    expect(fold('onnx', 'Reshape', [t, i64([3, -1])])!.dims).toEqual([3, 2]);
  });

  it('Slice with negative indices and steps clamps as the spec says; Gather takes negative indices', () => {
    const t = i64([0, 1, 2, 3, 4, 5]);
    expect(fold('onnx', 'Slice', [t, i64([-1]), i64([-1000]), i64([0]), i64([-2])])!.values).toEqual([5n, 3n, 1n]);
    expect(fold('ov', 'Slice', [t, i64([1]), i64([100]), i64([2])], {}, 'opset8')!.values).toEqual([1n, 3n, 5n]);
    expect(fold('onnx', 'Gather', [t, i64([-1, 0])])!.values).toEqual([5n, 0n]);
    expect(fold('ov', 'Gather', [i64([1, 2, 3, 4], [2, 2]), i64([-1]), i64([1], [])], {}, 'opset8')).toEqual({ elem: 'i64', dims: [2, 1], values: [2n, 4n] });
  });

  it('Cast/Convert, Concat, Unsqueeze/Squeeze, Range, ConstantOfShape', () => {
    expect(fold('onnx', 'Cast', [tensorFromFloat32([-1.7, 2.9])], { to: A.int(7) })!.values).toEqual([-1n, 2n]);
    expect(fold('ov', 'Convert', [tensorFromInt32([3])], { destination_type: A.string('f32') })!).toEqual({ elem: 'f32', dims: [1], values: [3] });
    expect(fold('onnx', 'Concat', [i64([1]), i64([2, 3])], { axis: A.int(0) })!.values).toEqual([1n, 2n, 3n]);
    expect(fold('onnx', 'Unsqueeze', [i64([7], []), i64([0])])!.dims).toEqual([1]);
    expect(fold('ov', 'Squeeze', [i64([7], [1, 1]), i64([0])])!.dims).toEqual([1]);
    expect(fold('onnx', 'Range', [i64([5], []), i64([0], []), i64([-2], [])])!.values).toEqual([5n, 3n, 1n]);
    expect(fold('onnx', 'ConstantOfShape', [i64([2, 1])], { value: A.tensor(tensorFromInt32([9])) })).toEqual({ elem: 'i32', dims: [2, 1], values: [9, 9] });
  });

  it('a chain folds in one pass: Shape(x inferred static) → Gather → Unsqueeze → Concat → Reshape', () => {
    const b = new Builder('onnx');
    const x = b.input('x', 'f32', [4, 6]);
    const s = b.op(b.graph, 'Shape', [x], 's');
    const d0 = b.op(b.graph, 'Gather', [s, b.init('zero', i64([0], []))], 'd0');
    const u = b.op(b.graph, 'Unsqueeze', [d0, b.init('ax', i64([0]))], 'u');
    const shape = b.op(b.graph, 'Concat', [u, b.init('m1', i64([-1]))], 'shape', { axis: A.int(0) });
    b.output(b.op(b.graph, 'Reshape', [x, shape], 'y'));
    // Shape folds from the shape inference proves, never from a declaration alone
    const inferred = inferTypes(b.model);
    const stats = foldConstants(b.graph, new Set(), (v) => {
      const t = inferred.types.get(v);
      return t?.kind === 'tensor' && t.shape?.every((d) => typeof d === 'number') ? t.shape as number[] : null;
    });
    expect(stats.folded).toBe(4);
    expect(b.graph.nodes.map((n) => n.op)).toEqual(['Reshape']);
    expect([...toHost(b.graph.nodes[0]!.inputs[1]!.constant!)!.values]).toEqual([4n, -1n]);
  });
});

function toBool(v: boolean[]): Tensor {
  return { elem: 'boolean', dims: [v.length], data: new Uint8Array(v.map((x) => (x ? 1 : 0))) };
}
