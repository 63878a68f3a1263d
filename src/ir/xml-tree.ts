import { isUtf8 } from 'node:buffer';
import type { XmlElement } from '../graph/meta.js';

/**
 * One XML element: tag, attributes (entities decoded), child elements in order, text content. It is
 * the graph's XmlElement, so that rt_info and unknown children are carried as they are.
 */
export type XNode = XmlElement;

export type XmlParseResult = { ok: true; root: XNode } | { ok: false; reason: 'doctype' | 'malformed'; detail: string };

const GT = 0x3e; // >
const SLASH = 0x2f;
const BANG = 0x21;
const QMARK = 0x3f;
const EQ = 0x3d;

/**
 * Byte classes, as bits of CLASS[byte]: a table load and a test per byte instead of a chain of
 * comparisons (measured: classifying bytes was most of the tokenizer's own time on chain100k).
 */
const SPACE = 1;
/** XML NameStartChar (ASCII part exact; every non-ASCII byte is accepted, as pugixml does). */
const NAME_START = 2;
const NAME_CHAR = 4;
/** In an attribute value: '<' and NUL (errors) and what needs decoding ('&', tab, LF, CR). */
const VALUE_SPECIAL = 8;
const CLASS = ((): Uint8Array => {
  const t = new Uint8Array(256);
  for (let c = 0; c < 256; c++) {
    const start = (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f || c === 0x3a || c >= 0x80;
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) t[c]! |= SPACE;
    if (start) t[c]! |= NAME_START | NAME_CHAR;
    if ((c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2e) t[c]! |= NAME_CHAR;
    if (c === 0x3c || c === 0x26 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0) t[c]! |= VALUE_SPECIAL;
  }
  return t;
})();
// (a byte past the end reads as undefined: no class)
const isSpace = (c: number): boolean => (CLASS[c]! & SPACE) !== 0;
const isNameStart = (c: number): boolean => (CLASS[c]! & NAME_START) !== 0;
const isNameChar = (c: number): boolean => (CLASS[c]! & NAME_CHAR) !== 0;

/** Thrown inside the tokenizer only; parseXml turns it into a result. */
class XmlError {
  constructor(readonly reason: 'doctype' | 'malformed', readonly at: number, readonly message: string) {}
}

const PREDEFINED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/**
 * Decodes references exactly where pugixml (OpenVINO's XML parser, default options) decodes them:
 * `&amp; &lt; &gt; &quot; &apos;`, decimal `&#NN;` and hexadecimal `&#xHH;` (lower-case x only).
 * Anything else — an unknown name such as `&nope;`, a bare '&', `&#X41;`, a reference without ';'
 * — stays as written, as OpenVINO reads it (measured on 2026.4: such a file loads). A character
 * reference to no Unicode scalar value (0, a surrogate, above U+10FFFF) is an error: pugixml
 * would write bytes that are not UTF-8 text (or end the string at the NUL). `at` is the byte
 * offset of `s` in the document, for the error's position.
 */
export function decodeEntities(s: string, at = 0): string {
  let amp = s.indexOf('&');
  if (amp < 0) return s;
  let out = '';
  let from = 0;
  while (amp >= 0) {
    let end = -1;
    let rep = '';
    if (s.charCodeAt(amp + 1) === 0x23) {
      // &#… : digits up to ';', anything else cancels (the text stays as written).
      const hex = s.charCodeAt(amp + 2) === 0x78;
      let i = amp + (hex ? 3 : 2);
      let cp = 0;
      let digits = 0;
      for (;; i++) {
        const c = s.charCodeAt(i);
        let d = -1;
        if (c >= 0x30 && c <= 0x39) d = c - 0x30;
        else if (hex && (c | 0x20) >= 0x61 && (c | 0x20) <= 0x66) d = (c | 0x20) - 0x61 + 10;
        if (d < 0) {
          if (c === 0x3b && digits > 0) end = i + 1;
          break;
        }
        cp = cp * (hex ? 16 : 10) + d;
        if (cp > 0x10ffff) cp = 0x110000;
        digits++;
      }
      if (end > 0) {
        if (cp === 0 || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff) {
          throw new XmlError('malformed', at + Buffer.byteLength(s.slice(0, amp), 'utf8'), `character reference '${s.slice(amp, end)}' is not a Unicode character`);
        }
        rep = String.fromCodePoint(cp);
      }
    } else {
      const semi = s.indexOf(';', amp + 1);
      if (semi > amp + 1 && semi <= amp + 5) {
        const r = PREDEFINED[s.slice(amp + 1, semi)];
        if (r !== undefined) {
          end = semi + 1;
          rep = r;
        }
      }
    }
    if (end > 0) {
      out += s.slice(from, amp) + rep;
      from = end;
      amp = s.indexOf('&', end);
    } else amp = s.indexOf('&', amp + 1);
  }
  return out + s.slice(from);
}

const ATTR_WS = /\r\n|[\t\n\r]/g;
const EOL = /\r\n?/g;

/**
 * What the tokenizer reports, in document order, as offsets into the document's bytes: the
 * receiver decodes only what it keeps (an IR reader needs the strings of a few attributes and
 * reads ids, ports and dims as numbers straight from the bytes). Every element ends with one
 * `close`, self-closing ones too. `text` is character data of the open element (several calls
 * append), whitespace-only runs already dropped; `doc.text(s, e, kind)` decodes it.
 */
export interface XmlSink {
  /** An element starts; its attributes are readable through `doc` until the call returns. */
  open(tag: string, doc: XmlDoc): void;
  text(doc: XmlDoc, s: number, e: number, kind: TextKind): void;
  close(doc: XmlDoc): void;
}

/** Character data as written: PLAIN needs no decoding, REFS has '&' or CR, CDATA is a CDATA section. */
export const TextKind = { PLAIN: 0, REFS: 1, CDATA: 2 } as const;
export type TextKind = (typeof TextKind)[keyof typeof TextKind];

/** The document as the sink sees it during `open`: the current element's attributes, and decoding. */
export interface XmlDoc {
  /** Number of attributes of the element being opened. */
  readonly attrCount: number;
  /** Name of attribute k. */
  attrName(k: number): string;
  /** Index of the attribute named `ascii`, or -1 (compared as bytes: no string is made). */
  attrIndex(ascii: string): number;
  /** Whether attribute k is named `ascii` (compared as bytes). */
  attrIs(k: number, ascii: string): boolean;
  /** Decoded value of attribute k. */
  attrValue(k: number): string;
  /** Decoded value of attribute k, for a value the file rarely repeats (names): not interned. */
  attrValueUnique(k: number): string;
  /**
   * Value of attribute k as a number when it is written as a canonical unsigned decimal (`0` or
   * no leading zero, at most 9 digits, nothing else): then the number's decimal text is exactly
   * the value. -1 otherwise (the caller reads the string).
   */
  attrUint(k: number): number;
  /** The attributes as an object. */
  attrRecord(): Record<string, string>;
  /** Decoded character data [s, e). */
  text(s: number, e: number, kind: TextKind): string;
  /** Character data [s, e) as a canonical unsigned decimal (as attrUint), or -1. */
  textUint(s: number, e: number, kind: TextKind): number;
}

/** Sets an attribute on an attribute object (an attribute named `__proto__` is an ordinary own property). */
export function setOwn(out: Record<string, string>, key: string, value: string): void {
  if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}

/** Builds the XNode tree. */
class TreeSink implements XmlSink {
  readonly top: XNode = { tag: '#document', attrs: {}, children: [], text: '' };
  private readonly stack: XNode[] = [this.top];
  private cur = this.top;

  open(tag: string, doc: XmlDoc): void {
    const node: XNode = { tag, attrs: doc.attrRecord(), children: [], text: '' };
    this.cur.children.push(node);
    this.stack.push(node);
    this.cur = node;
  }

  text(doc: XmlDoc, s: number, e: number, kind: TextKind): void {
    this.cur.text += doc.text(s, e, kind);
  }

  close(): void {
    this.stack.pop();
    this.cur = this.stack[this.stack.length - 1]!;
  }
}

/**
 * Parses XML (text, or UTF-8 bytes as read from a file) into an XNode tree in one pass. The rules
 * are scanXml's.
 */
export function parseXml(text: string | Uint8Array): XmlParseResult {
  const sink = new TreeSink();
  const r = scanXml(text, sink);
  return r.ok ? { ok: true, root: sink.top.children[0]! } : r;
}

/**
 * Tokenizes XML in one pass over its UTF-8 bytes (no string of the whole document: an IR XML may
 * exceed V8's largest string) and reports it to `sink`. Well-formedness is checked on the way:
 * one root element, every tag closed by its own name, attribute syntax `name="…"` or `name='…'`
 * with no '<' and no repeated name, valid names, terminated comments, CDATA sections and
 * processing instructions, the XML declaration only at the start, nothing but comments and
 * whitespace after the root. Values are decoded as pugixml (OpenVINO's parser, default options)
 * decodes them: references as in decodeEntities, tab, CR and LF in attribute values read as spaces
 * (CR LF as one), CR LF in text read as LF. Bytes that are not UTF-8 (checked once over the whole
 * document, by Node's C++ isUtf8) and a NUL anywhere are errors: neither is well-formed XML, and
 * a name read with U+FFFD in place of its bytes would be another name (two may become one).
 * Refuses any DOCTYPE or ENTITY declaration: IR never has one, and entity expansion is a
 * denial-of-service vector. Iterative: nesting depth is not limited by the JS stack. Errors carry
 * line and column.
 */
export function scanXml(input: string | Uint8Array, sink: XmlSink): { ok: true } | { ok: false; reason: 'doctype' | 'malformed'; detail: string } {
  const bytes = typeof input === 'string' ? Buffer.from(input, 'utf8')
    : Buffer.isBuffer(input) ? input : Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  try {
    // (text made into bytes by Buffer.from is UTF-8: lone surrogates became U+FFFD)
    if (typeof input !== 'string' && !isUtf8(bytes)) notUtf8(bytes);
    new Tokenizer(bytes, sink).run();
    return { ok: true };
  } catch (e) {
    if (!(e instanceof XmlError)) throw e;
    return { ok: false, reason: e.reason, detail: `${e.message} (${bytePosition(bytes, e.at)})` };
  }
}

/**
 * Throws the error for a document that isUtf8 refused: where its first byte that is not UTF-8 is
 * (UTF-8 as isUtf8 and WHATWG define it: no overlong forms, surrogates or code points past
 * U+10FFFF), and how many such places there are. Runs only then.
 */
function notUtf8(b: Buffer): never {
  let first = -1;
  let firstEnd = -1;
  let count = 0;
  for (let i = 0; i < b.length;) {
    const n = utf8Length(b, i);
    if (n > 0) { i += n; continue; }
    const at = i;
    count++;
    i++;
    while (i < b.length && b[i]! >= 0x80 && b[i]! < 0xc0) i++; // the rest of a broken sequence
    if (first < 0) { first = at; firstEnd = Math.min(i, at + 8); }
  }
  const hex = Array.from(b.subarray(first, firstEnd), (x) => x.toString(16).toUpperCase().padStart(2, '0')).join(' ');
  throw new XmlError('malformed', first, `${firstEnd - first > 1 ? 'bytes' : 'byte'} ${hex} not UTF-8${count > 1 ? `, and ${count - 1} more such place${count > 2 ? 's' : ''}` : ''}`);
}

/** Length of the well-formed UTF-8 sequence at b[i], or 0 when none starts there. */
function utf8Length(b: Buffer, i: number): number {
  const c = b[i]!;
  if (c < 0x80) return 1;
  const cont = (k: number, lo = 0x80, hi = 0xbf): boolean => i + k < b.length && b[i + k]! >= lo && b[i + k]! <= hi;
  if (c >= 0xc2 && c <= 0xdf) return cont(1) ? 2 : 0;
  if (c >= 0xe0 && c <= 0xef) {
    const ok1 = c === 0xe0 ? cont(1, 0xa0) : c === 0xed ? cont(1, 0x80, 0x9f) : cont(1);
    return ok1 && cont(2) ? 3 : 0;
  }
  if (c >= 0xf0 && c <= 0xf4) {
    const ok1 = c === 0xf0 ? cont(1, 0x90) : c === 0xf4 ? cont(1, 0x80, 0x8f) : cont(1);
    return ok1 && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

/** Line and column (1-based, the column in characters) of a byte offset, computed only when an error is reported. */
function bytePosition(b: Buffer, at: number): string {
  let line = 1;
  let start = b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0;
  for (let i = b.indexOf(0x0a, start); i >= 0 && i < at; i = b.indexOf(0x0a, i + 1)) {
    line++;
    start = i + 1;
  }
  const end = Math.min(at, b.length);
  return `line ${line}, column ${(end > start ? b.toString('utf8', start, end).length : 0) + Math.max(0, at - end) + 1}`;
}

const LT = 0x3c;
const AMP = 0x26;
const INTERN_MAX_LEN = 24;
/** Slots of the intern cache (direct-mapped by hash: a slot holds the last string hashed to it). */
const INTERN_SLOTS = 1 << 14;

/** Canonical unsigned decimal in bytes [s, e): `0` or no leading zero, at most 9 digits; else -1. */
function uintOf(b: Buffer, s: number, e: number): number {
  const len = e - s;
  if (len <= 0 || len > 9 || (b[s] === 0x30 && len > 1)) return -1;
  let v = 0;
  for (let i = s; i < e; i++) {
    const d = b[i]! - 0x30;
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  return v;
}

/** Per attribute in `spans`: name start, name end, value start, value end. */
const SPAN = 4;

class Tokenizer implements XmlDoc {
  private readonly n: number;
  /**
   * Short ASCII strings seen before (tags, attribute names, precisions, dims, data attributes), in
   * the slot of their bytes' hash: an array slot, not a Map entry (measured: the Map lookup was the
   * tokenizer's costliest line), the latest string of a slot kept.
   */
  private readonly interned: (string | undefined)[] = new Array<string | undefined>(INTERN_SLOTS).fill(undefined);
  /** The current element's attributes as byte offsets (SPAN numbers each): no string per attribute. */
  private spans = new Int32Array(64 * SPAN);
  /**
   * Values that need decoding (a reference, tab, CR or LF), decoded while tokenizing so that a bad
   * reference is an error wherever it stands, whether the sink reads the value or not.
   */
  private decoded: (string | undefined)[] = new Array<string | undefined>(64).fill(undefined);
  attrCount = 0;
  /** Character data with references, decoded while tokenizing (same reason), and where it starts. */
  private refText = '';
  private refTextAt = -1;

  constructor(private readonly b: Buffer, private readonly sink: XmlSink) {
    this.n = b.length;
  }

  private fail(at: number, message: string): never {
    throw new XmlError('malformed', at, message);
  }

  /** The character starting at byte `at`, for messages. */
  private charAt(at: number): string {
    const c = this.b[at]!;
    if (c < 0x20) return `U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
    const len = c < 0x80 ? 1 : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
    return this.b.toString('utf8', at, Math.min(this.n, at + len)).slice(0, c >= 0xf0 ? 2 : 1);
  }

  /** The string of bytes [s, e): short ASCII runs interned, anything else decoded as UTF-8. */
  str(s: number, e: number): string {
    const b = this.b;
    const len = e - s;
    if (len === 0) return '';
    if (len <= INTERN_MAX_LEN) {
      let h = len;
      let ascii = true;
      for (let i = s; i < e; i++) {
        const c = b[i]!;
        if (c >= 0x80) { ascii = false; break; }
        h = (Math.imul(h, 31) + c) | 0;
      }
      if (ascii) {
        const slot = (h ^ (h >>> 14)) & (INTERN_SLOTS - 1);
        const hit = this.interned[slot];
        if (hit !== undefined && hit.length === len) {
          let same = true;
          for (let i = 0; i < len; i++) if (hit.charCodeAt(i) !== b[s + i]) { same = false; break; }
          if (same) return hit;
        }
        const v = b.toString('latin1', s, e);
        this.interned[slot] = v;
        return v;
      }
    }
    return b.toString('utf8', s, e);
  }

  // ── XmlDoc: what the sink reads during `open` ──────────────────────────────────────────────────

  attrName(k: number): string {
    return this.str(this.spans[k * SPAN]!, this.spans[k * SPAN + 1]!);
  }

  attrIs(k: number, ascii: string): boolean {
    const s = this.spans[k * SPAN]!;
    const len = ascii.length;
    if (this.spans[k * SPAN + 1]! - s !== len) return false;
    const b = this.b;
    for (let i = 0; i < len; i++) if (b[s + i] !== ascii.charCodeAt(i)) return false;
    return true;
  }

  attrIndex(ascii: string): number {
    for (let k = 0; k < this.attrCount; k++) if (this.attrIs(k, ascii)) return k;
    return -1;
  }

  attrValue(k: number): string {
    return this.decoded[k] ?? this.str(this.spans[k * SPAN + 2]!, this.spans[k * SPAN + 3]!);
  }

  attrValueUnique(k: number): string {
    // No hashing and no table entry: a layer or tensor name is seen once; the intern table is kept
    // for the values files repeat (types, precisions, dims, data attributes).
    return this.decoded[k] ?? this.b.toString('utf8', this.spans[k * SPAN + 2]!, this.spans[k * SPAN + 3]!);
  }

  attrUint(k: number): number {
    return this.decoded[k] !== undefined ? -1 : uintOf(this.b, this.spans[k * SPAN + 2]!, this.spans[k * SPAN + 3]!);
  }

  attrRecord(): Record<string, string> {
    const out: Record<string, string> = {};
    for (let k = 0; k < this.attrCount; k++) setOwn(out, this.attrName(k), this.attrValue(k));
    return out;
  }

  text(s: number, e: number, kind: TextKind): string {
    if (kind === TextKind.REFS && s === this.refTextAt) return this.refText;
    if (kind === TextKind.CDATA) {
      const t = this.b.toString('utf8', s, e);
      return t.includes('\r') ? t.replace(EOL, '\n') : t;
    }
    return this.str(s, e);
  }

  textUint(s: number, e: number, kind: TextKind): number {
    return kind === TextKind.PLAIN ? uintOf(this.b, s, e) : -1;
  }

  // ── tokenizing ─────────────────────────────────────────────────────────────────────────────────

  /** End of the name starting at `at` (failing when none starts there). */
  private name(at: number, what: string): number {
    const b = this.b;
    const n = this.n;
    if (at >= n || !isNameStart(b[at]!)) this.fail(at, at >= n ? `file ends where ${what} name should be` : `bad ${what} name starting with '${this.charAt(at)}'`);
    let j = at + 1;
    while (j < n && isNameChar(b[j]!)) j++;
    return j;
  }

  private startsWith(at: number, ascii: string): boolean {
    if (at + ascii.length > this.n) return false;
    for (let k = 0; k < ascii.length; k++) if (this.b[at + k] !== ascii.charCodeAt(k)) return false;
    return true;
  }

  /** Whether bytes [s1, s1 + len) equal bytes [s2, s2 + len). */
  private sameBytes(s1: number, s2: number, len: number): boolean {
    const b = this.b;
    for (let i = 0; i < len; i++) if (b[s1 + i] !== b[s2 + i]) return false;
    return true;
  }

  /** Fails at the first NUL of bytes [s, e) (markup the tokenizer skips by searching its end). */
  private noNul(s: number, e: number, what: string): void {
    const k = this.b.subarray(s, e).indexOf(0);
    if (k >= 0) this.fail(s + k, `a NUL byte in ${what}`);
  }

  /** Offset of the ASCII string `ascii` at or after `from`, or -1. */
  private find(ascii: string, from: number): number {
    return this.b.indexOf(ascii, from, 'latin1');
  }

  run(): void {
    const b = this.b;
    const n = this.n;
    const sink = this.sink;
    const bom = b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0;
    let i = bom;
    // Open elements: tag, and where its name lies (closing tags are matched as bytes).
    const tags: string[] = [];
    const opened: number[] = [];
    const tagLens: number[] = [];
    let rootDone = false;
    while (i < n) {
      // Character data up to the next '<': first the whitespace that indents the next tag (most
      // runs are only that), then, if anything else follows, the rest of the run.
      let lt = i;
      let nonSpace = -1;
      let special = false;
      while (lt < n && isSpace(b[lt]!)) lt++;
      if (lt < n && b[lt] !== LT) {
        nonSpace = lt;
        for (let k = i; k < lt; k++) if (b[k] === 0x0d) special = true;
        while (lt < n) {
          const c = b[lt]!;
          if (c === LT) break;
          if (c === AMP || c === 0x0d) special = true;
          else if (c === 0) this.fail(lt, 'a NUL byte in character data');
          lt++;
        }
      }
      if (nonSpace >= 0) {
        // Whitespace-only runs are dropped (pugixml's default), others appended.
        if (!tags.length) this.fail(nonSpace, rootDone ? 'text after the root element' : 'text before the root element');
        if (special) {
          let t = this.str(i, lt);
          if (t.includes('\r')) t = t.replace(EOL, '\n');
          if (t.includes('&')) t = decodeEntities(t, i);
          this.refText = t;
          this.refTextAt = i;
        }
        sink.text(this, i, lt, special ? TextKind.REFS : TextKind.PLAIN);
      }
      if (lt >= n) break;
      const c = b[lt + 1];
      if (c === SLASH) {
        // </name  >: the open element's name (compared as bytes, and not followed by a name
        // character), else whatever name stands there (for the error below).
        const len = tagLens.length ? tagLens[tagLens.length - 1]! : -1;
        const matched = len > 0 && this.sameBytes(lt + 2, opened[opened.length - 1]! + 1, len) && !(lt + 2 + len < n && isNameChar(b[lt + 2 + len]!));
        const e = matched ? lt + 2 + len : this.name(lt + 2, 'closing tag');
        let j = e;
        while (j < n && isSpace(b[j]!)) j++;
        if (b[j] !== GT) this.fail(j, j >= n ? `file ends inside </${this.str(lt + 2, e)}>` : `unexpected '${this.charAt(j)}' in </${this.str(lt + 2, e)}>`);
        if (!tags.length) this.fail(lt, `closing tag </${this.str(lt + 2, e)}> with no open element`);
        const open = tags[tags.length - 1]!;
        const at = opened[opened.length - 1]!;
        // The open tag's name is bytes [at + 1, at + 1 + its length).
        if (!matched) {
          this.fail(lt, `closing tag </${this.str(lt + 2, e)}> does not match <${open}> opened at ${bytePosition(b, at)}`);
        }
        tags.pop();
        opened.pop();
        tagLens.pop();
        sink.close(this);
        if (!tags.length) rootDone = true;
        i = j + 1;
      } else if (c === BANG) {
        if (this.startsWith(lt, '<!--')) {
          const e = this.find('-->', lt + 4);
          if (e < 0) this.fail(lt, 'comment is not closed');
          this.noNul(lt + 4, e, 'a comment');
          i = e + 3;
        } else if (this.startsWith(lt, '<![CDATA[')) {
          const e = this.find(']]>', lt + 9);
          if (e < 0) this.fail(lt, 'CDATA section is not closed');
          if (!tags.length) this.fail(lt, 'CDATA outside the root element');
          this.noNul(lt + 9, e, 'a CDATA section');
          sink.text(this, lt + 9, e, TextKind.CDATA);
          i = e + 3;
        } else {
          const word = b.toString('latin1', lt + 2, Math.min(n, lt + 9)).toUpperCase();
          if (word.startsWith('DOCTYPE') || word.startsWith('ENTITY')) throw new XmlError('doctype', lt, 'DOCTYPE/ENTITY declarations are not allowed');
          this.fail(lt, `unexpected '<!'`);
        }
      } else if (c === QMARK) {
        const e = this.name(lt + 2, 'processing instruction');
        const target = this.str(lt + 2, e);
        const close = this.find('?>', e);
        if (close < 0) this.fail(lt, `<?${target} is not closed`);
        this.noNul(e, close, `<?${target}?>`);
        if (target.toLowerCase() === 'xml' && lt !== bom) this.fail(lt, 'the XML declaration is only allowed at the start of the document');
        i = close + 2;
      } else {
        // <name attr="v" … > or />
        if (!tags.length && rootDone) this.fail(lt, 'a second root element');
        const e = this.name(lt + 1, 'element');
        const tag = this.str(lt + 1, e);
        let na = 0;
        let j = e;
        let selfClose = false;
        for (;;) {
          const ws = j;
          while (j < n && isSpace(b[j]!)) j++;
          const ch = b[j];
          if (ch === GT) { j++; break; }
          if (ch === SLASH) {
            if (b[j + 1] !== GT) this.fail(j, `expected '/>' in <${tag}>`);
            selfClose = true;
            j += 2;
            break;
          }
          if (j >= n) this.fail(lt, `file ends inside <${tag}>`);
          if (ch === 0) this.fail(j, `a NUL byte in <${tag}>`);
          if (j === ws) this.fail(j, `attributes of <${tag}> must be separated by whitespace`);
          const ks = j;
          const ne = this.name(j, 'attribute');
          j = ne;
          while (j < n && isSpace(b[j]!)) j++;
          if (b[j] !== EQ) this.fail(j, `attribute '${this.str(ks, ne)}' of <${tag}> has no value`);
          j++;
          while (j < n && isSpace(b[j]!)) j++;
          const q = b[j];
          if (q !== 0x22 && q !== 0x27) this.fail(j, `the value of attribute '${this.str(ks, ne)}' of <${tag}> is not quoted`);
          let end = j + 1;
          let bad = -1;
          let special = false;
          for (; end < n; end++) {
            const v = b[end]!;
            if (v === q) break;
            if (CLASS[v]! & VALUE_SPECIAL) {
              if (v !== LT && v !== 0) special = true;
              else if (bad < 0) bad = end;
            }
          }
          if (end >= n) this.fail(j, `the value of attribute '${this.str(ks, ne)}' of <${tag}> is not closed`);
          if (bad >= 0) this.fail(bad, `${b[bad] === 0 ? 'a NUL byte' : "'<'"} in the value of attribute '${this.str(ks, ne)}' of <${tag}>`);
          const sp = this.spans;
          for (let k = 0; k < na; k++) {
            const s = sp[k * SPAN]!;
            if (sp[k * SPAN + 1]! - s === ne - ks && this.sameBytes(s, ks, ne - ks)) this.fail(j, `attribute '${this.str(ks, ne)}' of <${tag}> is repeated`);
          }
          if ((na + 1) * SPAN > sp.length) {
            const grown = new Int32Array(sp.length * 2);
            grown.set(sp);
            this.spans = grown;
            // `decoded` has a slot per span, made beforehand: a store past an array's end (the
            // first element with more attributes than any before) deoptimized this loop, measured.
            this.decoded = this.decoded.concat(new Array<string | undefined>(sp.length / SPAN).fill(undefined));
          }
          const o = na * SPAN;
          this.spans[o] = ks;
          this.spans[o + 1] = ne;
          this.spans[o + 2] = j + 1;
          this.spans[o + 3] = end;
          let v: string | undefined;
          if (special) {
            v = this.str(j + 1, end);
            if (v.includes('\t') || v.includes('\n') || v.includes('\r')) v = v.replace(ATTR_WS, ' ');
            if (v.includes('&')) v = decodeEntities(v, j + 1);
          }
          this.decoded[na] = v;
          na++;
          j = end + 1;
        }
        this.attrCount = na;
        sink.open(tag, this);
        if (!selfClose) {
          tags.push(tag);
          opened.push(lt);
          tagLens.push(e - (lt + 1));
        } else {
          sink.close(this);
          if (!tags.length) rootDone = true;
        }
        i = j;
      }
    }
    if (tags.length) this.fail(n, `file ends inside <${tags[tags.length - 1]}> opened at ${bytePosition(b, opened[opened.length - 1]!)}`);
    if (!rootDone) this.fail(n, 'no root element');
  }
}

export const child = (n: XNode, tag: string): XNode | undefined => n.children.find((c) => c.tag === tag);
export const childrenOf = (n: XNode | undefined, tag: string): XNode[] => (n ? n.children.filter((c) => c.tag === tag) : []);
