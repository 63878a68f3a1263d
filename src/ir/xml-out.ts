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
 * Hot paths (a 100k-layer net has ~10^6 lines) write ready-made text: `raw` appends complete child
 * lines the caller formatted (indentation from `indent`), `eleText` starts an element from its
 * attribute text, so the common layer costs a few strings and no per-element objects but its own.
 * A 100k-layer net through a DOM library took ~50 s; an element tree serialized at the end 13 s,
 * most of it garbage collection of the retained elements (bench/RESULTS.md).
 */
export class XOut {
  private constructor(
    private readonly run: TextRun,
    readonly tag: string,
    private readonly depth: number,
    /** Position of this element in its run's stack of open elements (-1: a hole's handle, no tag). */
    private readonly level: number,
    private readonly rec: Open | null,
  ) {}

  /** The document element `<tag>` of a new document. */
  static document(tag: string): XOut {
    const run = new TextRun(new ByteSink());
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

  /** Sets an attribute before the element has content; setting one again keeps its place and replaces its value. */
  att(name: string, value: unknown): this {
    if (value !== undefined && value !== null) this.run.att(this.level, this.rec, name, String(value));
    return this;
  }

  /** Sets the element's text (written before any child elements). */
  txt(text: string): this {
    this.run.txt(this.level, this.rec, text);
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
   * Encodes the text written so far in this element's run into bytes (what chunks() would do at
   * the end). The writer calls it once a hole's content is complete: a body written into a hole
   * otherwise stays a string until the end, and the strings of every body of a net alive at once
   * are what the garbage collector then copies and promotes (measured: 180 MB promoted while
   * writing a 41 MB IR).
   */
  flush(): void {
    this.run.flush();
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
    const stack: (Uint8Array | TextRun)[] = [this.run];
    while (stack.length) {
      const p = stack.pop()!;
      if (p instanceof Uint8Array) {
        out.push(p);
        continue;
      }
      p.closeAbove(-1);
      p.flush();
      for (let i = p.parts.length - 1; i >= 0; i--) stack.push(p.parts[i]!);
    }
    return out;
  }

  /** @internal */
  static make(run: TextRun, tag: string, depth: number, level: number, rec: Open): XOut {
    return new XOut(run, tag, depth, level, rec);
  }
}

const INDENTS: string[] = [''];
/** `d` tabs (cached: every line starts with one). */
export const indent = (d: number): string => (INDENTS[d] ??= '\t'.repeat(d));

/** An element whose start tag may still be pending. */
interface Open {
  readonly tag: string;
  readonly depth: number;
  /** Attributes not yet written, as text (` a="1" b="2"`, values escaped); null once the start tag is written. */
  attrs: string | null;
  text: string;
}

/** Pending text is encoded into the byte sink once it holds this many characters. */
const FLUSH_CHARS = 1 << 15;
/** Size of the byte slabs text is encoded into (a 41 MB XML: ~40 slabs, not thousands of buffers). */
const SLAB_BYTES = 1 << 20;

/**
 * Where every run's text is encoded: UTF-8 into large slabs, each flush one view of a slab
 * (runs interleave in a slab; each keeps its own views in order).
 */
class ByteSink {
  private slab = Buffer.allocUnsafe(SLAB_BYTES);
  private pos = 0;

  encode(text: string): Uint8Array {
    // A UTF-16 code unit is at most 3 UTF-8 bytes (a surrogate pair, two units, 4 bytes).
    const max = text.length * 3;
    if (this.slab.length - this.pos < max) {
      this.slab = Buffer.allocUnsafe(Math.max(SLAB_BYTES, max));
      this.pos = 0;
    }
    const start = this.pos;
    this.pos += this.slab.write(text, start, 'utf8');
    return this.slab.subarray(start, this.pos);
  }
}

/**
 * A run of text: written parts (UTF-8 views) and holes in order, and the stack of its open
 * elements. Text is gathered in one string (appending makes V8 rope strings, flattened once when
 * encoded) and encoded every FLUSH_CHARS characters, so the heap holds bytes, not lines.
 */
class TextRun {
  private readonly open_: Open[] = [];
  readonly parts: (Uint8Array | TextRun)[] = [];
  private pending = '';

  constructor(readonly sink: ByteSink) {}

  push(text: string): void {
    this.pending += text;
    if (this.pending.length >= FLUSH_CHARS) this.flush();
  }

  /** Encodes the pending text into a chunk (before a hole is placed, and at the end). */
  flush(): void {
    if (this.pending === '') return;
    this.parts.push(this.sink.encode(this.pending));
    this.pending = '';
  }

  open(tag: string, depth: number, parentLevel: number, attrs: string): XOut {
    const rec: Open = { tag, depth, attrs, text: '' };
    this.open_.push(rec);
    return XOut.make(this, tag, depth, parentLevel + 1, rec);
  }

  /** The pending element `rec` at `level`: attributes and text can only go to the newest open element. */
  private at(level: number, rec: Open | null): Open {
    const o = this.open_[level];
    if (!o || o !== rec || level !== this.open_.length - 1) throw new Error(`XOut: <${rec?.tag ?? '(hole)'}> written to after its content or end`);
    return o;
  }

  att(level: number, rec: Open | null, name: string, value: string): void {
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

  txt(level: number, rec: Open | null, text: string): void {
    const o = this.at(level, rec);
    if (o.attrs === null) throw new Error(`XOut: text set on <${o.tag}> after its content`);
    o.text += text;
  }

  /** The element at `level` gets a child: its start tag (and text) are written if still pending. */
  startContent(level: number): void {
    if (level < 0) return;
    const o = this.open_[level]!;
    if (o.attrs === null) return;
    this.push(`${indent(o.depth)}<${o.tag}${o.attrs}` + (o.text === '' ? '>\n' : `>\n${indent(o.depth)}\t${escapeText(o.text)}\n`));
    o.attrs = null;
  }

  /** Ends every open element above `level`. */
  closeAbove(level: number): void {
    while (this.open_.length - 1 > level) {
      const o = this.open_.pop()!;
      if (o.attrs !== null) this.push(`${indent(o.depth)}<${o.tag}${o.attrs}` + (o.text === '' ? ' />\n' : `>${escapeText(o.text)}</${o.tag}>\n`));
      else this.push(`${indent(o.depth)}</${o.tag}>\n`);
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
