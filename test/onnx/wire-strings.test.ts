import protobuf from 'protobufjs/light.js';
import { describe, expect, it } from 'vitest';
import { asBuffer, StringTable } from '../../src/onnx/wire-strings.js';

/**
 * The decoder reads names, op types and domains with StringTable instead of protobufjs's
 * Reader.string(): every string must be exactly what protobufjs reads from the same bytes,
 * ASCII or not, valid UTF-8 or not, interned or not.
 */
const utf8 = (protobuf.util as unknown as { utf8: { read(b: Uint8Array, s: number, e: number): string } }).utf8;

function randomBytes(seed: number, n: number, alphabet: (r: number) => number): Uint8Array {
  let x = seed >>> 0;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    out[i] = alphabet(x);
  }
  return out;
}

describe('StringTable reads strings as protobufjs does', () => {
  const cases: [string, (r: number) => number][] = [
    ['ASCII names', (r) => 0x41 + (r % 26)],
    ['any byte (invalid UTF-8 included)', (r) => r >>> 24],
    ['mostly ASCII with some multi-byte sequences', (r) => ((r >>> 8) % 10 === 0 ? 0xc3 : 0x61 + (r % 3))],
  ];
  for (const [what, alphabet] of cases) {
    it(what, () => {
      const bytes = asBuffer(randomBytes(7, 200_000, alphabet));
      const table = new StringTable();
      let pos = 0;
      for (let k = 0; pos < bytes.length - 100; k++) {
        const n = k % 97; // 0..96 bytes: interned (≤ 48) and not
        expect(table.read(bytes, pos, pos + n)).toBe(utf8.read(bytes, pos, pos + n));
        pos += n;
      }
    });
  }

  it('interning gives the same string again, and never another string of the same slot', () => {
    const names = Array.from({ length: 20_000 }, (_, i) => `node_${i}/out`);
    const bytes = asBuffer(new TextEncoder().encode(names.join('')));
    const table = new StringTable();
    for (let round = 0; round < 2; round++) {
      let pos = 0;
      for (const name of names) {
        expect(table.read(bytes, pos, pos + name.length)).toBe(name);
        pos += name.length;
      }
    }
  });

  it('reads a plain Uint8Array (no Buffer) the same way', () => {
    const bytes = new TextEncoder().encode('Relu\u00e9Add');
    const table = new StringTable();
    expect(table.read(bytes, 0, 4)).toBe('Relu');
    expect(table.read(bytes, 0, bytes.length)).toBe(utf8.read(bytes, 0, bytes.length));
  });
});
