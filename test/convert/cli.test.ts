import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { allNodes } from '../../src/graph/index.js';
import { loadModel, saveModel } from '../../src/io/load.js';
import { runCli } from '../cli/run-cli.js';
import { Builder } from './builder.js';
import { nested, seedExample } from './fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'ovir-convert-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function writeOnnx(name: string, make: (b: Builder) => unknown, opset = 17): string {
  const b = new Builder('onnx', opset);
  make(b);
  const path = join(dir, name);
  saveModel(b.model, path);
  return path;
}

describe('ovir convert', () => {
  it('ONNX → IR writes .xml and .bin; IR → ONNX reads them back; exit 0', async () => {
    const src = writeOnnx('seed.onnx', seedExample);
    const xml = join(dir, 'out', 'seed.xml');
    const r = await runCli('convert', src, '-o', xml);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(existsSync(xml) && existsSync(join(dir, 'out', 'seed.bin'))).toBe(true);
    const ir = loadModel(xml);
    expect(ir.dialect).toBe('ov');
    expect([...allNodes(ir.graph)].find((n) => n.op === 'If')?.version).toBe('opset8');
    const back = join(dir, 'out', 'seed.onnx');
    expect((await runCli('convert', xml, '-o', back, '--opset', '13')).code).toBe(0);
    const onnx = loadModel(back);
    expect(onnx.onnx?.opsetImports.get('')).toBe(13);
    expect(onnx.graph.outputs.map((v) => v.name)).toEqual(['y']);
  });

  it('--input overrides an input shape', async () => {
    const src = writeOnnx('nested.onnx', (b) => nested(b, 2));
    const xml = join(dir, 'nested.xml');
    expect((await runCli('convert', src, '-o', xml, '--input', 'x[N]')).code).toBe(0);
    const x = loadModel(xml).graph.inputs.find((v) => v.name === 'x')!;
    expect(x.type).toMatchObject({ kind: 'tensor', elem: 'f32' });
    expect(x.type?.kind === 'tensor' && x.type.shape?.length).toBe(1);
    expect(x.type?.kind === 'tensor' && x.type.shape?.[0]).not.toBe(2);
  });

  it('--compress-to-fp16 stores f32 constants as f16', async () => {
    const b = new Builder('onnx');
    const x = b.input('x', 'f32', [2]);
    const { tensorFromFloat32 } = await import('../../src/graph/index.js');
    const w = b.init('w', tensorFromFloat32([1, 2]));
    b.output(b.op(b.graph, 'Add', [x, w], 'y'));
    const src = join(dir, 'add.onnx');
    saveModel(b.model, src);
    const xml = join(dir, 'add16.xml');
    expect((await runCli('convert', src, '-o', xml, '--compress-to-fp16')).code).toBe(0);
    const ir = loadModel(xml);
    expect(ir.graph.initializers.map((v) => v.constant?.elem)).toEqual(['f16']);
    expect(ir.graph.nodes.map((n) => n.op)).toEqual(['Convert', 'Add']);
  });

  it('an unconvertible model: exit 1, every problem with file and graph path, nothing written', async () => {
    const b = new Builder('onnx');
    const x = b.input('x', 'f32', [2]);
    b.output(b.op(b.graph, 'Frobnicate', [x], 'a', {}, {}));
    b.output(b.op(b.graph, 'Gizmo', [x], 'b', {}, {}));
    const src = join(dir, 'bad.onnx');
    saveModel(b.model, src);
    const out = join(dir, 'bad.xml');
    const r = await runCli('convert', src, '-o', out);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/bad\.onnx: main\/Frobnicate#0: Frobnicate \(ONNX 17\) has no conversion to OpenVINO IR: it only makes the model's output 'a'; `--output b,x` converts the model without it \[CONVERT_UNSUPPORTED_OP\]/);
    expect(r.stderr).toMatch(/Gizmo/);
    expect(existsSync(out)).toBe(false);
  });

  it('usage errors exit 2', async () => {
    const src = writeOnnx('u.onnx', seedExample);
    expect((await runCli('convert')).code).toBe(2);
    expect((await runCli('convert', src, '-o', join(dir, 'u.xml'), '--opset', '99')).code).toBe(2);
  });

  it('unknown output extensions are usage errors (exit 2) naming the file', async () => {
    const src = writeOnnx('e.onnx', seedExample);
    const r = await runCli('convert', src, '-o', join(dir, 'e.pb'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/e\.pb/);
    expect(existsSync(join(dir, 'e.pb'))).toBe(false);
  });
});
