/**
 * ONNX → IR of onnxruntime's contrib ops of transformer models (mappings/microsoft/: Gelu,
 * BiasGelu, FastGelu, QuickGelu, BiasAdd, FusedMatMul, FusedConv, FusedGemm,
 * SkipLayerNormalization, SkipSimplifiedLayerNormalization, SimplifiedLayerNormalization,
 * EmbedLayerNormalization, Attention, MultiHeadAttention, GroupQueryAttention, RotaryEmbedding,
 * Range, Trilu, Pad, GatherND, GroupNorm, SkipGroupNorm), judged by the engines on one-node models test/conformance/contrib-fusion.py builds
 * with seeded inputs: onnxruntime on the model gives the expected outputs, OpenVINO on ovir's IR
 * must give the same (f32 rtol 1e-4, the shared comparator's small atol; f16 its f16 tolerance;
 * integers exactly), and so must onnxruntime on that IR converted back to ONNX (standard ops only).
 *
 * Statuses (suite `contrib-fusion` of the scoreboard): `pass`; `fail` (other numbers, a crash, a
 * refusal without a code or a node); `refused` (a clean coded refusal naming the node: the cases
 * the generator marks as meant to be refused, e.g. an output onnxruntime never writes; any other
 * refusal fails the test); `skip` only where onnxruntime itself cannot run the model (BiasAdd has
 * no CPU kernel; an activation or parameter onnxruntime refuses; Attention with do_rotary or
 * without bias, which its CPU kernel refuses or crashes on; MultiHeadAttention's packed forms;
 * GroupNorm and SkipGroupNorm, which have no CPU kernel — those are judged against the numpy
 * reference contrib-fusion.py computes instead, and the test fails where ovir's IR differs).
 * The gap column: ovc's IR of the same model in OpenVINO gives onnxruntime's numbers and ovir's
 * does not. Two cases are a small BERT encoder as PyTorch exports it, fused by onnxruntime's own
 * transformers optimizer (EmbedLayerNormalization → Attention with its mask_index →
 * SkipLayerNormalization → BiasGelu or FastGelu): the ops as they meet in a real optimized model.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import { loadModel, saveModel } from '../../src/io/load.js';
import { compareTensors } from '../helpers/compare.js';
import { Oracle, REPO_ROOT, VENV_PYTHON, type OracleTensor } from '../helpers/oracle.js';
import { everyTestRan } from '../helpers/run-complete.js';
import { describeSuite, finishSuite, record, reasonOf, writeScoreboard, type CaseStatus } from '../helpers/scoreboard.js';

interface WireInput { dtype: string; shape: number[]; hex: string }
/**
 * `fused`: the com.microsoft ops onnxruntime's transformers optimizer wrote into the model (BERT cases).
 * `expected`: the outputs contrib-fusion.py computes in numpy from the op's definition, for ops
 * onnxruntime's CPU EP has no kernel for (GroupNorm, SkipGroupNorm).
 */
interface Case { name: string; onnx: string; inputs: Record<string, WireInput>; refused: boolean; fused?: string[]; expected?: WireInput[] }

const SUITE = 'contrib-fusion';
let oracle: Oracle;
let tmp: string;
/** Cases onnxruntime runs, and of those the ones where ovc's IR gives its numbers (printed at the end). */
const ovcTally = { judged: 0, passes: 0, misses: [] as string[] };
const tmpRoot = mkdtempSync(join(tmpdir(), 'ovir-contrib-fusion-'));
const CASES: Case[] = JSON.parse(execFileSync(VENV_PYTHON, [join(REPO_ROOT, 'test/conformance/contrib-fusion.py'), tmpRoot], { encoding: 'utf8' })) as Case[];

beforeAll(async () => {
  oracle = await Oracle.start();
  tmp = mkdtempSync(join(tmpdir(), 'ovir-contrib-fusion-out-'));
  describeSuite(SUITE, 'onnxruntime\'s com.microsoft contrib ops of transformer models (GELU family, BiasAdd, FusedMatMul/Conv/Gemm, '
    + 'Skip/Simplified/Embed layer normalizations, Attention, MultiHeadAttention, GroupQueryAttention, RotaryEmbedding, Range, Trilu, Pad, GatherND, GroupNorm, SkipGroupNorm (no CPU kernel: judged against a numpy reference); a small BERT fused by onnxruntime\'s optimizer) → IR: OpenVINO on ovir\'s IR and onnxruntime on IR → ONNX against onnxruntime on the model; '
    + 'one-node models built by contrib-fusion.py with seeded inputs', {
    openvino: oracle.versions.openvino, onnxruntime: oracle.versions.onnxruntime, onnx: oracle.versions.onnx,
  }, { reference: 'ovc', filter: null });
});

afterAll(async ({}, file) => {
  if (everyTestRan(file)) finishSuite(SUITE);
  process.stdout.write(`contrib-fusion: ovc's IR gives onnxruntime's numbers in ${ovcTally.passes} of ${ovcTally.judged} cases onnxruntime runs (not: ${ovcTally.misses.join(', ')})\n`);
  writeScoreboard();
  await oracle?.close();
  for (const d of [tmp, tmpRoot]) if (d) rmSync(d, { recursive: true, force: true });
});

const tensor = (w: WireInput): OracleTensor => ({ dtype: w.dtype, shape: w.shape, data: new Uint8Array(Buffer.from(w.hex, 'hex')) });

/** What differs between onnxruntime's outputs and `got`, one line per output. */
function diffs(what: string, want: Record<string, OracleTensor>, got: Record<string, OracleTensor>): string[] {
  const count = Object.keys(want).filter((k) => k.startsWith('#')).length;
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const d = got[`#${i}`] ? compareTensors(got[`#${i}`]!, want[`#${i}`]!) : 'missing';
    if (d) out.push(`${what} output ${i}: ${d}`);
  }
  return out;
}

/** Whether ovc's IR in OpenVINO gives onnxruntime's numbers (the gap column's reference). */
async function ovcPasses(c: Case, inputs: Record<string, OracleTensor>, want: Record<string, OracleTensor>): Promise<boolean> {
  try {
    const xml = await oracle.ovcCached(c.onnx);
    return diffs('ovc', want, await oracle.runIr(xml, inputs)).length === 0;
  } catch { return false; }
}

async function judge(c: Case): Promise<{ status: CaseStatus; reason?: string }> {
  const inputs = Object.fromEntries(Object.entries(c.inputs).map(([n, w]) => [n, tensor(w)]));
  let want: Record<string, OracleTensor>;
  try { want = await oracle.runOrt(c.onnx, inputs); } catch (e) {
    const cannot = `onnxruntime cannot run the model: ${reasonOf(e)}`;
    return c.expected ? judgeByNumpy(c, inputs, cannot) : { status: 'skip', reason: cannot };
  }
  const gap = { gap: await ovcPasses(c, inputs, want) };
  ovcTally.judged++;
  if (gap.gap) ovcTally.passes++; else ovcTally.misses.push(c.name);
  let ir;
  try { ir = convertModel(loadModel(c.onnx)); } catch (e) {
    if (!(e instanceof OvirError)) { record(SUITE, c.name, 'fail', `crash: ${reasonOf(e)}`, gap); return { status: 'fail', reason: reasonOf(e) }; }
    const d = e.diagnostics;
    const clean = d.length > 0 && d.every((x) => x.code && x.where.startsWith('main/'));
    const reason = d.map((x) => `${x.code} ${x.where}: ${x.message}`).join('; ');
    const status: CaseStatus = clean ? 'refused' : 'fail';
    record(SUITE, c.name, status, reason, gap);
    return { status, reason };
  }
  const found = await engineDiffs(c, ir, inputs, want);
  const status: CaseStatus = found.length ? 'fail' : 'pass';
  record(SUITE, c.name, status, found.join('; ') || undefined, gap);
  return found.length ? { status, reason: found.join('; ') } : { status };
}

/** ovir's IR in OpenVINO and its IR → ONNX in onnxruntime against `want`: what differs, or why it could not run. */
async function engineDiffs(c: Case, ir: ReturnType<typeof convertModel>, inputs: Record<string, OracleTensor>, want: Record<string, OracleTensor>): Promise<string[]> {
  const xml = join(tmp, `${c.name}.xml`);
  const found: string[] = [];
  try {
    saveModel(ir, xml);
    found.push(...diffs('OpenVINO on the IR', want, await oracle.runIr(xml, inputs)));
    const back = join(tmp, `${c.name}.rt.onnx`);
    saveModel(convertModel(loadModel(xml)), back);
    found.push(...diffs('onnxruntime on IR → ONNX', want, await oracle.runOrt(back, inputs)));
  } catch (e) { found.push(reasonOf(e)); }
  return found;
}

/**
 * A case onnxruntime cannot run whose expected outputs contrib-fusion.py computed in numpy: the
 * scoreboard's status stays `skip` (the reference engine cannot run it), its reason says how the
 * conversion was judged instead; the test requires that judgement to hold (other numbers or a
 * refusal fail it, and are recorded as `fail`).
 */
async function judgeByNumpy(c: Case, inputs: Record<string, OracleTensor>, cannot: string): Promise<{ status: CaseStatus; reason?: string }> {
  const want = Object.fromEntries(c.expected!.map((w, i) => [`#${i}`, tensor(w)]));
  let found: string[];
  try { found = await engineDiffs(c, convertModel(loadModel(c.onnx)), inputs, want); } catch (e) { found = [`ovir refuses it: ${reasonOf(e)}`]; }
  if (found.length) return { status: 'fail', reason: `${cannot}; against contrib-fusion.py's numpy reference: ${found.join('; ')}` };
  return { status: 'skip', reason: `${cannot}; judged against contrib-fusion.py's numpy reference instead: OpenVINO on ovir's IR and onnxruntime on IR → ONNX compute it` };
}

describe('com.microsoft transformer contrib ops → IR: OpenVINO on ovir\'s IR computes what onnxruntime computes on the model', () => {
  it.each(CASES)('$name', async (c) => {
    // a BERT case tests the fused ops only if the optimizer fused them
    if (c.fused) expect(c.fused).toEqual(expect.arrayContaining(['Attention', 'EmbedLayerNormalization', 'SkipLayerNormalization']));
    const r = await judge(c);
    if (c.expected) {
      // no onnxruntime kernel: judged against the numpy reference, which must hold (recorded either way)
      record(SUITE, c.name, r.status, r.reason);
      expect(r).toMatchObject({ status: 'skip', reason: expect.stringContaining('numpy reference instead') });
      return;
    }
    if (r.status === 'skip') { record(SUITE, c.name, 'skip', r.reason); return; }
    if (c.refused) expect(r).toMatchObject({ status: 'refused' });
    else expect(r).toEqual({ status: 'pass' });
  });
});
