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

  it('anything else stays as written, as pugixml keeps it (OpenVINO 2026.4 reads such a file): unknown names, a bare &, &#X…, no ";"', () => {
    for (const s of ['&foo;', 'a & b', '&#X41;', '&#65', '&amp', '&#;', '&#x;', '&#12a;']) expect(decodeEntities(s)).toBe(s);
    expect(root('<a v="x&nope;"/>').attrs['v']).toBe('x&nope;');
  });

  it('the names OpenVINO writes with "&" and ";" in them still read: escaped, with ";" and "#" as plain text', () => {
    expect(root('<a v="x&amp;nope;y &amp;#65; a;b #1"/>').attrs['v']).toBe('x&nope;y &#65; a;b #1');
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
    ['<net>\n<a name="lo\0op"/></net>', 'malformed', "a NUL byte in the value of attribute 'name' of <a> (line 2, column 12)"],
    ['<net>\n<dim>1\x002</dim></net>', 'malformed', 'a NUL byte in character data (line 2, column 7)'],
    ['<net>\n<a\0/></net>', 'malformed', 'a NUL byte in <a> (line 2, column 3)'],
    ['<net>\n<\0a/></net>', 'malformed', "bad element name starting with 'U+0000' (line 2, column 2)"],
    ['<net><!-- a\0 --></net>', 'malformed', 'a NUL byte in a comment (line 1, column 12)'],
    ['<net><![CDATA[\0]]></net>', 'malformed', 'a NUL byte in a CDATA section (line 1, column 15)'],
    ['<?pi \0?><net/>', 'malformed', 'a NUL byte in <?pi?> (line 1, column 6)'],
  ])('%j', (text, reason, detail) => {
    expect(error(text)).toEqual({ reason, detail });
  });

  it('bytes that are not UTF-8 are an error, at the first such place, however many there are', () => {
    const doc = (bytes: number[]): Buffer => Buffer.concat([Buffer.from('<net>\n<a names="y'), Buffer.from(bytes), Buffer.from('0"/>\n<b v="\xff"/></net>', 'latin1')]);
    const r = parseXml(doc([0xff, 0xfe]));
    expect(r).toEqual({ ok: false, reason: 'malformed', detail: 'byte FF not UTF-8, and 2 more such places (line 2, column 12)' });
    // Each of these is not UTF-8 (a stray continuation, overlong forms, a surrogate, past U+10FFFF, a cut sequence).
    for (const bad of [[0x80], [0xc0, 0x80], [0xe0, 0x80, 0x80], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82]]) {
      expect(parseXml(Buffer.concat([Buffer.from('<a v="'), Buffer.from(bad), Buffer.from('"/>')]))).toMatchObject({ ok: false, detail: expect.stringMatching(/^bytes? [0-9A-F ]+ not UTF-8 \(line 1, column 7\)$/) as unknown });
    }
    // Two names that differ only in such bytes would be one name if read with U+FFFD.
    expect(parseXml(Buffer.from('<a v="v\xff" w="v\xfe"/>', 'latin1'))).toMatchObject({ ok: false, detail: 'byte FF not UTF-8, and 1 more such place (line 1, column 8)' });
    expect(parseXml(Buffer.from('<a v="\xed\xa0\x80"/>', 'latin1'))).toMatchObject({ ok: false, detail: 'bytes ED A0 80 not UTF-8 (line 1, column 7)' });
  });

  it('UTF-8 text of every length reads as written (BOM, 2-, 3- and 4-byte characters)', () => {
    expect(root(Buffer.from('\ufeff<a v="é€\u{1F600}\u{10FFFF}">ü</a>', 'utf8') as unknown as string)).toMatchObject({ attrs: { v: 'é€\u{1F600}\u{10FFFF}' }, text: 'ü' });
  });

  it('an attribute named __proto__ is an ordinary attribute', () => {
    expect(Object.entries(root('<a __proto__="x" b="y"/>').attrs)).toEqual([['__proto__', 'x'], ['b', 'y']]);
  });
});
