import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { A, tensorFromFloat32, tensorFromInt32, tensorFromInt64, type Attr, type Tensor, type Value } from '../../src/graph/index.js';
import { encodeOnnx } from '../../src/onnx/encode.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import type { OracleTensor } from '../helpers/oracle.js';
import { runOrt } from '../helpers/ort.js';
import { Builder } from './builder.js';
import { expectClose } from '../helpers/tensors.js';

/**
 * IR-only ops of OpenVINO's other frontends written as ONNX subgraphs (mappings/tensor/
 * scatter-update.ts, roll.ts, embedding-bag.ts, mappings/math/bucketize.ts, mappings/nn/grn.ts, mappings/nn/adaptive-pool.ts, mappings/tensor/space-batch.ts, segment-max.ts,
 * mappings/ir-only/elementwise.ts), run in onnxruntime against the OpenVINO op spec's definition
 * computed here. Entries are named by the ONNX op they stand on: ScatterElements (ScatterUpdate),
 * Slice (SliceScatter), Range (Roll, ShuffleChannels), LessOrEqual (Bucketize, SearchSorted),
 * ReduceSumSquare (GRN), ReduceSum (EmbeddingBagPackedSum, EmbeddingBagPacked), ScatterND
 * (EmbeddingBagOffsetsSum, EmbeddingBagOffsets, EmbeddingSegmentsSum), Equal (NotEqual, IsFinite),
 * Sub (SquaredDifference), ReduceMean / ReduceMax (AdaptiveAvgPool / AdaptiveMaxPool), Transpose (SpaceToBatch, BatchToSpace), ScatterND (SegmentMax). The engines judge the same ops on IRs OpenVINO writes in
 * test/conformance/native-ir-ops.test.ts.
 */
const X = [-1.5, 0.25, 2, -0.5, 1, 3.5, -2, 0, 0.5, 1.25, -1, 2.5];

interface Case { op: string; version: string; shape: number[]; extra?: (b: Builder) => (Value | null)[]; attrs?: Record<string, Attr>; x?: number[]; opset?: number }

async function run(k: Case): Promise<number[]> {
  const b = new Builder('ov');
  const x = b.input('x', 'f32', k.shape);
  b.output(b.op(b.graph, k.op, [x, ...(k.extra?.(b) ?? [])], 'y', k.attrs ?? {}, { version: k.version }));
  const onnx = convertModel(b.model, k.opset === undefined ? {} : { opset: k.opset });
  const data = k.x ?? X.slice(0, k.shape.reduce((a, d) => a * d, 1));
  const input: OracleTensor = { dtype: 'f32', shape: k.shape, data: new Uint8Array(new Float32Array(data).buffer) };
  const y = (await runOrt(encodeOnnx(onnx).bytes, { x: input }))['y']!;
  const buf = y.data.buffer.slice(y.data.byteOffset, y.data.byteOffset + y.data.byteLength);
  if (y.dtype === 'i64') return [...new BigInt64Array(buf)].map(Number);
  if (y.dtype === 'i32') return [...new Int32Array(buf)];
  if (y.dtype === 'boolean') return [...new Uint8Array(buf)];
  return [...new Float32Array(buf)];
}

const c = (b: Builder, t: Tensor): Value => b.init('', t);

describe('IR-only ops as ONNX subgraphs, against the OpenVINO spec', () => {
  it('ScatterUpdate-3 (as ScatterElements): data[:, indices[i, j], :] = updates[:, i, j, :] along axis 1', async () => {
    // data [2, 3, 2] (X), indices [[2, 0]], updates [2, 1, 2, 2] = 100 + n
    const upd = Array.from({ length: 8 }, (_, n) => 100 + n);
    const got = await run({ op: 'ScatterUpdate', version: 'opset3', shape: [2, 3, 2], extra: (b) => [
      c(b, tensorFromInt64([2, 0], [1, 2])), c(b, tensorFromFloat32(upd, [2, 1, 2, 2])), c(b, tensorFromInt64([1], [])),
    ] });
    const want = X.slice();
    for (let n = 0; n < 2; n++) for (const [j, idx] of [[0, 2], [1, 0]] as const) for (let k = 0; k < 2; k++) want[n * 6 + idx * 2 + k] = upd[n * 4 + j * 2 + k]!;
    expectClose(got, want);
  });

  it('ScatterUpdate-3 into data without elements writes nothing, whatever the indices: the empty data', async () => {
    // OpenVINO's TensorFlow frontend: a TensorArray of dynamic size, empty, written at the iteration number
    const got = await run({ op: 'ScatterUpdate', version: 'opset3', shape: [0, 2], extra: (b) => [
      c(b, tensorFromInt64([0], [1])), c(b, tensorFromFloat32([7, 8], [1, 2])), c(b, tensorFromInt64([0], [])),
    ] });
    expect(got).toEqual([]);
  });

  it('ScatterUpdate-3 into data that may be empty (a dynamic dim), along the last axis, when it is not: as any ScatterUpdate', async () => {
    const b = new Builder('ov');
    const x = b.input('x', 'f32', [2, null]);
    b.output(b.op(b.graph, 'ScatterUpdate', [x, c(b, tensorFromInt64([2, 0], [2])), c(b, tensorFromFloat32([10, 11, 12, 13], [2, 2])), c(b, tensorFromInt64([-1], []))], 'y', {}, { version: 'opset3' }));
    const onnx = convertModel(b.model);
    const input: OracleTensor = { dtype: 'f32', shape: [2, 3], data: new Uint8Array(new Float32Array(X.slice(0, 6)).buffer) };
    const y = (await runOrt(encodeOnnx(onnx).bytes, { x: input }))['y']!;
    // data[i, indices[j]] = updates[i, j]
    expectClose([...new Float32Array(y.data.buffer.slice(y.data.byteOffset, y.data.byteOffset + y.data.byteLength))], [11, 0.25, 10, 13, 1, 12]);
    const empty: OracleTensor = { dtype: 'f32', shape: [2, 0], data: new Uint8Array(0) };
    expect((await runOrt(encodeOnnx(onnx).bytes, { x: empty }))['y']!.shape).toEqual([2, 0]);
  });

  it('SliceScatter-15 (as ScatterElements at a Slice of the positions): data[1:, ::-2] = updates', async () => {
    const got = await run({ op: 'SliceScatter', version: 'opset15', shape: [3, 4], extra: (b) => [
      c(b, tensorFromFloat32([10, 11, 12, 13], [2, 2])),
      c(b, tensorFromInt64([1, -1])), c(b, tensorFromInt64([3, -5])), c(b, tensorFromInt64([1, -2])), c(b, tensorFromInt64([0, 1])),
    ] });
    const want = X.slice();
    [[1, 3, 10], [1, 1, 11], [2, 3, 12], [2, 1, 13]].forEach(([r, col, v]) => { want[r! * 4 + col!] = v!; });
    expectClose(got, want);
  });

  it('Roll-7 (as Range): output[i] = data[(i − shift) mod d] along each axis, a repeated axis rolled again', async () => {
    const got = await run({ op: 'Roll', version: 'opset7', shape: [3, 4], extra: (b) => [c(b, tensorFromInt32([1, 5, -3])), c(b, tensorFromInt64([0, 1, -1]))] });
    // net shifts: axis 0 by 1, axis 1 by 5 − 3 = 2
    expectClose(got, X.map((_, i) => X[((Math.floor(i / 4) + 2) % 3) * 4 + ((i % 4) + 2) % 4]!));
  });

  it('ShuffleChannels-1 (as Range): [group, C/group] channels read as [C/group, group]', async () => {
    const got = await run({ op: 'ShuffleChannels', version: 'opset1', shape: [1, 6, 2], attrs: { axis: A.raw('1'), group: A.raw('2') } });
    const from = [0, 3, 1, 4, 2, 5];
    expectClose(got, X.map((_, i) => X[from[Math.floor(i / 2)]! * 2 + (i % 2)]!));
  });

  it('GRN-1 (as ReduceSumSquare): x / sqrt(sum over channels of x² + bias)', async () => {
    const got = await run({ op: 'GRN', version: 'opset1', shape: [2, 3, 2], attrs: { bias: A.raw('0.5') } });
    expectClose(got, X.map((v, i) => {
      const n = Math.floor(i / 6); const s = i % 2;
      const sum = [0, 1, 2].reduce((a, ch) => a + X[n * 6 + ch * 2 + s]! ** 2, 0);
      return v / Math.sqrt(sum + 0.5);
    }));
  });

  const buckets = [-1, 0, 0.5, 2];
  it('Bucketize-3 (as LessOrEqual): with_right_bound counts b < x, else b ≤ x; output_type i32', async () => {
    const mk = (right: boolean): Case => ({ op: 'Bucketize', version: 'opset3', shape: [12], extra: (b) => [c(b, tensorFromFloat32(buckets))],
      attrs: { with_right_bound: A.raw(String(right)), output_type: A.raw('i32') } });
    expect(await run(mk(true))).toEqual(X.map((x) => buckets.filter((v) => v < x).length));
    expect(await run(mk(false))).toEqual(X.map((x) => buckets.filter((v) => v <= x).length));
  });

  it('SearchSorted-15 (as LessOrEqual): left counts s < v, right_mode s ≤ v, per row of a batched sequence', async () => {
    const seq = [-1, 0, 0, 2, -2, 0.25, 1, 3];
    // the sequence is input 0, the values (x) input 1
    const build = async (right: boolean): Promise<number[]> => {
      const b = new Builder('ov');
      const x = b.input('x', 'f32', [2, 6]);
      b.output(b.op(b.graph, 'SearchSorted', [c(b, tensorFromFloat32(seq, [2, 4])), x], 'y', { right_mode: A.raw(String(right)) }, { version: 'opset15' }));
      const y = (await runOrt(encodeOnnx(convertModel(b.model)).bytes, { x: { dtype: 'f32', shape: [2, 6], data: new Uint8Array(new Float32Array(X).buffer) } }))['y']!;
      return [...new BigInt64Array(y.data.buffer.slice(y.data.byteOffset, y.data.byteOffset + y.data.byteLength))].map(Number);
    };
    const want = (right: boolean): number[] => X.map((v, i) => seq.slice(Math.floor(i / 6) * 4, Math.floor(i / 6) * 4 + 4).filter((s) => (right ? s <= v : s < v)).length);
    expect(await build(false)).toEqual(want(false));
    expect(await build(true)).toEqual(want(true));
  });

  // the embedding table is x [4, 3]: row r = X[3r .. 3r + 2]
  const row = (r: number): number[] => X.slice(r * 3, r * 3 + 3);
  const add = (a: number[], b: number[], w = 1): number[] => a.map((v, i) => v + w * b[i]!);
  it('EmbeddingBagPackedSum-3 / EmbeddingBagPacked-15 (as ReduceSum): a weighted sum, or a mean, per bag', async () => {
    const idx = [[0, 2], [3, 3]];
    const w = [0.5, 2, -1, 1];
    const sum = await run({ op: 'EmbeddingBagPackedSum', version: 'opset3', shape: [4, 3],
      extra: (b) => [c(b, tensorFromInt32(idx.flat(), [2, 2])), c(b, tensorFromFloat32(w, [2, 2]))] });
    expectClose(sum, [...add(row(0).map((v) => v * 0.5), row(2), 2), ...add(row(3).map((v) => -v), row(3))]);
    const mean = await run({ op: 'EmbeddingBagPacked', version: 'opset15', shape: [4, 3],
      extra: (b) => [c(b, tensorFromInt64(idx.flat(), [2, 2]))], attrs: { reduction: A.raw('mean') } });
    expectClose(mean, [...add(row(0), row(2)).map((v) => v / 2), ...row(3)]);
  });

  it('EmbeddingBagOffsetsSum-3 / EmbeddingBagOffsets-15 (as ScatterND add): bags from offsets, an empty bag is the default row', async () => {
    const ext = (b: Builder): Value[] => [c(b, tensorFromInt64([1, 2, 0, 1])), c(b, tensorFromInt64([0, 2, 2])), c(b, tensorFromInt64([3], []))];
    expectClose(await run({ op: 'EmbeddingBagOffsetsSum', version: 'opset3', shape: [4, 3], extra: ext }),
      [...add(row(1), row(2)), ...row(3), ...add(row(0), row(1))]);
    expectClose(await run({ op: 'EmbeddingBagOffsets', version: 'opset15', shape: [4, 3], extra: ext, attrs: { reduction: A.raw('mean') } }),
      [...add(row(1), row(2)).map((v) => v / 2), ...row(3), ...add(row(0), row(1)).map((v) => v / 2)]);
  });

  it('EmbeddingSegmentsSum-3 (as ScatterND add): rows summed into their segment, empty segments zero without a default', async () => {
    const got = await run({ op: 'EmbeddingSegmentsSum', version: 'opset3', shape: [4, 3],
      extra: (b) => [c(b, tensorFromInt32([2, 0, 3])), c(b, tensorFromInt32([2, 0, 2])), c(b, tensorFromInt32([4], []))] });
    expectClose(got, [...row(0), 0, 0, 0, ...add(row(2), row(3)), 0, 0, 0]);
  });

  it('NotEqual-1 (as Not(Equal)), SquaredDifference-1 (as Sub·Sub), IsFinite-10 (as Equal(x − x, 0))', async () => {
    const other = (b: Builder): Value[] => [c(b, tensorFromFloat32([0.25, 2, 0]))];
    expect(await run({ op: 'NotEqual', version: 'opset1', shape: [4, 3], extra: other })).toEqual(X.map((v, i) => Number(v !== [0.25, 2, 0][i % 3])));
    expectClose(await run({ op: 'SquaredDifference', version: 'opset1', shape: [4, 3], extra: other }), X.map((v, i) => (v - [0.25, 2, 0][i % 3]!) ** 2));
    const special = [1, Infinity, -Infinity, NaN, 0, -3.5];
    expect(await run({ op: 'IsFinite', version: 'opset10', shape: [6], x: special })).toEqual(special.map((v) => Number(Number.isFinite(v))));
  });

  it('AdaptiveAvgPool-8 / AdaptiveMaxPool-8 (as ReduceMean / ReduceMax): bin o of n into m covers [⌊o·n/m⌋, ⌈(o+1)·n/m⌉)', async () => {
    const x = X.slice(0, 10); // [1, 2, 5]: two channels of 5
    const binsOf = (ch: number[]): number[][] => [[0, 2], [1, 4], [3, 5]].map(([a, b]) => ch.slice(a, b));
    const ext = (b: Builder): Value[] => [c(b, tensorFromInt64([3]))];
    const chans = [x.slice(0, 5), x.slice(5)];
    expectClose(await run({ op: 'AdaptiveAvgPool', version: 'opset8', shape: [1, 2, 5], extra: ext, x }),
      chans.flatMap((ch) => binsOf(ch).map((v) => v.reduce((s, e) => s + e, 0) / v.length)));
    expectClose(await run({ op: 'AdaptiveMaxPool', version: 'opset8', shape: [1, 2, 5], extra: ext, x }),
      chans.flatMap((ch) => binsOf(ch).map((v) => Math.max(...v))));
  });

  it('SpaceToBatch-2 / BatchToSpace-2 (as Transpose): output batch (oh·bw + ow)·B + b holds x[b, c, h·bh + oh, w·bw + ow]; BatchToSpace undoes it', async () => {
    const blocks = (b: Builder): Value[] => [c(b, tensorFromInt64([1, 1, 2, 3])), c(b, tensorFromInt64([0, 0, 0, 0])), c(b, tensorFromInt64([0, 0, 0, 0]))];
    const want: number[] = [];
    for (let oh = 0; oh < 2; oh++) for (let ow = 0; ow < 3; ow++) for (let w = 0; w < 2; w++) want.push(X[oh * 6 + w * 3 + ow]!);
    expectClose(await run({ op: 'SpaceToBatch', version: 'opset2', shape: [1, 1, 2, 6], extra: blocks }), want);
    const b = new Builder('ov');
    const x = b.input('x', 'f32', [1, 1, 2, 6]);
    const batched = b.op(b.graph, 'SpaceToBatch', [x, ...blocks(b)], 's', {}, { version: 'opset2' });
    b.output(b.op(b.graph, 'BatchToSpace', [batched, ...blocks(b)], 'y', {}, { version: 'opset2' }));
    const y = (await runOrt(encodeOnnx(convertModel(b.model)).bytes, { x: { dtype: 'f32', shape: [1, 1, 2, 6], data: new Uint8Array(new Float32Array(X).buffer) } }))['y']!;
    expectClose([...new Float32Array(y.data.buffer.slice(y.data.byteOffset, y.data.byteOffset + y.data.byteLength))], X);
  });

  it('SegmentMax-16 (as ScatterND max): the max of each segment\'s rows, an empty segment 0 (ZERO) or the lowest value (LOWEST)', async () => {
    const ext = (b: Builder): Value[] => [c(b, tensorFromInt64([0, 0, 2, 2])), c(b, tensorFromInt64([4], []))];
    const seg = (rows: number[]): number[] => [0, 1, 2].map((k) => Math.max(...rows.map((r) => X[r * 3 + k]!)));
    expectClose(await run({ op: 'SegmentMax', version: 'opset16', shape: [4, 3], extra: ext, attrs: { fill_mode: A.raw('ZERO') } }),
      [...seg([0, 1]), 0, 0, 0, ...seg([2, 3]), 0, 0, 0]);
    const lowest = -3.4028234663852886e38;
    expectClose(await run({ op: 'SegmentMax', version: 'opset16', shape: [4, 3], extra: ext, attrs: { fill_mode: A.raw('LOWEST') } }),
      [...seg([0, 1]), lowest, lowest, lowest, ...seg([2, 3]), lowest, lowest, lowest]);
  });

  it('refusals are coded: a run-time Roll axes, a ScatterUpdate axis, Bucketize of mixed types', () => {
    const refuse = (op: string, version: string, extra: (b: Builder) => (Value | null)[], code: string): void => {
      const b = new Builder('ov');
      const x = b.input('x', 'f32', [4]);
      b.output(b.op(b.graph, op, [x, ...extra(b)], 'y', {}, { version }));
      let err: unknown;
      try { convertModel(b.model); } catch (e) { err = e; }
      expect(err instanceof OvirError && err.diagnostics.some((d) => d.code === code), `${op}: ${String(err)}`).toBe(true);
    };
    refuse('Roll', 'opset7', (b) => [c(b, tensorFromInt64([1])), b.input('axes', 'i64', [1])], 'CONVERT_NEEDS_CONSTANT');
    refuse('ScatterUpdate', 'opset3', (b) => [c(b, tensorFromInt64([1])), c(b, tensorFromFloat32([1])), b.input('axis', 'i64', [])], 'CONVERT_NEEDS_CONSTANT');
    refuse('Bucketize', 'opset3', (b) => [c(b, tensorFromInt64([1, 2]))], 'CONVERT_OP');
  });
});
