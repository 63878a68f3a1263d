import { describe, expect, it } from 'vitest';
import { readIr } from '../../src/ir/read.js';
import { writeIr } from '../../src/ir/write.js';
import { irByteSize } from '../../src/ir/blob.js';
import { ELEMENT_TYPES, Model, irHas, makeStringTensor, makeTensor, type ElementTypeName, type Tensor } from '../../src/graph/index.js';
import { codesOf, netXml, result, type LayerSpec } from './build.js';

const concat = (chunks: Uint8Array[]): Uint8Array => new Uint8Array(Buffer.concat(chunks));

/** A model whose only output is a Const holding `t`. */
function constModel(t: Tensor): Model {
  const m = new Model('ov');
  const v = m.graph.addInitializer(t, ['c']);
  v.meta['layerName'] = 'c';
  m.graph.outputs.push(v);
  return m;
}

function roundTrip(m: Model): { model: Model; xml: string; bin: Uint8Array } {
  const { xml, bin } = writeIr(m);
  const b = concat(bin);
  return { model: readIr(xml, b), xml, bin: b };
}

const pattern = (n: number): Uint8Array => Uint8Array.from({ length: n }, (_, i) => (i * 37 + 11) & 0xff);
const IR_TYPES = ELEMENT_TYPES.filter((t) => irHas(t.name) && t.name !== 'string').map((t) => t.name);

describe('Const payloads: every IR element type', () => {
  it.each(IR_TYPES)('%s round-trips byte for byte, as a view into the .bin', (elem) => {
    const dims = [3, 5];
    const t = makeTensor(elem, dims, pattern(irByteSize(elem, 15)));
    const { model, bin, xml } = roundTrip(constModel(t));
    const back = model.graph.initializers[0]!.constant!;
    expect(back.elem).toBe(elem);
    expect(back.dims).toEqual(dims);
    expect([...back.data]).toEqual([...t.data]);
    expect(back.data.buffer).toBe(bin.buffer);
    expect(xml).toContain(`element_type="${elem}" shape="3, 5" offset="0" size="${t.data.byteLength}"`);
  });

  // Bytes OpenVINO allocates for n elements (measured with openvino 2026.4: ov.Tensor(type, [n]).byte_size).
  it.each<[ElementTypeName, number[]]>([
    ['u1', [1, 1, 1, 1, 1, 1, 1, 2, 2]],
    ['u2', [1, 1, 1, 1, 2, 2, 2, 3, 4]],
    ['u3', [3, 3, 3, 3, 3, 3, 3, 6, 6]],
    ['u4', [1, 1, 2, 2, 3, 4, 4, 5, 8]],
    ['i4', [1, 1, 2, 2, 3, 4, 4, 5, 8]],
    ['nf4', [1, 1, 2, 2, 3, 4, 4, 5, 8]],
    ['f4e2m1', [1, 1, 2, 2, 3, 4, 4, 5, 8]],
    ['u6', [3, 3, 3, 3, 6, 6, 6, 9, 12]],
  ])('packed %s: the size a Const needs for 1,2,3,4,5,7,8,9,16 elements', (elem, sizes) => {
    expect([1, 2, 3, 4, 5, 7, 8, 9, 16].map((n) => irByteSize(elem, n))).toEqual(sizes);
  });

  it.each<[ElementTypeName, number]>([['u1', 9], ['u2', 5], ['u4', 3], ['i4', 3], ['u3', 9], ['boolean', 4], ['f32', 2]])(
    '%s × %i: a size one byte short of the need is refused', (elem, n) => {
      const need = irByteSize(elem, n);
      const xml = (size: number) => netXml([constLayer(elem, String(n), 0, size), result(1)], [[0, 0, 1, 0]]);
      expect(readIr(xml(need), new Uint8Array(need)).graph.initializers[0]!.constant!.data.byteLength).toBe(need);
      expect(codesOf(() => readIr(xml(need - 1), new Uint8Array(need)))).toEqual(['IR_BLOB_TOO_SMALL']);
    });

  it('strings: int32 header [N, 0, end_0 … end_N-1] then the bytes, as OpenVINO writes them', () => {
    const enc = new TextEncoder();
    const strs = ['ab', '', 'xyz'].map((s) => enc.encode(s));
    const { model, bin, xml } = roundTrip(constModel(makeStringTensor([3], strs)));
    const header = new Int32Array(bin.slice(0, 20).buffer);
    expect([...header]).toEqual([3, 0, 2, 2, 5]);
    expect(new TextDecoder().decode(bin.subarray(20))).toBe('abxyz');
    expect(xml).toContain('element_type="string" shape="3" offset="0" size="25"');
    const back = model.graph.initializers[0]!.constant!;
    expect(back.strings!.map((s) => new TextDecoder().decode(s))).toEqual(['ab', '', 'xyz']);
  });

  it('strings: a header that disagrees with the shape or runs past the data is refused', () => {
    const { bin } = roundTrip(constModel(makeStringTensor([2], [new Uint8Array([65]), new Uint8Array([66])])));
    const xml = (shape: string, size: number) => netXml([constLayer('string', shape, 0, size), result(1)], [[0, 0, 1, 0]]);
    expect(readIr(xml('2', bin.byteLength), bin).graph.initializers).toHaveLength(1);
    expect(codesOf(() => readIr(xml('3', bin.byteLength), bin))).toEqual(['IR_STRING_BLOB']);
    expect(codesOf(() => readIr(xml('2', bin.byteLength - 1), bin))).toEqual(['IR_STRING_BLOB']);
  });

  it('empty tensors are one zero byte (size="1", as OpenVINO writes them) and read back empty', () => {
    const { xml, model } = roundTrip(constModel(makeTensor('f32', [0, 3], new Uint8Array(0))));
    expect(xml).toContain('shape="0, 3" offset="0" size="1"');
    expect(model.graph.initializers[0]!.constant!.data.byteLength).toBe(0);
    expect(model.graph.initializers[0]!.constant!.dims).toEqual([0, 3]);
  });
});

function constLayer(elem: string, shape: string, offset: number, size: number, id = 0): LayerSpec {
  return { id, name: `c${id}`, type: 'Const', data: { element_type: elem, shape, offset: String(offset), size: String(size) }, outputs: [{ precision: 'FP32' }] };
}

describe('Const bounds', () => {
  const net = (...consts: LayerSpec[]) => netXml([...consts, ...consts.map((c) => result(c.id + 10))], consts.map((c) => [c.id, 0, c.id + 10, 0]));

  it('offset past the end, offset+size past the end, size too small: each reported, all at once', () => {
    const bin = new Uint8Array(16);
    const d = codesOf(() => readIr(net(constLayer('f32', '2', 20, 8, 0), constLayer('f32', '2', 12, 8, 1), constLayer('f32', '4', 0, 8, 2), constLayer('f32', '4', 0, 16, 3)), bin));
    expect(d).toEqual(['IR_BLOB_BOUNDS', 'IR_BLOB_BOUNDS', 'IR_BLOB_TOO_SMALL']);
  });

  it('a Const without a .bin', () => {
    expect(codesOf(() => readIr(net(constLayer('f32', '2', 0, 8)), null))).toEqual(['IR_BIN_MISSING']);
  });

  it('bad Const attributes', () => {
    const bin = new Uint8Array(16);
    expect(codesOf(() => readIr(net(constLayer('FP32', '2', 0, 8)), bin))).toEqual(['IR_ATTR_BAD']);
    expect(codesOf(() => readIr(net(constLayer('f32', '?', 0, 8)), bin))).toEqual(['IR_ATTR_BAD']);
  });

  it('two Consts may share one blob; each stays its own value', () => {
    const m = readIr(net(constLayer('f32', '2', 0, 8, 0), constLayer('i32', '2', 0, 8, 1)), new Uint8Array(8));
    expect(m.graph.initializers.map((v) => v.constant!.elem)).toEqual(['f32', 'i32']);
    expect(m.graph.initializers[0]!.constant!.data.byteOffset).toBe(m.graph.initializers[1]!.constant!.data.byteOffset);
  });
});
