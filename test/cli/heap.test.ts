import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import v8 from 'node:v8';
import { afterAll, describe, expect, it } from 'vitest';
import { largerHeapFor, onnxGraphBytes } from '../../src/cli/heap.cjs';

const dir = mkdtempSync(join(tmpdir(), 'ovir-heap-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Protobuf wire format, enough for a ModelProto skeleton. */
const varint = (n: number): number[] => { const out = []; while (n >= 0x80) { out.push((n & 0x7f) | 0x80); n = Math.floor(n / 128); } out.push(n); return out; };
const concat = (...parts: Uint8Array[]): Uint8Array => Buffer.concat(parts);
const field = (num: number, body: Uint8Array): Uint8Array => concat(Uint8Array.from([...varint(num * 8 + 2), ...varint(body.length)]), body);
const bytes = (n: number, v = 7): Uint8Array => new Uint8Array(n).fill(v);

function file(name: string, data: Uint8Array): string {
  const f = join(dir, name);
  writeFileSync(f, data);
  return f;
}

describe('onnxGraphBytes: an ONNX file less its initializers, from field headers only', () => {
  // ModelProto { ir_version: 8 (varint field 1), graph (7): GraphProto { node (1) ×2, initializer (5) ×2, sparse_initializer (15) } }
  const node = field(1, bytes(40));
  const graph = concat(node, node, field(5, bytes(100_000)), field(5, bytes(300_000)), field(15, bytes(5_000)), field(2, bytes(4, 65)));
  const model = concat(Uint8Array.from([0x08, 0x08]), field(7, graph));
  const weights = 100_000 + 300_000 + 5_000;

  it('counts every byte but the contents of the main graph\'s initializers', () => {
    const f = file('model.onnx', model);
    expect(onnxGraphBytes(f)).toBe(model.length - weights);
  });

  it('counts the whole file when it is not what it should be (truncated, bad wire type)', () => {
    expect(onnxGraphBytes(file('cut.onnx', model.subarray(0, model.length - 10)))).toBe(model.length - 10);
    expect(onnxGraphBytes(file('bad.onnx', Uint8Array.from([0x0f, 1, 2, 3])))).toBe(4);
  });

  it('stops once it has seen enough graph, counting the whole file', () => {
    const big = concat(field(7, concat(...Array.from({ length: 1000 }, () => node), field(5, bytes(10_000)))));
    const f = file('big.onnx', big);
    expect(onnxGraphBytes(f)).toBe(big.length - 10_000);
    expect(onnxGraphBytes(f, 500)).toBe(big.length);
  });
});

describe('largerHeapFor: a second process with a larger heap only when the models may need it', () => {
  const limitMb = v8.getHeapStatistics().heap_size_limit / 2 ** 20;
  const wantMb = Math.min(16384, Math.floor((totalmem() / 2 ** 20) * 0.75));
  const canGrow = wantMb > limitMb;

  it('not for --version, a small model, a missing file or an output path', () => {
    const small = file('small.onnx', field(7, field(1, bytes(40))));
    expect(largerHeapFor(['--version'])).toBeNull();
    expect(largerHeapFor(['convert', small, '-o', join(dir, 'out.xml')])).toBeNull();
    expect(largerHeapFor(['info', join(dir, 'missing.onnx')])).toBeNull();
  });

  it.runIf(canGrow)('for an IR whose .xml may need more than half the heap (20 MB per MB of XML)', () => {
    const mb = Math.ceil(limitMb / 2 / 20) + 1;
    const xml = file('big.xml', new Uint8Array(0));
    truncateSync(xml, mb * 2 ** 20); // only its size is read: a sparse file will do
    expect(largerHeapFor(['convert', xml])).toBe(wantMb);
    truncateSync(xml, (mb - 2) * 2 ** 20);
    expect(largerHeapFor(['convert', xml])).toBeNull();
  });

  it.runIf(canGrow)('not for a large file at the output path (it is overwritten, never read)', () => {
    const mb = Math.ceil(limitMb / 2 / 20) + 1;
    const old = file('old-output.xml', new Uint8Array(0));
    truncateSync(old, mb * 2 ** 20);
    const small = file('small-input.onnx', field(7, field(1, bytes(40))));
    for (const flag of ['-o', '--output_model', '--output-model']) expect(largerHeapFor(['convert', small, flag, old])).toBeNull();
    expect(largerHeapFor(['convert', old])).toBe(wantMb);
  });

  it.runIf(canGrow)('for a large ONNX graph, not for large ONNX weights (they are views, outside the heap)', () => {
    const need = Math.ceil((limitMb / 2 / 200) * 2 ** 20) + 2 ** 20; // graph bytes past the threshold (200 MB per MB)
    const graphHeavy = file('graph-heavy.onnx', field(7, field(1, bytes(need))));
    const weightHeavy = file('weight-heavy.onnx', field(7, concat(field(1, bytes(40)), field(5, bytes(need)))));
    expect(largerHeapFor(['convert', graphHeavy])).toBe(wantMb);
    expect(largerHeapFor(['convert', weightHeavy])).toBeNull();
  });

  it('never for batch: its workers have heap limits of their own, which a --max-old-space-size flag would override', () => {
    expect(largerHeapFor(['batch', dir, '-o', join(dir, 'out')])).toBeNull();
    expect(largerHeapFor(['batch', dir, '-j', '2'])).toBeNull();
  });

  it.runIf(canGrow)('always for batch --jobs 0 (no workers: the models are converted in the main thread)', () => {
    for (const j of [['-j', '0'], ['--jobs', '0'], ['-j0'], ['--jobs=0']]) expect(largerHeapFor(['batch', dir, ...j])).toBe(wantMb);
  });
});
