/**
 * ONNX Scan ⇄ OpenVINO TensorIterator-1, judged by the engines on cases the backend tests do not
 * cover (the backend's test_scan* and ovc's IR of them are judged by convert-zoo.test.ts):
 * every combination of scan input axis (0, 1, -1), input direction, output axis (0, 1, -1),
 * output direction, one or two scan inputs, at opsets 11, 16 and 21 (negative axes at 11), and
 * samples/scan-if-inside (an If inside the Scan body) with cond true and false.
 * For each: onnxruntime on the source gives the expected outputs; OpenVINO on ovir's IR and
 * onnxruntime on ovir's IR → ONNX must give the same.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { decodeOnnx } from '../../src/onnx/decode.js';
import { loadModel, saveModel } from '../../src/io/load.js';
import { compareTensors } from '../helpers/compare.js';
import * as ob from '../helpers/onnx-builder.js';
import { useOracle, REPO_ROOT, type OracleTensor, seededF32 } from '../helpers/oracle.js';

const env = useOracle('ovir-scan-');

interface Variant { opset: number; inAxis: number; inDir: number; outAxis: number; outDir: number; two: boolean }

/** s2 = s + x; y = s2 · (x2 or x), stacked at outAxis/outDir; y2 = s2 stacked the other way. */
function variantModel(v: Variant): { bytes: Uint8Array; inputs: Record<string, OracleTensor> } {
  const f32 = (name: string, shape: ob.DimSpec[] | null = null) => ob.valueInfo(name, 'f32', shape);
  const body = ob.graph({
    name: 'body',
    inputs: [f32('s', [3]), f32('x', [3]), ...(v.two ? [f32('x2', [3])] : [])],
    outputs: [f32('s2', [3]), f32('y'), f32('y2')],
    nodes: [ob.node('Add', ['s', 'x'], ['s2']), ob.node('Mul', ['s2', v.two ? 'x2' : 'x'], ['y']), ob.node('Identity', ['s2'], ['y2'])],
  });
  const xsShape = v.inAxis === 0 ? [5, 3] : [3, 5];
  const bytes = ob.encodeModelProto(ob.model({
    opset: v.opset,
    graph: ob.graph({
      name: 'main',
      inputs: [f32('s0', [3]), f32('xs', xsShape), ...(v.two ? [f32('xs2', [5, 3])] : [])],
      outputs: [f32('sN'), f32('ys'), f32('ys2')],
      nodes: [ob.node('Scan', ['s0', 'xs', ...(v.two ? ['xs2'] : [])], ['sN', 'ys', 'ys2'], {
        body,
        num_scan_inputs: v.two ? 2 : 1,
        scan_input_axes: [v.inAxis, ...(v.two ? [0] : [])],
        scan_input_directions: [v.inDir, ...(v.two ? [1 - v.inDir] : [])],
        scan_output_axes: [v.outAxis, 0],
        scan_output_directions: [v.outDir, 1 - v.outDir],
      }, { name: 'scan' })],
    }),
  }));
  const inputs: Record<string, OracleTensor> = { s0: seededF32([3], 1), xs: seededF32(xsShape, 2) };
  if (v.two) inputs['xs2'] = seededF32([5, 3], 3);
  return { bytes, inputs };
}

const VARIANTS: Variant[] = [];
for (const opset of [11, 16, 21]) {
  for (const inAxis of [0, 1, -1]) for (const inDir of [0, 1]) for (const outAxis of [0, 1, -1]) for (const outDir of [0, 1]) for (const two of [false, true]) {
    if (opset !== 11 && (inAxis < 0 || outAxis < 0)) continue;
    VARIANTS.push({ opset, inAxis, inDir, outAxis, outDir, two });
  }
}

function sameOutputs(what: string, names: string[], want: Record<string, OracleTensor>, got: Record<string, OracleTensor>): void {
  const diffs = names.flatMap((n) => {
    const d = got[n] ? compareTensors(got[n]!, want[n]!) : 'missing';
    return d ? [`${what} ${n}: ${d}`] : [];
  });
  expect(diffs).toEqual([]);
}

/** Source ONNX in onnxruntime = ONNX → IR in OpenVINO = ONNX → IR → ONNX in onnxruntime. */
async function judge(name: string, onnxPath: string, inputs: Record<string, OracleTensor>, outputs: string[]): Promise<void> {
  const want = await env.oracle.runOrt(onnxPath, inputs);
  const xml = join(env.tmp, `${name}.xml`);
  saveModel(convertModel(decodeOnnx(readFileSync(onnxPath))), xml);
  sameOutputs('OpenVINO on ONNX → IR', outputs, want, await env.oracle.runIr(xml, inputs));
  const back = join(env.tmp, `${name}.rt.onnx`);
  saveModel(convertModel(loadModel(xml)), back);
  const check = await env.oracle.onnxCheck(back);
  expect(check.error ?? null).toBeNull();
  sameOutputs('onnxruntime on ONNX → IR → ONNX', outputs, want, await env.oracle.runOrt(back, inputs));
}

describe('Scan ⇄ TensorIterator: the engines agree with onnxruntime on the source', () => {
  it.each(VARIANTS.map((v) => ({ ...v, name: `Scan-${v.opset} axis ${v.inAxis} dir ${v.inDir} → axis ${v.outAxis} dir ${v.outDir}${v.two ? ', two scan inputs' : ''}` })))('$name', async (v) => {
    const { bytes, inputs } = variantModel(v);
    const src = join(env.tmp, 'variant.onnx');
    writeFileSync(src, bytes);
    await judge('variant', src, inputs, ['sN', 'ys', 'ys2']);
  });

  it.each([true, false])('samples/scan-if-inside with c = %s, and its IR as written', async (c) => {
    const dir = join(REPO_ROOT, 'samples', 'scan-if-inside');
    const inputs: Record<string, OracleTensor> = {
      c: { dtype: 'boolean', shape: [], data: Uint8Array.of(c ? 1 : 0) }, s0: seededF32([2], 4), xs: seededF32([4, 2], 5), w: seededF32([2], 6),
    };
    await judge('sample', join(dir, 'model.onnx'), inputs, ['s_final', 'ys']);
    sameOutputs('OpenVINO on the sample IR', ['s_final', 'ys'], await env.oracle.runOrt(join(dir, 'model.onnx'), inputs), await env.oracle.runIr(join(dir, 'model.xml'), inputs));
  });
});
