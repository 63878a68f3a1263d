import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/oracle.js';
import { readIr } from '../../src/ir/read.js';
import { attrInt, attrBool, attrFloat, attrInts, type Node } from '../../src/graph/index.js';
import { codesOf, diagnosticsOf, layerXml, netXml, param, result, type LayerSpec } from './build.js';

const relu = (id: number, name = 'relu'): LayerSpec => ({
  id, name, type: 'ReLU', inputs: [{ precision: 'FP32', dims: [2, 4] }], outputs: [{ precision: 'FP32', names: name, dims: [2, 4] }],
});
const simpleNet = (version = '11') => netXml([param(0, 'x'), relu(1), result(2)], [[0, 0, 1, 0], [1, 1, 2, 0]], version);

describe('readIr: the file', () => {
  it.each(['10', '11'])('accepts <net version="%s">', (v) => {
    const m = readIr(simpleNet(v), null);
    expect(m.ir?.version).toBe(Number(v));
    expect(m.graph.nodes.map((n) => n.op)).toEqual(['Relu']);
  });

  it.each(['9', '12', ''])('rejects <net version="%s">', (v) => {
    expect(codesOf(() => readIr(simpleNet(v), null))).toEqual(['IR_VERSION']);
  });

  it('rejects any DOCTYPE, with or without entities, before expanding anything', () => {
    const withEntity = `<?xml version="1.0"?><!DOCTYPE net [<!ENTITY a "aaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]><net name="&b;" version="11"><layers/><edges/></net>`;
    expect(codesOf(() => readIr(withEntity, null))).toEqual(['IR_DOCTYPE']);
    const plain = `<?xml version="1.0"?><!DOCTYPE net><net version="11"><layers/><edges/></net>`;
    expect(codesOf(() => readIr(plain, null))).toEqual(['IR_DOCTYPE']);
  });

  it('rejects malformed XML and a root other than <net>', () => {
    expect(codesOf(() => readIr('<net version="11"><layers></net>', null))).toEqual(['IR_XML_MALFORMED']);
    expect(codesOf(() => readIr('<model version="11"/>', null))).toEqual(['IR_NOT_NET']);
  });

  it('refuses what is not well-formed XML, naming the file and the line: bytes that are not UTF-8, a NUL', () => {
    const text = simpleNet();
    const bad: [Uint8Array | string, string][] = [
      [Buffer.from(text.replace('names="x"', 'names="y\xff\xfe0"'), 'latin1'), 'byte FF not UTF-8, and 1 more such place (line 2,'],
      [text.replace('name="x"', 'name="lo\0op"'), "a NUL byte in the value of attribute 'name' of <layer> (line 2,"],
    ];
    for (const [xml, detail] of bad) {
      const d = diagnosticsOf(() => readIr(xml, null, { file: 'm.xml' }));
      expect(d.map((x) => [x.code, x.file])).toEqual([['IR_XML_MALFORMED', 'm.xml']]);
      expect(d[0]!.message).toContain(detail);
    }
  });

  it('decodes the predefined entities in names', () => {
    const m = readIr(netXml([param(0, 'a&b<"c"'), relu(1), result(2)], [[0, 0, 1, 0], [1, 1, 2, 0]]), null);
    expect(m.graph.inputs[0]!.meta['layerName']).toBe('a&b<"c"');
  });

  it('keeps attribute values exactly, spaces included', () => {
    const m = readIr(netXml([param(0, ' x '), relu(1), result(2)], [[0, 0, 1, 0], [1, 1, 2, 0]]), null);
    expect(m.graph.inputs[0]!.meta['layerName']).toBe(' x ');
    expect(m.graph.inputs[0]!.names).toEqual([' x ']);
  });

  it('keeps a Parameter <data> attribute named __proto__ as an ordinary key, not as the object\'s prototype', () => {
    const p = param(0, 'x');
    const m = readIr(netXml([{ ...p, data: { ...p.data, __proto__x: 'y' } as Record<string, string> }, relu(1), result(2)], [[0, 0, 1, 0], [1, 1, 2, 0]]).replace('__proto__x', '__proto__'), null);
    const extra = m.graph.inputs[0]!.meta['irExtraData']!;
    expect(Object.getPrototypeOf(extra)).toBe(Object.prototype);
    expect(Object.keys(extra)).toEqual(['__proto__']);
    expect(extra['__proto__']).toBe('y');
  });

  it('takes bytes as well as text', () => {
    expect(readIr(new TextEncoder().encode(simpleNet()), null).graph.nodes).toHaveLength(1);
  });
});

describe('readIr: Parameters, Results, nodes', () => {
  it.each([
    ['1,3,?,2..8', [1, 3, null, { min: 2, max: 8 }]],
    ['-1,4', [null, 4]],
    ['..5,3..', [{ min: 0, max: 5 }, { min: 3, max: Infinity }]],
    ['...', null],
    ['', []],
    ['2, 3', [2, 3]],
  ])('Parameter shape "%s"', (shape, expected) => {
    const m = readIr(netXml([param(0, 'x', 'f32', shape, []), { id: 1, type: 'Result', inputs: [{}] }], [[0, 0, 1, 0]]), null);
    expect(m.graph.inputs[0]!.type).toEqual({ kind: 'tensor', elem: 'f32', shape: expected });
  });

  it('Parameters become graph inputs, Results graph outputs, both in XML order', () => {
    const m = readIr(netXml(
      [result(5, 'r_b'), param(3, 'b'), param(1, 'a'), result(4, 'r_a')],
      [[1, 0, 4, 0], [3, 0, 5, 0]],
    ), null);
    expect(m.graph.inputs.map((v) => v.meta['layerName'])).toEqual(['b', 'a']);
    expect(m.graph.meta['resultNames']).toEqual(['r_b', 'r_a']);
    expect(m.graph.outputs.map((v) => v.meta['layerName'])).toEqual(['b', 'a']);
  });

  it('matches layer types case-insensitively, keeping the spelling in meta.irType', () => {
    const m = readIr(netXml([param(0, 'x'), { ...relu(1), type: 'relu' }, { ...relu(2, 's'), type: 'SoftMax', data: { axis: '1' } }, result(3)],
      [[0, 0, 1, 0], [1, 1, 2, 0], [2, 1, 3, 0]]), null);
    expect(m.graph.nodes.map((n) => [n.op, n.meta['irType']])).toEqual([['Relu', 'relu'], ['Softmax', 'SoftMax']]);
  });

  it('reads ports by position whatever their ids, and the port precision/dims as the value type', () => {
    const sub: LayerSpec = {
      id: 7, name: 'sub', type: 'Subtract', data: { auto_broadcast: 'numpy' },
      inputs: [{ id: 42, precision: 'FP32', dims: [2, 4] }, { id: 3, precision: 'FP32', dims: [2, 4] }],
      outputs: [{ id: 0, precision: 'FP16', names: 'd', dims: [2, -1] }],
    };
    const m = readIr(netXml([param(0, 'a'), param(1, 'b'), sub, result(9)], [[1, 0, 7, 3], [0, 0, 7, 42], [7, 0, 9, 0]]), null);
    const n = m.graph.nodes[0]!;
    expect(n.inputs.map((v) => v!.meta['layerName'])).toEqual(['a', 'b']);
    expect(n.outputs[0]!.type).toEqual({ kind: 'tensor', elem: 'f16', shape: [2, null] });
  });

  it('splits port names on unescaped commas and unescapes "\\," as OpenVINO does, trimming nothing', () => {
    const p = param(0, 'x');
    p.outputs![0]!.names = 'c, a\\,b ,c';
    const m = readIr(netXml([p, { id: 1, type: 'Result', inputs: [{}] }], [[0, 0, 1, 0]]), null);
    expect(m.graph.inputs[0]!.names).toEqual([' a,b ', 'c']);
  });

  it('types attributes of known ops and keeps unknown ones raw', () => {
    const conv: LayerSpec = {
      id: 2, name: 'conv', type: 'Convolution', version: 'opset1',
      data: { strides: '1, 2', dilations: '1,1', pads_begin: '0, 0', pads_end: '0, 0', auto_pad: 'explicit', secret: 'x,y' },
      inputs: [{ precision: 'FP32', dims: [1, 1, 4, 4] }, { precision: 'FP32', dims: [1, 1, 1, 1] }],
      outputs: [{ precision: 'FP32', dims: [1, 1, 4, 2] }],
    };
    const clamp: LayerSpec = { id: 3, type: 'Clamp', data: { min: '0.10000000000000001', max: '6' }, inputs: [{}], outputs: [{ precision: 'FP32' }] };
    const mm: LayerSpec = { id: 4, type: 'MatMul', data: { transpose_a: 'false', transpose_b: 'true' }, inputs: [{}, {}], outputs: [{ precision: 'FP32' }] };
    const m = readIr(netXml([param(0, 'x'), param(1, 'w'), conv, clamp, mm, result(5)],
      [[0, 0, 2, 0], [1, 0, 2, 1], [2, 2, 3, 0], [3, 1, 4, 0], [3, 1, 4, 1], [4, 2, 5, 0]]), null);
    const [c, cl, mat] = m.graph.nodes as [Node, Node, Node];
    expect(c.attrs.get('strides')).toEqual({ type: 'ints', value: [1n, 2n] });
    expect(c.attrs.get('auto_pad')).toEqual({ type: 'string', value: 'explicit' });
    expect(c.attrs.get('secret')).toEqual({ type: 'raw', value: 'x,y' });
    expect(attrInts(c, 'dilations')).toEqual([1n, 1n]);
    expect(attrFloat(cl, 'min')).toBe(0.1);
    expect(cl.attrs.get('max')).toEqual({ type: 'float', value: 6 });
    expect([attrBool(mat, 'transpose_a'), attrBool(mat, 'transpose_b')]).toEqual([false, true]);
    expect(attrInt(mat, 'transpose_b')).toBe(1n);
  });

  it('keeps an attribute that does not fit its schema raw, with a warning', () => {
    const sm: LayerSpec = { ...relu(1), type: 'SoftMax', data: { axis: 'one' } };
    const m = readIr(netXml([param(0, 'x'), sm, result(2)], [[0, 0, 1, 0], [1, 1, 2, 0]]), null);
    expect(m.graph.nodes[0]!.attrs.get('axis')).toEqual({ type: 'raw', value: 'one' });
    expect(m.graph.meta['diagnostics']!.map((d) => d.code)).toEqual(['IR_ATTR_UNTYPED']);
  });

  it('keeps layers that reach no Result', () => {
    const m = readIr(netXml([param(0, 'x'), relu(1, 'dead'), relu(2, 'live'), result(3)], [[0, 0, 1, 0], [0, 0, 2, 0], [2, 1, 3, 0]]), null);
    expect(m.graph.nodes.map((n) => n.name).sort()).toEqual(['dead', 'live']);
  });

  it('keeps rt_info of the net, layers and ports raw', () => {
    const xml = simpleNet()
      .replace('<rt_info/></net>', '<rt_info><info name="k" value="v"/></rt_info></net>')
      .replace('<data shape="2,4" element_type="f32"/>', '<data shape="2,4" element_type="f32"/><rt_info><attribute name="fused_names" version="0" value="x"/></rt_info>');
    const m = readIr(xml, null);
    expect(m.ir?.rtInfo).toMatchObject({ tag: 'rt_info', children: [{ tag: 'info', attrs: { name: 'k', value: 'v' } }] });
    expect(m.graph.inputs[0]!.meta['irLayerRtInfo']).toMatchObject({ children: [{ tag: 'attribute', attrs: { name: 'fused_names' } }] });
  });
});

describe('readIr: structural errors, all reported at once with their paths', () => {
  it('edges to missing layers or ports, ports with no edge or two', () => {
    const add: LayerSpec = { id: 2, name: 'add', type: 'Add', inputs: [{}, {}], outputs: [{ precision: 'FP32' }] };
    const d = diagnosticsOf(() => readIr(netXml([param(0, 'x'), param(1, 'y'), add, result(3), result(4, 'r2')],
      [[0, 0, 2, 0], [1, 0, 2, 0], [9, 0, 3, 0], [0, 5, 4, 0]]), null));
    expect(d.map((x) => x.code).sort()).toEqual(['IR_EDGE_BAD', 'IR_EDGE_BAD', 'IR_EDGE_MISSING', 'IR_EDGE_MISSING', 'IR_EDGE_TWICE', 'IR_EDGE_MISSING'].sort());
    expect(d.find((x) => x.code === 'IR_EDGE_TWICE')!.where).toBe('main/add');
  });

  it('cycles', () => {
    const a: LayerSpec = { id: 1, name: 'a', type: 'Add', inputs: [{}, {}], outputs: [{ precision: 'FP32' }] };
    const b: LayerSpec = { ...relu(2, 'b') };
    expect(codesOf(() => readIr(netXml([param(0, 'x'), a, b, result(3)], [[0, 0, 1, 0], [2, 1, 1, 1], [1, 2, 2, 0], [2, 1, 3, 0]]), null)))
      .toEqual(['IR_CYCLE']);
  });

  it('missing required attributes of Parameter and Const', () => {
    const p: LayerSpec = { id: 0, name: 'x', type: 'Parameter', data: { shape: '2' }, outputs: [{ precision: 'FP32' }] };
    const c: LayerSpec = { id: 1, name: 'c', type: 'Const', data: { element_type: 'f32', shape: '2', offset: '0' }, outputs: [{ precision: 'FP32' }] };
    const d = diagnosticsOf(() => readIr(netXml([p, c, result(2), result(3)], [[0, 0, 2, 0], [1, 0, 3, 0]]), new Uint8Array(8)));
    expect(d.map((x) => [x.code, x.where])).toEqual([['IR_ATTR_MISSING', 'main/x'], ['IR_ATTR_MISSING', 'main/c']]);
    expect(d.map((x) => x.message).join('\n')).toMatch(/element_type[\s\S]*size/);
  });

  it('names the file when given one', () => {
    expect(diagnosticsOf(() => readIr(simpleNet('9'), null, { file: 'm.xml' }))[0]!.file).toBe('m.xml');
  });

  it('an output port without precision', () => {
    const r = relu(1);
    delete r.outputs![0]!.precision;
    expect(codesOf(() => readIr(netXml([param(0, 'x'), r, result(2)], [[0, 0, 1, 0], [1, 1, 2, 0]]), null))).toEqual(['IR_PORT_BAD']);
  });
});

void layerXml;

describe('readIr: ids as written (numbers read from the bytes, any other spelling compared as trimmed text)', () => {
  const port = (id: string, dims = ['2', '4']): string => `<port id="${id}" precision="FP32">${dims.map((d) => `<dim>${d}</dim>`).join('')}</port>`;
  const layer = (id: string, type: string, name: string, ins: string[], outs: string[], data = ''): string =>
    `<layer id="${id}" name="${name}" type="${type}" version="opset1">${data}${ins.length ? `<input>${ins.join('')}</input>` : ''}${outs.length ? `<output>${outs.join('')}</output>` : ''}</layer>`;
  const parameter = (id: string): string => layer(id, 'Parameter', 'x', [], [port('0')], '<data shape="2,4" element_type="f32"/>');
  const edge = (a: string, b: string, c: string, d: string): string => `<edge from-layer="${a}" from-port="${b}" to-layer="${c}" to-port="${d}"/>`;
  const net = (layers: string[], edges: string[]): string => `<net name="t" version="11"><layers>${layers.join('')}</layers><edges>${edges.join('')}</edges></net>`;
  const chain = (ids: [string, string, string], ports: [string, string] = ['0', '1'], reluDims?: string[]): string =>
    net([parameter(ids[0]), layer(ids[1], 'ReLU', 'r', [port(ports[0])], [port(ports[1], reluDims)]), layer(ids[2], 'Result', 'o', [port('0')], [])],
      [edge(ids[0].trim(), '0', ids[1].trim(), ports[0].trim()), edge(ids[1].trim(), ports[1].trim(), ids[2].trim(), '0')]);

  it('finds layers by id in any order and with gaps, and ports by id whatever their numbers', () => {
    const m = readIr(chain(['10', '30', '20'], ['4', '9']), null);
    expect(m.graph.nodes.map((n) => n.op)).toEqual(['Relu']);
    expect(m.graph.outputs).toEqual([m.graph.nodes[0]!.outputs[0]]);
  });

  it('trims ids: " 5 " is layer 5', () => {
    expect(readIr(chain([' 0 ', '1', '2'], [' 0', '1 ']), null).graph.nodes).toHaveLength(1);
  });

  it('compares other spellings as text: layer "05" is not layer 5, "+1" is not 1', () => {
    expect(diagnosticsOf(() => readIr(net([parameter('05'), layer('1', 'ReLU', 'r', [port('0')], [port('1')]), layer('2', 'Result', 'o', [port('0')], [])],
      [edge('5', '0', '1', '0'), edge('1', '1', '2', '0')]), null)).map((d) => d.message))
      .toEqual(['edge 0 (5:0 → 1:0): layer 5 does not exist', "input port 0 of layer 'r' has no incoming edge"]);
    expect(readIr(chain(['05', '1', '2']).replace('from-layer="05"', 'from-layer="05 "'), null).graph.nodes).toHaveLength(1);
    expect(readIr(chain(['0', '+1', '2']), null).graph.nodes).toHaveLength(1);
    expect(diagnosticsOf(() => readIr(chain(['0', '+1', '2']).replace('to-layer="+1"', 'to-layer="1"'), null)).map((d) => d.message))
      .toEqual(['edge 0 (0:0 → 1:0): layer 1 does not exist', "input port 0 of layer 'r' has no incoming edge"]);
  });

  it('reports repeated and non-integer port ids as before, whatever their order', () => {
    const dup = net([parameter('0'), layer('1', 'Add', 'a', [port('0'), port('0')], [port('1')]), layer('2', 'Result', 'o', [port('0')], [])], [edge('0', '0', '1', '0'), edge('1', '1', '2', '0')]);
    // The second port 0 is not a port: the edge reaches the first, the second has none.
    expect(diagnosticsOf(() => readIr(dup, null)).map((d) => d.message)).toEqual(["layer 'a' port 0: duplicate port id", "input port 0 of layer 'a' has no incoming edge"]);
    expect(codesOf(() => readIr(chain(['0', '1', '2'], ['a', '1']), null))).toContain('IR_PORT_BAD');
    const cross = chain(['0', '1', '2'], ['0', '0']);
    expect(diagnosticsOf(() => readIr(cross, null))[0]!.message).toBe("layer 'r' port 0: duplicate port id");
  });

  it('reads dims written with spaces, leading zeros, -1 and references', () => {
    const m = readIr(chain(['0', '1', '2'], ['0', '1'], [' 1 ', '-1', '007', '&#52;']), null);
    expect(m.graph.nodes[0]!.outputs[0]!.type).toEqual({ kind: 'tensor', elem: 'f32', shape: [1, null, 7, 4] });
  });
});

describe('readIr: port names, precisions and dims exactly as OpenVINO reads them (measured on OpenVINO 2026.4)', () => {
  const namesOf = (names: string): string[] => {
    const p = param(0, 'x');
    p.outputs![0]!.names = names;
    return readIr(netXml([p, relu(1), result(2)], [[0, 0, 1, 0], [1, 1, 2, 0]]), null).graph.inputs[0]!.names;
  };

  it.each([
    // [names as written (before XML escaping), names read]
    [' sp ', [' sp ']],
    ['out sp ', ['out sp ']],
    [' ', [' ']],
    ['', []],
    ['a, b', [' b', 'a']],
    ['x ,x, x', [' x', 'x', 'x ']],
    ['a,,b', ['a', 'b']],
    [',a,', ['a']],
    ['b,a,a', ['a', 'b']],
    ['a\\,b', ['a,b']],
    ['a\\,b\\,c', ['a,b,c']],
    ['mid\\, sp ', ['mid, sp ']],
    ['a\\\\,b', ['a\\,b']],
    ['a\\', ['a\\']],
    ['a\\b', ['a\\b']],
    ['\t\n', ['  ']],
  ] as [string, string[]][])('names=%j reads as %j', (names, read) => {
    expect(namesOf(names)).toEqual(read);
  });

  it('tab and LF written as references stay tab and LF', () => {
    const p = param(0, 'x');
    const text = netXml([p, relu(1), result(2)], [[0, 0, 1, 0], [1, 1, 2, 0]]).replace('names="x"', 'names="&#9;t&#10;"');
    expect(readIr(text, null).graph.inputs[0]!.names).toEqual(['\tt\n']);
  });

  // Every port precision OpenVINO 2026.4 reads: each IR type's precision and name, U1, bin, undefined.
  const READ = ['FP32', 'f32', 'FP16', 'f16', 'BF16', 'bf16', 'FP64', 'f64', 'I4', 'i4', 'I8', 'i8', 'I16', 'i16', 'I32', 'i32', 'I64', 'i64',
    'U1', 'u1', 'BIN', 'bin', 'U2', 'u2', 'U3', 'u3', 'U4', 'u4', 'U6', 'u6', 'U8', 'u8', 'U16', 'u16', 'U32', 'u32', 'U64', 'u64', 'BOOL', 'boolean',
    'STRING', 'string', 'NF4', 'nf4', 'F8E4M3', 'f8e4m3', 'F8E5M2', 'f8e5m2', 'F8E8M0', 'f8e8m0', 'F4E2M1', 'f4e2m1', 'UNSPECIFIED', 'dynamic', 'undefined'];
  // And some it refuses.
  const REFUSED = ['undefinedX', 'fp32', 'F32', 'Fp32', 'bool', 'BOOLEAN', 'float32', ' FP32', 'FP32 ', '', 'i2', 'c64', 'DYNAMIC', 'Q78', 'MIXED'];
  const withPrecision = (where: 'param' | 'const' | 'op', prec: string): string => {
    const p = param(0, 'x');
    const c: LayerSpec = { id: 3, name: 'c', type: 'Const', data: { element_type: 'f32', shape: '2,4', offset: '0', size: '32' }, outputs: [{ precision: 'FP32', dims: [2, 4] }] };
    const add: LayerSpec = { id: 1, name: 'add', type: 'Add', inputs: [{ precision: 'FP32', dims: [2, 4] }, { precision: 'FP32', dims: [2, 4] }], outputs: [{ precision: 'FP32', names: 'y', dims: [2, 4] }] };
    ({ param: p, const: c, op: add })[where].outputs![0]!.precision = prec;
    return netXml([p, add, result(2), c], [[0, 0, 1, 0], [3, 0, 1, 1], [1, 2, 2, 0]]);
  };

  it.each(['param', 'const', 'op'] as const)('every precision OpenVINO reads still reads, on the output of a %s', (where) => {
    for (const prec of READ) expect(() => readIr(withPrecision(where, prec), new Uint8Array(32)), prec).not.toThrow();
  });

  it.each(['param', 'const', 'op'] as const)('a precision OpenVINO refuses is IR_PORT_BAD, on the output of a %s', (where) => {
    const layer = { param: 'x', const: 'c', op: 'add' }[where];
    for (const prec of REFUSED) {
      const d = diagnosticsOf(() => readIr(withPrecision(where, prec), new Uint8Array(32), { file: 'm.xml' }));
      expect(d.map((x) => [x.code, x.where, x.file]), prec).toEqual([['IR_PORT_BAD', `main/${layer}`, 'm.xml']]);
      expect(d[0]!.message).toContain(`unknown precision '${prec}'`);
    }
  });

  it('an input port\'s precision is not read (OpenVINO never reads it)', () => {
    const text = withPrecision('param', 'FP32');
    const garbage = text.replace(/(name="add"[^>]*><input><port id="0") precision="FP32"/, '$1 precision="garbage"');
    expect(garbage).not.toBe(text);
    expect(() => readIr(garbage, new Uint8Array(32))).not.toThrow();
  });

  const withDim = (where: 'param' | 'const' | 'op-in' | 'op-out' | 'result', dim: string): string => {
    const text = withPrecision('param', 'FP32');
    // The first <dim>2</dim> of the chosen port.
    const at = { param: text.indexOf('<dim>', text.indexOf('name="x"')), 'op-in': text.indexOf('<dim>', text.indexOf('name="add"')),
      'op-out': text.indexOf('<dim>', text.indexOf('<output>', text.indexOf('name="add"'))), result: text.indexOf('<dim>', text.indexOf('type="Result"')),
      const: text.indexOf('<dim>', text.indexOf('name="c"')) }[where];
    return text.slice(0, at) + `<dim>${dim}</dim>` + text.slice(at + '<dim>2</dim>'.length);
  };
  const WHERE = ['param', 'const', 'op-in', 'op-out', 'result'] as const;

  it.each(WHERE)('dims OpenVINO reads still read, on a port of %s: an integer prefix ≥ -1 after white space', (where) => {
    for (const dim of ['2', ' 2 ', '\n\t2', '+2', '02', '-1', '-0', '2abc', '1..10', '-1..-1', '2.5', '1 2', '9223372036854775807', '&#9;2']) {
      expect(() => readIr(withDim(where, dim), new Uint8Array(32)), dim).not.toThrow();
    }
  });

  it.each(WHERE)('a dim OpenVINO refuses is IR_PORT_BAD, on a port of %s', (where) => {
    const layer = { param: 'x', const: 'c', 'op-in': 'add', 'op-out': 'add', result: 'Result_2' }[where];
    for (const dim of ['abc', '?', '..5', '', '-', '-2', '99999999999999999999', '9223372036854775808', '\u00a02']) {
      const d = diagnosticsOf(() => readIr(withDim(where, dim), new Uint8Array(32)));
      expect(d.map((x) => [x.code, x.where]), dim).toEqual([['IR_PORT_BAD', `main/${layer}`]]);
      expect(d[0]!.message).toContain(`dim '${dim}' must be an integer ≥ -1`);
    }
  });

  it('an output dim is read as OpenVINO reads it: "1..10" is 1, "-1" dynamic, "+3" 3', () => {
    const read = (dim: string) => readIr(withDim('op-out', dim), new Uint8Array(32)).graph.nodes[0]!.outputs[0]!.type;
    expect(read('1..10')).toEqual({ kind: 'tensor', elem: 'f32', shape: [1, 4] });
    expect(read(' -1')).toEqual({ kind: 'tensor', elem: 'f32', shape: [null, 4] });
    expect(read('+3')).toEqual({ kind: 'tensor', elem: 'f32', shape: [3, 4] });
  });

  it('in bodies too: samples/loop with one body Parameter <dim>abc</dim> and the main Parameter precision="undefinedX"', () => {
    const loop = readFileSync(join(REPO_ROOT, 'samples/loop/model.xml'), 'utf8');
    const bad = loop.replace('<port id="0" precision="I64" names="M" />', '<port id="0" precision="undefinedX" names="M" />')
      .replace(/(<body>[^]*?name="x" type="Parameter"[^]*?<dim>)2(<\/dim>)/, '$1abc$2');
    const d = diagnosticsOf(() => readIr(bad, readFileSync(join(REPO_ROOT, 'samples/loop/model.bin')), { file: 'model.xml' }));
    expect(d.map((x) => [x.code, x.where, x.message])).toEqual([
      ['IR_PORT_BAD', 'main/M', expect.stringContaining("port 0: unknown precision 'undefinedX'") as unknown],
      ['IR_PORT_BAD', expect.stringMatching(/^main\/.+\/body\/x$/) as unknown, "layer 'x' port 0: dim 'abc' must be an integer ≥ -1"],
    ]);
  });

  it('every bad port of a file is reported at once', () => {
    const text = withDim('result', '?').replace('<dim>2</dim>', '<dim>abc</dim>').replace(/(name="c"[^]*?precision=")FP32/, '$1nope');
    const d = diagnosticsOf(() => readIr(text, new Uint8Array(32)));
    expect(d.map((x) => [x.code, x.where])).toEqual([['IR_PORT_BAD', 'main/x'], ['IR_PORT_BAD', 'main/Result_2'], ['IR_PORT_BAD', 'main/c']]);
  });
});
