import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OvirError } from '../../src/diag/diagnostic.js';
import type { Model } from '../../src/graph/model.js';
import { decodeOnnx } from '../../src/onnx/decode.js';
import { encodeOnnx } from '../../src/onnx/encode.js';
import { decodeOnnxReference } from '../helpers/onnx-decode-reference.js';
import { backendCases, onnxFiles } from '../helpers/testdata.js';
import { structure } from './structure.js';

/**
 * decodeOnnx reads the bytes with protobufjs's Reader (src/onnx/proto-read.ts) instead of
 * protobufjs's message objects. It must build the same model as the object decoder it replaced
 * (kept as test/helpers/onnx-decode-reference.ts): the same structure, the same bytes written back
 * (which carries every doc string, metadata entry, attribute order and kept TypeProto), the same
 * warnings, and the same refusal of malformed bytes.
 */
const here = new URL('.', import.meta.url).pathname;
const root = join(here, '..', '..');

type Outcome = { model: Model } | { codes: string[] };
function outcome(decode: () => Model): Outcome {
  try { return { model: decode() }; } catch (e) {
    if (!(e instanceof OvirError)) throw e;
    return { codes: e.diagnostics.map((d) => `${d.code} ${d.where}`) };
  }
}

function same(path: string): boolean {
  const bytes = readFileSync(path);
  const opts = { file: path, baseDir: dirname(path) };
  const a = outcome(() => decodeOnnx(bytes, opts));
  const b = outcome(() => decodeOnnxReference(bytes, opts));
  if (!('model' in b) || !('model' in a)) {
    expect(a, path).toEqual(b);
    return false;
  }
  expect(structure(a.model), path).toEqual(structure(b.model));
  expect(Buffer.from(encodeOnnx(a.model).bytes).equals(Buffer.from(encodeOnnx(b.model).bytes)), path).toBe(true);
  const warnings = (m: Model) => (m.graph.meta['diagnostics'] ?? []).map((d) => `${d.code} ${d.where} ${d.message}`);
  expect(warnings(a.model), path).toEqual(warnings(b.model));
  return true;
}

describe('decodeOnnx builds the same model as the reference (protobufjs objects) decoder', () => {
  it('on every ONNX backend test model (libonnx-testdata and the onnx wheel)', () => {
    const cases = backendCases();
    expect(cases.length).toBeGreaterThan(1000);
    let compared = 0;
    for (const c of cases) if (same(c.model)) compared++;
    expect(compared).toBeGreaterThan(1000);
  }, 180_000);

  it('on the samples, the test fixtures and the real npm models up to 40 MB', () => {
    const files = [join(root, 'samples'), join(root, 'test'), join(root, '.oracle', 'npm-models')]
      .filter((d) => existsSync(d))
      .flatMap((d) => onnxFiles(d, 40 * 2 ** 20));
    let compared = 0;
    for (const f of files) if (same(f)) compared++;
    expect(compared).toBeGreaterThan(10);
  }, 180_000);

  it('malformed bytes: ONNX_BAD_PROTOBUF alone, also when the damage is inside a body graph', () => {
    const good = readFileSync(join(root, 'samples', 'if-nested', 'model.onnx'));
    const cuts = [1, 7, Math.floor(good.length / 3), Math.floor(good.length / 2), good.length - 3];
    for (const n of cuts) {
      const bad = good.subarray(0, n);
      const a = outcome(() => decodeOnnx(bad));
      const b = outcome(() => decodeOnnxReference(bad));
      expect('codes' in a ? a.codes : 'decoded').toEqual('codes' in b ? b.codes : 'decoded');
    }
    // damage anywhere (every 13th byte made a tag of wire type 7): whatever the reference refuses is
    // refused with coded diagnostics, never decoded and never a stack trace. (The codes may differ:
    // protobufjs's object decoder lets a field run past the end of its enclosing message and fails
    // later, the Reader-based one reads a leaf message within its own bytes; either way the file is
    // refused.)
    let refused = 0;
    for (let i = 0; i < good.length; i += 13) {
      const bad = Uint8Array.from(good);
      bad[i] = 0x0f;
      const a = outcome(() => decodeOnnx(bad));
      const b = outcome(() => decodeOnnxReference(bad));
      if (!('codes' in b)) continue;
      refused++;
      expect('codes' in a ? a.codes.length : 0, `byte ${i}`).toBeGreaterThan(0);
    }
    expect(refused).toBeGreaterThan(10);
  });
});
