import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import { A, allNodes, verifyGraph, type Attr, type Model } from '../../src/graph/index.js';
import { saveModel } from '../../src/io/load.js';
import { compareOutputs } from '../helpers/compare.js';
import { Oracle, oracleAvailable, type OracleTensor } from '../helpers/oracle.js';
import { Builder } from './builder.js';

/**
 * ONNX MelWeightMatrix-17 → IR (mappings/math/mel-weight-matrix.ts): the triangular mel filters of
 * onnx's reference, computed from the five run-time scalars. The backend case
 * (libonnx test_melweightmatrix) is judged in test/conformance/convert-zoo.test.ts; these add
 * other bin counts, DFT lengths, sample rates and edges, and output_datatype.
 */
const dir = mkdtempSync(join(tmpdir(), 'ovir-mel-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function model(outputDatatype?: number): Model {
  const b = new Builder('onnx', 17);
  const ins = [b.input('num_mel_bins', 'i32', []), b.input('dft_length', 'i32', []), b.input('sample_rate', 'i32', []),
    b.input('lower_edge_hertz', 'f32', []), b.input('upper_edge_hertz', 'f32', [])];
  const attrs: Record<string, Attr> = outputDatatype === undefined ? {} : { output_datatype: A.int(outputDatatype) };
  const n = b.node(b.graph, 'MelWeightMatrix', ins, ['y'], attrs, { name: 'mel' });
  b.output(n.outputs[0]!);
  return b.model;
}

describe('MelWeightMatrix: the filters as IR ops of the run-time scalars', () => {
  it('no MelWeightMatrix in the IR: the mel scale by Log/Exp, the bins by Floor, the slopes selected', () => {
    const ir = convertModel(model());
    const ops = [...allNodes(ir.graph)].map((n) => n.op);
    expect(ops).toEqual(expect.arrayContaining(['Range', 'Log', 'Exp', 'Floor', 'Select']));
    expect(ops).not.toContain('MelWeightMatrix');
    expect(ir.graph.outputs[0]!.type).toMatchObject({ elem: 'f32', shape: [null, null] });
    expect(verifyGraph(ir.graph)).toEqual([]);
  });

  it('output_datatype: a Convert at the end; a type without numbers is refused, naming the node', () => {
    expect(convertModel(model(10)).graph.outputs[0]!.type).toMatchObject({ elem: 'f16' });
    try { convertModel(model(8)); expect.unreachable(); } catch (e) {
      expect((e as OvirError).diagnostics.map((d) => `${d.code} ${d.where}`)).toEqual(['CONVERT_UNSUPPORTED_ATTR main/mel']);
    }
  });
});

const scalar = (dtype: 'i32' | 'i64' | 'f32', v: number): OracleTensor => ({
  dtype, shape: [],
  data: new Uint8Array(dtype === 'i32' ? new Int32Array([v]).buffer : dtype === 'i64' ? new BigInt64Array([BigInt(v)]).buffer : new Float32Array([v]).buffer),
});
/** [num_mel_bins, dft_length, sample_rate, lower, upper] */
const ENGINE: Record<string, [number, number, number, number, number]> = {
  '8 bins, dft 16, 8 kHz, 0–4000 Hz (libonnx\'s)': [8, 16, 8192, 0, 4096],
  '40 bins, dft 512, 16 kHz, 20–7600 Hz (bins of width 0 and 1)': [40, 512, 16000, 20, 7600],
  '80 bins, dft 400, 16 kHz, 0–8000 Hz': [80, 400, 16000, 0, 8000],
  '13 bins, dft 1023, 44.1 kHz, 300–11025 Hz': [13, 1023, 44100, 300, 11025],
};

describe.skipIf(!oracleAvailable())('engines: OpenVINO on ovir\'s IR computes what onnxruntime computes', () => {
  it('every case', async () => {
    const base = join(dir, 'mel');
    saveModel(model(), `${base}.onnx`);
    saveModel(convertModel(model()), `${base}.xml`);
    const oracle = await Oracle.start();
    try {
      for (const [m, dft, sr, lo, hi] of Object.values(ENGINE)) {
        const feeds = {
          num_mel_bins: scalar('i32', m), dft_length: scalar('i32', dft), sample_rate: scalar('i32', sr),
          lower_edge_hertz: scalar('f32', lo), upper_edge_hertz: scalar('f32', hi),
        };
        const want = await oracle.runOrt(`${base}.onnx`, feeds);
        const got = await oracle.runIr(`${base}.xml`, feeds);
        expect(want['y']!.shape).toEqual([Math.floor(dft / 2) + 1, m]);
        expect(compareOutputs(got, [{ name: 'y', tensor: want['y']! }])).toEqual([]);
      }
    } finally {
      await oracle.close();
    }
  }, 120_000);
});
