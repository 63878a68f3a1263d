import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverModels, globBase } from '../../src/batch/discover.js';
import { optionsStamp, outputsFor, planOutputs, ResumeRecord, upToDate } from '../../src/batch/plan.js';

function tree(files: string[]): string {
  const root = mkdtempSync(join(tmpdir(), 'ovir-plan-'));
  for (const f of files) {
    mkdirSync(join(root, f, '..'), { recursive: true });
    writeFileSync(join(root, f), 'x');
  }
  return root;
}

describe('discovering models', () => {
  it('walks directories recursively for .onnx and .xml, mirrors paths from the directory, sorted', () => {
    const root = tree(['b/m.onnx', 'a/deep/n.xml', 'a/deep/n.bin', 'notes.txt', 'a/.hidden.onnx', 'z.onnx']);
    const d = discoverModels([root]);
    expect(d.problems).toEqual([]);
    expect(d.models.map((m) => m.rel)).toEqual(['a/deep/n.xml', 'b/m.onnx', 'z.onnx']);
    expect(d.models.every((m) => m.root === root && m.input === join(root, m.rel))).toBe(true);
  });

  it('a file is its own root; duplicates are dropped', () => {
    const root = tree(['a/m.onnx']);
    const f = join(root, 'a/m.onnx');
    const d = discoverModels([f, f, join(root, 'a')]);
    expect(d.models).toHaveLength(1);
    expect(d.models[0]).toMatchObject({ input: f, rel: 'm.onnx' });
  });

  it('globs mirror from their static base', () => {
    const root = tree(['zoo/x/a.onnx', 'zoo/y/b.onnx', 'zoo/y/c.xml']);
    const d = discoverModels([`${root}/zoo/**/*.onnx`]);
    expect(d.problems).toEqual([]);
    expect(d.models.map((m) => [m.root, m.rel])).toEqual([[`${root}/zoo`, 'x/a.onnx'], [`${root}/zoo`, 'y/b.onnx']]);
    expect(globBase('models/**/*.onnx')).toBe('models');
    expect(globBase('*.onnx')).toBe('.');
    expect(globBase('/abs/dir/m?.xml')).toBe('/abs/dir');
  });

  it('leaves out the output directory when it sits inside an input directory', () => {
    const root = tree(['m.onnx', 'out/m.xml']);
    expect(discoverModels([root], join(root, 'out')).models.map((m) => m.rel)).toEqual(['m.onnx']);
  });

  it('reports missing paths, empty globs and non-model files as problems', () => {
    const root = tree(['notes.txt', 'empty/readme.md']);
    const d = discoverModels([join(root, 'nope.onnx'), `${root}/**/*.onnx`, join(root, 'notes.txt'), join(root, 'empty')]);
    expect(d.problems).toHaveLength(4);
  });
});

describe('planning outputs', () => {
  it('switches format by default and mirrors the relative path', () => {
    expect(outputsFor('out', 'a/b/m.onnx', 'ir')).toEqual(['out/a/b/m.xml', 'out/a/b/m.bin']);
    expect(outputsFor('out', 'a/m.xml', 'onnx')).toEqual(['out/a/m.onnx']);
    const p = planOutputs([{ input: 'in/a/m.onnx', root: 'in', rel: 'a/m.onnx' }, { input: 'in/n.xml', root: 'in', rel: 'n.xml' }], 'out', undefined);
    expect(p.map((x) => [x.to, x.outputs])).toEqual([['ir', ['out/a/m.xml', 'out/a/m.bin']], ['onnx', ['out/n.onnx']]]);
  });

  it('never overwrites an input: an output on top of an input is a conflict', () => {
    const p = planOutputs([{ input: 'd/m.xml', root: 'd', rel: 'm.xml' }, { input: 'd/k.onnx', root: 'd', rel: 'k.onnx' }], 'd', 'ir');
    expect(p[0]!.conflict).toMatch(/overwrite input itself/);
    expect(p[1]!.conflict).toBeUndefined(); // d/k.xml is no input
  });

  it('two models with the same output: the later one is a conflict', () => {
    const p = planOutputs([{ input: 'a/m.onnx', root: 'a', rel: 'm.onnx' }, { input: 'b/m.onnx', root: 'b', rel: 'm.onnx' }], 'out', undefined);
    expect(p[0]!.conflict).toBeUndefined();
    expect(p[1]!.conflict).toMatch(/also the output of 'a\/m.onnx'/);
  });

  it('--resume: up to date only when every output exists, is newer than every input file and was made with the same options', () => {
    const root = tree(['m.xml', 'm.bin', 'out/m.onnx']);
    const [xml, bin, out] = [join(root, 'm.xml'), join(root, 'm.bin'), join(root, 'out/m.onnx')];
    const stamp = optionsStamp('onnx', { opset: 17 });
    utimesSync(xml, 1000, 1000);
    utimesSync(bin, 1000, 1000);
    utimesSync(out, 2000, 2000);
    const outDir = join(root, 'out');
    expect(upToDate(xml, [out], stamp, new ResumeRecord(outDir))).toBe(false); // no record of the options it was made with
    const rec = new ResumeRecord(outDir);
    rec.note(out, stamp);
    rec.save();
    const record = new ResumeRecord(outDir); // as the next batch reads it
    expect(upToDate(xml, [out], stamp, record)).toBe(true);
    expect(upToDate(xml, [out], optionsStamp('onnx', { opset: 13 }), record)).toBe(false);
    expect(upToDate(xml, [out], optionsStamp('onnx', { opset: 17, fsync: true }), record)).toBe(true); // how it is written is not how it is made
    utimesSync(bin, 3000, 3000); // weights changed after the conversion
    expect(upToDate(xml, [out], stamp, record)).toBe(false);
    utimesSync(bin, 1000, 1000);
    expect(upToDate(xml, [out, join(root, 'out/missing.bin')], stamp, record)).toBe(false);
    utimesSync(out, 2500, 2500); // the output was rewritten by something else since it was recorded
    expect(upToDate(xml, [out], stamp, record)).toBe(false);
  });

  it('the options stamp ignores unset options and the order they were given in', () => {
    expect(optionsStamp('ir', { compressToFp16: true, inputs: ['x[1]'] })).toBe(optionsStamp('ir', { inputs: ['x[1]'], compressToFp16: true, keepOutputs: [] }));
    expect(optionsStamp('ir', {})).not.toBe(optionsStamp('ir', { compressToFp16: true }));
    expect(optionsStamp('ir', {})).not.toBe(optionsStamp('onnx', {}));
  });
});
