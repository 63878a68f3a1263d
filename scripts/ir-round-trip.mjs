#!/usr/bin/env node
/**
 * IR → ONNX → IR keeps the IR? Over ovc's IR of the backend test models (the oracle cache,
 * .oracle/cache/<key>/model.xml): each IR is converted to ONNX (default opset, through real bytes)
 * and back to IR; the round trip keeps the IR when it has the same layer-type histogram (all
 * graphs, bodies included) and the same partial shape and element type on every Result.
 * Prints the share and the most frequent causes. Needs `npm run build`.
 * Usage: node scripts/ir-round-trip.mjs [cache-dir] [--list]
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { convertModel } from '../dist/src/convert/index.js';
import { OvirError } from '../dist/src/diag/diagnostic.js';
import { allGraphs } from '../dist/src/graph/graph.js';
import { describeType } from '../dist/src/graph/types.js';
import { readIrFile } from '../dist/src/ir/file.js';
import { decodeOnnx } from '../dist/src/onnx/decode.js';
import { encodeOnnx } from '../dist/src/onnx/encode.js';

const dir = process.argv.slice(2).find((a) => !a.startsWith('--')) ?? join('.oracle', 'cache');
const list = process.argv.includes('--list');

function histogram(m) {
  const h = new Map();
  for (const g of allGraphs(m.graph)) for (const n of g.nodes) h.set(n.op, (h.get(n.op) ?? 0) + 1);
  return h;
}

function histDiff(a, b) {
  const out = [];
  for (const k of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(k) ?? 0; const y = b.get(k) ?? 0;
    if (x !== y) out.push(`${k} ${x}→${y}`);
  }
  return out.sort();
}

const results = { kept: 0, histogram: 0, shapes: 0, toOnnx: 0, toIr: 0, total: 0 };
const causes = new Map();
const cause = (k) => causes.set(k, (causes.get(k) ?? 0) + 1);
for (const key of readdirSync(dir)) {
  const xml = join(dir, key, 'model.xml');
  if (!existsSync(xml)) continue;
  let ir;
  try { ir = readIrFile(xml); } catch { continue; }
  results.total++;
  let onnx;
  try { onnx = decodeOnnx(encodeOnnx(convertModel(ir)).bytes); } catch (e) {
    results.toOnnx++;
    const d = e instanceof OvirError ? e.diagnostics.find((x) => x.severity === 'error') : null;
    cause(`IR → ONNX refused: ${d ? `${d.code} ${d.message.replace(/'[^']*'/g, "'…'").replace(/\d+/g, 'N').slice(0, 90)}` : String(e).slice(0, 90)}`);
    continue;
  }
  let back;
  try { back = convertModel(onnx); } catch (e) {
    results.toIr++;
    const d = e instanceof OvirError ? e.diagnostics.find((x) => x.severity === 'error') : null;
    cause(`ONNX → IR refused: ${d ? `${d.code} ${d.message.replace(/'[^']*'/g, "'…'").replace(/\d+/g, 'N').slice(0, 90)}` : String(e).slice(0, 90)}`);
    continue;
  }
  const diff = histDiff(histogram(ir), histogram(back));
  const sa = ir.graph.outputs.map((v) => (v.type ? describeType(v.type) : '?'));
  const sb = back.graph.outputs.map((v) => (v.type ? describeType(v.type) : '?'));
  const shapesSame = sa.length === sb.length && sa.every((s, i) => s === sb[i]);
  if (diff.length) { results.histogram++; for (const d of diff) cause(`histogram: ${d.replace(/\d+→\d+/, (m) => (Number(m.split('→')[0]) < Number(m.split('→')[1]) ? 'more' : 'fewer'))}`); }
  if (!shapesSame) { results.shapes++; cause('Result shapes differ'); if (list) console.log(`${key}: ${sa.join(' ')} vs ${sb.join(' ')}`); }
  if (!diff.length && shapesSame) results.kept++;
  else if (list) console.log(`${key}: ${diff.join(', ')}`);
}
const pct = (n) => `${((100 * n) / Math.max(1, results.total)).toFixed(1)}%`;
console.log(`IR → ONNX → IR over ${results.total} IR files of ${dir}: ${results.kept} kept (${pct(results.kept)}); `
  + `${results.toOnnx} refused to ONNX, ${results.toIr} refused back to IR, ${results.histogram} with another layer-type histogram, ${results.shapes} with other Result shapes`);
console.log('most frequent causes:');
for (const [k, n] of [...causes].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`  ${String(n).padStart(5)}  ${k}`);
