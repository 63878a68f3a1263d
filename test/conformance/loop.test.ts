/**
 * Loop ⇄ Loop-5 judged by the engines, on ONNX Loop models of our own (test/convert/loop-fixtures.ts)
 * and on the samples (samples/loop, samples/if-inside-loop):
 *   onnxruntime on the ONNX model gives the expected outputs;
 *   ONNX → IR runs in OpenVINO with the same outputs;
 *   ONNX → IR → ONNX passes onnx's checker and runs in onnxruntime with the same outputs;
 *   ONNX → IR → ONNX → IR runs in OpenVINO with the same outputs;
 *   ovc's IR of the ONNX model → ONNX passes the checker and runs in onnxruntime the same.
 * (The backend Loop cases — test_loop11, the range *_expanded functions — are in convert-zoo.)
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { tensorFromInt64, type Model } from '../../src/graph/index.js';
import { decodeOnnx } from '../../src/onnx/decode.js';
import { applyInferred, inferTypes } from '../../src/shape/index.js';
import { loadModel, saveModel } from '../../src/io/load.js';
import { accumulate, ifInsideLoop, LOOP_VERSIONS, nestedLoops } from '../convert/loop-fixtures.js';
import { compareTensors } from '../helpers/compare.js';
import { useOracle, REPO_ROOT, type OracleTensor } from '../helpers/oracle.js';

const env = useOracle('ovir-loop-');

const f32 = (values: number[]): OracleTensor => ({ dtype: 'f32', shape: [values.length], data: new Uint8Array(new Float32Array(values).buffer) });
const i64 = (v: number): OracleTensor => ({ dtype: 'i64', shape: [], data: new Uint8Array(new BigInt64Array([BigInt(v)]).buffer) });
const bool = (v: boolean): OracleTensor => ({ dtype: 'boolean', shape: [], data: Uint8Array.of(v ? 1 : 0) });

function compare(what: string, expected: Record<string, OracleTensor>, got: Record<string, OracleTensor>): void {
  for (const [n, e] of Object.entries(expected)) {
    const g = got[n];
    const d = g ? compareTensors(g, e) : 'missing output';
    if (d) throw new Error(`${what}: output '${n}': ${d}`);
  }
}

/** Feeds only the inputs the model declares. */
const feedFor = (path: string, all: Record<string, OracleTensor>): Record<string, OracleTensor> =>
  Object.fromEntries(loadModel(path).graph.inputs.map((v) => [v.name || String(v.meta['layerName']), all[v.name || String(v.meta['layerName'])]!]));

async function judge(name: string, src: string, feeds: Record<string, OracleTensor>[], opts: { ovc?: boolean; opset?: number } = {}): Promise<void> {
  const ir = convertModel(loadModel(src));
  const xml = join(env.tmp, `${name}.xml`);
  saveModel(ir, xml);
  const opset = opts.opset ?? 17;
  const back = join(env.tmp, `${name}.back.onnx`);
  saveModel(convertModel(loadModel(xml), { opset }), back);
  const checked = await env.oracle.onnxCheck(back);
  if (!checked.ok) throw new Error(`onnx checker rejects ONNX → IR → ONNX: ${checked.error}`);
  const again = join(env.tmp, `${name}.again.xml`);
  saveModel(convertModel(loadModel(back)), again);
  let ovcOnnx: string | null = null;
  if (opts.ovc !== false) {
    ovcOnnx = join(env.tmp, `${name}.ovc.onnx`);
    saveModel(convertModel(loadModel(await env.oracle.ovcCached(src)), { opset: 17 }), ovcOnnx);
  }
  for (const all of feeds) {
    const inputs = feedFor(src, all);
    const expected = await env.oracle.runOrt(src, inputs);
    compare('ONNX → IR in OpenVINO', expected, await env.oracle.runIr(xml, feedFor(xml, all)));
    compare('ONNX → IR → ONNX in onnxruntime', expected, await env.oracle.runOrt(back, feedFor(back, all)));
    compare('ONNX → IR → ONNX → IR in OpenVINO', expected, await env.oracle.runIr(again, feedFor(again, all)));
    if (ovcOnnx) compare('ovc IR → ONNX in onnxruntime', expected, await env.oracle.runOrt(ovcOnnx, feedFor(ovcOnnx, all)));
  }
}

/** An IR built here: OpenVINO on it gives the expected outputs; IR → ONNX runs the same in onnxruntime. */
async function judgeIr(name: string, ir: Model, feeds: Record<string, OracleTensor>[]): Promise<string[]> {
  applyInferred(inferTypes(ir));
  const xml = join(env.tmp, `${name}.xml`);
  saveModel(ir, xml);
  const onnx = join(env.tmp, `${name}.onnx`);
  const converted = convertModel(loadModel(xml), { opset: 17 });
  saveModel(converted, onnx);
  const checked = await env.oracle.onnxCheck(onnx);
  if (!checked.ok) throw new Error(`onnx checker rejects IR → ONNX: ${checked.error}`);
  for (const all of feeds) {
    const expected = await env.oracle.runIr(xml, feedFor(xml, all));
    compare('IR → ONNX in onnxruntime', expected, await env.oracle.runOrt(onnx, feedFor(onnx, all)));
  }
  return converted.graph.nodes.map((n) => n.op);
}

function write(name: string, bytes: Uint8Array): string {
  const p = join(env.tmp, `${name}.onnx`);
  writeFileSync(p, bytes);
  return p;
}

const FEEDS = [
  { M: i64(3), cond: bool(true), y0: f32([1, -2]), x: f32([0.5, 0.25]) },
  { M: i64(5), cond: bool(true), y0: f32([0, 3]), x: f32([-1, 2]) },
  { M: i64(0), cond: bool(true), y0: f32([4, 5]), x: f32([1, 1]) },
];

describe('Loop ⇄ Loop-5 in the engines', () => {
  it.each(LOOP_VERSIONS)('Loop-$version (opset $opset): carried value, scan output, outer value read in the body, condition computed', async ({ version, opset }) => {
    await judge(`loop${version}`, write(`loop${version}`, accumulate({ opset, condOut: 'computed' })), FEEDS, { opset: Math.max(opset, 11) });
  });

  it('cond passed through (OpenVINO\'s constant-true condition)', async () => {
    await judge('through', write('through', accumulate({ condOut: 'through' })), FEEDS);
  });

  it('M empty (runs until the body\'s condition is false)', async () => {
    await judge('no-m', write('no-m', accumulate({ trip: 'empty' })), FEEDS);
  });

  it('cond empty', async () => {
    await judge('no-cond', write('no-cond', accumulate({ cond: 'empty', condOut: 'computed' })), FEEDS);
  });

  it('If inside Loop', async () => {
    await judge('if-in-loop', write('if-in-loop', ifInsideLoop()), FEEDS);
  });

  it('Loop in Loop in If, with an If in the inner Loop (both branches)', async () => {
    const x = f32([1.5, -0.5]);
    await judge('nested', write('nested', nestedLoops()), [{ M: i64(2), go: bool(true), x }, { M: i64(2), go: bool(false), x }, { M: i64(4), go: bool(true), x }]);
  });

  it('IR: the last iteration\'s value of a Result without back edge (ONNX: the last slice of a scan output, after a slice of zeros for no iteration)', async () => {
    const ir = convertModel(decodeOnnx(accumulate({ condOut: 'computed' })));
    const body = ir.graph.nodes.find((n) => n.op === 'Loop')!.bodies.get('body')!;
    // output 0: the last y_item slice ([1, 2]) instead of the carried y
    body.outputs = body.outputs.map((o) => (o.to === 0 ? { result: 2, to: 0 } : o));
    ir.graph.nodes.find((n) => n.op === 'Loop')!.outputs[0]!.type = null;
    expect(await judgeIr('ir-last', ir, FEEDS.slice(0, 2))).toEqual(['Loop', 'Concat', 'Gather']);
  });

  it('IR: a concatenation along axis 1 of slices whose axis 1 is 1 (ONNX: stacked, squeezed, transposed)', async () => {
    const ir = convertModel(decodeOnnx(accumulate({ condOut: 'computed', secondScan: true })));
    const loop = ir.graph.nodes.find((n) => n.op === 'Loop')!;
    const body = loop.bodies.get('body')!;
    // the first scan output along axis 1; the second stays OpenVINO's frontend form (axis 0)
    const unsqueeze = body.graph.outputs[2]!.producer!;
    unsqueeze.setInput(1, body.graph.addInitializer(tensorFromInt64([1n])));
    body.outputs = body.outputs.map((o) => (o.to === 1 ? { ...o, extra: { ...o.extra, axis: '1' } } : o));
    loop.outputs[1]!.type = null;
    unsqueeze.outputs[0]!.type = null;
    expect(await judgeIr('ir-axis1', ir, FEEDS.slice(0, 2))).toEqual(['Loop', 'Squeeze', 'Transpose']);
    await judge('ir-axis1-onnx', join(env.tmp, 'ir-axis1.onnx'), FEEDS.slice(0, 2), { ovc: false });
  });

  it.each(['loop', 'if-inside-loop'])('samples/%s: its two files compute the same in both engines', async (name) => {
    const dir = join(REPO_ROOT, 'samples', name);
    for (const all of FEEDS) {
      const expected = await env.oracle.runOrt(join(dir, 'model.onnx'), feedFor(join(dir, 'model.onnx'), all));
      compare(`samples/${name}/model.xml in OpenVINO`, expected, await env.oracle.runIr(join(dir, 'model.xml'), feedFor(join(dir, 'model.xml'), all)));
    }
    await judge(`sample-${name}`, join(dir, 'model.onnx'), FEEDS);
  });
});
