import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_MAPPINGS } from '../../mappings/index.js';
import { convertModel } from '../../src/convert/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import { decodeOnnx } from '../../src/onnx/decode.js';
import { writeIr } from '../../src/ir/write.js';
import { parseXml } from '../../src/ir/xml-tree.js';
import { SAMPLES, sampleKey } from '../convert/op-samples.js';
import { buildSampleModel, sampleDefaultOpset } from '../convert/sample-model.js';
import { REPO_ROOT } from '../helpers/oracle.js';
import { parseXmlReference } from '../helpers/xml-tree-reference.js';

/**
 * The single-pass tokenizer (src/ir/xml-tree.ts) against the fast-xml-parser reader it replaced
 * (test/helpers/xml-tree-reference.ts): the same XNode tree, tag by tag, attribute by attribute,
 * text by text, on every IR we have: fixtures, samples, every op sample converted to IR, backend
 * test models converted by ovir, and IR written by OpenVINO's own ovc (the oracle's cache).
 */
function same(text: string): void {
  const ours = parseXml(text);
  const ref = parseXmlReference(text);
  expect(ours.ok).toBe(true);
  expect(ref.ok).toBe(true);
  // toStrictEqual: attribute order, text and child order must match exactly.
  expect(ours).toStrictEqual(ref);
}

/** Every k-th file of a sorted list, at most `max`: a spread over the whole set, the same each run. */
const spread = <T>(xs: T[], max: number): T[] => (xs.length <= max ? xs : xs.filter((_, i) => i % Math.ceil(xs.length / max) === 0));

const files = (dir: string, name: string): string[] =>
  existsSync(dir) ? readdirSync(dir).sort().map((d) => join(dir, d, name)).filter((f) => existsSync(f)) : [];

describe('XML tokenizer = fast-xml-parser reference on every IR at hand', () => {
  it('test fixtures and samples/', () => {
    const fixtures = ['test/convert/golden/direct-outputs.xml', 'test/convert/golden/nested-2.xml', 'test/convert/golden/ops-in-branches.xml',
      'test/convert/golden/seed-003-shared-outer.xml', 'test/ir/__golden__/small-net.xml', ...files(join(REPO_ROOT, 'samples'), 'model.xml')];
    let n = 0;
    for (const f of fixtures) {
      const p = f.startsWith('/') ? f : join(REPO_ROOT, f);
      if (!existsSync(p)) continue;
      same(readFileSync(p, 'utf8'));
      n++;
    }
    expect(n).toBeGreaterThanOrEqual(5);
  });

  it('every op sample converted to IR by ovir', () => {
    let n = 0;
    for (const e of ALL_MAPPINGS) {
      for (const s of SAMPLES[sampleKey(e)] ?? []) {
        let xml: string;
        try {
          xml = writeIr(convertModel(buildSampleModel(e, s, (s.opsets ?? [sampleDefaultOpset(e)])[0]!), { to: 'ov' })).xml;
        } catch (err) {
          if (err instanceof OvirError) continue;
          throw err;
        }
        same(xml);
        n++;
      }
    }
    expect(n).toBeGreaterThan(150);
  }, 120_000);

  const backend = '/usr/share/libonnx-testdata/data';
  it.runIf(existsSync(backend))('backend test models converted to IR by ovir (a spread of 400)', () => {
    const models = spread(['node', 'simple', 'pytorch-converted', 'pytorch-operator'].flatMap((s) => files(join(backend, s), 'model.onnx')), 400);
    let n = 0;
    for (const f of models) {
      let xml: string;
      try {
        xml = writeIr(convertModel(decodeOnnx(readFileSync(f)), { to: 'ov' })).xml;
      } catch (err) {
        if (err instanceof OvirError) continue;
        throw err;
      }
      same(xml);
      n++;
    }
    expect(n).toBeGreaterThan(50);
  }, 120_000);

  const cache = join(REPO_ROOT, '.oracle/cache');
  it.runIf(existsSync(cache))('IR written by ovc (a spread of 600 from the oracle cache)', () => {
    const irs = spread(files(cache, 'model.xml'), 600);
    for (const f of irs) same(readFileSync(f, 'utf8'));
    expect(irs.length).toBeGreaterThan(300);
  }, 120_000);
});
