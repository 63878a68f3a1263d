import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { A, tensorFromFloat32, type Attr } from '../../src/graph/index.js';
import { checkFile, type EquivReport } from '../../src/equiv/index.js';
import { loadModel, saveModel } from '../../src/io/load.js';
import { convertModel } from '../../src/convert/index.js';
import { Builder } from '../convert/builder.js';
import { runCli } from '../cli/run-cli.js';
import { builtDist } from '../helpers/build-dist.js';

/**
 * `ovir check` between two files compares what they compute, not only their types
 * (src/equiv/computation.ts, same-computation.ts): a Relu and a Sigmoid have one type, and were
 * "equivalent", exit 0. The two forms are brought to one dialect by ovir's conversion and
 * compared op for op: the same ops, attributes and constants, wired alike, is proven; anything
 * else is "NOT proven" (exit 1) naming the first place each way, unless `--run` finds the same
 * numbers in onnxruntime.
 */
const dir = mkdtempSync(join(tmpdir(), 'ovir-computation-'));
const forms = (r: EquivReport) => r.diagnostics.filter((d) => d.code === 'EQUIV_FORM_DIFFERS').map((d) => d.message);
const contradictions = (r: EquivReport) => r.diagnostics.filter((d) => d.severity === 'error' && d.code.startsWith('EQUIV_') && !d.code.startsWith('EQUIV_FORM_'));

/** An ONNX file of `x f32[2,3] → op → y`, written under `name`. */
function onnxOf(name: string, op: string, attrs: Record<string, Attr> = {}, opset = 17): string {
  const b = new Builder('onnx', opset);
  const x = b.input('x', 'f32', [2, 3]);
  b.output(b.op(b.graph, op, [x], 'y', attrs));
  const path = join(dir, `${name}.onnx`);
  saveModel(b.model, path);
  return path;
}

/** ovir's IR of an ONNX file, written beside it. */
function irOf(onnx: string): string {
  const xml = onnx.replace(/\.onnx$/, '.xml');
  saveModel(convertModel(loadModel(onnx), { to: 'ov' }), xml);
  return xml;
}

describe('two files that compute differently, with the same types, are not proven', () => {
  it('Relu against the IR of a Sigmoid: NOT proven, naming both ops (was "equivalent", exit 0)', () => {
    const r = checkFile(onnxOf('relu', 'Relu'), irOf(onnxOf('sigmoid', 'Sigmoid')));
    expect(contradictions(r)).toEqual([]);
    expect(r.computation).toEqual({ proven: false, compared: 'A converted to IR by ovir, against B', differences: 1 });
    expect(forms(r)).toEqual([expect.stringContaining('Relu (opset1) in A, Sigmoid (opset1) in B')]);
    expect(r.ok).toBe(false);
  });

  it('Softmax over axis 0 against Softmax over axis 1: the attribute is named', () => {
    const r = checkFile(onnxOf('sm0', 'Softmax', { axis: A.int(0) }), irOf(onnxOf('sm1', 'Softmax', { axis: A.int(1) })));
    expect(forms(r)).toEqual([expect.stringContaining("attribute 'axis' is '0' in A, '1' in B")]);
    expect(r.ok).toBe(false);
  });

  it('Transpose by [1, 0] against Transpose by [0, 1] on a square input: the permutation constants differ', () => {
    const make = (name: string, perm: number[]) => {
      const b = new Builder('onnx', 17);
      const x = b.input('x', 'f32', [3, 3]);
      b.output(b.op(b.graph, 'Transpose', [x], 'y', { perm: A.ints(perm) }));
      const p = join(dir, `${name}.onnx`);
      saveModel(b.model, p);
      return p;
    };
    const r = checkFile(make('t10', [1, 0]), irOf(make('t01', [0, 1])));
    expect(forms(r)).toEqual([expect.stringContaining('constants hold other numbers')]);
  });

  it('two ONNX files of other ops: compared as they are, then both as IR', () => {
    const r = checkFile(onnxOf('relu2', 'Relu'), onnxOf('sigmoid2', 'Sigmoid'));
    expect(forms(r)).toEqual([expect.stringContaining('Relu in A, Sigmoid in B')]);
    expect(r.computation?.compared).toBe('A against B (ONNX)');
  });
});

describe('a file ovir wrote is proven the same computation as its source, either way', () => {
  it('ONNX → IR, and the IR checked against the ONNX in both orders', () => {
    const onnx = onnxOf('softmax-src', 'Softmax', { axis: A.int(-1) });
    const xml = irOf(onnx);
    for (const [a, b] of [[onnx, xml], [xml, onnx]] as const) {
      const r = checkFile(a, b);
      expect(r.computation?.proven).toBe(true);
      expect(r.ok).toBe(true);
    }
  });

  it('IR → ONNX with a decomposition (IR Gelu at opset 17 is an Erf subgraph): proven by converting the IR, not the ONNX back', () => {
    const b = new Builder('ov');
    const x = b.input('x', 'f32', [2, 3]);
    b.output(b.op(b.graph, 'Gelu', [x], 'y', { approximation_mode: A.string('ERF') }, { version: 'opset7' }));
    const xml = join(dir, 'gelu.xml');
    saveModel(b.model, xml);
    const onnx = join(dir, 'gelu.onnx');
    saveModel(convertModel(loadModel(xml), { to: 'onnx', opset: 17 }), onnx);
    const r = checkFile(xml, onnx);
    expect(r.computation).toEqual({ proven: true, compared: 'A converted to ONNX by ovir, against B', differences: 0 });
  });

  it('two ONNX forms of one computation (LeakyRelu, and PRelu by a constant slope) are proven through IR, where both are PRelu', () => {
    const leaky = onnxOf('leaky', 'LeakyRelu', { alpha: A.float(0.25) });
    const b = new Builder('onnx', 17);
    const x = b.input('x', 'f32', [2, 3]);
    const slope = b.init('slope', tensorFromFloat32([0.25], []));
    b.output(b.op(b.graph, 'PRelu', [x, slope], 'y'));
    const prelu = join(dir, 'prelu.onnx');
    saveModel(b.model, prelu);
    const r = checkFile(leaky, prelu);
    expect(r.computation).toEqual({ proven: true, compared: 'both converted to IR by ovir', differences: 0 });
  });

  it('an If whose condition is boolean[1,1] (ovir reshapes it to [1] for IR): equivalent, not a rank contradiction of the condition (was NOT equivalent: openWakeWord hey_jarvis)', () => {
    const b = new Builder('onnx', 13);
    const cond = b.input('cond', 'boolean', [1, 1]);
    const x = b.input('x', 'f32', [2, 3]);
    const n = b.ifNode(b.graph, cond, ['y']);
    const then = b.body(n, 'then_branch');
    b.results(then, [b.op(then, 'Relu', [x], 't')]);
    const other = b.body(n, 'else_branch');
    b.results(other, [b.op(other, 'Neg', [x], 'e')]);
    b.output(n.outputs[0]!);
    const onnx = join(dir, 'cond11.onnx');
    saveModel(b.model, onnx);
    const r = checkFile(onnx, irOf(onnx));
    expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(r.computation?.proven).toBe(true);
    expect(r.ok).toBe(true);
  });

  it('an LSTM with peepholes (an IR Loop-5 of ovir\'s own layout, written back as an ONNX Loop whose inputs come in another order): both files prove each other, no contradiction from pairing Loop inputs by position (13 such backend models were NOT equivalent)', () => {
    const b = new Builder('onnx', 14);
    const ins = [
      b.input('X', 'f32', [1, 2, 4]), b.input('W', 'f32', [1, 12, 4]), b.input('R', 'f32', [1, 12, 3]), b.input('B', 'f32', [1, 24]),
      b.input('sequence_lens', 'i32', [2]), b.input('initial_h', 'f32', [1, 2, 3]), b.input('initial_c', 'f32', [1, 2, 3]), b.input('P', 'f32', [1, 9]),
    ];
    const n = b.node(b.graph, 'LSTM', ins, ['', 'Y_h'], { hidden_size: A.int(3) }, { name: 'lstm' });
    b.output(n.outputs[1]!);
    const onnx = join(dir, 'lstm-peep.onnx');
    saveModel(b.model, onnx);
    const xml = irOf(onnx);
    const back = join(dir, 'lstm-peep-back.onnx');
    saveModel(convertModel(loadModel(xml), { to: 'onnx' }), back);
    for (const [x, y] of [[onnx, xml], [xml, back], [back, xml]] as const) {
      const r = checkFile(x, y);
      expect([x, y, r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message)]).toEqual([x, y, []]);
      expect(r.computation?.proven).toBe(true);
    }
  });

  it('IR PRelu of a 1-D slope against its ONNX form (the slope unsqueezed to ONNX broadcasting): equivalent (PRelu-6 is a plain pair, PRelu-7 not: the slope was paired with its Unsqueeze, rank 1 vs 3)', () => {
    const b = new Builder('ov');
    const x = b.input('x', 'f32', [2, 3, 4]);
    b.output(b.op(b.graph, 'PRelu', [x, b.init('slope', tensorFromFloat32([0.1, 0.2, 0.3], [3]))], 'y'));
    const xml = join(dir, 'prelu-ir.xml');
    saveModel(b.model, xml);
    const onnx = join(dir, 'prelu-ir.onnx');
    saveModel(convertModel(loadModel(xml), { to: 'onnx' }), onnx);
    const r = checkFile(xml, onnx);
    expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(r.ok).toBe(true);
  });

  it('every bundled sample (If, nested Ifs, Loop, Scan): its ONNX and its IR prove each other', () => {
    for (const s of ['if-shared-outer', 'if-nested', 'if-inside-loop', 'loop', 'scan-if-inside', 'if-direct-output', 'if-different-outer']) {
      const r = checkFile(`samples/${s}/model.onnx`, `samples/${s}/model.xml`);
      expect([s, r.computation?.proven]).toEqual([s, true]);
    }
  });
});

describe('the CLI', () => {
  beforeAll(() => {
    expect(existsSync(builtDist('src/batch/ort-child.js'))).toBe(true);
  }, 180_000);

  it('not proven is exit 1 with the place; --run finding the same numbers settles it: "equivalent by the numbers", exit 0', async () => {
    // Neg against a Multiply by -1 (ovc writes Neg so): the same numbers, another form
    const a = onnxOf('neg', 'Neg');
    const b = new Builder('ov');
    const x = b.input('x', 'f32', [2, 3]);
    const m1 = b.init('minus_one', tensorFromFloat32([-1], []));
    b.output(b.op(b.graph, 'Multiply', [x, m1], 'y'));
    const xml = join(dir, 'neg-as-mul.xml');
    saveModel(b.model, xml);
    const plain = await runCli('check', a, xml);
    expect(plain.code).toBe(1);
    expect(plain.stdout).toMatch(/^NOT proven \(the computation is written differently at 1 place/m);
    const run = await runCli('check', a, xml, '--run');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^equivalent by the numbers \(the computation is written differently at 1 place/m);
    // and Relu against Sigmoid stays exit 1 with --run: the numbers differ
    const wrong = await runCli('check', onnxOf('relu3', 'Relu'), irOf(onnxOf('sigmoid3', 'Sigmoid')), '--run');
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toContain('DIFFERENT outputs in onnxruntime');
  }, 60_000);
});
