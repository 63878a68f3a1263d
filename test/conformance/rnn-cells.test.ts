/**
 * IR LSTMCell-4 / LSTMCell-1 / GRUCell-3 / RNNCell-0 → ONNX LSTM / GRU / RNN (mappings/rnn/cells.ts),
 * judged by the engines on IRs OpenVINO's own Python API writes (test/conformance/rnn-cells.py):
 * standalone cells with every activation set OpenVINO's CPU plugin runs, clip, linear_before_reset,
 * a dynamic batch and run-time weights, and cells inside a TensorIterator body (X sliced along the
 * sequence axis, forward and reverse, batch- and sequence-major; H/C merged with back edges).
 * For each: OpenVINO on the IR gives the expected outputs; onnxruntime on ovir's IR → ONNX (which
 * onnx's checker accepts) and OpenVINO on ovir's IR → ONNX → IR must give the same (f32, rtol 1e-4).
 * The round trip gives the cell back (a one-step ONNX LSTM/GRU/RNN is written as the IR cell): as
 * an LSTMSequence/GRUSequence with clip or other activations inside the TensorIterator, OpenVINO's
 * CPU plugin refused it ("No nested TensorIterator", measured).
 * The `refused-*` IRs (LSTMCell-1 peepholes, input_forget, weights_format; hardsigmoid) must be
 * refused with a coded diagnostic naming the cell.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { allNodes } from '../../src/graph/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import { loadModel, saveModel } from '../../src/io/load.js';
import { compareTensors } from '../helpers/compare.js';
import * as ob from '../helpers/onnx-builder.js';
import { Oracle, REPO_ROOT, VENV_PYTHON, type OracleTensor } from '../helpers/oracle.js';

interface Case { name: string; xml: string; inputs: Record<string, number[]>; refused: boolean }

let oracle: Oracle;
let tmp: string;
const tmpRoot = mkdtempSync(join(tmpdir(), 'ovir-rnn-cells-'));
const CASES: Case[] = JSON.parse(execFileSync(VENV_PYTHON, [join(REPO_ROOT, 'test/conformance/rnn-cells.py'), tmpRoot], { encoding: 'utf8' })) as Case[];

beforeAll(async () => {
  oracle = await Oracle.start();
  tmp = mkdtempSync(join(tmpdir(), 'ovir-rnn-cells-out-'));
});

afterAll(async () => {
  await oracle?.close();
  for (const d of [tmp, tmpRoot]) if (d) rmSync(d, { recursive: true, force: true });
});

function f32Tensor(shape: number[], seed: number): OracleTensor {
  let s = seed * 2654435761 >>> 0;
  const n = shape.reduce((a, b) => a * b, 1);
  const data = new Uint8Array(n * 4);
  const dv = new DataView(data.buffer);
  for (let i = 0; i < n; i++) { s = (s * 1103515245 + 12345) >>> 0; dv.setFloat32(i * 4, (s / 2 ** 32) * 4 - 2, true); }
  return { dtype: 'f32', shape, data };
}

function sameOutputs(what: string, count: number, want: Record<string, OracleTensor>, got: Record<string, OracleTensor>): void {
  const diffs: string[] = [];
  for (let i = 0; i < count; i++) {
    const d = got[`#${i}`] ? compareTensors(got[`#${i}`]!, want[`#${i}`]!) : 'missing';
    if (d) diffs.push(`${what} output ${i}: ${d}`);
  }
  expect(diffs).toEqual([]);
}

describe('IR recurrent cells → ONNX: onnxruntime and OpenVINO agree with OpenVINO on the IR', () => {
  it.each(CASES.filter((c) => !c.refused))('$name', async (c) => {
    const inputs = Object.fromEntries(Object.entries(c.inputs).map(([n, shape], k) => [n, f32Tensor(shape, k + 1)]));
    const want = await oracle.runIr(c.xml, inputs);
    const count = Object.keys(want).filter((k) => k.startsWith('#')).length;
    const source = loadModel(c.xml);
    const onnx = join(tmp, `${c.name}.onnx`);
    saveModel(convertModel(source), onnx);
    const check = await oracle.onnxCheck(onnx);
    expect(check.error ?? null).toBeNull();
    sameOutputs('onnxruntime on IR → ONNX', count, want, await oracle.runOrt(onnx, inputs));
    const back = join(tmp, `${c.name}.rt.xml`);
    saveModel(convertModel(loadModel(onnx)), back);
    const roundTrip = loadModel(back);
    expect([...allNodes(roundTrip.graph)].filter((n) => /Cell$/.test(n.op)).map((n) => n.op)).toEqual([...allNodes(source.graph)].filter((n) => /Cell$/.test(n.op)).map((n) => (n.op)));
    sameOutputs('OpenVINO on IR → ONNX → IR', count, want, await oracle.runIr(back, inputs));
  });

  it.each(CASES.filter((c) => c.refused))('$name is refused with a coded diagnostic', (c) => {
    let err: unknown = null;
    try { convertModel(loadModel(c.xml)); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(OvirError);
    const diags = (err as OvirError).diagnostics;
    expect(diags.map((d) => d.code).filter((code) => code.startsWith('CONVERT_'))).not.toEqual([]);
    expect(diags.some((d) => /LSTMCell/.test(d.where))).toBe(true);
  });
});

/**
 * The other way: a one-step ONNX LSTM/GRU/RNN (X [1, batch, input], states given, Y and Y_h/Y_c
 * read) is written as the IR cell; OpenVINO on it must give onnxruntime's numbers on the source.
 */
describe('one-step ONNX LSTM/GRU/RNN → IR cell: OpenVINO agrees with onnxruntime on the source', () => {
  const BATCH = 2; const IN = 3; const HID = 4;
  const vals = (n: number, seed: number): number[] => {
    const t = f32Tensor([n], seed);
    const dv = new DataView(t.data.buffer);
    return Array.from({ length: n }, (_, i) => dv.getFloat32(i * 4, true) * 0.5);
  };
  const VARIANTS: { op: string; gates: number; states: number; attrs: Record<string, ob.AttrValue> }[] = [
    { op: 'LSTM', gates: 4, states: 2, attrs: {} },
    { op: 'LSTM', gates: 4, states: 2, attrs: { direction: 'reverse', clip: 0.6, activations: ['Tanh', 'Relu', 'Sigmoid'] } },
    { op: 'GRU', gates: 3, states: 1, attrs: {} },
    { op: 'GRU', gates: 3, states: 1, attrs: { linear_before_reset: 1, activations: ['Relu', 'Tanh'] } },
    { op: 'RNN', gates: 1, states: 1, attrs: { activations: ['Relu'], clip: 0.5 } },
  ];
  it.each(VARIANTS.map((v) => ({ ...v, name: `${v.op} ${JSON.stringify(v.attrs)}` })))('$name', async (v) => {
    const f32 = (name: string, shape: number[]) => ob.valueInfo(name, 'f32', shape);
    const stateNames = v.states === 2 ? ['h0', 'c0'] : ['h0'];
    const outs = v.states === 2 ? ['y', 'yh', 'yc'] : ['y', 'yh'];
    const bytes = ob.encodeModelProto(ob.model({
      opset: 17,
      graph: ob.graph({
        name: 'main',
        inputs: [f32('x', [1, BATCH, IN]), ...stateNames.map((n) => f32(n, [1, BATCH, HID]))],
        outputs: outs.map((n) => ob.valueInfo(n, 'f32')),
        initializers: [
          ob.floatTensor('W', [1, v.gates * HID, IN], vals(v.gates * HID * IN, 21)),
          ob.floatTensor('R', [1, v.gates * HID, HID], vals(v.gates * HID * HID, 22)),
          ob.floatTensor('B', [1, 2 * v.gates * HID], vals(2 * v.gates * HID, 23)),
        ],
        nodes: [ob.node(v.op, ['x', 'W', 'R', 'B', '', ...stateNames], outs, { hidden_size: HID, ...v.attrs })],
      }),
    }));
    const src = join(tmp, 'one-step.onnx');
    writeFileSync(src, bytes);
    const inputs: Record<string, OracleTensor> = { x: f32Tensor([1, BATCH, IN], 31), h0: f32Tensor([1, BATCH, HID], 32) };
    if (v.states === 2) inputs['c0'] = f32Tensor([1, BATCH, HID], 33);
    const want = await oracle.runOrt(src, inputs);
    const ir = convertModel(loadModel(src));
    expect([...allNodes(ir.graph)].map((n) => n.op).filter((op) => /Cell|Sequence/.test(op))).toEqual([`${v.op}Cell`]);
    const xml = join(tmp, 'one-step.xml');
    saveModel(ir, xml);
    sameOutputs('OpenVINO on ONNX → IR', outs.length, want, await oracle.runIr(xml, inputs));
  });
});
