import { Diagnostics } from '../diag/diagnostic.js';
import type { Model } from '../graph/model.js';
import { formatShape, interval, sym, type Dim, type Shape } from '../graph/shape.js';
import type { Value } from '../graph/value.js';

/** `--input name[shape]`: a graph input and the shape to give it. */
export interface InputOverride {
  name: string;
  shape: Shape;
}

/**
 * One item of ovc's `--input` list: an input named or taken by position, with a shape or none
 * (`input` alone names it without changing its shape).
 */
export interface InputSpec {
  /** null: positional (the i-th item is the model's i-th input). */
  name: string | null;
  /** undefined: not given (keep the model's). */
  shape: Shape | undefined;
  /** The item as written, for messages. */
  text: string;
}

/**
 * Parses the dims inside `[…]`: separated by commas or spaces (as ovc), each a number, `?` or `-1`
 * (unknown), `a..b` / `a..` / `..b` (an interval), or a symbol (`N`, `batch`); `...` alone is
 * unknown rank, nothing a scalar.
 */
function parseDims(body: string, text: string): Shape | string {
  const b = body.trim();
  if (b === '...') return null;
  if (b === '') return [];
  const dims: Dim[] = [];
  // a dimension is exact below 2^53 (and an IR's int64): a larger one is a mistake in the option, not the model's
  const tooBig = (n: string) => `--input ${text}: dim ${n} is too large (at most ${Number.MAX_SAFE_INTEGER})`;
  for (const raw of b.split(/\s*,\s*|\s+/)) {
    const d = raw.trim();
    if (/^\d+$/.test(d)) {
      if (!Number.isSafeInteger(Number(d))) return tooBig(d);
      dims.push(Number(d));
    } else if (d === '?' || d === '-1') dims.push(null);
    else if (/^\d*\.\.\d*$/.test(d)) {
      const [lo, hi] = d.split('..');
      const min = lo ? Number(lo) : 0;
      const max = hi ? Number(hi) : Infinity;
      for (const n of [lo, hi]) if (n && !Number.isSafeInteger(Number(n))) return tooBig(n);
      if (min > max) return `--input ${text}: empty interval ${d}`;
      dims.push(interval(min, max));
    } else if (/^[A-Za-z_][\w.]*$/.test(d)) dims.push(sym(d));
    else return `--input ${text}: cannot read dim '${d}'`;
  }
  return dims;
}

/** One item: `name[shape]`, `name`, or `[shape]`. */
function parseItem(text: string): InputSpec | string {
  const t = text.trim();
  const m = /^([^[\]]*?)\s*(?:\[([^[\]]*)\])?$/s.exec(t);
  if (!m || t === '') return `--input expects name[shape], name or [shape] items separated by commas, e.g. "input[1,512],state[2,1,128]", got '${text}'`;
  const name = m[1]!.trim();
  if (m[2] === undefined) return { name, shape: undefined, text: t };
  const shape = parseDims(m[2], t);
  if (typeof shape === 'string') return shape;
  return { name: name === '' ? null : name, shape, text: t };
}

/** Splits ovc's list at the commas outside brackets: `a[1,2],b[3]` → `a[1,2]`, `b[3]`. */
function splitList(text: string): string[] | string {
  const items: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '[') depth++;
    else if (c === ']') { depth--; if (depth < 0) return `--input ${text}: unbalanced ']'`; }
    else if (c === ',' && depth === 0) { items.push(text.slice(start, i)); start = i + 1; }
  }
  if (depth !== 0) return `--input ${text}: unbalanced '['`;
  items.push(text.slice(start));
  return items;
}

/**
 * Parses `--input` values as ovc does: each a comma-separated list of `name[shape]`, `name` or
 * `[shape]` items (names optional: unnamed items apply by position), dims as parseDims says.
 * Items must all be named or all positional. Returns the usage problem instead, if any.
 */
export function parseInputSpecs(texts: readonly string[]): InputSpec[] | string {
  const specs: InputSpec[] = [];
  for (const text of texts) {
    const items = splitList(text);
    if (typeof items === 'string') return items;
    for (const item of items) {
      const s = parseItem(item);
      if (typeof s === 'string') return s;
      specs.push(s);
    }
  }
  const named = specs.filter((s) => s.name !== null).length;
  if (named !== 0 && named !== specs.length) return `--input ${texts.join(',')}: name every item or none (unnamed items apply to the inputs by position)`;
  const seen = new Set<string>();
  for (const s of specs) {
    if (s.name === null) continue;
    if (seen.has(s.name)) return `--input ${texts.join(',')}: input '${s.name}' is given twice`;
    seen.add(s.name);
  }
  return specs;
}

const rankText = (s: Shape) => (s === null ? 'unknown rank' : `rank ${s.length}`);

function inputName(v: Value): string {
  return v.names[0] || (typeof v.metaView.layerName === 'string' ? v.metaView.layerName : '');
}

/**
 * Pairs the specs with the model's inputs (by name, or by position among the inputs a caller
 * feeds) and returns the shapes to give them, keyed by the name convertModel looks them up by.
 * Problems (no such input, more items than inputs, a rank other than the model declares: every
 * value computed from it would contradict) are added to `diags` with CONVERT_BAD_OPTION.
 */
export function resolveInputSpecs(model: Model, specs: readonly InputSpec[], diags: Diagnostics): Record<string, Shape> {
  const fed = model.graph.inputs.filter((v) => v.constant === null);
  const out: Record<string, Shape> = {};
  specs.forEach((s, i) => {
    let v: Value | undefined;
    if (s.name === null) {
      v = fed[i];
      if (!v) { diags.add('CONVERT_BAD_OPTION', 'main', { detail: `--input ${s.text}: item ${i + 1} is unnamed, but the model has only ${fed.length} input${fed.length === 1 ? '' : 's'}` }); return; }
    } else {
      const name = s.name;
      v = model.graph.inputs.find((x) => x.names.includes(name) || x.meta.layerName === name);
      if (!v) {
        const have = fed.map(inputName).filter((n) => n).map((n) => `'${n}'`).join(', ');
        diags.add('CONVERT_BAD_OPTION', 'main', { detail: `--input ${s.text}: the model has no input named '${name}' (its inputs: ${have || 'none'})` });
        return;
      }
    }
    if (s.shape === undefined) return;
    const declared = v.type?.kind === 'tensor' ? v.type.shape : null;
    if (declared !== null && s.shape !== null && declared.length !== s.shape.length) {
      diags.add('CONVERT_BAD_OPTION', 'main', {
        detail: `--input ${s.text}: input '${inputName(v)}' is declared ${formatShape(declared)} (${rankText(declared)}), the override has ${rankText(s.shape)}; an override must keep the rank`,
      });
      return;
    }
    const key = inputName(v);
    if (!key) { diags.add('CONVERT_BAD_OPTION', 'main', { detail: `--input ${s.text}: input ${i + 1} has no name to address it by` }); return; }
    out[key] = s.shape;
  });
  return out;
}

/**
 * Parses one `name[d0,d1,…]` (a named item with a shape, as in the list parseInputSpecs reads).
 * Returns an error message for anything else.
 */
export function parseInputOverride(text: string): InputOverride | string {
  const s = parseItem(text);
  if (typeof s === 'string') return s;
  if (s.name === null || s.shape === undefined) return `--input expects name[shape], e.g. x[1,3,224,224], got '${text}'`;
  return { name: s.name, shape: s.shape };
}

/** Parses every override; the first error message, if any, instead. */
export function parseInputOverrides(texts: readonly string[]): Map<string, Shape> | string {
  const out = new Map<string, Shape>();
  for (const t of texts) {
    const r = parseInputOverride(t);
    if (typeof r === 'string') return r;
    out.set(r.name, r.shape);
  }
  return out;
}
