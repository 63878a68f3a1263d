/**
 * A minimal XML element for writing IR: attributes in insertion order, children in order, and a
 * serializer that emits text chunks joined once. It replaces a DOM library on the IR writer's hot
 * path (100k layers: ~50 s through xmlbuilder2, well under a second here) and lays the text out
 * exactly as the IR writer always has: `<?xml version="1.0"?>`, tab indentation, `<tag ... />`
 * for empty elements, text-only elements on one line.
 */
export class XOut {
  private readonly attrs = new Map<string, string>();
  private readonly kids: XOut[] = [];
  private text = '';

  constructor(readonly tag: string) {}

  /** Appends a child element and returns it. Null or undefined attribute values are skipped. */
  ele(tag: string, attrs?: Readonly<Record<string, unknown>>): XOut {
    const el = new XOut(tag);
    if (attrs) for (const k in attrs) el.att(k, attrs[k]);
    this.kids.push(el);
    return el;
  }

  /** Sets an attribute; setting one that exists keeps its place and replaces its value. */
  att(name: string, value: unknown): this {
    if (value !== undefined && value !== null) this.attrs.set(name, String(value));
    return this;
  }

  /** Sets the element's text (written before any child elements). */
  txt(text: string): this {
    this.text += text;
    return this;
  }

  /** The document text: declaration, then this element as the root, ending with a newline. */
  serialize(): string {
    const out: string[] = ['<?xml version="1.0"?>\n'];
    const indents = [''];
    // Each frame is an element to open, or (close) an element whose children are all written.
    const stack: { el: XOut; depth: number; close: boolean }[] = [{ el: this, depth: 0, close: false }];
    while (stack.length) {
      const { el, depth, close } = stack.pop()!;
      const indent = (indents[depth] ??= '\t'.repeat(depth));
      if (close) {
        out.push(`${indent}</${el.tag}>\n`);
        continue;
      }
      let line = `${indent}<${el.tag}`;
      for (const [k, v] of el.attrs) line += ` ${k}="${escapeAttr(v)}"`;
      if (!el.kids.length) {
        out.push(line + (el.text === '' ? ' />\n' : `>${escapeText(el.text)}</${el.tag}>\n`));
        continue;
      }
      out.push(line + (el.text === '' ? '>\n' : `>\n${indent}\t${escapeText(el.text)}\n`));
      stack.push({ el, depth, close: true });
      for (let i = el.kids.length - 1; i >= 0; i--) stack.push({ el: el.kids[i]!, depth: depth + 1, close: false });
    }
    return out.join('');
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
