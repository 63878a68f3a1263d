import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import type { Model } from '../../src/graph/model.js';
import { readIrFile } from '../../src/ir/file.js';
import { encodeOnnx, encodeOnnxChunks, type EncodeOptions } from '../../src/onnx/encode.js';
import { readOnnxFile } from '../../src/onnx/file.js';
import { encodeOnnxChunksReference, encodeOnnxReference } from '../helpers/onnx-encode-reference.js';
import { backendCases, onnxFiles } from '../helpers/testdata.js';
import { hugeIdentityModel } from './huge-model.js';

/**
 * The ONNX encoder writes bytes straight from the graph (src/onnx/proto-writer.ts). It must give
 * exactly the bytes of the encoder it replaced, which built ModelProto objects for protobufjs
 * (kept as test/helpers/onnx-encode-reference.ts): same bytes, same external data, same refusals.
 */
const here = new URL('.', import.meta.url).pathname;
const root = join(here, '..', '..');
const concat = (chunks: readonly Uint8Array[] | Uint8Array | string): Buffer =>
  typeof chunks === 'string' ? Buffer.from(chunks) : Buffer.concat((chunks instanceof Uint8Array ? [chunks] : chunks).map((c) => Buffer.from(c.buffer, c.byteOffset, c.byteLength)));

function same(model: Model, opts: EncodeOptions = {}): boolean {
  let expected: ReturnType<typeof encodeOnnxReference> | undefined;
  let refError: unknown;
  try { expected = encodeOnnxReference(model, opts); } catch (e) { refError = e; }
  if (!expected) {
    expect(() => encodeOnnx(model, opts)).toThrow(String((refError as Error).message));
    return false;
  }
  const actual = encodeOnnx(model, opts);
  const ok = Buffer.compare(Buffer.from(actual.bytes), Buffer.from(expected.bytes)) === 0;
  if (!ok) expect(Buffer.from(actual.bytes).toString('hex')).toBe(Buffer.from(expected.bytes).toString('hex'));
  expect(actual.external.map((f) => [f.path, concat(f.chunks).toString('hex')])).toEqual(expected.external.map((f) => [f.path, concat(f.chunks).toString('hex')]));
  return true;
}

describe('encodeOnnx is byte-identical to the reference (protobufjs objects) encoder', () => {
  it('on every ONNX backend test model (libonnx-testdata and the onnx wheel), also with external data', () => {
    const cases = backendCases();
    expect(cases.length).toBeGreaterThan(1000);
    let compared = 0;
    cases.forEach((c, i) => {
      let m: Model;
      try { m = readOnnxFile(c.model); } catch { return; }
      if (same(m)) compared++;
      if (i % 7 === 0) same(m, { externalData: { location: 'w.data', threshold: 16 } });
    });
    expect(compared).toBeGreaterThan(1000);
  }, 120_000);

  it('on the samples converted from IR to ONNX, and the real npm models up to 40 MB', () => {
    const dir = join(root, 'samples');
    let compared = 0;
    for (const d of readdirSync(dir).filter((x) => existsSync(join(dir, x, 'model.xml')))) {
      try { if (same(convertModel(readIrFile(join(dir, d, 'model.xml')), { to: 'onnx' }))) compared++; } catch { /* not convertible */ }
      if (existsSync(join(dir, d, 'model.onnx')) && same(readOnnxFile(join(dir, d, 'model.onnx')))) compared++;
    }
    const npm = join(root, '.oracle', 'npm-models');
    const files = existsSync(npm) ? onnxFiles(npm, 40 * 2 ** 20) : [];
    for (const f of files) {
      let m: Model;
      try { m = readOnnxFile(f); } catch { continue; }
      if (same(m)) compared++;
    }
    expect(compared).toBeGreaterThan(10);
  }, 120_000);

  it('chunks: the same bytes, and past 2 GiB the same external data layout', () => {
    const { model, huge } = hugeIdentityModel();
    const a = encodeOnnxChunks(model);
    const b = encodeOnnxChunksReference(model);
    expect(concat(a.chunks).equals(concat(b.chunks))).toBe(true);
    expect(a.external.map((f) => f.path)).toEqual(b.external.map((f) => f.path));
    expect(a.external[0]!.chunks).toContain(huge);
    expect(a.external[0]!.chunks).toEqual(b.external[0]!.chunks);
  });
});
