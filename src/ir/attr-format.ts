import { A, type Attr } from '../graph/attr.js';
import { fromIrElementType } from '../graph/element-type.js';
import type { AttrKind } from './attr-schema.js';
import { parseShapeText } from './shape-text.js';

/**
 * Typed IR attributes from and to their `<data>` strings, formatted the way OpenVINO's serializer
 * formats each visitor type: int64 as decimal, lists joined with ", ", double with "%.17g"
 * (pugixml), float lists with "%g" (std::stringstream, 6 significant digits), bools true/false.
 */

const INT = /^[+-]?\d+$/;
const list = (s: string): string[] => (s.trim() === '' ? [] : s.split(',').map((x) => x.trim()));

function parseNumber(s: string): number | undefined {
  const t = s.trim().toLowerCase();
  if (t === 'inf' || t === '+inf' || t === 'infinity') return Infinity;
  if (t === '-inf' || t === '-infinity') return -Infinity;
  if (t === 'nan' || t === '-nan') return NaN;
  if (t === '' || !/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/.test(t)) return undefined;
  return Number(t);
}

/** Parses `text` as `kind`; undefined when it does not fit (the caller keeps it raw and warns). */
export function parseAttr(kind: AttrKind, text: string): Attr | undefined {
  const s = text.trim();
  switch (kind) {
    case 'int': return INT.test(s) ? A.int(BigInt(s)) : undefined;
    case 'ints': {
      const parts = list(s);
      return parts.every((p) => INT.test(p)) ? A.ints(parts.map((p) => BigInt(p))) : undefined;
    }
    case 'float': {
      const v = parseNumber(s);
      return v === undefined ? undefined : A.float(v);
    }
    case 'floats': {
      const vs = list(s).map(parseNumber);
      return vs.every((v) => v !== undefined) ? A.floats(vs as number[]) : undefined;
    }
    case 'bool': {
      const t = s.toLowerCase();
      if (t === 'true' || t === '1') return A.bool(true);
      if (t === 'false' || t === '0') return A.bool(false);
      return undefined;
    }
    case 'string': return A.string(text);
    case 'elem': return fromIrElementType(s) || s === 'dynamic' || s === 'undefined' ? A.string(s) : undefined;
    case 'shape': return parseShapeText(s) !== undefined ? A.string(s) : undefined;
    case 'strings': return A.strings(list(s));
  }
}

/**
 * A number as an IR `<data>` value written from JavaScript: its shortest round-trip text when
 * finite, OpenVINO's spelling otherwise (inf, -inf, nan: OpenVINO's reader cannot parse
 * JavaScript's "Infinity", measured on a Clamp of max inf).
 */
export function numberText(x: number | bigint): string {
  return typeof x === 'bigint' || Number.isFinite(x) ? String(x) : formatG(x, 17);
}

/** C printf `%.<p>g`. */
export function formatG(x: number, p: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const exp = x.toExponential(p - 1);
  const e = Number(exp.slice(exp.indexOf('e') + 1));
  const strip = (m: string): string => (m.includes('.') ? m.replace(/0+$/, '').replace(/\.$/, '') : m);
  if (e < -4 || e >= p) {
    const mant = strip(exp.slice(0, exp.indexOf('e')));
    const sign = e < 0 ? '-' : '+';
    const abs = Math.abs(e);
    return `${mant}e${sign}${abs < 10 ? '0' : ''}${abs}`;
  }
  return strip(x.toFixed(p - 1 - e));
}

/** The `<data>` string for an attribute, or undefined if IR cannot hold its kind. */
export function formatAttr(a: Attr): string | undefined {
  switch (a.type) {
    case 'raw': case 'string': return a.value;
    case 'int': return a.value.toString();
    case 'ints': return a.value.map(String).join(', ');
    case 'float': return formatG(a.value, 17);
    case 'floats': return a.value.map((v) => formatG(Math.fround(v), 6)).join(', ');
    case 'bool': return a.value ? 'true' : 'false';
    case 'strings': return a.value.join(', ');
    default: return undefined;
  }
}
