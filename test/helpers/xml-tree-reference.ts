import { XMLParser, XMLValidator } from 'fast-xml-parser';

import type { XNode, XmlParseResult } from '../../src/ir/xml-tree.js';

/**
 * The IR reader's XML parser before the single-pass tokenizer (src/ir/xml-tree.ts): fast-xml-parser's
 * validator, then its ordered object tree converted into XNodes. Kept as the reference the
 * tokenizer is compared against (test/ir/xml-tree-differential.test.ts).
 */
const PARSER = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  preserveOrder: true,
  parseAttributeValue: false,
  parseTagValue: false,
  // No entity expansion at all: the five predefined entities and character references are decoded
  // by decodeEntities below, and any DTD is refused before parsing.
  processEntities: false,
  htmlEntities: false,
  // Attribute values are kept exactly (a layer name may have spaces at its ends); whitespace-only
  // text between elements is dropped below.
  trimValues: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  maxNestedTags: 1e9,
});

const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Decodes `&amp; &lt; &gt; &quot; &apos; &#NN; &#xHH;`; anything else stays as written. */
export function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (m, e: string) => {
    if (e[0] === '#') {
      const cp = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(cp) && cp <= 0x10ffff ? String.fromCodePoint(cp) : m;
    }
    return PREDEFINED[e] ?? m;
  });
}

type Ordered = Record<string, unknown>;

/**
 * Parses XML text into an XNode tree. Refuses any DOCTYPE (and so any ENTITY declaration): IR never
 * has one, and entity expansion is a denial-of-service vector. Iterative: nesting depth is not
 * limited by the JS stack.
 */
export function parseXmlReference(text: string): XmlParseResult {
  if (/<!DOCTYPE/i.test(text) || /<!ENTITY/i.test(text)) {
    return { ok: false, reason: 'doctype', detail: 'DOCTYPE/ENTITY declarations are not allowed' };
  }
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    return { ok: false, reason: 'malformed', detail: `${valid.err.msg} (line ${valid.err.line}, column ${valid.err.col})` };
  }
  let parsed: Ordered[];
  try {
    parsed = PARSER.parse(text) as Ordered[];
  } catch (e) {
    return { ok: false, reason: 'malformed', detail: e instanceof Error ? e.message : String(e) };
  }
  const top: XNode = { tag: '#document', attrs: {}, children: [], text: '' };
  const stack: { items: Ordered[]; into: XNode }[] = [{ items: parsed, into: top }];
  while (stack.length) {
    const { items, into } = stack.pop()!;
    for (const item of items) {
      for (const key of Object.keys(item)) {
        if (key === ':@') continue;
        if (key === '#text') {
          const t = String(item[key]);
          if (t.trim() !== '') into.text += decodeEntities(t);
          continue;
        }
        const rawAttrs = (item[':@'] ?? {}) as Record<string, unknown>;
        const attrs: Record<string, string> = {};
        for (const [k, v] of Object.entries(rawAttrs)) attrs[k] = decodeEntities(String(v));
        const node: XNode = { tag: key, attrs, children: [], text: '' };
        into.children.push(node);
        const kids = item[key];
        if (Array.isArray(kids) && kids.length) stack.push({ items: kids as Ordered[], into: node });
      }
    }
  }
  const root = top.children[0];
  if (!root) return { ok: false, reason: 'malformed', detail: 'no root element' };
  return { ok: true, root };
}

