import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import { comparePayloads } from '../../src/equiv/payload.js';
import { LAZY_FILE_BYTES, LAZY_TENSOR_BYTES, onDemand } from '../../src/fs/sparse-file.js';
import type { Model } from '../../src/graph/model.js';
import { rawData, type Tensor } from '../../src/graph/tensor.js';
import { readIrFile, writeIrFile } from '../../src/ir/file.js';
import { readIr } from '../../src/ir/read.js';
import { writeIr } from '../../src/ir/write.js';
import { decodeOnnx } from '../../src/onnx/decode.js';
import { encodeOnnx } from '../../src/onnx/encode.js';
import { readOnnxFile, writeOnnxFile } from '../../src/onnx/file.js';
import * as ob from '../helpers/onnx-builder.js';

// Files of LAZY_FILE_BYTES or more are read on demand: their tensors of LAZY_TENSOR_BYTES or more
// are read when something reads them, and the writers copy them from the file. What is written
// must be exactly what reading the whole file gives.

const dir = mkdtempSync(join(tmpdir(), 'ovir-sparse-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const N = LAZY_TENSOR_BYTES / 4; // floats per big weight
const WEIGHTS = Math.ceil(LAZY_FILE_BYTES / LAZY_TENSOR_BYTES) + 1;

/** Weight k: distinct values; w_dup equals w0; w_mid differs from w0 only away from the bytes the .bin dedup samples. */
function weights(): { name: string; data: Float32Array }[] {
  const out: { name: string; data: Float32Array }[] = [];
  for (let k = 0; k < WEIGHTS; k++) out.push({ name: `w${k}`, data: Float32Array.from({ length: N }, (_, i) => k * 1000 + (i % 997) / 7) });
  out.push({ name: 'w_dup', data: out[0]!.data.slice() });
  const mid = out[0]!.data.slice();
  mid[N >> 2] = -1;
  out.push({ name: 'w_mid', data: mid });
  out.push({ name: 'small', data: Float32Array.from({ length: N / 16 }, (_, i) => i) });
  return out;
}

const onnxPath = join(dir, 'model.onnx');
beforeAll(() => {
  const ws = weights();
  writeFileSync(onnxPath, ob.encodeModelProto(ob.model({
    graph: ob.graph({
      inputs: [ob.valueInfo('x', 'f32', [1, N])],
      outputs: ws.map((w) => ob.valueInfo(`y_${w.name}`, 'f32', [1, w.data.length])),
      initializers: ws.map((w) => ob.rawTensor(w.name, 'f32', [1, w.data.length], new Uint8Array(w.data.buffer))),
      nodes: ws.map((w) => (w.data.length === N ? ob.node('Add', ['x', w.name], [`y_${w.name}`]) : ob.node('Relu', [w.name], [`y_${w.name}`]))),
    }),
  })));
  expect(readFileSync(onnxPath).byteLength).toBeGreaterThanOrEqual(LAZY_FILE_BYTES);
});

const tensors = (m: Model): Tensor[] => m.graph.initializers.map((v) => v.constant!);
const unread = (t: Tensor): boolean => {
  const view = rawData(t);
  const f = onDemand(view);
  return f !== undefined && !f.isFilled(view.byteOffset, view.byteOffset + view.byteLength);
};
const bytesOf = (path: string) => readFileSync(path);

describe('big files: weights read on demand', () => {
  it('an .onnx file: big initializers stay in the file until read; what is written is what a whole read gives', () => {
    const lazy = readOnnxFile(onnxPath);
    const whole = decodeOnnx(readFileSync(onnxPath));
    const big = tensors(lazy).filter((t) => rawData(t).byteLength >= LAZY_TENSOR_BYTES);
    expect(big.length).toBe(WEIGHTS + 2);
    expect(big.every(unread)).toBe(true);
    expect(tensors(lazy).find((t) => rawData(t).byteLength < LAZY_TENSOR_BYTES)!.data.byteLength).toBe(N / 4);

    writeIrFile(convertModel(lazy), join(dir, 'lazy/m.xml'));
    writeIrFile(convertModel(whole), join(dir, 'whole/m.xml'));
    expect(bytesOf(join(dir, 'lazy/m.xml')).equals(bytesOf(join(dir, 'whole/m.xml')))).toBe(true);
    expect(bytesOf(join(dir, 'lazy/m.bin')).equals(bytesOf(join(dir, 'whole/m.bin')))).toBe(true);
    // w_dup is stored once; w_mid, alike where sampled, is not taken for w0
    expect(bytesOf(join(dir, 'whole/m.bin')).byteLength).toBe((WEIGHTS + 1) * LAZY_TENSOR_BYTES + LAZY_TENSOR_BYTES / 16);
    // the writer copied them from the file: they are still unread here (only the sampled pages and w0/w_mid, compared)
    expect(big.filter(unread).length).toBeGreaterThanOrEqual(WEIGHTS - 1);

    // in memory, the bytes are read
    expect(Buffer.from(encodeOnnx(lazy).bytes).equals(Buffer.from(encodeOnnx(whole).bytes))).toBe(true);
    const inMemory = (m: Model) => Buffer.concat(writeIr(convertModel(m)).bin);
    expect(inMemory(readOnnxFile(onnxPath)).equals(inMemory(whole))).toBe(true);
    // reading data reads it
    const t = big[0]!;
    expect(new DataView(t.data.buffer, t.data.byteOffset).getFloat32(4, true)).toBeCloseTo(1 / 7, 5);
    expect(unread(t)).toBe(false);
  });

  it('an IR .bin: big Consts stay in the .bin until read; the ONNX written is what a whole read gives', () => {
    const xml = join(dir, 'lazy/m.xml');
    const lazy = readIrFile(xml);
    const whole = readIr(readFileSync(xml), readFileSync(join(dir, 'lazy/m.bin')), { file: xml });
    const big = tensors(lazy).filter((t) => rawData(t).byteLength >= LAZY_TENSOR_BYTES);
    expect(big.length).toBe(WEIGHTS + 2); // (w_dup's Const reads w0's bytes of the .bin)
    expect(big.every(unread)).toBe(true);
    writeOnnxFile(convertModel(lazy), join(dir, 'back/lazy.onnx'));
    writeOnnxFile(convertModel(whole), join(dir, 'back/whole.onnx'));
    expect(bytesOf(join(dir, 'back/lazy.onnx')).equals(bytesOf(join(dir, 'back/whole.onnx')))).toBe(true);
  });

  it('external data: written from unread weights, and a big data file read on demand', () => {
    const ext = { externalData: { location: 'weights.data' } };
    writeOnnxFile(readOnnxFile(onnxPath), join(dir, 'ext-lazy/m.onnx'), ext);
    writeOnnxFile(decodeOnnx(readFileSync(onnxPath)), join(dir, 'ext-whole/m.onnx'), ext);
    for (const f of ['m.onnx', 'weights.data']) expect(bytesOf(join(dir, 'ext-lazy', f)).equals(bytesOf(join(dir, 'ext-whole', f)))).toBe(true);
    const lazy = readOnnxFile(join(dir, 'ext-lazy/m.onnx'));
    const big = tensors(lazy).filter((t) => rawData(t).byteLength >= LAZY_TENSOR_BYTES);
    expect(big.length).toBe(WEIGHTS + 2);
    expect(big.every(unread)).toBe(true);
    writeIrFile(convertModel(lazy), join(dir, 'ext-ir/m.xml'));
    expect(bytesOf(join(dir, 'ext-ir/m.bin')).equals(bytesOf(join(dir, 'whole/m.bin')))).toBe(true);
  });

  it('--compress-to-fp16 reads weights piece by piece from the file: they stay unread, the f16 IR is the same', () => {
    const lazy = readOnnxFile(onnxPath);
    writeIrFile(convertModel(lazy, { compressToFp16: true }), join(dir, 'fp16-lazy/m.xml'));
    writeIrFile(convertModel(decodeOnnx(readFileSync(onnxPath)), { compressToFp16: true }), join(dir, 'fp16-whole/m.xml'));
    for (const f of ['m.xml', 'm.bin']) expect(bytesOf(join(dir, 'fp16-lazy', f)).equals(bytesOf(join(dir, 'fp16-whole', f)))).toBe(true);
    expect(tensors(lazy).filter((t) => rawData(t).byteLength >= LAZY_TENSOR_BYTES).every(unread)).toBe(true);
    // the f16 forms are not held either: computed from the file when written (DerivedBytes)
    const converted = convertModel(readOnnxFile(onnxPath), { compressToFp16: true });
    const halves = tensors(converted).filter((t) => t.elem === 'f16' && rawData(t).byteLength >= LAZY_TENSOR_BYTES / 2);
    expect(halves.length).toBe(WEIGHTS + 2);
    expect(halves.every(unread)).toBe(true);
    writeIrFile(converted, join(dir, 'fp16-again/m.xml'));
    expect(bytesOf(join(dir, 'fp16-again/m.bin')).equals(bytesOf(join(dir, 'fp16-whole/m.bin')))).toBe(true);
    expect(halves.filter(unread).length).toBeGreaterThanOrEqual(WEIGHTS - 1); // (only sampled bytes, and w0/w_mid compared)
    // and read in memory when something reads them
    expect(Buffer.concat(writeIr(converted).bin).equals(bytesOf(join(dir, 'fp16-whole/m.bin')))).toBe(true);
    // check: each f32 weight against its f16 Const, decided piece by piece (the f32 side stays unread)
    const ir = readIrFile(join(dir, 'fp16-lazy/m.xml'));
    const f16 = ir.graph.initializers.find((v) => v.constant?.elem === 'f16' && rawData(v.constant).byteLength === LAZY_TENSOR_BYTES / 2)!.constant!;
    const w = tensors(lazy).find((t) => rawData(t).byteLength === LAZY_TENSOR_BYTES && comparePayloads({ tensor: t, kept: 'f32' }, { tensor: f16, kept: 'f16' }) === null);
    expect(w).toBeDefined();
    expect(unread(w!)).toBe(true);
  });

  it('check compares unread weights as their files hold them, without reading them into memory', () => {
    const onnx = readOnnxFile(onnxPath);
    const ir = readIrFile(join(dir, 'lazy/m.xml'));
    const w0 = (m: Model) => m.graph.initializers.find((v) => v.names.includes('w0'))!.constant!;
    const mid = (m: Model) => m.graph.initializers.find((v) => v.names.includes('w_mid'))!.constant!;
    expect(comparePayloads({ tensor: w0(onnx), kept: 'f32' }, { tensor: w0(ir), kept: 'f32' })).toBeNull();
    expect(unread(w0(onnx)) && unread(w0(ir))).toBe(true);
    // different bytes: compared as numbers (then read)
    expect(comparePayloads({ tensor: w0(onnx), kept: 'f32' }, { tensor: mid(ir), kept: 'f32' })).toMatch(/^1 of \d+ elements differ/);
  });

  it.each([
    ['as they are', 'changed', {}],
    ['--compress-to-fp16 (the f16 weights are computed from the file when written)', 'changed16', { compressToFp16: true }],
  ] as const)('a file changed while its weights are unread, converted %s: FILE_CHANGED naming it, and nothing is written', (_, name, opts) => {
    const copy = join(dir, `${name}.onnx`);
    writeFileSync(copy, readFileSync(onnxPath));
    const m = convertModel(readOnnxFile(copy), opts);
    writeFileSync(copy, Buffer.alloc(1024));
    const out = join(dir, `${name}/m.xml`);
    let err: unknown;
    try {
      writeIrFile(m, out);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(OvirError);
    const d = (err as OvirError).diagnostics[0]!;
    expect(d.code).toBe('FILE_CHANGED');
    expect(d.file).toBe(copy);
    expect(existsSync(out) || existsSync(join(dir, `${name}/m.bin`))).toBe(false);
  });

  it('a raw_data the decoder does not take as a view (written twice: the last counts) makes the file read whole', () => {
    // ModelProto bytes by hand: one initializer w whose TensorProto holds raw_data twice
    const varint = (v: number): number[] => { const o: number[] = []; while (v >= 0x80) { o.push((v % 0x80) | 0x80); v = Math.floor(v / 0x80); } o.push(v); return o; };
    const len = (field: number, body: Uint8Array): Uint8Array => Buffer.concat([Buffer.from([...varint(field * 8 + 2), ...varint(body.length)]), body]);
    const num = (field: number, v: number): Uint8Array => Buffer.from([...varint(field * 8), ...varint(v)]);
    const text = (field: number, t: string): Uint8Array => len(field, Buffer.from(t));
    const n = LAZY_FILE_BYTES / 8; // floats per raw_data: the two make the file big
    const first = Buffer.alloc(n * 4, 0x11);
    const last = Buffer.from(Float32Array.from({ length: n }, (_, i) => i % 251).buffer);
    const f32 = (dims: number[]) => len(2, len(1, Buffer.concat([num(1, 1), len(2, Buffer.concat(dims.map((d) => len(1, num(1, d)))))])));
    const info = (name: string) => Buffer.concat([text(1, name), f32([n])]);
    const graph = Buffer.concat([
      len(1, Buffer.concat([text(1, 'x'), text(1, 'w'), text(2, 'y'), text(4, 'Add')])),
      text(2, 'g'),
      len(5, Buffer.concat([num(1, n), num(2, 1), text(8, 'w'), len(9, first), len(9, last)])),
      len(11, info('x')),
      len(12, info('y')),
    ]);
    const path = join(dir, 'twice.onnx');
    writeFileSync(path, Buffer.concat([num(1, 8), len(8, num(2, 13)), len(7, graph)]));
    const w = readOnnxFile(path).graph.initializers[0]!.constant!;
    expect(onDemand(rawData(w))).toBeUndefined(); // read whole, not on demand
    expect(Buffer.from(w.data).equals(last)).toBe(true);
  });

  it('a big file that is not the protobuf the walk expects is read whole, and refused as before', () => {
    const bad = join(dir, 'bad.onnx');
    writeFileSync(bad, Buffer.alloc(LAZY_FILE_BYTES, 0xff));
    let err: unknown;
    try {
      readOnnxFile(bad);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(OvirError);
    expect((err as OvirError).diagnostics[0]!.code).toBe('ONNX_BAD_PROTOBUF');
  });
});
