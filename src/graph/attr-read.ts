import type { Attr } from './attr.js';
import type { Node } from './node.js';
import type { Tensor } from './tensor.js';

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
  const a = node.attr(name);
  if (!a) return undefined;
  if (a.type === 'int') return a.value;
  if (a.type === 'bool') return a.value ? 1n : 0n;
  if (a.type === 'raw') return parseBigInt(name, a.value.trim(), a);
  return bad(name, 'an integer', a);
}

export function attrInts(node: Node, name: string): bigint[] | undefined {
  const a = node.attr(name);
  if (!a) return undefined;
  if (a.type === 'ints') return [...a.value];
  if (a.type === 'int') return [a.value];
  if (a.type === 'raw') return splitList(a.value).map((s) => parseBigInt(name, s, a));
  return bad(name, 'a list of integers', a);
}

export function attrFloat(node: Node, name: string): number | undefined {
  const a = node.attr(name);
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
  const a = node.attr(name);
  if (!a) return undefined;
  if (a.type === 'floats') return [...a.value];
  if (a.type === 'float') return [a.value];
  if (a.type === 'raw') return splitList(a.value).map(Number);
  return bad(name, 'a list of numbers', a);
}

export function attrString(node: Node, name: string): string | undefined {
  const a = node.attr(name);
  if (!a) return undefined;
  if (a.type === 'string' || a.type === 'raw') return a.value;
  return bad(name, 'a string', a);
}

export function attrStrings(node: Node, name: string): string[] | undefined {
  const a = node.attr(name);
  if (!a) return undefined;
  if (a.type === 'strings') return [...a.value];
  if (a.type === 'string') return [a.value];
  if (a.type === 'raw') return splitList(a.value);
  return bad(name, 'a list of strings', a);
}

export function attrTensor(node: Node, name: string): Tensor | undefined {
  const a = node.attr(name);
  if (!a) return undefined;
  if (a.type === 'tensor') return a.value;
  return bad(name, 'a tensor', a);
}

/** IR booleans are written `true`/`false`; ONNX uses ints 0/1. */
export function attrBool(node: Node, name: string): boolean | undefined {
  const a = node.attr(name);
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

/** Typed attribute getters of one node: the one way mapping escape hatches read attributes
 * (ConvertContext.attr). Mistyped attributes throw AttrTypeError, which the converter reports. */
export interface AttrReader {
  int(name: string): bigint | undefined;
  int(name: string, dflt: bigint): bigint;
  ints(name: string): bigint[] | undefined;
  float(name: string): number | undefined;
  float(name: string, dflt: number): number;
  floats(name: string): number[] | undefined;
  string(name: string): string | undefined;
  string(name: string, dflt: string): string;
  strings(name: string): string[] | undefined;
  bool(name: string): boolean | undefined;
  bool(name: string, dflt: boolean): boolean;
  tensor(name: string): Tensor | undefined;
  has(name: string): boolean;
}

/** The typed attribute getters of `node`. */
export function attrReader(node: Node): AttrReader {
  return {
    int: ((name: string, dflt?: bigint) => attrInt(node, name) ?? dflt) as AttrReader['int'],
    ints: (name) => attrInts(node, name),
    float: ((name: string, dflt?: number) => attrFloat(node, name) ?? dflt) as AttrReader['float'],
    floats: (name) => attrFloats(node, name),
    string: ((name: string, dflt?: string) => attrString(node, name) ?? dflt) as AttrReader['string'],
    strings: (name) => attrStrings(node, name),
    bool: ((name: string, dflt?: boolean) => attrBool(node, name) ?? dflt) as AttrReader['bool'],
    tensor: (name) => attrTensor(node, name),
    has: (name) => node.attr(name) !== undefined,
  };
}
