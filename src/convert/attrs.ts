import type { AttrRule, OnnxAttrValue, OpMapping } from '../../mappings/spec.js';
import { A, type Attr } from '../graph/attr.js';
import type { Node } from '../graph/node.js';
import { numberText } from '../ir/attr-format.js';

/**
 * The declarative attribute rules of a mapping entry, applied in either direction. Problems are
 * returned as messages (the caller turns them into diagnostics naming the node): an attribute no
 * rule covers, or a value a rule does not support, is never dropped silently.
 */
export interface AttrProblem { readonly attr: string; readonly value?: string; readonly detail?: string; readonly unknown?: boolean }

const fmt = (v: OnnxAttrValue): string => (Array.isArray(v) ? (v as readonly (bigint | number)[]).map(numberText).join(',') : typeof v === 'string' ? v : numberText(v as number | bigint));
const same = (a: OnnxAttrValue, b: OnnxAttrValue): boolean => fmt(a) === fmt(b);

function onnxValue(a: Attr): OnnxAttrValue | undefined {
  switch (a.type) {
    case 'int': case 'float': case 'string': case 'ints': case 'floats': return a.value;
    default: return undefined;
  }
}

function toOnnxAttr(kind: AttrRule['kind'], v: OnnxAttrValue): Attr {
  switch (kind) {
    case 'int': return A.int(typeof v === 'bigint' ? v : BigInt(v as number));
    case 'float': return A.float(Number(v));
    case 'string': return A.string(String(v));
    case 'ints': return A.ints((v as readonly (bigint | number)[]).map((x) => BigInt(x)));
    case 'floats': return A.floats((v as readonly (bigint | number)[]).map(Number));
  }
}

/** Parses an IR attribute (typed or raw) into the ONNX kind of the rule. */
function parseIr(kind: AttrRule['kind'], a: Attr): OnnxAttrValue | undefined {
  const s = a.type === 'raw' || a.type === 'string' ? a.value.trim()
    : a.type === 'bool' ? String(a.value)
      : a.type === 'int' || a.type === 'float' ? String(a.value)
        : a.type === 'ints' || a.type === 'floats' ? a.value.map(String).join(',')
          : a.type === 'strings' ? a.value.join(',') : undefined;
  if (s === undefined) return undefined;
  const list = s === '' ? [] : s.split(',').map((x) => x.trim());
  try {
    switch (kind) {
      case 'int': return /^[+-]?\d+$/.test(s) ? BigInt(s) : undefined;
      case 'float': return Number.isNaN(Number(s)) && s.toLowerCase() !== 'nan' ? undefined : Number(s);
      case 'string': return s;
      case 'ints': return list.map((x) => BigInt(x));
      case 'floats': return list.map(Number);
    }
  } catch { return undefined; }
}

const irStringOf = (a: Attr): string => parseIr('string', a) as string ?? a.type;

/**
 * Names of the ONNX (or IR) attributes an entry understands; at ONNX opset `opset`, a moved
 * operand's attribute only before the opset that made it an input.
 */
export function knownAttrs(entry: OpMapping, side: 'onnx' | 'ir', opset = -Infinity): Set<string> {
  const s = new Set<string>(entry.handles?.[side] ?? []);
  for (const r of entry.attrs ?? []) { const n = r[side]; if (n) s.add(n); }
  if (side === 'onnx') for (const m of entry.moves ?? []) if (opset < m.since) s.add(m.attr);
  return s;
}

/** Attributes present on `node` that the entry does not understand. */
export function unknownAttrs(entry: OpMapping, node: Node, side: 'onnx' | 'ir', opset?: number): string[] {
  const attrs = node.attrsView;
  if (!attrs.size) return [];
  const known = knownAttrsCached(entry, side, opset ?? -Infinity);
  const out: string[] = [];
  for (const k of attrs.keys()) if (!known.has(k)) out.push(k);
  return out;
}

/** knownAttrs per (entry, side, opset), built once: it is asked for every node converted. */
const KNOWN = new WeakMap<OpMapping, Map<string, ReadonlySet<string>>>();
function knownAttrsCached(entry: OpMapping, side: 'onnx' | 'ir', opset: number): ReadonlySet<string> {
  let m = KNOWN.get(entry);
  if (!m) KNOWN.set(entry, (m = new Map()));
  const key = side === 'ir' ? 'ir' : `onnx${opset}`;
  let s = m.get(key);
  if (!s) m.set(key, (s = knownAttrs(entry, side, opset)));
  return s;
}

/** ONNX node → IR `<data>` attributes (raw strings as the serializer would write them). */
export function attrsToIr(entry: OpMapping, node: Node, problems: AttrProblem[]): Map<string, Attr> {
  const out = new Map<string, Attr>();
  for (const r of entry.attrs ?? []) {
    if (!r.onnx) {
      if (r.ir && r.irValues && !r.irReadOnly) out.set(r.ir, A.raw(r.irValues[0]!));
      continue;
    }
    const a = node.attrs.get(r.onnx);
    const v = a ? onnxValue(a) : r.onnxDefault;
    if (a && v === undefined) { problems.push({ attr: r.onnx, value: a.type, detail: `expected ${r.kind}` }); continue; }
    if (v === undefined) continue;
    if (r.only && !r.only.some((o) => same(o, v))) {
      problems.push({ attr: r.onnx, value: fmt(v), detail: `supported: ${r.only.map(fmt).join(', ')}` });
      continue;
    }
    if (!r.ir) continue;
    if (r.values) {
      const m = r.values.find(([o]) => same(o, v));
      if (!m) { problems.push({ attr: r.onnx, value: fmt(v), detail: `no ${r.ir} value in IR` }); continue; }
      out.set(r.ir, A.raw(m[1]));
    } else {
      out.set(r.ir, A.raw(fmt(v)));
    }
  }
  return out;
}

/** IR node → ONNX attributes (typed; ONNX defaults left out). */
export function attrsToOnnx(entry: OpMapping, node: Node, problems: AttrProblem[]): Map<string, Attr> {
  const out = new Map<string, Attr>();
  for (const r of entry.attrs ?? []) {
    if (!r.ir) continue;
    const a = node.attrs.get(r.ir);
    if (!r.onnx) {
      if (a && r.irValues && !r.irValues.includes(irStringOf(a))) {
        problems.push({ attr: r.ir, value: irStringOf(a), detail: `supported: ${r.irValues.join(', ')}` });
      }
      continue;
    }
    let v: OnnxAttrValue | undefined;
    if (!a && r.irDefault === undefined) continue;
    if (r.values) {
      const s = (a ? irStringOf(a) : r.irDefault!).toLowerCase();
      const m = r.values.find(([, irv]) => irv.toLowerCase() === s);
      if (!m) { problems.push({ attr: r.ir, value: s, detail: `no ONNX ${r.onnx} value` }); continue; }
      v = m[0];
    } else {
      v = a ? parseIr(r.kind, a) : parseIr(r.kind, A.raw(r.irDefault!));
      if (v === undefined) { problems.push({ attr: r.ir, value: a ? irStringOf(a) : '', detail: `expected ${r.kind}` }); continue; }
    }
    if (r.onnxDefault !== undefined && same(r.onnxDefault, v)) continue;
    out.set(r.onnx, toOnnxAttr(r.kind, v));
  }
  return out;
}
