/**
 * CausalConvWithState-27, LinearAttention-27 and FlexAttention-1 (mappings/nn/) are judged by
 * convert-zoo.test.ts on the backend cases as written: every dim static. Models in the wild have
 * run-time batch, sequence and channel dims, so here each backend case of the three ops is read with
 * every graph input and output dim made symbolic, converted to IR by ovir, and run in OpenVINO on
 * the case's own inputs: the expected outputs must come out (what convert-zoo judges, without the
 * static shapes the decompositions could lean on). That IR converted back to ONNX must compute them
 * in onnxruntime too (which has no kernel for the source ops).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { sym } from '../../src/graph/shape.js';
import { tensorType } from '../../src/graph/types.js';
import { loadModel, saveModel } from '../../src/io/load.js';
import { decodeOnnx } from '../../src/onnx/decode.js';
import { compareTensors } from '../helpers/compare.js';
import { Oracle, oracleAvailable, type OracleTensor } from '../helpers/oracle.js';
import { backendCases, inputRecord, loadDataSet } from '../helpers/testdata.js';

const CASES = backendCases({ filter: /test_(causal_conv_with_state|linear_attention|flexattention)(?!.*expanded)/ });

let oracle: Oracle;
let tmp: string;

beforeAll(async () => {
  oracle = await Oracle.start();
  tmp = mkdtempSync(join(tmpdir(), 'ovir-new-ops-'));
});

afterAll(async () => {
  await oracle?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

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
    const xml = join(tmp, `${c.name.replace(/\W/g, '_')}.xml`);
    saveModel(convertModel(m), xml);
    const back = xml.replace(/\.xml$/, '.onnx');
    saveModel(convertModel(loadModel(xml)), back);
    const ds = loadDataSet(c.dataSets[0]!);
    const differences = (what: string, got: Record<string, OracleTensor>) => ds.outputs.flatMap(({ tensor }, i) => {
      const name = m.graph.outputs[i]!.name;
      const d = got[name] ? compareTensors(got[name]!, tensor) : 'missing';
      return d ? [`${what} ${name}: ${d}`] : [];
    });
    expect(differences('OpenVINO on ONNX → IR', await oracle.runIr(xml, inputRecord(ds)))).toEqual([]);
    expect(differences('onnxruntime on ONNX → IR → ONNX', await oracle.runOrt(back, inputRecord(ds)))).toEqual([]);
  });
});
