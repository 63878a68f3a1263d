import { Pages } from './pages.js';
import { COPY_BYTES, onDemand, registerOnDemand, type OnDemandBytes } from './sparse-file.js';

/**
 * Bytes computed element by element from a view of other bytes (weights of a file read on demand),
 * when they are needed and not before: `--compress-to-fp16` gives a 2.5 GiB f32 model's weights
 * their f16 form this way, so that the IR writer computes each piece as it copies it to the .bin
 * (as it copies f32 weights from their file), instead of the conversion holding 1.25 GiB of f16
 * weights (measured: 1.44 GB peak RSS for weights2560, 10.9 s, most of it the kernel's page faults).
 *
 * The source is read piece by piece from its file (its own buffer stays untouched); `bytes` is one
 * buffer of the result's size, filled page by page where something reads it (as SparseFile's).
 * The source file must stay the one first opened (SparseFile's FILE_CHANGED applies).
 */
export class DerivedBytes implements OnDemandBytes {
  readonly bytes: Buffer;
  private readonly pages: Pages;

  /**
   * `convert(src, dst)` writes the result of source bytes `src` into `dst`: `srcPerOut` source
   * bytes become one result byte, whole elements at a time (`outElem` result bytes each).
   */
  constructor(
    private readonly source: Uint8Array,
    private readonly srcPerOut: number,
    private readonly outElem: number,
    private readonly convert: (src: Uint8Array, dst: Uint8Array) => void,
  ) {
    const size = source.byteLength / srcPerOut;
    if (!Number.isInteger(size) || size % outElem !== 0) throw new RangeError(`${source.byteLength} source bytes are no whole number of ${outElem}-byte results`);
    this.bytes = Buffer.allocUnsafeSlow(size);
    this.pages = new Pages(size, PAGE);
    registerOnDemand(this);
  }

  get size(): number {
    return this.bytes.length;
  }

  fill(start: number, end: number): void {
    this.pages.fetch(start, end, (from, to) => this.compute(this.bytes.subarray(from, to), from));
  }

  isFilled(start: number, end: number): boolean {
    return this.pages.has(start, end);
  }

  copy(start: number, length: number, out: (piece: Uint8Array) => void): void {
    const buf = (outBuf ??= Buffer.allocUnsafeSlow(COPY_BYTES));
    for (let at = start, end = start + length; at < end;) {
      const n = Math.min(buf.length, end - at);
      this.read(buf, at, n);
      out(buf.subarray(0, n));
      at += n;
    }
  }

  read(into: Uint8Array, start: number, length: number): void {
    if (this.isFilled(start, start + length)) into.set(this.bytes.subarray(start, start + length));
    else this.compute(into.subarray(0, length), start);
  }

  /** Computes result bytes [start, start + dst.length) into `dst`, from the source piece by piece. */
  private compute(dst: Uint8Array, start: number): void {
    // a result piece boundary inside an element would split it: start and length are whole elements
    // (every caller's ranges are pages, COPY_BYTES pieces, or views of whole tensors, or their
    // sampled bytes: round those out to whole elements)
    const e = this.outElem;
    const a = start - (start % e);
    const b = Math.min(this.size, Math.ceil((start + dst.length) / e) * e);
    if (a !== start || b !== start + dst.length) {
      const whole = Buffer.allocUnsafe(b - a);
      this.compute(whole, a);
      dst.set(whole.subarray(start - a, start - a + dst.length));
      return;
    }
    const file = onDemand(this.source);
    // one scratch per nesting level (a source that is itself computed reads its own source)
    const srcBuf = (scratch[depth] ??= Buffer.allocUnsafeSlow(COPY_BYTES));
    depth++;
    try {
      const step = Math.floor(COPY_BYTES / this.srcPerOut / e) * e;
      for (let done = 0; done < dst.length; done += step) {
        const n = Math.min(step, dst.length - done);
        const from = this.source.byteOffset + (start + done) * this.srcPerOut;
        const m = n * this.srcPerOut;
        let src: Uint8Array;
        if (file && !file.isFilled(from, from + m)) {
          file.read(srcBuf, from, m);
          src = srcBuf.subarray(0, m);
        } else src = new Uint8Array(this.source.buffer, from, m);
        this.convert(src, dst.subarray(done, done + n));
      }
    } finally {
      depth--;
    }
  }
}

/**
 * Result bytes `fill` computes at least (consecutive ones at once): small, since computing costs
 * per byte, not per call (the .bin writer's fingerprint reads 3 × 32 bytes of every weight: with
 * 64 KB pages that made 123 MB of weights2560's f16 weights resident).
 */
const PAGE = 1 << 12;
let outBuf: Buffer | null = null;
const scratch: Buffer[] = [];
let depth = 0;
