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

const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
/** XML NameStartChar (ASCII part exact; every non-ASCII character is accepted, as pugixml does). */
const isNameStart = (c: number): boolean =>
  (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f || c === 0x3a || c >= 0x80;
const isNameChar = (c: number): boolean => isNameStart(c) || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2e;

/** Thrown inside the tokenizer only; parseXml turns it into a result. */
class XmlError {
  constructor(readonly reason: 'doctype' | 'malformed', readonly at: number, readonly message: string) {}
}

/** Line and column (1-based) of an offset, computed only when an error is reported. */
function position(text: string, at: number): string {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < at; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return `line ${line}, column ${at - start + 1}`;
}

const PREDEFINED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/**
 * Decodes references exactly where pugixml (OpenVINO's XML parser, default options) decodes them:
 * `&amp; &lt; &gt; &quot; &apos;`, decimal `&#NN;` and hexadecimal `&#xHH;` (lower-case x only).
 * Anything else — an unknown name, a bare '&', `&#X41;`, a reference without ';' — stays as
 * written. A character reference to no Unicode scalar value (0, a surrogate, above U+10FFFF) is an
 * error: pugixml would write bytes that are not UTF-8 text (or end the string at the NUL).
 * `at` is the offset of `s` in the document, for the error's position.
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
          throw new XmlError('malformed', at + amp, `character reference '${s.slice(amp, end)}' is not a Unicode character`);
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
 * Parses XML text into an XNode tree in one pass (no intermediate object tree, no second
 * validation scan). Well-formedness is checked on the way: one root element, every tag closed by
 * its own name, attribute syntax `name="…"` or `name='…'` with no '<' and no repeated name, valid
 * names, terminated comments, CDATA sections and processing instructions, the XML declaration only
 * at the start, nothing but comments and whitespace after the root. Values are decoded as pugixml
 * (OpenVINO's parser, default options) decodes them: references as in decodeEntities, tab, CR and
 * LF in attribute values read as spaces (CR LF as one), CR LF in text read as LF. Refuses any
 * DOCTYPE or ENTITY declaration: IR never has one, and entity expansion is a denial-of-service
 * vector. Iterative: nesting depth is not limited by the JS stack. Errors carry line and column.
 */
export function parseXml(text: string): XmlParseResult {
  try {
    return { ok: true, root: tokenize(text) };
  } catch (e) {
    if (!(e instanceof XmlError)) throw e;
    return { ok: false, reason: e.reason, detail: `${e.message} (${position(text, e.at)})` };
  }
}

function tokenize(text: string): XNode {
  const n = text.length;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const top: XNode = { tag: '#document', attrs: {}, children: [], text: '' };
  const stack: XNode[] = [top];
  const opened: number[] = [0];
  let cur = top;
  let rootDone = false;
  const fail = (at: number, message: string): never => {
    throw new XmlError('malformed', at, message);
  };
  const name = (at: number, what: string): number => {
    if (!isNameStart(text.charCodeAt(at))) fail(at, at >= n ? `file ends where ${what} name should be` : `bad ${what} name starting with '${text[at]}'`);
    let j = at + 1;
    while (j < n && isNameChar(text.charCodeAt(j))) j++;
    return j;
  };
  while (i < n) {
    const lt = text.indexOf('<', i);
    const stop = lt < 0 ? n : lt;
    if (stop > i) {
      // Character data: whitespace-only runs are dropped (pugixml's default), others appended.
      let j = i;
      while (j < stop && isSpace(text.charCodeAt(j))) j++;
      if (j < stop) {
        if (cur === top) fail(j, rootDone ? 'text after the root element' : 'text before the root element');
        let t = text.slice(i, stop);
        if (t.includes('\r')) t = t.replace(EOL, '\n');
        cur.text += t.includes('&') ? decodeEntities(t, i) : t;
      }
    }
    if (lt < 0) break;
    const c = text.charCodeAt(lt + 1);
    if (c === SLASH) {
      // </name  >
      const e = name(lt + 2, 'closing tag');
      const tag = text.slice(lt + 2, e);
      let j = e;
      while (j < n && isSpace(text.charCodeAt(j))) j++;
      if (text.charCodeAt(j) !== GT) fail(j, j >= n ? `file ends inside </${tag}>` : `unexpected '${text[j]}' in </${tag}>`);
      if (cur === top) fail(lt, `closing tag </${tag}> with no open element`);
      if (cur.tag !== tag) fail(lt, `closing tag </${tag}> does not match <${cur.tag}> opened at ${position(text, opened[opened.length - 1]!)}`);
      stack.pop();
      opened.pop();
      cur = stack[stack.length - 1]!;
      if (cur === top) rootDone = true;
      i = j + 1;
    } else if (c === BANG) {
      if (text.startsWith('<!--', lt)) {
        const e = text.indexOf('-->', lt + 4);
        if (e < 0) fail(lt, 'comment is not closed');
        i = e + 3;
      } else if (text.startsWith('<![CDATA[', lt)) {
        const e = text.indexOf(']]>', lt + 9);
        if (e < 0) fail(lt, 'CDATA section is not closed');
        if (cur === top) fail(lt, 'CDATA outside the root element');
        let t = text.slice(lt + 9, e);
        if (t.includes('\r')) t = t.replace(EOL, '\n');
        cur.text += t;
        i = e + 3;
      } else {
        const word = text.slice(lt + 2, lt + 9).toUpperCase();
        if (word.startsWith('DOCTYPE') || word.startsWith('ENTITY')) throw new XmlError('doctype', lt, 'DOCTYPE/ENTITY declarations are not allowed');
        fail(lt, `unexpected '<!'`);
      }
    } else if (c === QMARK) {
      const e = name(lt + 2, 'processing instruction');
      const target = text.slice(lt + 2, e);
      const close = text.indexOf('?>', e);
      if (close < 0) fail(lt, `<?${target} is not closed`);
      if (target.toLowerCase() === 'xml' && lt !== (text.charCodeAt(0) === 0xfeff ? 1 : 0)) fail(lt, 'the XML declaration is only allowed at the start of the document');
      i = close + 2;
    } else {
      // <name attr="v" … > or />
      if (cur === top && rootDone) fail(lt, 'a second root element');
      const e = name(lt + 1, 'element');
      const tag = text.slice(lt + 1, e);
      const attrs: Record<string, string> = {};
      let j = e;
      let selfClose = false;
      for (;;) {
        const ws = j;
        while (j < n && isSpace(text.charCodeAt(j))) j++;
        const ch = text.charCodeAt(j);
        if (ch === GT) { j++; break; }
        if (ch === SLASH) {
          if (text.charCodeAt(j + 1) !== GT) fail(j, `expected '/>' in <${tag}>`);
          selfClose = true;
          j += 2;
          break;
        }
        if (j >= n) fail(lt, `file ends inside <${tag}>`);
        if (j === ws) fail(j, `attributes of <${tag}> must be separated by whitespace`);
        const ne = name(j, 'attribute');
        const key = text.slice(j, ne);
        j = ne;
        while (j < n && isSpace(text.charCodeAt(j))) j++;
        if (text.charCodeAt(j) !== EQ) fail(j, `attribute '${key}' of <${tag}> has no value`);
        j++;
        while (j < n && isSpace(text.charCodeAt(j))) j++;
        const q = text.charCodeAt(j);
        if (q !== 0x22 && q !== 0x27) fail(j, `the value of attribute '${key}' of <${tag}> is not quoted`);
        const end = text.indexOf(q === 0x22 ? '"' : "'", j + 1);
        if (end < 0) fail(j, `the value of attribute '${key}' of <${tag}> is not closed`);
        let v = text.slice(j + 1, end);
        const badLt = v.indexOf('<');
        if (badLt >= 0) fail(j + 1 + badLt, `'<' in the value of attribute '${key}' of <${tag}>`);
        if (Object.prototype.hasOwnProperty.call(attrs, key)) fail(j, `attribute '${key}' of <${tag}> is repeated`);
        if (v.includes('\t') || v.includes('\n') || v.includes('\r')) v = v.replace(ATTR_WS, ' ');
        if (v.includes('&')) v = decodeEntities(v, j + 1);
        if (key === '__proto__') Object.defineProperty(attrs, key, { value: v, enumerable: true, writable: true, configurable: true });
        else attrs[key] = v;
        j = end + 1;
      }
      const node: XNode = { tag, attrs, children: [], text: '' };
      cur.children.push(node);
      if (!selfClose) {
        stack.push(node);
        opened.push(lt);
        cur = node;
      } else if (cur === top) rootDone = true;
      i = j;
    }
  }
  if (cur !== top) fail(n, `file ends inside <${cur.tag}> opened at ${position(text, opened[opened.length - 1]!)}`);
  const root = top.children[0];
  if (!root) fail(n, 'no root element');
  return root!;
}

export const child = (n: XNode, tag: string): XNode | undefined => n.children.find((c) => c.tag === tag);
export const childrenOf = (n: XNode | undefined, tag: string): XNode[] => (n ? n.children.filter((c) => c.tag === tag) : []);
