import protobuf from 'protobufjs/minimal.js';

/**
 * Strings of the ONNX structure (names, op types, domains) read straight from the file's bytes.
 *
 * Why not protobufjs's `Reader.string()`: it makes a Buffer view of every string's bytes (a typed
 * array object, the costliest part of reading a node) and then decodes them in JS one code unit at
 * a time. Here:
 * - ASCII (nearly every ONNX name) is decoded by Node's `latin1Slice` over the file's Buffer, with
 *   no view made; anything else by protobufjs's own UTF-8 decoder (`util.utf8.read`) over the same
 *   bytes, so invalid UTF-8 reads exactly as protobufjs reads it.
 * - Short strings are interned in a small direct-mapped table keyed by a hash of their bytes: an
 *   op type, a domain, or a name read again as the next node's input is the string already made
 *   (no new string, less garbage, one copy in the graph). A miss replaces the slot, so the table
 *   stays a fixed size and a lookup is O(length).
 */
const utf8 = (protobuf.util as unknown as { utf8: { read(buf: Uint8Array, start: number, end: number): string } }).utf8;

type Latin1 = Uint8Array & { latin1Slice?: (start: number, end: number) => string };

/** Strings up to this many bytes are interned. */
const INTERN_MAX = 48;
const SLOTS = 1 << 12;

export class StringTable {
  private readonly slots: (string | undefined)[] = new Array<string | undefined>(SLOTS);

  /** The string in `buf[start, end)`. */
  read(buf: Latin1, start: number, end: number): string {
    const n = end - start;
    if (n === 0) return '';
    if (n > INTERN_MAX) return decode(buf, start, end);
    // one pass: ASCII check and hash (FNV-1a, 32-bit)
    let h = 0x811c9dc5;
    let high = 0;
    for (let i = start; i < end; i++) {
      const b = buf[i]!;
      high |= b;
      h = Math.imul(h ^ b, 0x01000193);
    }
    if (high > 127) return utf8.read(buf, start, end);
    const slot = (h ^ (h >>> 15)) & (SLOTS - 1);
    const s = this.slots[slot];
    if (s !== undefined && s.length === n && sameAscii(s, buf, start)) return s;
    const made = latin1(buf, start, end);
    this.slots[slot] = made;
    return made;
  }
}

function sameAscii(s: string, buf: Uint8Array, start: number): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) !== buf[start + i]) return false;
  return true;
}

function decode(buf: Latin1, start: number, end: number): string {
  for (let i = start; i < end; i++) if (buf[i]! > 127) return utf8.read(buf, start, end);
  return latin1(buf, start, end);
}

/** ASCII bytes as a string: Node's Buffer method when `buf` is a Buffer (see asBuffer), else protobufjs's decoder. */
function latin1(buf: Latin1, start: number, end: number): string {
  return buf.latin1Slice ? buf.latin1Slice(start, end) : utf8.read(buf, start, end);
}

/** A Buffer over the same memory (no copy), so that strings decode with `latin1Slice`. */
export function asBuffer(bytes: Uint8Array): Uint8Array {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
