import { ALL_MAPPINGS } from '../../mappings/index.js';
import { irSideOf, irVersionsOf, type OpMapping } from '../../mappings/spec.js';
import { formatRange } from '../graph/version-range.js';
import { MAX_ONNX_OPSET, MIN_ONNX_OPSET } from './index.js';
import { defaultRegistry } from '../shape/rules/index.js';

/**
 * docs/ops.md, generated from the tables: every mapping entry (ONNX op and opset range, its IR op
 * and versions, the directions that work, operand moves) with the shape rules present for it in
 * both dialects, then the same by IR op (what IR → ONNX reads). A unit test regenerates it and
 * fails when the committed page differs (test/convert/ops-doc.test.ts).
 */

const esc = (s: string): string => s.replace(/\|/g, '\\|');
const opsetOf = (v: string): number => Number(/^opset(\d+)$/.exec(v)?.[1] ?? NaN);

function onnxRules(e: OpMapping): string {
  const reg = defaultRegistry();
  const hi = Math.min(e.onnx.until ?? MAX_ONNX_OPSET, MAX_ONNX_OPSET);
  const missing: number[] = [];
  for (let v = e.onnx.since; v <= hi; v++) if (!reg.lookup('onnx', e.onnx.domain ?? '', e.onnx.op, v)) missing.push(v);
  return missing.length === 0 ? 'yes' : `missing at ${missing.join(', ')}`;
}

function ovRules(e: OpMapping): string {
  const reg = defaultRegistry();
  const ir = irSideOf(e);
  if (!ir) {
    const missing = (e.decomposes ?? []).filter((op) => !reg.keys.includes(`ov::${op}`));
    return missing.length === 0 ? 'yes' : `missing for ${missing.join(', ')}`;
  }
  if (ir.op === 'Const') return 'n/a (a constant)';
  const missing = irVersionsOf(e).filter((v) => !reg.lookup('ov', '', ir.op, opsetOf(v)));
  return missing.length === 0 ? 'yes' : `missing for ${missing.join(', ')}`;
}

function irCell(e: OpMapping): string {
  const ir = irSideOf(e);
  if (!ir && e.sequences) return `resolved at conversion time (a list of tensors)${e.decomposes?.length ? `; written as ${e.decomposes.join(', ')}` : ''}`;
  if (!ir) return `written as ${(e.decomposes ?? []).join(', ') || '(other ops)'}`;
  const reads = ir.reads?.length ? ` (also reads ${ir.reads.join(', ')})` : '';
  return `${ir.op} ${ir.version}${reads}`;
}

function movesCell(e: OpMapping): string {
  return (e.moves ?? []).map((m) => (Number.isFinite(m.since) ? `${m.attr} → input ${m.input} at ${m.since}` : `${m.attr} = IR input ${m.input}`)).join('; ');
}

const onnxName = (e: OpMapping): string => (e.onnx.domain && e.onnx.domain !== 'ai.onnx' ? `${e.onnx.domain}.${e.onnx.op}` : e.onnx.op);

export function opsMarkdown(entries: readonly OpMapping[] = ALL_MAPPINGS): string {
  const sorted = [...entries].sort((a, b) => onnxName(a).localeCompare(onnxName(b)) || a.onnx.since - b.onnx.since || irCell(a).localeCompare(irCell(b)));
  const lines: string[] = [
    '# Supported ops',
    '',
    '<!-- Generated from mappings/ and src/shape/rules by src/convert/ops-doc.ts: do not edit.',
    '     Regenerate with `npm run docs:ops`; a unit test fails when this page is stale. -->',
    '',
    `Every relation between an ONNX op and an OpenVINO IR op that ovir converts. ONNX opsets are`,
    `ranges (\`13..\` = 13 and later; ovir writes ONNX opsets ${MIN_ONNX_OPSET} to ${MAX_ONNX_OPSET}). An ONNX op that`,
    'OpenVINO has no op for is *written as* other IR ops; those convert back one by one, so IR → ONNX',
    'gives the equivalent ONNX ops, not the original. "when" marks entries chosen by an attribute or',
    'operand (for example Conv with group > 1 is GroupConvolution). Shape rules: whether shape',
    'inference (and so `ovir check`) covers every version of the entry, in each dialect.',
    '',
    '## By ONNX op',
    '',
    '| ONNX op | opsets | IR op and version | ONNX → IR | IR → ONNX | shape rules ONNX | shape rules IR | attribute ⇄ input | note |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const e of sorted) {
    const ir = irSideOf(e);
    const toIr = e.when ? 'when' : 'yes';
    const toOnnx = ir ? 'yes' : '—';
    lines.push(`| ${esc(onnxName(e))} | ${formatRange(e.onnx)} | ${esc(irCell(e))} | ${toIr} | ${toOnnx} | ${onnxRules(e)} | ${ovRules(e)} | ${esc(movesCell(e))} | ${esc(e.note ?? '')} |`);
  }
  const byIr = new Map<string, OpMapping[]>();
  for (const e of entries) {
    const ir = irSideOf(e);
    if (!ir) continue;
    byIr.set(ir.op, [...(byIr.get(ir.op) ?? []), e]);
  }
  lines.push('', '## By IR op (what IR → ONNX reads)', '', 'A layer whose version is not listed is refused, naming the versions read.', '',
    '| IR op | versions read | ONNX op | target opsets |', '|---|---|---|---|');
  for (const op of [...byIr.keys()].sort((a, b) => a.localeCompare(b))) {
    for (const e of byIr.get(op)!) {
      lines.push(`| ${op} | ${irVersionsOf(e).join(', ')} | ${esc(onnxName(e))} | ${formatRange(e.onnx)} |`);
    }
  }
  lines.push('', `${entries.length} entries; ${new Set(entries.map(onnxName)).size} ONNX ops; ${byIr.size} IR ops read.`, '');
  return lines.join('\n');
}
