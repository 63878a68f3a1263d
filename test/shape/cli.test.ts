import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { saveModel } from '../../src/io/load.js';
import { applyInferred, inferTypes } from '../../src/shape/index.js';
import * as ob from '../helpers/onnx-builder.js';
import { runCli } from '../cli/run-cli.js';
import { A, B } from './build.js';

/** then: Relu(x) → [2,3]; else: Concat(x, x, axis 0) → [4,3]; both read the outer x. */
function ifModel(declaredY: (number | string | null)[] | null, elemY: 'f32' | 'f64' = 'f32'): Uint8Array {
  return ob.encodeModelProto(ob.model({
    opset: 17,
    graph: ob.graph({
      name: 'g',
      inputs: [ob.valueInfo('c', 'boolean', []), ob.valueInfo('x', 'f32', [2, 3])],
      outputs: [ob.valueInfo('y', elemY, declaredY)],
      nodes: [
        ob.node('If', ['c'], ['y'], {
          then_branch: ob.graph({ name: 't', outputs: [ob.valueInfo('t0', 'f32')], nodes: [ob.node('Relu', ['x'], ['t0'])] }),
          else_branch: ob.graph({ name: 'e', outputs: [ob.valueInfo('e0', 'f32')], nodes: [ob.node('Concat', ['x', 'x'], ['e0'], { axis: 0 })] }),
        }, { name: 'If_1' }),
      ],
    }),
  }));
}

let dir: string;
let onnx: string;
let bad: string;
let ir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ovir-shapes-'));
  onnx = join(dir, 'if.onnx');
  bad = join(dir, 'bad.onnx');
  writeFileSync(onnx, ifModel(null));
  writeFileSync(bad, ifModel([5], 'f64'));
  const b = new B('ov');
  const x = b.input('x', 'f32', [{ min: 1, max: 8 }, 3]);
  const s = b.node('ShapeOf', [x], {}, { version: 'opset3', name: 'shape' }).outputs[0]!;
  b.node('Reshape', [x, s], { special_zero: A.bool(false) }, { name: 'reshape' });
  b.g.outputs.push(b.g.nodes[1]!.outputs[0]!);
  applyInferred(inferTypes(b.model));
  ir = join(dir, 'm.xml');
  saveModel(b.model, ir);
});

const json = (s: string) => s.trim().split('\n').map((l) => JSON.parse(l) as { path: string; values: { name: string; scope: string; dtype: string; shape: unknown }[] });
const y = (r: { stdout: string }) => json(r.stdout)[0]!.values.find((v) => v.name === 'y');

describe('ovir shapes', () => {
  it.each([
    [[], [null, 3]],
    [['--if-merge', 'onnx'], [null, 3]],
    [['--if-merge', 'symbolic'], ['If_y_d0', 3]],
    [['--if-merge', 'openvino'], ['2..4', 3]],
  ])('ONNX If with branches [2,3] | [4,3], %j → %j', async (opts, shape) => {
    const r = await runCli('shapes', '--json', ...opts, onnx);
    expect(r.code).toBe(0);
    expect(y(r)).toEqual({ name: 'y', scope: 'main', dtype: 'f32', shape });
  });

  it('prints body values with their scope', async () => {
    const r = await runCli('shapes', '--json', onnx);
    const values = json(r.stdout)[0]!.values;
    expect(values.find((v) => v.name === 'e0')).toEqual({ name: 'e0', scope: 'main/If_1/else', dtype: 'f32', shape: [4, 3] });
    expect(values.find((v) => v.name === 't0')).toEqual({ name: 't0', scope: 'main/If_1/then', dtype: 'f32', shape: [2, 3] });
  });

  it('IR: intervals as "a..b" (ShapeOf → Reshape keeps 1..8)', async () => {
    const r = await runCli('shapes', '--json', ir);
    expect(r.code).toBe(0);
    const out = json(r.stdout)[0]!.values.find((v) => v.scope === 'main' && v.dtype === 'f32' && v.name !== 'x');
    expect(out?.shape).toEqual(['1..8', 3]);
  });

  it('text form names each scope once', async () => {
    const r = await runCli('shapes', onnx);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('  main/If_1/else\n    x: f32[2,3]\n    e0: f32[4,3]\n'); // x: the capture parameter
  });

  it('a declared output type that contradicts inference is an error (exit 1), reported with the path; the others still print', async () => {
    const r = await runCli('shapes', '--json', bad, onnx);
    expect(r.code).toBe(1);
    expect(json(r.stdout)).toHaveLength(2);
    expect(r.stderr).toMatch(/bad\.onnx: main\/If_1: value 'y' is declared f64\[5\] but inferred f32\[\?,3\]: element type f64 vs f32; rank 1 \[5\] vs 2 \[\?,3\] \[SHAPE_DECLARED_CONTRADICTS\]/);
  });

  it('an unreadable file: exit 1 after the others are printed', async () => {
    const r = await runCli('shapes', '--json', join(dir, 'missing.onnx'), onnx);
    expect(r.code).toBe(1);
    const [first, second] = json(r.stdout) as unknown as [{ path: string; error?: string }, { path: string }];
    expect(first.error).toBeTruthy();
    expect(second.path).toBe(onnx);
  });

  it('an unknown --if-merge policy is a usage error (exit 2)', async () => {
    const r = await runCli('shapes', '--if-merge', 'union', onnx);
    expect(r.code).toBe(2);
  });
});
