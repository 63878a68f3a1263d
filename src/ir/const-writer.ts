import { createHash } from 'node:crypto';
import type { Tensor } from '../graph/tensor.js';
import { blobChunks } from './blob.js';

/**
 * The .bin being written: blobs back to back, no header, no alignment, identical blobs stored once
 * (hash, then a byte compare, as OpenVINO's ConstantWriter does) across the main graph and every body.
 */
export class ConstWriter {
  readonly chunks: Uint8Array[] = [];
  private size = 0;
  private readonly seen = new Map<string, { offset: number; bytes: Uint8Array }[]>();

  /** Appends the tensor's bytes (or finds an identical blob); returns offset and size in bytes. */
  write(t: Tensor): { offset: number; size: number } {
    const parts = blobChunks(t);
    const bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
    const key = createHash('sha1').update(bytes).digest('hex') + ':' + bytes.byteLength;
    const candidates = this.seen.get(key) ?? [];
    for (const c of candidates) {
      if (Buffer.compare(c.bytes, bytes) === 0) return { offset: c.offset, size: bytes.byteLength };
    }
    const offset = this.size;
    candidates.push({ offset, bytes });
    this.seen.set(key, candidates);
    if (bytes.byteLength) this.chunks.push(bytes);
    this.size += bytes.byteLength;
    return { offset, size: bytes.byteLength };
  }
}
