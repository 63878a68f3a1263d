/**
 * CausalConvWithState-27, LinearAttention-27 and FlexAttention-1 (mappings/nn/) are judged by
 * convert-zoo.test.ts on the backend cases as written: every dim static. Models in the wild have
 * run-time batch, sequence and channel dims, so here each backend case of the three ops is read with
 * every graph input and output dim made symbolic, converted to IR by ovir, and run in OpenVINO on
 * the case's own inputs: the expected outputs must come out (what convert-zoo judges, without the
 * static shapes the decompositions could lean on). That IR converted back to ONNX must compute them
 * in onnxruntime too (which has no kernel for the source ops). And FlexAttention inside an If
 * branch, its score_mod and prob_mod reading graph inputs from two scopes out, computes the
 * definition (worked out here in f64) for either branch.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { sym } from '../../src/graph/shape.js';
import { tensorType } from '../../src/graph/types.js';
import { loadModel, saveModel } from '../../src/io/load.js';
import { decodeOnnx } from '../../src/onnx/decode.js';
import { compareTensors } from '../helpers/compare.js';
import * as ob from '../helpers/onnx-builder.js';
import { useOracle, oracleAvailable, seededF32, type OracleTensor } from '../helpers/oracle.js';
import { backendCases, inputRecord, loadDataSet } from '../helpers/testdata.js';

const CASES = backendCases({ filter: /test_(causal_conv_with_state|linear_attention|flexattention)(?!.*expanded)/ });

const env = useOracle('ovir-new-ops-');

describe.skipIf(!oracleAvailable())('the newest ops with run-time dims: OpenVINO on ovir\'s IR computes the expected outputs', () => {
  it('finds the backend cases (13 CausalConvWithState, 14 LinearAttention, 11 FlexAttention)', () => {
    expect(CASES.length).toBe(38);
  });

  it.each(CASES.map((c) => ({ name: c.name, c })))('$name', async ({ c }) => {
    const m = decodeOnnx(readFileSync(c.model));
    for (const v of [...m.graph.inputs, ...m.graph.outputs]) {
      const t = v.type;
      if (t?.kind === 'tensor' && t.shape) v.type = tensorType(t.elem, t.shape.map((_, k) => sym(`${v.name}_${k}`)));
    }
    const xml = join(env.tmp, `${c.name.replace(/\W/g, '_')}.xml`);
    saveModel(convertModel(m), xml);
    const back = xml.replace(/\.xml$/, '.onnx');
    saveModel(convertModel(loadModel(xml)), back);
    const ds = loadDataSet(c.dataSets[0]!);
    const differences = (what: string, got: Record<string, OracleTensor>) => ds.outputs.flatMap(({ tensor }, i) => {
      const name = m.graph.outputs[i]!.name;
      const d = got[name] ? compareTensors(got[name]!, tensor) : 'missing';
      return d ? [`${what} ${name}: ${d}`] : [];
    });
    expect(differences('OpenVINO on ONNX → IR', await env.oracle.runIr(xml, inputRecord(ds)))).toEqual([]);
    expect(differences('onnxruntime on ONNX → IR → ONNX', await env.oracle.runOrt(back, inputRecord(ds)))).toEqual([]);
  });

  it('FlexAttention in an If branch, score_mod = scores + bias and prob_mod = probs · w reading outer graph inputs; GQA, scale 0.3', async () => {
    const f32 = (name: string, shape: ob.DimSpec[] | null = null) => ob.valueInfo(name, 'f32', shape);
    const mod = (op: string, x: string, outer: string) => ob.graph({ name: `${x}_mod`, inputs: [f32(x, ['B', 'H', 'L', 'S'])], outputs: [f32(`${x}_out`, ['B', 'H', 'L', 'S'])],
      nodes: [ob.node(op, [x, outer], [`${x}_out`])] });
    const flex = (out: string, attrs: Record<string, ob.AttrValue>) => ob.graph({ name: out, outputs: [f32(out)],
      nodes: [ob.node('FlexAttention', ['Q', 'K', 'V'], [out], attrs, { domain: 'ai.onnx.preview' })] });
    const bytes = ob.encodeModelProto(ob.model({
      opset: 26, opsets: { 'ai.onnx.preview': 1 }, irVersion: 11,
      graph: ob.graph({
        name: 'main',
        inputs: [ob.valueInfo('c', 'boolean', []), f32('Q', ['b', 4, 'l', 8]), f32('K', ['b', 2, 's', 8]), f32('V', ['b', 2, 's', 8]), f32('bias', ['l', 's']), f32('w', [])],
        outputs: [f32('Y')],
        nodes: [ob.ifNode('c', ['Y'],
          flex('y1', { score_mod: ob.attr.graph(mod('Add', 'scores', 'bias')), prob_mod: ob.attr.graph(mod('Mul', 'probs', 'w')), scale: ob.attr.float(0.3) }),
          flex('y2', {}))],
      }),
    }));
    const src = join(env.tmp, 'flex-if.onnx');
    writeFileSync(src, bytes);
    const xml = join(env.tmp, 'flex-if.xml');
    saveModel(convertModel(decodeOnnx(bytes)), xml);
    const [B, Hq, Hkv, L, S, E] = [2, 4, 2, 3, 5, 8];
    const inputs: Record<string, OracleTensor> = {
      Q: seededF32([B, Hq, L, E], 1), K: seededF32([B, Hkv, S, E], 2), V: seededF32([B, Hkv, S, E], 3), bias: seededF32([L, S], 4), w: seededF32([], 5),
    };
    const vals = (t: OracleTensor) => new Float32Array(t.data.buffer, t.data.byteOffset, t.data.byteLength / 4);
    const [q, k, v, bias, w] = (['Q', 'K', 'V', 'bias', 'w'] as const).map((n) => vals(inputs[n]!)) as [Float32Array, Float32Array, Float32Array, Float32Array, Float32Array];
    const expected = (mods: boolean): OracleTensor => {
      const scale = mods ? 0.3 : 1 / Math.sqrt(E);
      const y = new Float32Array(B * Hq * L * E);
      for (let b = 0; b < B; b++) for (let h = 0; h < Hq; h++) for (let i = 0; i < L; i++) {
        const kv = b * Hkv + Math.floor(h / (Hq / Hkv)); // query head h reads KV head ⌊h / group⌋
        const row = Array.from({ length: S }, (_, j) => {
          let dot = 0;
          for (let e = 0; e < E; e++) dot += q[((b * Hq + h) * L + i) * E + e]! * k[(kv * S + j) * E + e]!;
          return dot * scale + (mods ? bias[i * S + j]! : 0);
        });
        const top = Math.max(...row);
        const ex = row.map((x) => Math.exp(x - top));
        const sum = ex.reduce((a, x) => a + x, 0);
        const p = ex.map((x) => (x / sum) * (mods ? w[0]! : 1));
        for (let e = 0; e < E; e++) y[((b * Hq + h) * L + i) * E + e] = p.reduce((a, pj, j) => a + pj * v[(kv * S + j) * E + e]!, 0);
      }
      return { dtype: 'f32', shape: [B, Hq, L, E], data: new Uint8Array(y.buffer) };
    };
    for (const c of [true, false]) {
      const got = await env.oracle.runIr(xml, { ...inputs, c: { dtype: 'boolean', shape: [], data: Uint8Array.of(c ? 1 : 0) } });
      expect(compareTensors(got['Y']!, expected(c))).toBeNull();
    }
  });
});
