import { closeSync, openSync, readSync, statSync } from 'node:fs';

/**
 * Whether `ovir` must run itself again with a larger V8 heap (bin/ovir.js), decided from the
 * models on its command line before anything is loaded.
 *
 * Node's default heap limit (about 4 GB on a 64-bit machine with 16 GB or more, a quarter of the
 * memory below that) holds every model up to a few hundred thousand nodes, but not the 1M-node
 * chain (measured before the per-node savings: "Reached heap limit" at 4.1 GB). Running a second
 * Node for every command cost about 0.1 s of each run, so it happens only when the models may need
 * more than half the heap limit. What a model needs grows with its graph, not its weights (those
 * are views into the file's buffer, outside the V8 heap). Measured peak RSS per MB of input
 * (whole `ovir convert`, 2026-11-23): ONNX → IR 120 MB per MB of .onnx (chain100k), 175 (ifs2000),
 * 77 (chain1m); IR → ONNX 14.5 MB per MB of .xml (chain100k), 11 (ifs2000). The factors below are
 * these with a margin.
 */
const MB_PER_ONNX_GRAPH_MB = 200;
const MB_PER_XML_MB = 20;

/**
 * The bytes of an ONNX file that are not initializer data: the file's size less the contents of
 * the initializers (GraphProto field 5) and sparse initializers (15) of the main graph. Reads only field headers
 * (protobuf tags and lengths), skipping over initializers by offset, so a 400 MB weights file
 * costs a few hundred small reads; stops, returning the file's size, once `enough` bytes of graph
 * are seen. Anything unexpected counts the whole file.
 */
export function onnxGraphBytes(file: string, enough = Infinity): number {
  const size = statSync(file).size;
  const fd = openSync(file, 'r');
  const window = Buffer.allocUnsafe(1 << 16); // small: after each skip over an initializer it is read anew
  let start = 0; // file offset of window[0]
  let filled = 0;
  const byte = (pos: number): number => {
    if (pos < start || pos >= start + filled) {
      start = pos;
      filled = readSync(fd, window, 0, window.length, pos);
      if (filled === 0) throw new RangeError('end of file');
    }
    return window[pos - start]!;
  };
  let pos = 0;
  const varint = (): number => {
    let v = 0;
    for (let shift = 0; shift < 64; shift += 7) {
      const b = byte(pos++);
      v += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return v;
    }
    throw new RangeError('bad varint');
  };
  /** Walks the fields in [pos, end); for each length-delimited one calls `onField(field, length)` (which may move pos past it). */
  const fields = (end: number, onField: (field: number, length: number) => void) => {
    while (pos < end && pos - weights < enough) {
      const tag = varint();
      const wire = tag & 7;
      if (wire === 0) varint();
      else if (wire === 1) pos += 8;
      else if (wire === 5) pos += 4;
      else if (wire === 2) {
        const length = varint();
        const next = pos + length;
        onField(Math.floor(tag / 8), length);
        pos = next;
      } else throw new RangeError('bad wire type');
    }
    if (pos < end) throw new RangeError('enough graph');
    if (pos !== end) throw new RangeError('field past its message');
  };
  let weights = 0;
  try {
    fields(size, (field, length) => {
      if (field !== 7) return; // ModelProto.graph
      fields(pos + length, (gField, gLength) => {
        if (gField === 5 || gField === 15) weights += gLength;
      });
    });
    return size - weights;
  } catch {
    return size;
  } finally {
    closeSync(fd);
  }
}

const MODEL = /\.(onnx|xml)$/i;
/** Options whose value is a path ovir writes: an existing file there is overwritten, never read. */
const OUTPUT_OPTIONS = new Set(['-o', '--output_model', '--output-model', '--out-dir']);

/**
 * A heap need (MB) that every Node's default heap holds twice over: V8 gives a 64-bit process at
 * least 256 MB of old generation, whatever the machine's memory.
 */
const SMALL_NEED_MB = 128;

/**
 * The heap (MB) to run `ovir <args>` with, or null when Node's default is enough. Not for `batch`:
 * its models are converted in worker threads, each with a heap limit of its own (src/batch/pool.ts);
 * a --max-old-space-size flag would override those limits in every worker (V8 takes the flag over
 * a Worker's resourceLimits), and one runaway model could then take the machine's memory. Always
 * for `batch --jobs 0`, which converts in its own thread.
 * Models whose need is small whatever the machine are told from their files alone: node:v8 and
 * node:os, which the answer otherwise needs, cost about 2 ms of every run to load.
 */
export function largerHeapFor(args: readonly string[]): number | null {
  const batch = args.find((a) => !a.startsWith('-')) === 'batch';
  if (batch && !inMainThread(args)) return null;
  if (!batch && heapNeed(args, 2 * SMALL_NEED_MB) <= SMALL_NEED_MB) return null;
  const { totalmem } = require('node:os') as typeof import('node:os');
  const v8 = require('node:v8') as typeof import('node:v8');
  const want = Math.min(16384, Math.floor((totalmem() / 2 ** 20) * 0.75));
  const limit = v8.getHeapStatistics().heap_size_limit / 2 ** 20;
  if (want <= limit) return null;
  if (batch) return want;
  return heapNeed(args, limit) > limit / 2 ? want : null;
}

/** `batch --jobs 0` (or -j 0, -j0, --jobs=0): no workers, the models are converted in this thread. */
function inMainThread(args: readonly string[]): boolean {
  return args.some((a, i) => ((a === '-j' || a === '--jobs') && args[i + 1] === '0') || a === '-j0' || a === '--jobs=0');
}

/**
 * What the models on the command line may need of the heap (MB), as far as it matters against a
 * heap limit of `limit` MB: a large .onnx has its graph's bytes counted (its headers read) only
 * up to what exceeds half that limit.
 */
function heapNeed(args: readonly string[], limit: number): number {
  let need = 0;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (OUTPUT_OPTIONS.has(a)) { i++; continue; }
    if (!MODEL.test(a)) continue;
    let size: number;
    try {
      const s = statSync(a);
      if (!s.isFile()) continue;
      size = s.size;
    } catch {
      continue; // an output path, or a file the command will report
    }
    // Only a large .onnx is worth reading headers of: below this size even the whole file is small.
    const onnxBound = (size / 2 ** 20) * MB_PER_ONNX_GRAPH_MB;
    if (/\.xml$/i.test(a)) need += (size / 2 ** 20) * MB_PER_XML_MB;
    else need += onnxBound < limit / 2 ? onnxBound : (onnxGraphBytes(a, (limit / 2 / MB_PER_ONNX_GRAPH_MB) * 2 ** 20) / 2 ** 20) * MB_PER_ONNX_GRAPH_MB;
  }
  return need;
}
