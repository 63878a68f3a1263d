/**
 * ONNX → IR of onnxruntime's com.microsoft quantization contrib ops (mappings/quantization/ms-*.ts),
 * judged by the engines on models test/conformance/contrib-ops.py builds with seeded inputs:
 * onnxruntime on the original model gives the expected outputs; OpenVINO on ovir's IR must give
 * the same, and so must onnxruntime on that IR converted back to ONNX (standard ops only).
 * Floats: rtol 1e-4. Quantized (u8 / i8) outputs: exactly, except an off-by-one where the value
 * before rounding lies within 1e-3 of a half (the `ties` mask the generator computes with a float
 * twin of the model): there onnxruntime's kernels (fixed-point or lookup-table arithmetic) and a
 * plain float computation may round to neighbours. Each such element is counted in the reason.
 *
 * MatMulNBits at accuracy_level 4 lets onnxruntime compute A in int8: its expected outputs are
 * onnxruntime's on the same model at accuracy_level 0 (the op's float product), and the case's
 * reason says how far onnxruntime's own level-4 numbers are from them.
 *
 * Statuses: pass; fail (wrong numbers, a crash of ours, an IR an engine cannot run); refused
 * (ovir declined with a coded diagnostic); skip only when onnxruntime itself cannot run the model
 * (QLinearReduceMean, which has no CPU kernel: then the conversion is judged against the outputs
 * contrib-ops.py computes in numpy from the op's definition, and a difference fails the test).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import { loadModel, saveModel } from '../../src/io/load.js';
import { compareTensors, tensorValues } from '../helpers/compare.js';
import { Oracle, REPO_ROOT, VENV_PYTHON, type OracleTensor } from '../helpers/oracle.js';
import { everyTestRan } from '../helpers/run-complete.js';
import { describeSuite, finishSuite, reasonOf, record, writeScoreboard } from '../helpers/scoreboard.js';

interface WireInput { dtype: string; shape: number[]; hex: string }
/**
 * `expected`: the outputs contrib-ops.py computes in numpy from the op's definition, for an op
 * onnxruntime's CPU EP has no kernel for (QLinearReduceMean): the conversion is judged against them,
 * the case stays a skip on the scoreboard (the reference engine cannot run it), and a difference fails.
 */
interface Case { name: string; onnx: string; inputs: Record<string, WireInput>; refused: boolean; ties: string | null; reference: string | null; expected?: WireInput[] }

const SUITE = 'contrib-ops';
let oracle: Oracle;
let tmp: string;
const tmpRoot = mkdtempSync(join(tmpdir(), 'ovir-contrib-ops-'));
const CASES: Case[] = JSON.parse(execFileSync(VENV_PYTHON, [join(REPO_ROOT, 'test/conformance/contrib-ops.py'), tmpRoot], { encoding: 'utf8' })) as Case[];
const caseNotes: string[] = [];

beforeAll(async () => {
  oracle = await Oracle.start();
  tmp = mkdtempSync(join(tmpdir(), 'ovir-contrib-ops-out-'));
  describeSuite(SUITE, 'onnxruntime\'s com.microsoft quantization contrib ops (QLinearAdd, QLinearMul, QLinearSigmoid, QLinearLeakyRelu, '
    + 'QLinearConcat, QLinearGlobalAveragePool, QLinearAveragePool, QLinearSoftmax, …) on seeded u8 / i8 inputs (test/conformance/contrib-ops.py): '
    + 'onnxruntime on the model is the reference; OpenVINO on ovir\'s IR and onnxruntime on the IR converted back to ONNX must compute the same '
    + '(quantized outputs exactly, an off-by-one only where the value before rounding is within 1e-3 of a half); '
    + 'MatMulIntegerToFloat, DynamicQuantizeMatMul, QGemm, com.microsoft QuantizeLinear / DequantizeLinear, MatMulNBits (2-, 4- and 8-bit; g_idx at 4 bits, where onnxruntime computes it, with 2-bit weights or packed zero points refused, onnxruntime reading the first as 4-bit values and ignoring the second; '
    + 'at accuracy_level 4, where onnxruntime computes A in int8, the expected outputs are onnxruntime\'s at accuracy_level 0, the op\'s float product), '
    + 'QLinearReduceMean (no onnxruntime CPU kernel: skips judged against a numpy reference of its definition, a difference fails), '
    + 'QAttention (per-tensor and per-column weights, masks, past / present), QEmbedLayerNormalization, '
    + 'GatherBlockQuantized (int4, uint4, packed uint8), com.microsoft QLinearConv (channels_last), DynamicQuantizeLSTM as quantize_dynamic writes it, with sequence_lens and input_forget too (batch 1, or batch 3 at hidden_size 260: '
    + 'with more rows, or 2 to 4 rows of at most 256, onnxruntime quantizes H per part of the batch its threads take, so its numbers depend on its thread count)', {
    openvino: oracle.versions.openvino, onnxruntime: oracle.versions.onnxruntime, onnx: oracle.versions.onnx,
  }, { filter: null });
});

afterAll(async ({}, file) => {
  if (everyTestRan(file)) finishSuite(SUITE);
  writeScoreboard();
  if (caseNotes.length) console.log(`contrib-ops notes (passing cases):\n  ${caseNotes.join('\n  ')}`);
  await oracle?.close();
  for (const d of [tmp, tmpRoot]) if (d) rmSync(d, { recursive: true, force: true });
});

const tensor = (w: WireInput): OracleTensor => ({ dtype: w.dtype, shape: w.shape, data: new Uint8Array(Buffer.from(w.hex, 'hex')) });

/** null when equal; quantized outputs may differ by one where `ties` marks a rounding tie (counted in `ties.used`). */
function compare(got: OracleTensor, want: OracleTensor, ties: Uint8Array | null, used: { n: number }): string | null {
  const exact = compareTensors(got, want);
  if (exact === null || !ties || !['u8', 'i8', 'u16', 'i16'].includes(want.dtype) || got.dtype !== want.dtype || got.shape.join() !== want.shape.join()) return exact;
  const g = tensorValues(got) as number[];
  const w = tensorValues(want) as number[];
  let n = 0;
  for (let k = 0; k < w.length; k++) {
    if (g[k] === w[k]) continue;
    if (Math.abs(g[k]! - w[k]!) !== 1 || !ties[k]) return exact;
    n++;
  }
  used.n += n;
  return null;
}

describe('com.microsoft quantization contrib ops → IR: OpenVINO on ovir\'s IR computes what onnxruntime computes on the model', () => {
  it.each(CASES)('$name', async (c) => {
    const inputs = Object.fromEntries(Object.entries(c.inputs).map(([n, w]) => [n, tensor(w)]));
    let want: Record<string, OracleTensor>;
    const notes: string[] = [];
    try {
      want = await oracle.runOrt(c.onnx, inputs);
      if (c.reference) {
        // the op's float product (MatMulNBits at accuracy_level 0); onnxruntime's own numbers at
        // the case's accuracy_level are an approximation of it, noted
        const own = want;
        want = await oracle.runOrt(c.reference, inputs);
        const d = compareTensors(own['#0']!, want['#0']!);
        if (d) notes.push(`reference: onnxruntime at accuracy_level 0 (at the model's own level it computes A in int8: ${d})`);
      }
    } catch (e) {
      if (!c.expected) {
        record(SUITE, c.name, 'skip', `onnxruntime cannot run the model: ${reasonOf(e)}`);
        return;
      }
      want = Object.fromEntries(c.expected.map((w, i) => [`#${i}`, tensor(w)]));
      notes.push(`onnxruntime cannot run the model: ${reasonOf(e)}; judged against contrib-ops.py's numpy reference instead`);
    }
    const xml = join(tmp, `${c.name}.xml`);
    try {
      saveModel(convertModel(loadModel(c.onnx)), xml);
    } catch (e) {
      const refused = e instanceof OvirError;
      record(SUITE, c.name, refused ? 'refused' : 'fail', refused ? e.diagnostics.map((d) => `${d.code} ${d.where}: ${d.message}`).join('; ') : reasonOf(e), { gap: true });
      if (c.refused && refused) return;
      throw e;
    }
    const ties = c.ties ? new Uint8Array(Buffer.from(c.ties, 'hex')) : null;
    const count = Object.keys(want).filter((k) => k.startsWith('#')).length;
    const diffs: string[] = [];
    const judge = (what: string, got: Record<string, OracleTensor>) => {
      const used = { n: 0 };
      for (let i = 0; i < count; i++) {
        const d = got[`#${i}`] ? compare(got[`#${i}`]!, want[`#${i}`]!, i === 0 ? ties : null, used) : 'missing';
        if (d) diffs.push(`${what} output ${i}: ${d}`);
      }
      if (used.n) notes.push(`${what}: ${used.n} element(s) off by one at a rounding tie`);
    };
    try {
      judge('OpenVINO on the IR', await oracle.runIr(xml, inputs));
      const back = join(tmp, `${c.name}.rt.onnx`);
      saveModel(convertModel(loadModel(xml)), back);
      judge('onnxruntime on IR → ONNX', await oracle.runOrt(back, inputs));
    } catch (e) {
      diffs.push(reasonOf(e));
    }
    if (notes.length) caseNotes.push(`${c.name}: ${notes.join('; ')}`);
    const status = diffs.length ? 'fail' : c.expected ? 'skip' : 'pass';
    record(SUITE, c.name, status, diffs.length ? diffs.join('; ') : notes.join('; '), { gap: diffs.length > 0 });
    expect(diffs).toEqual([]);
    expect(c.refused).toBe(false);
  });
});
