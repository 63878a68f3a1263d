import { describe, expect, it } from 'vitest';
import { checkModels } from '../../src/equiv/check-models.js';
import type { EquivReport } from '../../src/equiv/report.js';
import { readIr } from '../../src/ir/read.js';
import { blobOf } from '../ir/blob-helpers.js';
import { netXml, type EdgeSpec, type LayerSpec } from '../ir/build.js';

/**
 * Integer tensors one form spells in another width: ONNX takes shapes and indices as i64 where
 * OpenVINO takes i32 too, so ovir's ONNX form of an IR casts an i32 shape to i64 (and folds the cast
 * of a constant), and its IR back keeps the Convert. The check pairs what is converted with what
 * the other form reads, and judges integer data both inferences know by its numbers, never at the
 * interface; what differs beyond the width is still reported.
 */
const { bin, at } = blobOf({
  two: new Int32Array([2]), three: new Int32Array([3]), zero: new Int32Array([0]), one: new Int32Array([1]), big: new Int32Array([40000]),
  axis: new Int32Array([0]), shape64: new BigInt64Array([2n, 3n]), other64: new BigInt64Array([3n, 2n]),
});
type Key = keyof typeof at;
const I32 = { precision: 'I32', dims: [1] };
const c = (id: number, name: string, key: Key, elem = 'i32', shape = '1'): LayerSpec => ({
  id, name, type: 'Const',
  data: { element_type: elem, shape, offset: String(at[key]), size: String(elem === 'i64' ? 16 : 4) },
  outputs: [elem === 'i64' ? { precision: 'I64', dims: [2] } : shape === '' ? { precision: 'I32' } : I32],
});
const concat = (id: number, name = 'shape'): LayerSpec => ({ id, name, type: 'Concat', data: { axis: '0' }, inputs: [I32, I32], outputs: [{ precision: 'I32', dims: [2] }] });
const convert = (id: number): LayerSpec => ({ id, name: 'shape/Cast', type: 'Convert', data: { destination_type: 'i64' }, inputs: [{ precision: 'I32', dims: [2] }], outputs: [{ precision: 'I64', dims: [2] }] });
const input = (id: number, dims: number[]): LayerSpec => ({ id, name: 'x', type: 'Parameter', data: { shape: dims.join(','), element_type: 'f32' }, outputs: [{ precision: 'FP32', dims, names: 'x' }] });
const out = (id: number): LayerSpec => ({ id, name: 'y', type: 'Result', inputs: [{ precision: 'FP32' }] });

/** y = Broadcast(x f32[1,3], Concat(2, 3)): the target shape i32, or converted to i64 before the Broadcast. */
function broadcast(converted: boolean): string {
  const op: LayerSpec = { id: 5, name: 'y', type: 'Broadcast', version: 'opset3', data: { mode: 'numpy' }, inputs: [{ precision: 'FP32' }, { precision: converted ? 'I64' : 'I32', dims: [2] }], outputs: [{ precision: 'FP32', names: 'y' }] };
  const edges: EdgeSpec[] = [[1, 0, 3, 0], [2, 0, 3, 1], [0, 0, 5, 0], converted ? [3, 2, 4, 0] : [3, 2, 5, 1], [5, 2, 6, 0]];
  if (converted) edges.push([4, 1, 5, 1]);
  return netXml([input(0, [1, 3]), c(1, 'two', 'two'), c(2, 'three', 'three'), concat(3), ...(converted ? [convert(4)] : []), op, out(6)], edges);
}

/**
 * y = Broadcast(x f32[1,1], Concat(2, n)): the target shape read as i32, or narrowed to i16 by a
 * Convert first (n = 3 fits i16; n = 40000 does not, and the engines wrap or saturate it).
 */
function broadcastNarrowed(narrowed: boolean, n: Key): string {
  const op: LayerSpec = { id: 5, name: 'y', type: 'Broadcast', version: 'opset3', data: { mode: 'numpy' }, inputs: [{ precision: 'FP32' }, { precision: narrowed ? 'I16' : 'I32', dims: [2] }], outputs: [{ precision: 'FP32', names: 'y' }] };
  const toI16: LayerSpec = { id: 4, name: 'shape/Cast', type: 'Convert', data: { destination_type: 'i16' }, inputs: [{ precision: 'I32', dims: [2] }], outputs: [{ precision: 'I16', dims: [2] }] };
  const edges: EdgeSpec[] = [[1, 0, 3, 0], [2, 0, 3, 1], [0, 0, 5, 0], narrowed ? [3, 2, 4, 0] : [3, 2, 5, 1], [5, 2, 6, 0]];
  if (narrowed) edges.push([4, 1, 5, 1]);
  return netXml([input(0, [1, 1]), c(1, 'two', 'two'), c(2, 'n', n), concat(3), ...(narrowed ? [toI16] : []), op, out(6)], edges);
}

/** y = Gather(x f32[5], indices, axis 0), the indices Concat(a, b) of i32 constants: as they are, or converted to i64. */
function gather(converted: boolean, first: Key, second: Key): string {
  const op: LayerSpec = { id: 5, name: 'y', type: 'Gather', version: 'opset8', data: { batch_dims: '0' }, inputs: [{ precision: 'FP32' }, { precision: converted ? 'I64' : 'I32', dims: [2] }, { precision: 'I32' }], outputs: [{ precision: 'FP32', names: 'y' }] };
  const edges: EdgeSpec[] = [[1, 0, 3, 0], [2, 0, 3, 1], [0, 0, 5, 0], converted ? [3, 2, 4, 0] : [3, 2, 5, 1], [7, 0, 5, 2], [5, 3, 6, 0]];
  if (converted) edges.push([4, 1, 5, 1]);
  // the constants take other layer names in B: they pair through the data flow only
  const names = converted ? ['k1', 'k2'] : ['c1', 'c2'];
  return netXml([input(0, [5]), c(1, names[0]!, first), c(2, names[1]!, second), concat(3, 'indices'), ...(converted ? [convert(4)] : []), c(7, 'axis', 'axis', 'i32', ''), op, out(6)], edges);
}

/** y = Reshape(x f32[6], shape): the shape Concat(2, 3) in i32, or an i64 constant (as a folded cast writes it). */
function reshape(shape: 'concat' | Key): string {
  const folded = shape !== 'concat';
  const op: LayerSpec = { id: 5, name: 'y', type: 'Reshape', data: { special_zero: 'false' }, inputs: [{ precision: 'FP32' }, { precision: folded ? 'I64' : 'I32', dims: [2] }], outputs: [{ precision: 'FP32', names: 'y' }] };
  const layers = folded ? [input(0, [6]), c(3, 'shape', shape, 'i64', '2'), op, out(6)] : [input(0, [6]), c(1, 'two', 'two'), c(2, 'three', 'three'), concat(3), op, out(6)];
  const edges: EdgeSpec[] = folded ? [[0, 0, 5, 0], [3, 0, 5, 1], [5, 2, 6, 0]] : [[1, 0, 3, 0], [2, 0, 3, 1], [0, 0, 5, 0], [3, 2, 5, 1], [5, 2, 6, 0]];
  return netXml(layers, edges);
}

const check = (a: string, b: string): EquivReport => checkModels(readIr(a, bin), readIr(b, bin));
const contradictions = (r: EquivReport) => r.entries.filter((e) => e.status === 'contradiction').map((e) => `${e.pathA} ~ ${e.pathB}: ${e.detail}`);

describe('ovir check: integer tensors stored in another width in the other form', () => {
  it('a shape one form converts to i64 before the op and the other reads as i32: the Concat pairs with what is converted, not with the Convert; equivalent', () => {
    const r = check(broadcast(false), broadcast(true));
    expect(contradictions(r)).toEqual([]);
    expect(r.ok).toBe(true);
    expect(r.entries.find((e) => e.pathA === 'main/shape:0')).toMatchObject({ pathB: 'main/shape:0', status: 'equal', via: 'dataflow' });
    expect(r.entries.filter((e) => e.pathB === 'main/shape/Cast:0')).toEqual([]);
  });

  it('what is read beyond such a Convert is still compared: indices built of other constants are EQUIV_CONST_PAYLOAD', () => {
    expect(check(gather(false, 'zero', 'one'), gather(true, 'zero', 'one')).ok).toBe(true);
    const r = check(gather(false, 'zero', 'one'), gather(true, 'one', 'zero'));
    expect(r.ok).toBe(false);
    expect(r.diagnostics.filter((d) => d.code === 'EQUIV_CONST_PAYLOAD').map((d) => d.where)).toEqual(['main/c1', 'main/c2']);
  });

  it('integer data both forms know in full is judged by its numbers: a computed i32 shape [2,3] against an i64 constant [2,3] is compatible', () => {
    const r = check(reshape('concat'), reshape('shape64'));
    expect(contradictions(r)).toEqual([]);
    expect(r.ok).toBe(true);
    expect(r.entries.find((e) => e.pathA === 'main/shape:0')).toMatchObject({ pathB: 'main/shape', status: 'compatible', detail: expect.stringContaining('integer data: judged by its numbers, which agree, 2,3') });
  });

  it('… other numbers are still a contradiction, at the shape and at the output', () => {
    const r = check(reshape('concat'), reshape('other64'));
    expect(r.ok).toBe(false);
    expect(contradictions(r)).toEqual(expect.arrayContaining([
      expect.stringMatching(/^main\/y:0 ~ main\/y:0: /),
      expect.stringMatching(/^main\/shape:0 ~ main\/shape: element type i32 vs i64/),
    ]));
  });

  it('a narrowing Convert is not looked through: its numbers are compared instead (equal when they fit i16, a contradiction when one does not)', () => {
    const fits = check(broadcastNarrowed(false, 'three'), broadcastNarrowed(true, 'three'));
    expect(contradictions(fits)).toEqual([]);
    expect(fits.entries.find((e) => e.pathA === 'main/shape:0')).toMatchObject({ pathB: 'main/shape/Cast:0', status: 'compatible' });
    const wraps = check(broadcastNarrowed(false, 'big'), broadcastNarrowed(true, 'big'));
    expect(wraps.ok).toBe(false);
    expect(contradictions(wraps)).toEqual(expect.arrayContaining([expect.stringMatching(/^main\/shape:0 ~ main\/shape\/Cast:0: element type i32 vs i16/)]));
  });
});
