import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { binPathFor, readIrFile, writeIrFile } from '../../src/ir/file.js';
import { writeIr, writeIrChunks } from '../../src/ir/write.js';
import { Model, tensorType } from '../../src/graph/index.js';
import { diagnosticsOf } from './build.js';
import { goldenModel } from './golden-model.js';

const dir = mkdtempSync(join(tmpdir(), 'ovir-ir-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('readIrFile / writeIrFile', () => {
  it('the .bin has the basename of the .xml', () => {
    expect(binPathFor('/a/model.xml')).toBe('/a/model.bin');
    expect(binPathFor('m.XML')).toBe('m.bin');
  });

  it('writes .xml and .bin and reads them back, weights as views into the file buffer', () => {
    const path = join(dir, 'golden.xml');
    writeIrFile(goldenModel(), path);
    expect(readdirSync(dir).filter((f) => f.startsWith('golden')).sort()).toEqual(['golden.bin', 'golden.xml']);
    expect(readFileSync(path, 'utf8')).toBe(writeIr(goldenModel()).xml);
    const m = readIrFile(path);
    const [a, b] = m.graph.initializers;
    expect(a!.constant!.data.buffer).toBe(b!.constant!.data.buffer);
    expect(a!.constant!.data.buffer.byteLength).toBeGreaterThanOrEqual(readFileSync(binPathFor(path)).byteLength);
  });

  it('a missing .xml: FILE_NOT_FOUND naming the file, no stack trace in the message', () => {
    const d = diagnosticsOf(() => readIrFile(join(dir, 'nope.xml')));
    expect(d.map((x) => [x.code, x.file])).toEqual([['FILE_NOT_FOUND', join(dir, 'nope.xml')]]);
    expect(d[0]!.message).not.toMatch(/\n\s+at /);
  });

  it('a missing .bin is an error only when a Const needs it', () => {
    const path = join(dir, 'nobin.xml');
    writeFileSync(path, writeIr(goldenModel()).xml);
    const d = diagnosticsOf(() => readIrFile(path));
    expect(new Set(d.map((x) => x.code))).toEqual(new Set(['IR_BIN_MISSING']));
    expect(d.every((x) => x.file === path)).toBe(true);
    expect(d[0]!.message).toContain('nobin.bin');
  });

  it('a failed write leaves nothing behind', () => {
    const bad = goldenModel();
    bad.graph.nodes[0]!.dialect = 'onnx';
    const path = join(dir, 'bad.xml');
    expect(diagnosticsOf(() => writeIrFile(bad, path)).map((x) => x.code)).toEqual(['IR_WRITE_DIALECT']);
    expect(readdirSync(dir).filter((f) => f.includes('bad'))).toEqual([]);
  });

  /** A Relu chain whose XML is several MB: written to its file while it is made (slabs drained and reused). */
  const chain = (n: number): Model => {
    const m = new Model('ov');
    const t = tensorType('f32', [1, 64]);
    let v = m.graph.addInput(t, ['x']);
    for (let i = 0; i < n; i++) {
      const node = m.graph.addNode({ dialect: 'ov', op: 'Relu', version: 'opset1', name: `r${i}` });
      node.addInput(v);
      v = node.addOutput(t, [`h${i}`]);
    }
    m.graph.outputs.push(v);
    return m;
  };

  it('a net larger than the writer\'s slabs is written while it is made: the file is the same text', () => {
    const m = chain(12000);
    const path = join(dir, 'big.xml');
    writeIrFile(m, path);
    const text = writeIr(m).xml;
    expect(text.length).toBeGreaterThan(4 << 20);
    expect(readFileSync(path, 'utf8')).toBe(text);
    // drained as it is made, from one slab written again (bytes copied here: the slab is reused)
    const drained: Buffer[] = [];
    const slabs = new Set<ArrayBufferLike>();
    const { xml } = writeIrChunks(m, (b) => { drained.push(Buffer.from(b)); slabs.add(b.buffer); });
    expect(xml).toEqual([]);
    expect(Buffer.concat(drained).toString('utf8')).toBe(text);
    expect(slabs.size).toBe(1);
  });

  it('a problem found after megabytes were written leaves nothing behind, not even the folder made for it', () => {
    const m = chain(12000);
    m.graph.nodes[m.graph.nodes.length - 1]!.dialect = 'onnx';
    const path = join(dir, 'made', 'deeper', 'late.xml');
    expect(diagnosticsOf(() => writeIrFile(m, path)).map((x) => x.code)).toEqual(['IR_WRITE_DIALECT']);
    expect(existsSync(join(dir, 'made'))).toBe(false);
  });
});
