/** Packs named typed arrays back to back into one .bin and says where each one starts. */
export function blobOf(parts: Record<string, ArrayBufferView>): { bin: Uint8Array; at: Record<string, number> } {
  const at: Record<string, number> = {};
  const chunks: Uint8Array[] = [];
  let off = 0;
  for (const [k, v] of Object.entries(parts)) {
    at[k] = off;
    const b = new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
    chunks.push(b);
    off += b.byteLength;
  }
  return { bin: new Uint8Array(Buffer.concat(chunks)), at };
}
