import protobuf from 'protobufjs/minimal.js';
import { filled } from '../fs/sparse-file.js';

/**
 * Protobuf wire output written straight from the graph: no message objects, no list of pending
 * writes. Bytes go into a growing buffer; a finished message is embedded in its parent as a length
 * prefix plus its bytes (`message`), so each message is written once into its own writer and
 * copied once into its parent. Large pieces are not copied at all: a bytes field of `viewBytes` or
 * more (weights) and a finished part of a big sub-message become chunks of their own, so the
 * output is a list of chunks whose concatenation is the message.
 *
 * The encoding is protobufjs's (src/onnx/wire.ts encodeMessage), byte for byte: fields in field
 * number order (callers write them so), minimal varints, negative int32/enum values as 10-byte
 * varints, repeated scalars packed, strings as protobufjs's own UTF-8 (`util.utf8`: lone
 * surrogates as it writes them).
 */
const utf8 = (protobuf.util as unknown as { utf8: { length(s: string): number; write(s: string, buf: Uint8Array, pos: number): number } }).utf8;

/** Wire types. */
export const VARINT = 0;
export const I64 = 1;
export const LEN = 2;
export const I32 = 5;

const f32 = new Float32Array(1);
const f32b = new Uint8Array(f32.buffer);
const f64 = new Float64Array(1);
const f64b = new Uint8Array(f64.buffer);
const LITTLE = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** A sub-message's finished part at least this big is handed on as a chunk, not copied. */
const MOVE_BYTES = 1 << 16;

/**
 * Writer buffers are cut from shared 1 MiB slabs: a typed array of its own costs a separate
 * off-heap allocation (zeroed, tracked as external memory, which itself triggers collections) and
 * a model makes tens of thousands of small writers (a few per graph and per node with bodies); a
 * view into a slab is only a small heap object. A slab lives while any view of it does (the
 * finished chunks are such views until the file is written). Big buffers are allocated alone.
 */
const SLAB_BYTES = 1 << 20;
let slab = new Uint8Array(0);
let slabPos = 0;
const NONE = new Uint8Array(0);

function alloc(n: number): Uint8Array {
  if (n > SLAB_BYTES / 4) return new Uint8Array(n);
  if (slabPos + n > slab.length) {
    slab = new Uint8Array(SLAB_BYTES);
    slabPos = 0;
  }
  const b = slab.subarray(slabPos, slabPos + n);
  slabPos += n;
  return b;
}

/** Copies of at most this many bytes are done by a loop (ProtoWriter.copy). */
const SHORT_COPY = 32;

/** Emptied writers, reused: most messages are small and short-lived (allocating buffers costs more than writing them). */
const POOL: ProtoWriter[] = [];
const POOL_MAX = 1024;
const DEFAULT_VIEW_BYTES = 1 << 16;

export class ProtoWriter {
  /**
   * A writer, new or reused: it is taken back (emptied) when its bytes are moved into another
   * writer by `message` or `append`, so it must not be used after that.
   */
  static make(): ProtoWriter {
    return POOL.pop() ?? new ProtoWriter();
  }

  /**
   * Drops the buffers of the pooled writers (call when a model is written): each is a view that
   * would keep its slab alive between models.
   */
  static release(): void {
    for (const w of POOL) w.buf = NONE;
    slab = NONE;
    slabPos = 0;
  }

  private readonly chunks: Uint8Array[] = [];
  private done = 0;
  private buf: Uint8Array;
  private pos = 0;

  constructor(private readonly viewBytes = DEFAULT_VIEW_BYTES, size = 256) {
    this.buf = alloc(size);
  }

  /** Bytes written so far. */
  get length(): number {
    return this.done + this.pos;
  }

  private room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    if (this.pos >= MOVE_BYTES || n > this.buf.length) {
      // hand the filled part on as a chunk rather than copying it into a bigger buffer
      this.flush();
      this.buf = alloc(Math.max(n, Math.min(2 * this.buf.length, 1 << 20), 256));
      return;
    }
    const next = alloc(Math.max(2 * this.buf.length, this.pos + n, 256));
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
  }

  private flush(): void {
    if (this.pos === 0) return;
    this.chunks.push(this.buf.subarray(0, this.pos));
    this.done += this.pos;
    this.buf = this.buf.subarray(this.pos);
    this.pos = 0;
  }

  varint(v: number): this {
    this.room(5);
    const b = this.buf;
    let x = v >>> 0;
    while (x > 127) {
      b[this.pos++] = (x & 127) | 128;
      x >>>= 7;
    }
    b[this.pos++] = x;
    return this;
  }

  /** A signed or unsigned 64-bit value (two's complement, as protobuf's int64/uint64). */
  varint64(v: bigint | number): this {
    if (typeof v === 'number' && v >= 0 && v <= 0xffffffff && Number.isInteger(v)) return this.varint(v);
    let u = BigInt.asUintN(64, BigInt(v));
    this.room(10);
    const b = this.buf;
    while (u > 127n) {
      b[this.pos++] = Number(u & 127n) | 128;
      u >>= 7n;
    }
    b[this.pos++] = Number(u);
    return this;
  }

  /** int32/enum: a negative value is sign-extended to 64 bits (10 bytes). */
  int32(v: number): this {
    return v < 0 ? this.varint64(BigInt(v | 0)) : this.varint(v);
  }

  tag(field: number, wire: number): this {
    return this.varint(((field << 3) | wire) >>> 0);
  }

  float(v: number): this {
    this.room(4);
    f32[0] = v;
    if (LITTLE) this.buf.set(f32b, this.pos);
    else for (let i = 0; i < 4; i++) this.buf[this.pos + i] = f32b[3 - i]!;
    this.pos += 4;
    return this;
  }

  double(v: number): this {
    this.room(8);
    f64[0] = v;
    if (LITTLE) this.buf.set(f64b, this.pos);
    else for (let i = 0; i < 8; i++) this.buf[this.pos + i] = f64b[7 - i]!;
    this.pos += 8;
    return this;
  }

  // ── fields ────────────────────────────────────────────────────────────────────
  int64Field(field: number, v: bigint | number): this {
    return this.tag(field, VARINT).varint64(v);
  }

  int32Field(field: number, v: number): this {
    return this.tag(field, VARINT).int32(v);
  }

  floatField(field: number, v: number): this {
    return this.tag(field, I32).float(v);
  }

  stringField(field: number, s: string): this {
    this.tag(field, LEN);
    const n = s.length < 64 && isAscii(s) ? s.length : utf8.length(s);
    this.varint(n);
    this.room(n);
    if (n === s.length) for (let i = 0; i < n; i++) this.buf[this.pos + i] = s.charCodeAt(i);
    else utf8.write(s, this.buf, this.pos);
    this.pos += n;
    return this;
  }

  /** A bytes field; `viewBytes` or more are the caller's view itself (a chunk of its own), not copied. */
  bytesField(field: number, data: Uint8Array): this {
    this.tag(field, LEN).varint(data.byteLength);
    if (data.byteLength >= this.viewBytes) {
      this.flush();
      this.chunks.push(data);
      this.done += data.byteLength;
      return this;
    }
    this.room(data.byteLength);
    this.buf.set(filled(data), this.pos);
    this.pos += data.byteLength;
    return this;
  }

  /** Packed repeated int64 (nothing for an empty list, as protobufjs). */
  packedInt64(field: number, values: readonly (bigint | number)[]): this {
    if (!values.length) return this;
    const body = ProtoWriter.make();
    for (const v of values) body.varint64(v);
    return this.message(field, body);
  }

  packedFloat(field: number, values: readonly number[]): this {
    if (!values.length) return this;
    this.tag(field, LEN).varint(4 * values.length);
    for (const v of values) this.float(v);
    return this;
  }

  /** An embedded message: tag, length, then `sub`'s bytes (its big chunks handed on, the rest copied). */
  message(field: number, sub: ProtoWriter): this {
    this.tag(field, LEN).varint(sub.length);
    return this.append(sub);
  }

  /**
   * Moves `sub`'s bytes here as they are (no tag, no length): a run of fields written elsewhere.
   * `sub` is emptied and taken back for reuse (see `make`): do not use it afterwards.
   */
  append(sub: ProtoWriter): this {
    const chunks = sub.chunks;
    for (let i = 0; i < chunks.length; i++) this.piece(chunks[i]!);
    const n = sub.pos;
    if (n >= MOVE_BYTES || n >= this.viewBytes) {
      this.piece(sub.buf.subarray(0, n));
      sub.buf = NONE; // handed on
    } else this.copy(sub.buf, n); // (no view made: most writers appended hold a few bytes)
    sub.chunks.length = 0;
    sub.done = 0;
    sub.pos = 0;
    if (POOL.length < POOL_MAX && sub.viewBytes === DEFAULT_VIEW_BYTES && sub.buf.length <= 1 << 16) POOL.push(sub);
    return this;
  }

  /** Already encoded bytes (a message encoded by protobufjs, carried through). */
  raw(bytes: Uint8Array): this {
    this.piece(bytes);
    return this;
  }

  private piece(c: Uint8Array): void {
    if (c.byteLength >= MOVE_BYTES || c.byteLength >= this.viewBytes) {
      this.flush();
      this.chunks.push(c);
      this.done += c.byteLength;
      return;
    }
    this.copy(c, c.byteLength);
  }

  /** Copies the first `n` bytes of `src` here. */
  private copy(src: Uint8Array, n: number): void {
    this.room(n);
    const b = this.buf;
    const pos = this.pos;
    // A few bytes by hand: TypedArray#set's fixed cost is many times a short loop's (measured:
    // appending and embedding small messages was most of assembling ifs2000's 4000 bodies).
    if (n <= SHORT_COPY) for (let i = 0; i < n; i++) b[pos + i] = src[i]!;
    else b.set(n === src.length ? src : src.subarray(0, n), pos);
    this.pos = pos + n;
  }

  /** The chunks; their concatenation is the message. */
  finish(): Uint8Array[] {
    this.flush();
    return this.chunks;
  }
}

// ── sizes, for messages written in place (tag, length, then fields straight into the parent) ──
/** Bytes of an unsigned 32-bit varint. */
export function varintSize(v: number): number {
  const x = v >>> 0;
  return x < 0x80 ? 1 : x < 0x4000 ? 2 : x < 0x200000 ? 3 : x < 0x10000000 ? 4 : 5;
}

/** Bytes of an int64/uint64 varint (two's complement: a negative value is 10). */
export function int64Size(v: bigint | number): number {
  if (typeof v === 'number' && v >= 0 && v <= 0xffffffff && Number.isInteger(v)) return varintSize(v);
  let u = BigInt.asUintN(64, BigInt(v));
  let n = 1;
  while (u > 127n) {
    u >>= 7n;
    n++;
  }
  return n;
}

/** Bytes of an int32/enum varint (a negative value is sign-extended: 10). */
export function int32Size(v: number): number {
  return v < 0 ? 10 : varintSize(v);
}

/** UTF-8 bytes of a string as stringField writes it. */
export function stringSize(s: string): number {
  return s.length < 64 && isAscii(s) ? s.length : utf8.length(s);
}

/** Bytes of a length-delimited field of `n` bytes with a field number below 16 (one-byte tag). */
export function lenFieldSize(n: number): number {
  return 1 + varintSize(n) + n;
}

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 127) return false;
  return true;
}

/** The concatenation of `chunks`. */
export function concatChunks(chunks: readonly Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return filled(chunks[0]!);
  let n = 0;
  for (const c of chunks) n += c.byteLength;
  const out = new Uint8Array(n);
  let pos = 0;
  for (const c of chunks) {
    out.set(filled(c), pos);
    pos += c.byteLength;
  }
  return out;
}
