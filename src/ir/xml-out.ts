/**
 * The IR writer's XML text, emitted as the graph walk goes: no element tree is kept. An element's
 * start tag waits only until its first child or its end (attributes may be added until then); the
 * text is laid out exactly as the IR writer always has: `<?xml version="1.0"?>`, tab indentation,
 * `<tag ... />` for empty elements, text-only elements on one line.
 *
 * Content that is known only later (a body's port map needs the body's layer ids; bodies are
 * written from a work list after their graph) goes into a hole: a separate run of text at that
 * place, filled whenever its content is known and joined in place at the end.
 *
 * Text goes straight into UTF-8 slabs (ByteSink), never into strings of many lines. Hot paths (a
 * 100k-layer net has ~10^6 lines) write complete child lines through `lines()` — tabs, ASCII
 * pieces, numbers as digits, escaped values, cached bytes — and `eleText` starts an element from
 * its attribute text, so the common layer costs no object but its own element and no string per
 * line. A 100k-layer net through a DOM library took ~50 s; an element tree serialized at the end
 * 13 s, most of it garbage collection of the retained elements (bench/RESULTS.md); lines built as
 * strings and encoded every 32k characters allocated 500 MB to write chain100k's 50 MB (now 140).
 */
export class XOut {
  private constructor(
    private readonly run: TextRun,
    readonly tag: string,
    /** @internal Depth (tabs) of the element's own lines. */
    readonly depth: number,
    /** Position of this element in its run's stack of open elements (-1: a hole's handle, no tag). */
    private readonly level: number,
    /** @internal Attributes not yet written, as text (` a="1" b="2"`, values escaped); null once the start tag is written (or for a hole). */
    public attrs: string | null,
  ) {}

  /** @internal The element's text, written with its start tag. */
  text = '';

  /**
   * The document element `<tag>` of a new document. With `drain`, the document's bytes are handed
   * to it in document order as soon as they are final (each slab as it fills, up to the first hole
   * whose content is not sealed yet; the rest at `end()`), and a slab whose bytes were all drained
   * is written again: the text of a net is never held whole. Without, `chunks()` gives them.
   */
  static document(tag: string, drain?: (bytes: Uint8Array) => void): XOut {
    const run = new TextRun(new ByteSink(drain ?? null));
    (run.sink as ByteSink).root = run;
    run.push('<?xml version="1.0"?>\n');
    return run.open(tag, 0, -1, '');
  }

  /** Depth (number of tabs) of this element's children's lines. */
  get childDepth(): number {
    return this.depth + 1;
  }

  /** Appends a child element and returns it (closing any open child of this element). Null or undefined attribute values are skipped. */
  ele(tag: string, attrs?: Readonly<Record<string, unknown>>): XOut {
    this.run.closeAbove(this.level);
    this.run.startContent(this.level);
    const el = this.run.open(tag, this.depth + 1, this.level, '');
    if (attrs) for (const k in attrs) el.att(k, attrs[k]);
    return el;
  }

  /**
   * Appends a child element whose first attributes are given as text, each ` name="value"` with
   * the value already escaped (escapeAttr) and every name distinct; more may follow with att.
   */
  eleText(tag: string, attrText: string): XOut {
    this.run.closeAbove(this.level);
    this.run.startContent(this.level);
    return this.run.open(tag, this.depth + 1, this.level, attrText);
  }

  /**
   * Appends complete child lines, formatted by the caller: each indented by `indent(childDepth)`
   * (or deeper, for its own children) and ending with '\n'. Closes any open child of this element.
   */
  raw(text: string): void {
    this.run.closeAbove(this.level);
    this.run.startContent(this.level);
    this.run.push(text);
  }

  /**
   * The byte sink, positioned for complete child lines written by the caller (as raw: indented
   * by `childDepth` tabs or deeper, each ending with '\n'); closes any open child of this element.
   * Valid until this document is written to through anything else.
   */
  lines(): ByteSink {
    this.run.closeAbove(this.level);
    this.run.startContent(this.level);
    return this.run.out();
  }

  /** Sets an attribute before the element has content; setting one again keeps its place and replaces its value. */
  att(name: string, value: unknown): this {
    if (value !== undefined && value !== null) this.run.att(this.level, this, name, String(value));
    return this;
  }

  /** Sets the element's text (written before any child elements). */
  txt(text: string): this {
    this.run.txt(this.level, this, text);
    return this;
  }

  /**
   * A place among this element's children, here, whose elements are added later (through the
   * returned handle's ele). Closes any open child of this element.
   */
  hole(): XOut {
    this.run.closeAbove(this.level);
    this.run.startContent(this.level);
    const run = new TextRun(this.run.sink);
    this.run.flush();
    this.run.parts.push(run);
    return new XOut(run, '', this.depth, -1, null);
  }

  /**
   * Ends the current view of this element's run in the byte slabs (what chunks() does at the
   * end). The writer calls it once a hole's content is complete, so the next run's bytes start a
   * view of their own.
   */
  flush(): void {
    this.run.flush();
  }

  /**
   * Seals this element's run (the hole it was made in, or the document): every open element of
   * the run is closed, and nothing is written to it again, so its bytes can be drained once those
   * before it are. The writer seals a hole once its content is complete.
   */
  seal(): void {
    this.run.closeAbove(-1);
    this.run.sealed = true;
    this.run.flush();
  }

  /** Ends the document (every run sealed) and drains what is left (a document made with drain). */
  end(): void {
    this.walkRuns(() => {});
    this.run.sink.pump();
  }

  /** The document text: every open element closed, holes joined in place, ending with a newline. */
  serialize(): string {
    return Buffer.concat(this.chunks()).toString('utf8');
  }

  /**
   * The document as UTF-8 chunks, every open element closed and holes joined in place (the chunks
   * are written as the walk goes: only bytes are kept, never the text of the whole net).
   */
  chunks(): Uint8Array[] {
    const out: Uint8Array[] = [];
    this.walkRuns((b) => out.push(b));
    return out;
  }

  /** Seals every run of the document, giving its bytes in document order (none that were drained). */
  private walkRuns(each: (bytes: Uint8Array) => void): void {
    const stack: (Uint8Array | TextRun)[] = [this.run];
    while (stack.length) {
      const p = stack.pop()!;
      if (p instanceof Uint8Array) {
        if (p.byteLength) each(p);
        continue;
      }
      p.closeAbove(-1);
      p.sealed = true;
      p.flush();
      for (let i = p.parts.length - 1; i >= 0; i--) stack.push(p.parts[i]!);
    }
  }

  /** @internal */
  static make(run: TextRun, tag: string, depth: number, level: number, attrs: string): XOut {
    return new XOut(run, tag, depth, level, attrs);
  }
}

const INDENTS: string[] = [''];
/** `d` tabs (cached: every line starts with one). */
export const indent = (d: number): string => (INDENTS[d] ??= '\t'.repeat(d));

/** What a drained part is replaced by in its run (its slab may be written again). */
const DRAINED = new Uint8Array(0);
/** Size of the byte slabs text is encoded into (a 41 MB XML: ~40 slabs, not thousands of buffers). */
const SLAB_BYTES = 1 << 20;
/** Strings longer than this are encoded by Buffer#write; shorter ones by a loop (no call into the runtime). */
const SHORT = 48;
const TAB = 9;

/**
 * Where every run's text goes: UTF-8 written straight into large slabs. The run writing owns the
 * bytes from `start` to `pos`; when another run writes (a hole's content, placed earlier in the
 * document) or the run is flushed, those bytes become one view in the owner's parts, so runs
 * interleave in a slab and each keeps its own views in order. Hot paths write numbers, tabs and
 * ASCII text here directly: a 100k-layer net makes ~10^6 lines and no string per line.
 */
export class ByteSink {
  private buf = Buffer.allocUnsafe(SLAB_BYTES);
  private pos = 0;
  private start = 0;
  private owner: TextRun | null = null;
  /** Views of the current slab in some run's parts and not drained yet (the slab is reused at 0). */
  private live = 0;
  /** @internal The document's run (where draining starts). */
  root: TextRun | null = null;
  /** Drain cursor: the runs entered (a hole inside its parent) and the next part of each. */
  private readonly cursorRuns: TextRun[] = [];
  private readonly cursorNext: number[] = [];

  constructor(private readonly drain: ((bytes: Uint8Array) => void) | null) {}

  /** @internal The run that writes next (the bytes of the previous owner become its view). */
  claim(run: TextRun): this {
    if (this.owner !== run) {
      this.release();
      this.owner = run;
      this.start = this.pos;
    }
    return this;
  }

  /** The owner's bytes so far become a view in its parts (it stays the owner). */
  private cut(): void {
    const o = this.owner;
    if (o && this.pos > this.start) {
      o.parts.push(this.buf.subarray(this.start, this.pos));
      this.live++;
    }
    this.start = this.pos;
  }

  /** @internal Ends the owner's current view (before a hole, a flush, or another run's write). */
  release(): void {
    this.cut();
    this.owner = null;
  }

  /** @internal Ends `run`'s current view if it is the one writing. */
  releaseIf(run: TextRun): void {
    if (this.owner === run) this.release();
  }

  /**
   * @internal Drains the document's final bytes in order: parts of the runs on the cursor, into
   * each hole as it is reached, out of a run once it is sealed and drained; stops at the first run
   * that may still grow. Drained parts are dropped from their runs.
   */
  pump(): void {
    const drain = this.drain;
    if (!drain || !this.root) return;
    this.cut();
    const runs = this.cursorRuns;
    const next = this.cursorNext;
    if (!runs.length) {
      runs.push(this.root);
      next.push(0);
    }
    const slab = this.buf.buffer;
    while (runs.length) {
      const top = runs.length - 1;
      const run = runs[top]!;
      const parts = run.parts;
      let i = next[top]!;
      while (i < parts.length) {
        const p = parts[i]!;
        if (p instanceof TextRun) break;
        drain(p);
        if (p.buffer === slab) this.live--;
        parts[i++] = DRAINED;
      }
      if (i < parts.length) {
        next[top] = i + 1;
        runs.push(parts[i] as TextRun);
        next.push(0);
        continue;
      }
      next[top] = i;
      if (!run.sealed) return;
      runs.pop();
      next.pop();
    }
  }

  /**
   * Room for `n` more bytes: when the slab is short, its bytes so far are a view of their owner;
   * the slab is written again from 0 when every view of it was drained, else a new one is made.
   */
  private room(n: number): void {
    if (this.buf.length - this.pos >= n) return;
    this.cut();
    this.pump();
    if (this.live === 0 && this.buf.length >= n) {
      this.pos = 0;
      this.start = 0;
      return;
    }
    this.buf = Buffer.allocUnsafe(Math.max(SLAB_BYTES, n));
    this.live = 0;
    this.pos = 0;
    this.start = 0;
  }

  /** Text as UTF-8. */
  str(s: string): this {
    const n = s.length;
    this.room(n * 3);
    if (n > SHORT) {
      this.pos += this.buf.write(s, this.pos, 'utf8');
      return this;
    }
    const buf = this.buf;
    let p = this.pos;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) {
        this.pos = p;
        this.pos += buf.write(s.slice(i), p, 'utf8');
        return this;
      }
      buf[p++] = c;
    }
    this.pos = p;
    return this;
  }

  /** An attribute value, escaped as escapeAttr does. */
  attr(s: string): this {
    const n = s.length;
    this.room(n);
    const buf = this.buf;
    let p = this.pos;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      // '"' 34, '&' 38, '<' 60, control characters and anything beyond ASCII: the general path.
      if (c < 0x20 || c >= 0x80 || c === 34 || c === 38 || c === 60) return this.str(escapeAttr(s));
      buf[p++] = c;
    }
    this.pos = p;
    return this;
  }

  /** An integer in decimal (anything else as String() spells it). */
  num(x: number): this {
    if (!Number.isSafeInteger(x)) return this.str(String(x));
    this.room(17);
    const buf = this.buf;
    if (x < 0) {
      buf[this.pos++] = 45;
      x = -x;
    }
    let digits = 1;
    for (let t = x; t >= 10; t = Math.floor(t / 10)) digits++;
    let p = this.pos + digits;
    this.pos = p;
    do {
      const q = Math.floor(x / 10);
      buf[--p] = 48 + x - q * 10;
      x = q;
    } while (x > 0);
    return this;
  }

  /** Bytes as they are. */
  bytes(b: Uint8Array): this {
    const n = b.length;
    this.room(n);
    const buf = this.buf;
    let p = this.pos;
    for (let i = 0; i < n; i++) buf[p++] = b[i]!;
    this.pos = p;
    return this;
  }

  /** `d` tabs. */
  tabs(d: number): this {
    this.room(d);
    const buf = this.buf;
    let p = this.pos;
    for (let i = 0; i < d; i++) buf[p++] = TAB;
    this.pos = p;
    return this;
  }
}

/**
 * A run of text: written parts (UTF-8 views into the sink's slabs) and holes in order, and the
 * stack of its open elements.
 */
class TextRun {
  private readonly open_: XOut[] = [];
  readonly parts: (Uint8Array | TextRun)[] = [];
  /** Nothing is written to the run again (XOut.seal): drained once its parts are. */
  sealed = false;

  constructor(readonly sink: ByteSink) {}

  /** The sink, positioned at the end of this run. */
  out(): ByteSink {
    return this.sink.claim(this);
  }

  push(text: string): void {
    this.sink.claim(this).str(text);
  }

  /** Ends the run's current view (before a hole is placed, and at the end). */
  flush(): void {
    this.sink.releaseIf(this);
  }

  open(tag: string, depth: number, parentLevel: number, attrs: string): XOut {
    const el = XOut.make(this, tag, depth, parentLevel + 1, attrs);
    this.open_.push(el);
    return el;
  }

  /** The pending element `rec` at `level`: attributes and text can only go to the newest open element. */
  private at(level: number, rec: XOut): XOut {
    const o = this.open_[level];
    if (!o || o !== rec || level !== this.open_.length - 1) throw new Error(`XOut: <${rec.tag || '(hole)'}> written to after its content or end`);
    return o;
  }

  att(level: number, rec: XOut, name: string, value: string): void {
    const o = this.at(level, rec);
    const a = o.attrs;
    if (a === null) throw new Error(`XOut: attribute '${name}' set on <${o.tag}> after its content`);
    const v = escapeAttr(value);
    // ` name="` can only start an attribute: values are escaped, so they hold no '"'.
    const key = ` ${name}="`;
    const at = a.indexOf(key);
    if (at < 0) o.attrs = `${a}${key}${v}"`;
    else {
      const end = a.indexOf('"', at + key.length);
      o.attrs = a.slice(0, at + key.length) + v + a.slice(end);
    }
  }

  txt(level: number, rec: XOut, text: string): void {
    const o = this.at(level, rec);
    if (o.attrs === null) throw new Error(`XOut: text set on <${o.tag}> after its content`);
    o.text += text;
  }

  /** The element at `level` gets a child: its start tag (and text) are written if still pending. */
  startContent(level: number): void {
    if (level < 0) return;
    const o = this.open_[level]!;
    if (o.attrs === null) return;
    const s = this.out().tabs(o.depth).str('<').str(o.tag).str(o.attrs);
    if (o.text === '') s.str('>\n');
    else s.str('>\n').tabs(o.depth + 1).str(escapeText(o.text)).str('\n');
    o.attrs = null;
  }

  /** Ends every open element above `level`. */
  closeAbove(level: number): void {
    while (this.open_.length - 1 > level) {
      const o = this.open_.pop()!;
      const s = this.out().tabs(o.depth);
      if (o.attrs === null) s.str('</').str(o.tag).str('>\n');
      else {
        s.str('<').str(o.tag).str(o.attrs);
        if (o.text === '') s.str(' />\n');
        else s.str('>').str(escapeText(o.text)).str('</').str(o.tag).str('>\n');
      }
    }
  }
}
const ATTR_SPECIAL = /[&<"\u0000-\u001f]/;
const ATTR_ESCAPE = /[&<"\u0000-\u001f]/g;
const TEXT_SPECIAL = /[&<>\u0000-\u0008\u000b\u000c\u000e-\u001f]/;
const TEXT_ESCAPE = /[&<>\u0000-\u0008\u000b\u000c\u000e-\u001f]/g;
const NAMED: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
/** pugixml's escape of one character: the named entity, or a control character as `&#` two decimal digits `;`. */
const escapeChar = (c: string): string => NAMED[c] ?? `&#${String(c.charCodeAt(0)).padStart(2, '0')};`;

/**
 * Attribute values as pugixml (OpenVINO's XML library) writes them in double quotes: every '&',
 * '<' and '"' escaped, '>' and "'" left as they are, every control character (tab, LF and CR
 * included) as a two-digit character reference (`&#09;`), so a name with a tab or newline survives
 * (XML readers normalize raw ones to spaces).
 */
export function escapeAttr(v: string): string {
  return ATTR_SPECIAL.test(v) ? v.replace(ATTR_ESCAPE, escapeChar) : v;
}

/** Text content as pugixml writes it: every '&', '<' and '>' escaped, control characters other than tab, LF and CR as `&#NN;`. */
export function escapeText(v: string): string {
  return TEXT_SPECIAL.test(v) ? v.replace(TEXT_ESCAPE, escapeChar) : v;
}
