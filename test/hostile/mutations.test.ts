/**
 * "Every bad input gets a clear error … never a stack trace": the samples' .onnx, .xml and .bin
 * files with random bytes changed, cut, dropped or repeated (a fixed seed, so a failure repeats)
 * go through reading, conversion and writing; whatever is thrown must be an OvirError (a coded
 * diagnostic the CLI prints), never another exception (the CLI's "internal error").
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import { readIr } from '../../src/ir/read.js';
import { writeIr } from '../../src/ir/write.js';
import { decodeOnnx } from '../../src/onnx/decode.js';
import { encodeOnnx } from '../../src/onnx/encode.js';
import { REPO_ROOT } from '../helpers/oracle.js';

const ROUNDS = 40;
const XML_BYTES = ' <>/="0123456789-abcdefg&;\'';

/** A small deterministic generator (a failure names its seed). */
function generator(seed: number): () => number {
  let s = seed;
  return () => { s = (s * 1103515245 + 12345) & 0x7fffffff; return s / 0x7fffffff; };
}

/** 1–4 random edits: a byte replaced, the rest cut off, a run dropped, or a run of the file repeated elsewhere. */
function mutate(bytes: Uint8Array, rnd: () => number, text: boolean): Uint8Array {
  let out = Buffer.from(bytes);
  for (let k = 1 + Math.floor(rnd() * 4); k > 0; k--) {
    const r = rnd();
    const i = Math.floor(rnd() * out.length);
    if (r < 0.5) out[i] = text ? XML_BYTES.charCodeAt(Math.floor(rnd() * XML_BYTES.length)) : Math.floor(rnd() * 256);
    else if (r < 0.7) out = out.subarray(0, i);
    else if (r < 0.85) out = Buffer.concat([out.subarray(0, i), out.subarray(Math.min(out.length, i + 1 + Math.floor(rnd() * 20)))]);
    else { const s = Math.floor(rnd() * out.length); out = Buffer.concat([out.subarray(0, i), out.subarray(s, s + Math.floor(rnd() * 60)), out.subarray(i)]); }
  }
  return out;
}

/** What `f` threw if it is not an OvirError, else null. */
function unexpected(f: () => void): string | null {
  try { f(); return null; } catch (e) {
    return e instanceof OvirError ? null : `${e instanceof Error ? `${e.constructor.name}: ${e.message}\n${e.stack ?? ''}` : String(e)}`;
  }
}

const samples = readdirSync(join(REPO_ROOT, 'samples'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);

describe('hostile inputs: damaged sample files give coded diagnostics, never another exception', () => {
  it.each(samples)('%s', (name) => {
    const file = (ext: string) => readFileSync(join(REPO_ROOT, 'samples', name, `model.${ext}`));
    const [onnx, xml, bin] = [file('onnx'), file('xml'), file('bin')];
    const rnd = generator(name.length * 7919 + 17);
    const found: string[] = [];
    const check = (what: string, f: () => void) => { const e = unexpected(f); if (e) found.push(`${what}: ${e}`); };
    for (let round = 0; round < ROUNDS; round++) {
      const o = mutate(onnx, rnd, false);
      check(`.onnx round ${round}`, () => writeIr(convertModel(decodeOnnx(o))));
      const x = mutate(xml, rnd, true);
      check(`.xml round ${round}`, () => encodeOnnx(convertModel(readIr(x, bin))));
      const b = mutate(bin, rnd, false);
      check(`.bin round ${round}`, () => encodeOnnx(convertModel(readIr(xml, b))));
    }
    expect(found).toEqual([]);
  });
});
