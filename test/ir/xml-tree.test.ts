import { describe, expect, it } from 'vitest';
import { decodeEntities, parseXml, type XNode } from '../../src/ir/xml-tree.js';

const root = (text: string): XNode => {
  const r = parseXml(text);
  if (!r.ok) throw new Error(r.detail);
  return r.root;
};
const error = (text: string): { reason: string; detail: string } => {
  const r = parseXml(text);
  if (r.ok) throw new Error('parsed');
  return { reason: r.reason, detail: r.detail };
};

describe('parseXml: the tree', () => {
  it('elements, attributes in order, text; whitespace-only text, comments, declaration and PIs dropped', () => {
    const r = root('<?xml version="1.0"?>\n<!-- c -->\n<net name="n" version="11">\n\t<dim>3</dim>\n\t<?pi x?><a b=\'1\' c = "2"/>\n</net>\n<!-- after -->\n');
    expect(r).toStrictEqual({
      tag: 'net', attrs: { name: 'n', version: '11' }, text: '',
      children: [{ tag: 'dim', attrs: {}, children: [], text: '3' }, { tag: 'a', attrs: { b: '1', c: '2' }, children: [], text: '' }],
    });
  });

  it('nests a million deep without recursion', () => {
    const depth = 1_000_000;
    let n = root('<a>'.repeat(depth) + '</a>'.repeat(depth));
    let d = 1;
    while (n.children.length) { n = n.children[0]!; d++; }
    expect(d).toBe(depth);
  });

  it('CDATA is text as written; CR LF in text reads as LF', () => {
    expect(root('<a><![CDATA[x < &amp; y]]></a>').text).toBe('x < &amp; y');
    expect(root('<a>1\r\n2\r3</a>').text).toBe('1\n2\n3');
  });
});

describe('parseXml: references and whitespace exactly as pugixml reads them', () => {
  it('the five predefined entities and decimal / lower-case-x hexadecimal character references', () => {
    expect(root('<a v="&amp;&lt;&gt;&quot;&apos;&#65;&#x42;&#x1F600;">&lt;t&gt;</a>').attrs['v']).toBe('&<>"\'AB\u{1F600}');
    expect(root('<a>&lt;t&gt;</a>').text).toBe('<t>');
  });

  it('anything else stays as written: unknown names, a bare &, &#X…, no ";"', () => {
    for (const s of ['&foo;', 'a & b', '&#X41;', '&#65', '&amp', '&#;', '&#x;', '&#12a;']) expect(decodeEntities(s)).toBe(s);
  });

  it('a character reference to no Unicode character is an error with its position', () => {
    for (const ref of ['&#0;', '&#xD800;', '&#x110000;', '&#99999999999;']) {
      expect(error(`<a\n v="${ref}"/>`)).toEqual({ reason: 'malformed', detail: `character reference '${ref}' is not a Unicode character (line 2, column 5)` });
    }
  });

  it('tab, LF and CR in attribute values read as spaces (CR LF as one); references to them stay', () => {
    expect(root('<a v="x\ty\nz\r\nw&#9;&#10;"/>').attrs['v']).toBe('x y z w\t\n');
  });
});

describe('parseXml: hostile and broken input, named with line and column', () => {
  it.each([
    ['<!DOCTYPE net><net/>', 'doctype', 'DOCTYPE/ENTITY declarations are not allowed (line 1, column 1)'],
    ['<net>\n<!ENTITY x "y"></net>', 'doctype', 'DOCTYPE/ENTITY declarations are not allowed (line 2, column 1)'],
    ['<net><layers></net>', 'malformed', 'closing tag </net> does not match <layers> opened at line 1, column 6 (line 1, column 14)'],
    ['<net>\n<layers>', 'malformed', 'file ends inside <layers> opened at line 2, column 1 (line 2, column 9)'],
    ['<net a="1', 'malformed', "the value of attribute 'a' of <net> is not closed (line 1, column 8)"],
    ['<net a="1" a="2"/>', 'malformed', "attribute 'a' of <net> is repeated (line 1, column 14)"],
    ['<net a=1/>', 'malformed', "the value of attribute 'a' of <net> is not quoted (line 1, column 8)"],
    ['<net a/>', 'malformed', "attribute 'a' of <net> has no value (line 1, column 7)"],
    ['<net a="1"b="2"/>', 'malformed', 'attributes of <net> must be separated by whitespace (line 1, column 11)'],
    ['<net a="x<y"/>', 'malformed', "'<' in the value of attribute 'a' of <net> (line 1, column 10)"],
    ['<net><1a/></net>', 'malformed', "bad element name starting with '1' (line 1, column 7)"],
    ['<net/><net/>', 'malformed', 'a second root element (line 1, column 7)'],
    ['<net/>x', 'malformed', 'text after the root element (line 1, column 7)'],
    ['x<net/>', 'malformed', 'text before the root element (line 1, column 1)'],
    ['</net>', 'malformed', 'closing tag </net> with no open element (line 1, column 1)'],
    ['<net><!-- x </net>', 'malformed', 'comment is not closed (line 1, column 6)'],
    ['<net><![CDATA[x</net>', 'malformed', 'CDATA section is not closed (line 1, column 6)'],
    ['<net/>\n<?xml version="1.0"?>', 'malformed', 'the XML declaration is only allowed at the start of the document (line 2, column 1)'],
    ['', 'malformed', 'no root element (line 1, column 1)'],
    ['<net', 'malformed', 'file ends inside <net> (line 1, column 1)'],
  ])('%j', (text, reason, detail) => {
    expect(error(text)).toEqual({ reason, detail });
  });

  it('an attribute named __proto__ is an ordinary attribute', () => {
    expect(Object.entries(root('<a __proto__="x" b="y"/>').attrs)).toEqual([['__proto__', 'x'], ['b', 'y']]);
  });
});
