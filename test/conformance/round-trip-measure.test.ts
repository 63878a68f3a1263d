/**
 * A measurement, not part of the scoreboard: ONNX → IR → ONNX over the ONNX backend cases that
 * onnxruntime passes on the original (first test_data_set): the share whose round trip computes
 * the expected outputs in onnxruntime, and the most frequent causes otherwise. The IR goes
 * through real bytes (writeIr → readIr). Runs only with OVIR_MEASURE_ROUND_TRIP=1 (the full
 * suite does not run it); OVIR_ZOO_FILTER narrows the cases.
 *   OVIR_MEASURE_ROUND_TRIP=1 npx vitest run --project conformance test/conformance/round-trip-measure.test.ts
 */
import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import { readIr } from '../../src/ir/read.js';
import { writeIr } from '../../src/ir/write.js';
import { encodeOnnx } from '../../src/onnx/encode.js';
import { readOnnxFile } from '../../src/onnx/file.js';
import { compareOutputs } from '../helpers/compare.js';
import { runOrt } from '../helpers/ort.js';
import { backendCases, inputRecord, loadDataSet } from '../helpers/testdata.js';

const FILTER = process.env.OVIR_ZOO_FILTER ? new RegExp(process.env.OVIR_ZOO_FILTER, 'i') : undefined;

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) { out.set(p, o); o += p.length; }
  return out;
}

const generic = (s: string): string => s.replace(/'[^']*'/g, "'…'").replace(/\b[\w/#.-]*_\d+\b/g, '…').replace(/\d+/g, 'N').slice(0, 110);

describe.runIf(process.env.OVIR_MEASURE_ROUND_TRIP === '1')('ONNX → IR → ONNX over the backend cases onnxruntime passes', () => {
  it('measures', async () => {
    const causes = new Map<string, number>();
    const cause = (k: string) => causes.set(k, (causes.get(k) ?? 0) + 1);
    let eligible = 0; let pass = 0;
    for (const c of backendCases(FILTER ? { filter: FILTER } : {})) {
      if (!c.dataSets.length) continue;
      let ds;
      try { ds = loadDataSet(c.dataSets[0]!); } catch { continue; }
      const want = ds.outputs.map((o, i) => ({ name: o.name || `#${i}`, tensor: o.tensor }));
      try {
        if (compareOutputs(await runOrt(c.model, inputRecord(ds)), want).length) continue;
      } catch { continue; }
      eligible++;
      let bytes: Uint8Array;
      try {
        const { xml, bin } = writeIr(convertModel(readOnnxFile(c.model)));
        const onnx = convertModel(readIr(xml, concat(bin)), { to: 'onnx' });
        bytes = encodeOnnx(onnx).bytes;
      } catch (e) {
        const d = e instanceof OvirError ? e.diagnostics.find((x) => x.severity === 'error') : undefined;
        cause(`refused: ${d ? `${d.code} ${generic(d.message)}` : generic(String(e))}`);
        if (process.env.OVIR_MEASURE_LIST) process.stdout.write(`  ${c.name}: ${d ? d.message : String(e)}\n`);
        continue;
      }
      try {
        const p = compareOutputs(await runOrt(bytes, inputRecord(ds)), want);
        if (!p.length) { pass++; continue; }
        cause('wrong numbers');
        if (process.env.OVIR_MEASURE_LIST) process.stdout.write(`  ${c.name}: ${p.join('; ').slice(0, 200)}\n`);
      } catch (e) {
        cause(`onnxruntime cannot run the round trip: ${generic(String(e))}`);
        if (process.env.OVIR_MEASURE_LIST) process.stdout.write(`  ${c.name}: ${String(e).slice(0, 200)}\n`);
      }
    }
    process.stdout.write(`ONNX → IR → ONNX: ${pass}/${eligible} (${((100 * pass) / Math.max(1, eligible)).toFixed(1)}%) of the backend cases onnxruntime passes compute the expected outputs\n`);
    for (const [k, n] of [...causes].sort((a, b) => b[1] - a[1]).slice(0, 25)) process.stdout.write(`  ${String(n).padStart(5)}  ${k}\n`);
    expect(eligible).toBeGreaterThan(0);
  });
});
