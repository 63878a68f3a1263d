import type * as Crypto from 'node:crypto';
import { builtin } from '../fs/builtin.js';
import type { Tensor } from '../graph/tensor.js';
import { filled, onDemand } from '../fs/sparse-file.js';
import { blobChunks } from './blob.js';

/** A blob already in the .bin. */
interface Stored { readonly offset: number; readonly bytes: Uint8Array }

/** Blobs of one fingerprint: a list compared byte by byte while short, then a map by digest. */
interface Group { readonly list: Stored[]; byDigest?: Map<string, Stored[]> }

/** Blobs a group compares byte by byte before it hashes them (bounds the compares per blob). */
const COMPARED = 8;
const SAMPLE = 32;

const digestOf = (bytes: Uint8Array): string => builtin<typeof Crypto>('node:crypto').createHash('sha1').update(filled(bytes)).digest('hex');

/** Length and the bytes at the start, middle and end: different weights differ there. */
function fingerprint(bytes: Uint8Array): string {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = b.byteLength;
  if (n <= 3 * SAMPLE) return `${n}:${filled(b).toString('latin1')}`;
  const mid = Math.floor((n - SAMPLE) / 2); // (not `>> 1`: a weight of 2 GiB or more would sample at a negative offset)
  // weights read on demand: only the sampled bytes are read (their pages)
  const file = onDemand(b);
  if (file) for (const at of [0, mid, n - SAMPLE]) file.fill(b.byteOffset + at, b.byteOffset + at + SAMPLE);
  return `${n}:${b.toString('latin1', 0, SAMPLE)}${b.toString('latin1', mid, mid + SAMPLE)}${b.toString('latin1', n - SAMPLE, n)}`;
}

/**
 * The .bin being written: blobs back to back, no header, no alignment, identical blobs stored once
 * across the main graph and every body (OpenVINO's ConstantWriter hashes every blob, then compares).
 *
 * Here blobs are grouped by a fingerprint (length and 96 sampled bytes) and compared byte by byte
 * within a group; a group that grows past COMPARED blobs (many blobs alike where sampled: hostile
 * or degenerate data) switches to sha1 digests, each blob hashed at most once, so the work stays
 * linear. Hashing every byte cost more than reading the model: ISNet medium (88 MB, 238 weights,
 * 79 MB of them sharing a length with another) spent 0.2 s in sha1 of a 0.4 s conversion.
 */
export class ConstWriter {
  readonly chunks: Uint8Array[] = [];
  private size = 0;
  private readonly groups = new Map<string, Group>();

  /**
   * Appends the tensor's bytes (or finds an identical blob); returns offset and size in bytes. An
   * empty tensor is one zero byte, as OpenVINO's serializer writes it (Constant-1: size is "a
   * positive integer"): OpenVINO reads a Const of size 0 without a data pointer, and the ops that
   * read it as a shape fail ("ptr is Null") or crash the CPU plugin (Broadcast to shape []).
   */
  write(t: Tensor): { offset: number; size: number } {
    const parts = blobChunks(t);
    const joined = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
    const bytes = joined.byteLength === 0 ? EMPTY_BLOB : joined;
    const size = bytes.byteLength;
    const fresh: Stored = { offset: this.size, bytes };
    const key = fingerprint(bytes);
    const group = this.groups.get(key);
    if (!group) this.groups.set(key, { list: [fresh] });
    else if (!group.byDigest && group.list.length < COMPARED) {
      const found = group.list.find(same(bytes));
      if (found) return { offset: found.offset, size };
      group.list.push(fresh);
    } else {
      const byDigest = (group.byDigest ??= digests(group.list));
      const digest = digestOf(bytes);
      const found = byDigest.get(digest)?.find(same(bytes));
      if (found) return { offset: found.offset, size };
      push(byDigest, digest, fresh);
    }
    this.chunks.push(bytes);
    this.size += size;
    return { offset: fresh.offset, size };
  }
}

/** What an empty tensor is written as (see ConstWriter.write). */
const EMPTY_BLOB = new Uint8Array(1);

/** Byte-for-byte equality (of weights read on demand too: both are read then; blobs alike where sampled are rare). */
const same = (bytes: Uint8Array) => (s: Stored) => s.bytes.byteLength === bytes.byteLength && Buffer.compare(filled(s.bytes), filled(bytes)) === 0;

function digests(list: readonly Stored[]): Map<string, Stored[]> {
  const m = new Map<string, Stored[]>();
  for (const s of list) push(m, digestOf(s.bytes), s);
  return m;
}

function push(m: Map<string, Stored[]>, k: string, s: Stored): void {
  const l = m.get(k);
  if (l) l.push(s);
  else m.set(k, [s]);
}
