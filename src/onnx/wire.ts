import protobuf from 'protobufjs/minimal.js';
import type { MessageCoder } from './schema.js';

/**
 * protobufjs reading and writing with lossless 64-bit integers: every int64/uint64 field is a
 * bigint when decoded and may be a bigint (or a number) when encoded. protobufjs would otherwise
 * hand out Long objects or lossy numbers; we give its generated coders a reader and a writer whose
 * 64-bit methods speak bigint. bytes fields decode to views into the input buffer (no copy).
 */
/**
 * protobufjs stops at 100 nested messages (protoc's default). An If nested in an If costs three
 * (GraphProto → NodeProto → AttributeProto), so allow deep control flow: 4000 messages ≈ 1300 If
 * levels, still far from the JS stack limit of its recursive coders.
 */
export const MESSAGE_DEPTH_LIMIT = 4000;
(protobuf.util as unknown as { recursionLimit: number }).recursionLimit = MESSAGE_DEPTH_LIMIT;
(protobuf.Reader as unknown as { recursionLimit: number }).recursionLimit = MESSAGE_DEPTH_LIMIT;

type AnyReader = protobuf.Reader & { buf: Uint8Array; pos: number; len: number };

function readVarint64(r: AnyReader): bigint {
  let lo = 0;
  let hi = 0;
  let b = 0;
  let i = 0;
  // bytes 0..3 hold bits 0..27
  for (; i < 4; i++) {
    if (r.pos >= r.len) throw new RangeError('index out of range: truncated varint');
    b = r.buf[r.pos++]!;
    lo = (lo | ((b & 0x7f) << (i * 7))) >>> 0;
    if (b < 0x80) return BigInt(lo);
  }
  // byte 4: bits 28..34
  if (r.pos >= r.len) throw new RangeError('index out of range: truncated varint');
  b = r.buf[r.pos++]!;
  lo = (lo | ((b & 0x7f) << 28)) >>> 0;
  hi = (b & 0x7f) >> 4;
  if (b >= 0x80) {
    for (i = 0; i < 5; i++) {
      if (r.pos >= r.len) throw new RangeError('index out of range: truncated varint');
      b = r.buf[r.pos++]!;
      hi = (hi | ((b & 0x7f) << (i * 7 + 3))) >>> 0;
      if (b < 0x80) break;
    }
    if (b >= 0x80) throw new Error('invalid varint encoding');
  }
  return (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0);
}

/** A protobufjs Reader over `bytes` whose int64/uint64 read bigints. */
export function makeReader(bytes: Uint8Array): protobuf.Reader {
  const r = new protobuf.Reader(bytes) as AnyReader;
  const self = r as unknown as Record<string, () => bigint>;
  self['int64'] = () => BigInt.asIntN(64, readVarint64(r));
  self['uint64'] = () => readVarint64(r);
  return r;
}

/** A 64-bit value as protobufjs's LongBits understands it ({low, high} as unsigned 32-bit halves). */
function bits(v: unknown): unknown {
  if (typeof v !== 'bigint') return v;
  const u = BigInt.asUintN(64, v);
  return { low: Number(u & 0xffffffffn) | 0, high: Number(u >> 32n) | 0, unsigned: false };
}

function makeWriter(): protobuf.Writer {
  const w = new protobuf.Writer();
  const proto = protobuf.Writer.prototype as unknown as Record<string, (this: protobuf.Writer, v: unknown) => protobuf.Writer>;
  const self = w as unknown as Record<string, (v: unknown) => protobuf.Writer>;
  self['int64'] = (v) => proto['int64']!.call(w, bits(v));
  self['uint64'] = (v) => proto['uint64']!.call(w, bits(v));
  return w;
}

/** Decodes one message; throws protobufjs's error on malformed input (callers make a diagnostic of it). */
export function decodeMessage<M>(type: MessageCoder, bytes: Uint8Array): M {
  return type.decode(makeReader(bytes)) as M;
}

/** Encodes one plain object (fields as in the .proto, int64 as bigint or number). */
export function encodeMessage(type: MessageCoder, obj: object): Uint8Array {
  return (type.encode(obj, makeWriter()) as protobuf.Writer).finish();
}

/** Whether a decoded message has `field` on the wire (not just its prototype default). */
export function has(m: object | null | undefined, field: string): boolean {
  return m != null && Object.prototype.hasOwnProperty.call(m, field) && (m as Record<string, unknown>)[field] != null;
}

/** An int64 field read lossless: absent → 0n (protobufjs prototype defaults may be Long or number). */
export function int64(m: object | null | undefined, field: string): bigint {
  if (!has(m, field)) return 0n;
  const v = (m as Record<string, unknown>)[field];
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number') return BigInt(v);
  const l = v as { low: number; high: number; unsigned?: boolean };
  const u = (BigInt(l.high >>> 0) << 32n) | BigInt(l.low >>> 0);
  return l.unsigned ? u : BigInt.asIntN(64, u);
}

/** Returned for every absent repeated field (read several times per node: no array each time). Never mutated. */
const NO_ITEMS: never[] = Object.freeze([]) as unknown as never[];

/** A repeated field, an empty (shared, frozen) array when absent. */
export function list<V>(m: object | null | undefined, field: string): V[] {
  const v = m == null ? undefined : (m as Record<string, unknown>)[field];
  return Array.isArray(v) ? (v as V[]) : NO_ITEMS;
}

/** A string field, '' when absent. */
export function str(m: object | null | undefined, field: string): string {
  const v = m == null ? undefined : (m as Record<string, unknown>)[field];
  return typeof v === 'string' ? v : '';
}

/** One queued write of a protobufjs Writer (its internal list, as Writer.finish walks it). */
interface WriterOp {
  readonly fn: (val: unknown, buf: Uint8Array, pos: number) => void;
  readonly len: number;
  readonly val: unknown;
  readonly next: WriterOp | null;
}

/**
 * Encodes one message as a list of chunks whose concatenation is exactly encodeMessage's bytes,
 * without copying any bytes field of `viewBytes` or more (weights): such a field is a chunk of
 * its own, the caller's view itself; everything between is written into buffers of its own size.
 * protobufjs computes every length prefix from lengths alone, so only its final copy (finish) is
 * replaced here, walking the same list of writes.
 */
export function encodeMessageChunks(type: MessageCoder, obj: object, viewBytes = 1 << 16): Uint8Array[] {
  const w = type.encode(obj, makeWriter()) as { head: WriterOp };
  const big = (o: WriterOp): boolean => o.len >= viewBytes && o.val instanceof Uint8Array && o.val.byteLength === o.len;
  const chunks: Uint8Array[] = [];
  let op = w.head.next;
  while (op) {
    let size = 0;
    let end: WriterOp | null = op;
    while (end && !big(end)) {
      size += end.len;
      end = end.next;
    }
    if (size) {
      const buf = new Uint8Array(size);
      let pos = 0;
      for (let o: WriterOp | null = op; o !== end; o = o!.next) {
        o!.fn(o!.val, buf, pos);
        pos += o!.len;
      }
      chunks.push(buf);
    }
    if (end) {
      chunks.push(end.val as Uint8Array);
      end = end.next;
    }
    op = end;
  }
  return chunks;
}
