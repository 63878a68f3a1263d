import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OvirError } from '../../src/diag/diagnostic.js';
import { decodeOnnx } from '../../src/onnx/decode.js';
import { encodeOnnx } from '../../src/onnx/encode.js';
import { readOnnxFile, writeOnnxFile } from '../../src/onnx/file.js';
import type { ModelProto } from '../../src/onnx/proto-types.js';
import { T } from '../../src/onnx/schema.js';
import { decodeMessage } from '../../src/onnx/wire.js';
import * as ob from '../helpers/onnx-builder.js';

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'ovir-onnx-ext-'));
  dirs.push(d);
  return d;
};
afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

const f32 = (...v: number[]) => new Uint8Array(new Float32Array(v).buffer);
const floats = (d: Uint8Array) => [...new Float32Array(new Uint8Array(d).buffer)];

/** A model whose initializers are the given tensors, each summed into the output. */
function modelBytes(inits: ob.TensorProto[]): Uint8Array {
  return ob.encodeModelProto(ob.model({
    graph: ob.graph({
      inputs: [ob.valueInfo('x', 'f32', [3])],
      outputs: inits.map((t) => ob.valueInfo(`y_${t.name}`, 'f32', [3])),
      initializers: inits,
      nodes: inits.map((t) => ob.node('Add', ['x', t.name!], [`y_${t.name}`])),
    }),
  }));
}

function diagnostics(fn: () => unknown) {
  try { fn(); } catch (e) { expect(e).toBeInstanceOf(OvirError); return (e as OvirError).diagnostics; }
  throw new Error('expected an OvirError');
}

describe('external data: reading', () => {
  it('reads tensors at offset/length of files in the model folder (and below) as views of that file', () => {
    const dir = tempDir();
    const blob = new Uint8Array(64);
    blob.set(f32(1, 2, 3), 16);
    writeFileSync(join(dir, 'weights.bin'), blob);
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub', 'w.bin'), f32(4, 5, 6));
    writeFileSync(join(dir, 'model.onnx'), modelBytes([
      ob.externalTensor('a', 'f32', [3], 'weights.bin', 16, 12),
      ob.externalTensor('b', 'f32', [3], 'sub/w.bin'),
      ob.externalTensor('a0', 'f32', [2], 'weights.bin', 0, 8),
    ]));
    const m = readOnnxFile(join(dir, 'model.onnx'));
    const [a, b, a0] = m.graph.initializers;
    expect(floats(a!.constant!.data)).toEqual([1, 2, 3]);
    expect(floats(b!.constant!.data)).toEqual([4, 5, 6]);
    // one read per file: both tensors are views of the same buffer, 16 bytes apart
    expect(a!.constant!.data.buffer).toBe(a0!.constant!.data.buffer);
    expect(a!.constant!.data.byteOffset - a0!.constant!.data.byteOffset).toBe(16);
  });

  it('refuses absolute paths, .., symlinks leaving the folder, bad ranges and missing files — all reported together', () => {
    const outside = tempDir();
    writeFileSync(join(outside, 'secret.bin'), f32(9, 9, 9));
    const dir = tempDir();
    writeFileSync(join(dir, 'ok.bin'), f32(1, 2, 3));
    symlinkSync(join(outside, 'secret.bin'), join(dir, 'escape.bin'));
    symlinkSync(join(dir, 'ok.bin'), join(dir, 'inside.bin'));
    writeFileSync(join(dir, 'model.onnx'), modelBytes([
      ob.externalTensor('abs', 'f32', [3], join(outside, 'secret.bin')),
      ob.externalTensor('up', 'f32', [3], '../secret.bin'),
      ob.externalTensor('link', 'f32', [3], 'escape.bin'),
      ob.externalTensor('range', 'f32', [3], 'ok.bin', 4, 12),
      ob.externalTensor('short', 'f32', [3], 'ok.bin', 0, 8),
      ob.externalTensor('gone', 'f32', [3], 'missing.bin'),
      ob.externalTensor('fine', 'f32', [3], 'inside.bin'),
    ]));
    const ds = diagnostics(() => readOnnxFile(join(dir, 'model.onnx')));
    const by = (name: string) => ds.filter((d) => d.message.includes(`'${name}'`));
    expect(by('abs')).toEqual([expect.objectContaining({ code: 'ONNX_EXTERNAL_PATH', message: expect.stringContaining('absolute') })]);
    expect(by('up')).toEqual([expect.objectContaining({ code: 'ONNX_EXTERNAL_PATH', message: expect.stringContaining("'..'") })]);
    expect(by('link')).toEqual([expect.objectContaining({ code: 'ONNX_EXTERNAL_PATH', message: expect.stringContaining('outside the model folder') })]);
    expect(by('range')).toEqual([expect.objectContaining({ code: 'ONNX_EXTERNAL_RANGE', message: expect.stringContaining('past the end') })]);
    expect(by('short')).toEqual([expect.objectContaining({ code: 'ONNX_EXTERNAL_RANGE', message: expect.stringContaining('does not match') })]);
    expect(by('gone')).toEqual([expect.objectContaining({ code: 'ONNX_EXTERNAL_READ', message: expect.stringContaining('no such file') })]);
    expect(by('fine')).toEqual([]);
    expect(ds).toHaveLength(6);
    for (const d of ds) {
      expect(d.file).toBe(join(dir, 'model.onnx'));
      expect(d.where).toBe('main');
    }
  });

  it('bytes decoded without a baseDir cannot resolve external data', () => {
    const ds = diagnostics(() => decodeOnnx(modelBytes([ob.externalTensor('a', 'f32', [3], 'w.bin')])));
    expect(ds).toEqual([expect.objectContaining({ code: 'ONNX_EXTERNAL_PATH', message: expect.stringContaining('no baseDir') })]);
  });
});

describe('external data: writing', () => {
  it('writes tensors at or above the threshold to the external file, small ones inline, and reads them back', () => {
    const dir = tempDir();
    const big = new Float32Array(300).map((_, i) => i * 0.5);
    const src = tempDir();
    writeFileSync(join(src, 'm.onnx'), modelBytes([ob.rawTensor('big', 'f32', [300], new Uint8Array(big.buffer)), ob.rawTensor('small', 'f32', [3], f32(7, 8, 9))]));
    // shapes differ from x; the codec does not care
    const model = readOnnxFile(join(src, 'm.onnx'));
    writeOnnxFile(model, join(dir, 'out.onnx'), { externalData: { location: 'out.weights', threshold: 100 } });
    expect(readdirSync(dir).sort()).toEqual(['out.onnx', 'out.weights']);
    const mp = decodeMessage<ModelProto>(T.ModelProto, readFileSync(join(dir, 'out.onnx')));
    const [bigP, smallP] = mp.graph!.initializer!;
    expect(bigP!.data_location).toBe(1);
    expect(Object.fromEntries(bigP!.external_data!.map((e) => [e.key, e.value]))).toEqual({ location: 'out.weights', offset: '0', length: '1200' });
    expect(smallP!.raw_data!.byteLength).toBe(12);
    const back = readOnnxFile(join(dir, 'out.onnx'));
    expect([...back.graph.initializers[0]!.constant!.data]).toEqual([...new Uint8Array(big.buffer)]);
    expect([...back.graph.initializers[1]!.constant!.data]).toEqual([...f32(7, 8, 9)]);
  });

  it('encodeOnnx returns the external file for the caller to write; offsets are aligned', () => {
    const m = decodeOnnx(modelBytes([ob.rawTensor('a', 'u8', [5], new Uint8Array(5).fill(1)), ob.rawTensor('b', 'u8', [7], new Uint8Array(7).fill(2))]));
    const { bytes, external } = encodeOnnx(m, { externalData: { location: 'd.bin', threshold: 0 } });
    expect(external).toHaveLength(1);
    expect(external[0]!.path).toBe('d.bin');
    const mp = decodeMessage<ModelProto>(T.ModelProto, bytes);
    const offsets = mp.graph!.initializer!.map((t) => Number(t.external_data!.find((e) => e.key === 'offset')!.value));
    expect(offsets).toEqual([0, 64]);
  });

  it.each(['/abs/w.bin', '../w.bin', 'sub/../../w.bin', ''])('refuses to write external data to %j', (location) => {
    const m = decodeOnnx(modelBytes([ob.rawTensor('a', 'u8', [5], new Uint8Array(5))]));
    const ds = diagnostics(() => encodeOnnx(m, { externalData: { location } }));
    expect(ds).toEqual([expect.objectContaining({ code: 'ONNX_ENCODE', message: expect.stringContaining('relative path inside the model folder') })]);
  });

  it('a failed write leaves nothing behind', () => {
    const dir = tempDir();
    const m = decodeOnnx(modelBytes([]));
    writeFileSync(join(dir, 'blocker'), 'x');
    const ds = diagnostics(() => writeOnnxFile(m, join(dir, 'blocker', 'm.onnx')));
    expect(ds[0]!.code).toBe('FILE_WRITE_FAILED');
    expect(existsSync(join(dir, 'blocker', 'm.onnx'))).toBe(false);
  });
});

describe('reading files: failures are diagnostics with the file set', () => {
  it.each([
    ['a missing file', (d: string) => join(d, 'nope.onnx'), 'FILE_NOT_FOUND'],
    ['a folder', (d: string) => d, 'FILE_NOT_FOUND'],
    ['bad protobuf', (d: string) => { writeFileSync(join(d, 'bad.onnx'), Uint8Array.from([0x3a, 0x05, 0x01])); return join(d, 'bad.onnx'); }, 'ONNX_BAD_PROTOBUF'],
    ['a protobuf without a graph', (d: string) => { writeFileSync(join(d, 'empty.onnx'), new Uint8Array(0)); return join(d, 'empty.onnx'); }, 'ONNX_NO_GRAPH'],
  ])('%s', (_what, make, code) => {
    const path = make(tempDir());
    const ds = diagnostics(() => readOnnxFile(path));
    expect(ds).toEqual([expect.objectContaining({ code, file: path })]);
    expect(ds[0]!.message).not.toMatch(/\n\s+at /);
  });
});
