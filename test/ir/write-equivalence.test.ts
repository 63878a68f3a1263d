import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { A, Model, tensorFromFloat32, tensorType } from '../../src/graph/index.js';
import type { Model as ModelT } from '../../src/graph/model.js';
import { readIr } from '../../src/ir/read.js';
import { readIrFile } from '../../src/ir/file.js';
import { writeIr } from '../../src/ir/write.js';
import { readOnnxFile } from '../../src/onnx/file.js';
import { writeIrReference } from '../helpers/ir-write-reference.js';
import { goldenModel } from './golden-model.js';

/**
 * The streaming IR writer must produce exactly the bytes of the xmlbuilder2-based writer it
 * replaced (kept as test/helpers/ir-write-reference.ts), on every model either can write.
 */
const here = new URL('.', import.meta.url).pathname;
const root = join(here, '..', '..');
const NODE_DATA = '/usr/share/libonnx-testdata/data/node';
const MAX_BACKEND = 200;

function same(model: ModelT): { xml: string } {
  let expected: { xml: string; bin: Uint8Array[] } | undefined;
  let refError: unknown;
  try { expected = writeIrReference(model); } catch (e) { refError = e; }
  if (!expected) {
    // Both writers refuse the same models with the same diagnostics.
    expect(() => writeIr(model)).toThrow(String((refError as Error).message));
    return { xml: '' };
  }
  const actual = writeIr(model);
  expect(actual.xml).toBe(expected.xml);
  expect(Buffer.concat(actual.bin)).toEqual(Buffer.concat(expected.bin));
  return actual;
}

function tryConvert(path: string): ModelT | null {
  try { return convertModel(readOnnxFile(path), { to: 'ov' }); } catch { return null; }
}

describe('writeIr is byte-identical to the reference (xmlbuilder2) serializer', () => {
  it('on the hand-built golden model', () => { same(goldenModel()); });

  it('on the samples, read back from IR and converted from ONNX', () => {
    const dir = join(root, 'samples');
    const names = readdirSync(dir).filter((d) => existsSync(join(dir, d, 'model.xml')));
    expect(names.length).toBeGreaterThan(0);
    for (const d of names) {
      same(readIrFile(join(dir, d, 'model.xml')));
      const converted = tryConvert(join(dir, d, 'model.onnx'));
      if (converted) same(converted);
    }
  });

  it('on the golden converted IRs read back', () => {
    const dir = join(root, 'test', 'convert', 'golden');
    const names = readdirSync(dir).filter((f) => f.endsWith('.xml'));
    expect(names.length).toBeGreaterThan(0);
    for (const f of names) {
      const bin = Buffer.from(readFileSync(join(dir, f.replace(/\.xml$/, '.bin.hex')), 'utf8').trim(), 'hex');
      same(readIr(readFileSync(join(dir, f)), bin));
    }
  });

  it.skipIf(!existsSync(NODE_DATA))(`on up to ${MAX_BACKEND} ONNX backend node models converted to IR`, () => {
    let written = 0;
    for (const d of readdirSync(NODE_DATA).sort()) {
      if (written >= MAX_BACKEND) break;
      const path = join(NODE_DATA, d, 'model.onnx');
      if (!existsSync(path)) continue;
      const m = tryConvert(path);
      if (!m) continue;
      const { xml } = same(m);
      if (xml) written++;
    }
    expect(written).toBe(MAX_BACKEND);
  }, 120_000);

  it('on names and rt_info text that need escaping', () => {
    const m = new Model('ov');
    const g = m.graph;
    const x = g.addInput(tensorType('f32', [2]), ['in "a" & <b> >c\ttab\nline &amp; &#9; &gt; &lt;']);
    const c = g.addInitializer(tensorFromFloat32([1, 2]), ['c&d']);
    const add = g.addNode({ dialect: 'ov', op: 'Add', version: 'opset1', name: 'add<"&>\u0001' });
    add.attrs.set('auto_broadcast', A.string('numpy'));
    add.addInput(x);
    add.addInput(c);
    const y = add.addOutput(tensorType('f32', [2]), ['y>', 'z"']);
    add.meta['irRtInfo'] = { tag: 'rt_info', attrs: {}, text: '', children: [
      { tag: 'attribute', attrs: { name: 'fused_names', version: '0', value: 'a<b>&c "q"\r' }, children: [], text: '' },
      { tag: 'custom', attrs: {}, children: [], text: 'x < y & z > w' },
      { tag: 'mixed', attrs: { k: 'v' }, children: [{ tag: 'inner', attrs: {}, children: [], text: '' }], text: 'lead' },
    ] };
    g.outputs.push(y);
    same(m);
  });
});
