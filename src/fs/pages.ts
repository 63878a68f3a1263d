/**
 * Which pages of a buffer held back until needed hold their bytes (a file read on demand,
 * src/fs/sparse-file.ts; bytes computed from one, src/fs/derived-bytes.ts): one flag per page.
 */
export class Pages {
  private readonly done: Uint8Array;

  constructor(private readonly size: number, private readonly page: number) {
    this.done = new Uint8Array(Math.ceil(size / page));
  }

  /** Whether every byte of [start, end) is there. */
  has(start: number, end: number): boolean {
    for (let p = Math.floor(start / this.page), last = Math.ceil(Math.min(end, this.size) / this.page); p < last; p++) if (!this.done[p]) return false;
    return true;
  }

  /**
   * Has `get(from, to)` put the bytes of each run of consecutive pages of [start, end) not there
   * yet (whole pages, the last one cut at the size; one call per run), and notes them there.
   */
  fetch(start: number, end: number, get: (from: number, to: number) => void): void {
    const page = this.page;
    for (let p = Math.floor(start / page), last = Math.ceil(Math.min(end, this.size) / page); p < last;) {
      if (this.done[p]) { p++; continue; }
      let q = p;
      while (q < last && !this.done[q]) q++;
      get(p * page, Math.min(q * page, this.size));
      this.done.fill(1, p, q);
      p = q;
    }
  }
}
