import type { Diagnostics } from '../diag/diagnostic.js';
import { elementType, fromIrElementType, fromOnnxTypeName, type ElementTypeName } from '../graph/element-type.js';
import type { Graph } from '../graph/graph.js';
import { elementCount, isStaticShape } from '../graph/shape.js';
import { tensorType } from '../graph/types.js';
import type { Value } from '../graph/value.js';
import { foldable, fromHost, host } from './host-tensor.js';

type Scalar = number | bigint | boolean;

/** The value an input is frozen to: elements in row-major order, optionally its dims and element type. */
export interface FreezeValue {
  readonly values: readonly Scalar[];
  /** Default: the input's declared static shape if it has as many elements, else [] for one value, else [n]. */
  readonly shape?: readonly number[];
  /** Default: the input's declared element type. */
  readonly type?: ElementTypeName;
}

export type FreezeSpec = FreezeValue | Scalar | readonly Scalar[];

const isFreezeValue = (s: FreezeSpec): s is FreezeValue => typeof s === 'object' && s !== null && !Array.isArray(s) && 'values' in s;

/** Splits on commas outside [] and {}. */
function splitTop(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '[' || ch === '{') depth++;
    if (ch === ']' || ch === '}') depth--;
    if (ch === ',' && depth === 0) { out.push(cur); cur = ''; } else cur += ch;
  }
  out.push(cur);
  return out.map((x) => x.trim()).filter((x) => x !== '');
}

function parseType(s: string): ElementTypeName | null {
  const t = s.trim();
  const info = fromIrElementType(t) ?? fromOnnxTypeName(t) ?? (t === 'bool' ? elementType('boolean') : undefined);
  return info ? info.name : null;
}

function parseScalar(s: string): Scalar | null {
  const t = s.trim().toLowerCase();
  if (t === 'true' || t === 'false') return t === 'true';
  if (/^[+-]?\d+$/.test(t)) return BigInt(t);
  const x = Number(t);
  return t !== '' && (Number.isFinite(x) || /^[+-]?(inf|infinity|nan)$/.test(t)) ? (t.includes('nan') ? NaN : t.includes('inf') ? (t.startsWith('-') ? -Infinity : Infinity) : x) : null;
}

/**
 * Parses `--freeze` text: a comma-separated list of `name=value`, or ovc's (legacy MO) form
 * `name[shape]{type}->value` with shape and type optional (`sr->16000`, `sr{i64}->16000`,
 * `mask[2]{boolean}->[true false]`). A value is a scalar (`16000`, `0.5`, `true`) or a list in
 * brackets, separated by spaces or commas (`[1 2 3]`, `[1,2,3]`). Returns the specs by input
 * name, or a message saying what is wrong.
 */
export function parseFreeze(texts: readonly string[]): Map<string, FreezeValue> | string {
  const out = new Map<string, FreezeValue>();
  for (const item of texts.flatMap(splitTop)) {
    const m = /^(?<name>[^[\]{}=]+?)\s*(?:\[(?<shape>[^\]]*)\])?\s*(?:\{(?<type>[^}]*)\})?\s*(?:->|=)\s*(?<value>.+)$/.exec(item);
    if (!m?.groups) return `--freeze '${item}': expected name=value or name[shape]{type}->value`;
    const { name, shape, type, value } = m.groups as { name: string; shape?: string; type?: string; value: string };
    const spec: { values: Scalar[]; shape?: number[]; type?: ElementTypeName } = { values: [] };
    if (shape !== undefined) {
      const dims = shape.split(/[\s,]+/).filter((d) => d !== '');
      if (!dims.every((d) => /^\d+$/.test(d))) return `--freeze '${item}': the shape must be static sizes, e.g. [2,3]`;
      spec.shape = dims.map(Number);
    }
    if (type !== undefined) {
      const t = parseType(type);
      if (!t) return `--freeze '${item}': unknown element type '${type}'`;
      spec.type = t;
    }
    const v = value.trim();
    const items = v.startsWith('[') && v.endsWith(']') ? v.slice(1, -1).split(/[\s,]+/).filter((x) => x !== '') : [v];
    for (const x of items) {
      const s = parseScalar(x);
      if (s === null) return `--freeze '${item}': '${x}' is not a number or boolean`;
      spec.values.push(s);
    }
    if (out.has(name.trim())) return `--freeze: input '${name.trim()}' is frozen twice`;
    out.set(name.trim(), spec);
  }
  return out;
}

/**
 * Makes each named main-graph input a constant holding its value, parsed for the input's element
 * type (integers must be whole and in range; booleans true/false/0/1). Problems (no such input,
 * wrong count, a value the type cannot hold) are diagnostics. Returns the new constants.
 */
export function freezeInputs(g: Graph, freeze: Readonly<Record<string, FreezeSpec>>, diags: Diagnostics): Set<Value> {
  const made = new Set<Value>();
  for (const [name, raw] of Object.entries(freeze)) {
    const spec: FreezeValue = isFreezeValue(raw) ? raw : { values: Array.isArray(raw) ? raw as readonly Scalar[] : [raw as Scalar] };
    const bad = (detail: string) => diags.add('CONVERT_BAD_OPTION', 'main', { detail: `--freeze ${name}: ${detail}` });
    const k = g.inputs.findIndex((x) => x.names.includes(name));
    if (k < 0) { bad(`the model has no input named '${name}'`); continue; }
    const v = g.inputs[k]!;
    const declared = v.type?.kind === 'tensor' ? v.type : null;
    const elem = spec.type ?? (declared && declared.elem !== 'dynamic' ? declared.elem : null);
    if (!elem) { bad('the input\'s element type is not known; give it as name{type}->value'); continue; }
    if (declared && declared.elem !== 'dynamic' && spec.type && spec.type !== declared.elem) { bad(`the input is ${declared.elem}, not ${spec.type}`); continue; }
    if (!foldable(elem)) { bad(`inputs of type ${elem} cannot be frozen`); continue; }
    const n = spec.values.length;
    let dims: readonly number[];
    if (spec.shape) dims = spec.shape;
    else if (declared && isStaticShape(declared.shape) && elementCount(declared.shape) === n) dims = declared.shape;
    else dims = n === 1 && (!declared || declared.shape === null || declared.shape.length === 0) ? [] : [n];
    if (elementCount(dims) !== n) { bad(`${n} value(s) for shape [${dims.join(',')}]`); continue; }
    if (declared?.shape && (declared.shape.length !== dims.length || declared.shape.some((d, i) => typeof d === 'number' && d !== dims[i]))) {
      bad(`shape [${dims.join(',')}] does not fit the input's declared shape`); continue;
    }
    const problem = checkValues(spec.values, elem);
    if (problem) { bad(problem); continue; }
    const h = host(elem, dims, spec.values.map((x) => (typeof x === 'boolean' ? (x ? 1 : 0) : x)));
    g.inputs.splice(k, 1);
    v.constant = fromHost(h);
    v.type = tensorType(elem, dims);
    g.initializers.push(v);
    made.add(v);
  }
  return made;
}

/** The magnitude from which a finite number rounds to ±inf in a float type (round to nearest even). */
const FLOAT_OVERFLOW: Partial<Record<ElementTypeName, number>> = {
  f32: 2 ** 128 - 2 ** 103, // halfway past the largest f32, (2 − 2^-23)·2^127
  f16: 65520, // halfway past 65504
  bf16: 2 ** 128 - 2 ** 119, // halfway past the largest bf16, (2 − 2^-7)·2^127
};

function checkValues(values: readonly Scalar[], elem: ElementTypeName): string | null {
  const kind = elementType(elem).kind;
  for (const x of values) {
    if (kind === 'bool') {
      if (typeof x !== 'boolean' && Number(x) !== 0 && Number(x) !== 1) return `'${String(x)}' is not a boolean`;
    } else if (kind === 'int' || kind === 'uint') {
      if (typeof x === 'boolean' || (typeof x === 'number' && !Number.isInteger(x))) return `'${String(x)}' is not an integer (the input is ${elem})`;
      const bits = BigInt(elementType(elem).bits);
      const [lo, hi] = kind === 'int' ? [-(1n << (bits - 1n)), (1n << (bits - 1n)) - 1n] : [0n, (1n << bits) - 1n];
      if (BigInt(x) < lo || BigInt(x) > hi) return `${x} is out of range for ${elem}`;
    } else if (typeof x === 'boolean') {
      return `'${String(x)}' is not a number (the input is ${elem})`;
    } else if (Number.isFinite(Number(x)) && Math.abs(Number(x)) >= (FLOAT_OVERFLOW[elem] ?? Infinity)) {
      // a finite value the type cannot hold would be stored as ±inf (and folded on as such)
      return `${x} is out of range for ${elem}`;
    }
  }
  return null;
}
