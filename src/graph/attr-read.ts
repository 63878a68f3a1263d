import type { Attr } from './attr.js';
import type { Node } from './node.js';

/**
 * Reading attributes without caring whether they came typed (ONNX, or IR with a known schema) or
 * raw (an IR `<data>` string as written). Each returns undefined when the attribute is absent and
 * throws AttrTypeError when it is present but not of the asked kind, so that callers can turn it
 * into a diagnostic naming the node.
 */
export class AttrTypeError extends Error {
  constructor(readonly attr: string, readonly expected: string, readonly got: string) {
    super(`attribute '${attr}' should be ${expected}, got ${got}`);
  }
}

const splitList = (s: string): string[] => (s.trim() === '' ? [] : s.split(',').map((x) => x.trim()));

function bad(name: string, expected: string, a: Attr): never {
  throw new AttrTypeError(name, expected, a.type === 'raw' ? `'${a.value}'` : a.type);
}

function parseBigInt(name: string, s: string, a: Attr): bigint {
  if (!/^[+-]?\d+$/.test(s)) bad(name, 'an integer', a);
  return BigInt(s);
}

export function attrInt(node: Node, name: string): bigint | undefined {
  const a = node.attrs.get(name);
  if (!a) return undefined;
  if (a.type === 'int') return a.value;
  if (a.type === 'bool') return a.value ? 1n : 0n;
  if (a.type === 'raw') return parseBigInt(name, a.value.trim(), a);
  return bad(name, 'an integer', a);
}

export function attrInts(node: Node, name: string): bigint[] | undefined {
  const a = node.attrs.get(name);
  if (!a) return undefined;
  if (a.type === 'ints') return [...a.value];
  if (a.type === 'int') return [a.value];
  if (a.type === 'raw') return splitList(a.value).map((s) => parseBigInt(name, s, a));
  return bad(name, 'a list of integers', a);
}

export function attrFloat(node: Node, name: string): number | undefined {
  const a = node.attrs.get(name);
  if (!a) return undefined;
  if (a.type === 'float') return a.value;
  if (a.type === 'int') return Number(a.value);
  if (a.type === 'raw') {
    const v = Number(a.value.trim());
    if (a.value.trim() === '' || Number.isNaN(v) && a.value.trim().toLowerCase() !== 'nan') bad(name, 'a number', a);
    return v;
  }
  return bad(name, 'a number', a);
}

export function attrFloats(node: Node, name: string): number[] | undefined {
  const a = node.attrs.get(name);
  if (!a) return undefined;
  if (a.type === 'floats') return [...a.value];
  if (a.type === 'float') return [a.value];
  if (a.type === 'raw') return splitList(a.value).map(Number);
  return bad(name, 'a list of numbers', a);
}

export function attrString(node: Node, name: string): string | undefined {
  const a = node.attrs.get(name);
  if (!a) return undefined;
  if (a.type === 'string' || a.type === 'raw') return a.value;
  return bad(name, 'a string', a);
}

export function attrStrings(node: Node, name: string): string[] | undefined {
  const a = node.attrs.get(name);
  if (!a) return undefined;
  if (a.type === 'strings') return [...a.value];
  if (a.type === 'string') return [a.value];
  if (a.type === 'raw') return splitList(a.value);
  return bad(name, 'a list of strings', a);
}

/** IR booleans are written `true`/`false`; ONNX uses ints 0/1. */
export function attrBool(node: Node, name: string): boolean | undefined {
  const a = node.attrs.get(name);
  if (!a) return undefined;
  if (a.type === 'bool') return a.value;
  if (a.type === 'int') return a.value !== 0n;
  if (a.type === 'raw') {
    const s = a.value.trim().toLowerCase();
    if (s === 'true' || s === '1') return true;
    if (s === 'false' || s === '0') return false;
  }
  return bad(name, 'a boolean', a);
}
