import { describe, expect, it } from 'vitest';
import { readIr } from '../../src/ir/read.js';
import { writeIr } from '../../src/ir/write.js';
import { formatAttr, formatG } from '../../src/ir/attr-format.js';
import { A, Model, makeTensor, tensorFromFloat32, tensorFromInt64, tensorType, type Graph, type Value } from '../../src/graph/index.js';
import { codesOf } from './build.js';
import { goldenModel } from './golden-model.js';

const concat = (chunks: Uint8Array[]): Uint8Array => new Uint8Array(Buffer.concat(chunks));

describe('writeIr: layout as OpenVINO serializes it', () => {
  it('matches the golden file (checked by hand against ov.save_model of the same model)', async () => {
    const { xml, bin } = writeIr(goldenModel());
    await expect(xml).toMatchFileSnapshot('./__golden__/small-net.xml');
    const expected = Buffer.concat([Buffer.from(new Float32Array([1, 2, 3, 4, 5, 6]).buffer), Buffer.from(new BigInt64Array([0n]).buffer)]);
    expect(Buffer.from(concat(bin))).toEqual(expected);
  });

  it('stores identical blobs once, across the main graph and bodies', () => {
    const m = new Model('ov');
    const g = m.graph;
    const cond = g.addInput(tensorType('boolean', []), ['cond']);
    const c = g.addInitializer(tensorFromFloat32([1, 2]), ['c']);
    const iff = g.addNode({ dialect: 'ov', op: 'If', version: 'opset8', name: 'if' });
    iff.addInput(cond);
    const out = iff.addOutput(tensorType('f32', [2]), ['o']);
    for (const key of ['then_body', 'else_body']) {
      const b = g.addBody(iff, key);
      const inner = b.graph.addInitializer(key === 'then_body' ? tensorFromFloat32([1, 2]) : tensorFromFloat32([3, 4]), [key]);
      b.graph.outputs.push(inner);
      b.outputs.push({ result: 0, to: 0 });
    }
    g.outputs.push(out, c);
    const { xml, bin } = writeIr(m);
    expect(concat(bin).byteLength).toBe(16);
    expect(xml.match(/offset="(\d+)"/g)!.sort()).toEqual(['offset="0"', 'offset="0"', 'offset="8"']);
  });

  it('writes the serializer spellings and reads them back to canonical names', () => {
    const m = new Model('ov');
    const x = m.graph.addInput(tensorType('f32', [2]), ['x']);
    let v: Value = x;
    for (const op of ['Relu', 'Softmax', 'PRelu']) {
      const n = m.graph.addNode({ dialect: 'ov', op, version: 'opset1', name: op });
      n.addInput(v);
      if (op === 'PRelu') n.addInput(m.graph.addInitializer(tensorFromFloat32([0.5])));
      v = n.addOutput(tensorType('f32', [2]));
    }
    m.graph.outputs.push(v);
    const { xml, bin } = writeIr(m);
    expect([...xml.matchAll(/\stype="(\w+)"/g)].map((r) => r[1])).toEqual(['Parameter', 'ReLU', 'SoftMax', 'Const', 'PReLU', 'Result']);
    expect(readIr(xml, concat(bin)).graph.nodes.map((n) => n.op)).toEqual(['Relu', 'Softmax', 'PRelu']);
  });

  it('escapes commas in port names and writes the set sorted', () => {
    const m = new Model('ov');
    const x = m.graph.addInput(tensorType('f32', [1]), ['c', 'a,b']);
    m.graph.outputs.push(x);
    const { xml } = writeIr(m);
    expect(xml).toContain('names="a\\,b,c"');
    expect(xml).toContain('output_names="a\\,b,c"');
    expect(readIr(xml, null).graph.inputs[0]!.names).toEqual(['a,b', 'c']);
  });

  it('writes names with spaces, commas, backslashes and control characters as ov.save_model does (2026.4), and reads them back', () => {
    const m = new Model('ov');
    const names = [' sp ', 'a,b', 'a\\', 'tab\there', 'nl\nx', 'e\\,', 'q"<&>'];
    const x = m.graph.addInput(tensorType('f32', [1]), names);
    m.graph.outputs.push(x);
    const { xml } = writeIr(m);
    // ov.save_model of a Parameter with these names wrote exactly this.
    expect(xml).toContain('names=" sp ,a\\,b,a\\,e\\\\,,nl&#10;x,q&quot;&lt;&amp;>,tab&#09;here"');
    // OpenVINO reads that back as ' sp ', 'a,b', 'a\\,e\\,' (the serializer's own ambiguity: a name
    // ending in '\\' before the next), 'nl\nx', 'q"<&>', 'tab\there'; so does ovir.
    expect(readIr(xml, null).graph.inputs[0]!.names).toEqual([' sp ', 'a,b', 'a,e\\,', 'nl\nx', 'q"<&>', 'tab\there']);
    const one = new Model('ov');
    const y = one.graph.addInput(tensorType('f32', [1]), ['out sp ']);
    one.graph.outputs.push(y);
    const w = writeIr(one).xml;
    expect(w).toContain('names="out sp "');
    expect(readIr(w, null).graph.inputs[0]!.names).toEqual(['out sp ']);
  });

  it('a value of unknown type: precision UNSPECIFIED, no dims (OpenVINO re-infers it)', () => {
    const m = new Model('ov');
    const x = m.graph.addInput(tensorType('f32', [2]), ['x']);
    const n = m.graph.addNode({ dialect: 'ov', op: 'Relu', version: 'opset1', name: 'r' });
    n.addInput(x);
    m.graph.outputs.push(n.addOutput(null, ['y']));
    const { xml } = writeIr(m);
    expect(xml).toContain('<port id="1" precision="UNSPECIFIED" names="y" />');
    expect(readIr(xml, null).graph.nodes[0]!.outputs[0]!.type).toEqual(tensorType('dynamic', []));
  });
});

describe('writeIr: attribute formats', () => {
  it.each<[number, number, string]>([
    [0.1, 17, '0.10000000000000001'],
    [6.25, 17, '6.25'],
    [0.3333333333, 17, '0.33333333329999998'],
    [Math.fround(1e-5), 17, '9.9999997473787516e-06'],
    [1e21, 17, '1e+21'],
    [-2, 17, '-2'],
    [0, 17, '0'],
    [100, 6, '100'],
    [1234567, 6, '1.23457e+06'],
    [0.0001, 6, '0.0001'],
    [0.00001, 6, '1e-05'],
    [NaN, 17, 'nan'],
    [-Infinity, 17, '-inf'],
  ])('%d as %%.%ig is %s', (x, p, s) => {
    expect(formatG(x, p)).toBe(s);
  });

  it.each([
    [A.bool(true), 'true'],
    [A.bool(false), 'false'],
    [A.int(-3), '-3'],
    [A.ints([1, 2, 3]), '1, 2, 3'],
    [A.ints([]), ''],
    [A.float(0.5), '0.5'],
    [A.floats([0.1, 2]), '0.1, 2'],
    [A.string('numpy'), 'numpy'],
    [A.strings(['sigmoid', 'tanh']), 'sigmoid, tanh'],
    [A.raw('as, written'), 'as, written'],
  ])('%o is written "%s"', (a, s) => {
    expect(formatAttr(a)).toBe(s);
  });
});

describe('writeIr: refuses to write what OpenVINO would misread, reporting everything at once', () => {
  it('non-ov nodes, untyped Parameters, types IR lacks, attributes with no IR form, empty inputs', () => {
    const m = new Model('ov');
    const g: Graph = m.graph;
    const p = g.addInput(null, ['p']);
    const c = g.addInitializer(makeTensor('c64', [1], new Uint8Array(8)), ['c']);
    const onnx = g.addNode({ dialect: 'onnx', op: 'Relu', version: '17', name: 'onnx_relu' });
    onnx.addInput(p);
    const t = g.addNode({ dialect: 'ov', op: 'Foo', version: 'opset1', name: 'foo' });
    t.addInput(c);
    t.addInput(null);
    t.attrs.set('payload', A.tensor(tensorFromInt64([1])));
    g.outputs.push(onnx.addOutput(tensorType('f32', [1])), t.addOutput(tensorType('f32', [1])));
    expect(codesOf(() => writeIr(m)).sort()).toEqual(['IR_WRITE_DIALECT', 'IR_WRITE_TYPE', 'IR_WRITE_TYPE', 'IR_WRITE_ATTR', 'IR_WRITE_GRAPH'].sort());
  });

  it('a NUL in a name or attribute value is refused: OpenVINO reads the text cut at it (measured: "a\\0b" read as "a")', () => {
    const m = new Model('ov');
    const g = m.graph;
    const x = g.addInput(tensorType('f32', [2]), ['x\0in']);
    const n = g.addNode({ dialect: 'ov', op: 'Einsum', version: 'opset7', name: 'e\0n' });
    n.addInput(x);
    n.attrs.set('equation', A.string('i->i\0'));
    g.outputs.push(n.addOutput(tensorType('f32', [2]), ['y\0out']));
    let err: unknown;
    try {
      writeIr(m);
    } catch (e) {
      err = e;
    }
    const list = (err as { diagnostics: { code: string; message: string }[] }).diagnostics;
    expect(list.map((d) => d.code)).toEqual(Array(list.length).fill('IR_WRITE_NUL'));
    const text = list.map((d) => d.message).join('\n');
    for (const shown of ["'x\\0in'", "'e\\0n'", "'i->i\\0'", "'y\\0out'"]) expect(text).toContain(shown);
    expect(text).toContain("it would read 'e'");
  });

  it('a graph that breaks the verifier is not written', () => {
    const m = new Model('ov');
    const other = new Model('ov').graph.addInput(tensorType('f32', [1]));
    const n = m.graph.addNode({ dialect: 'ov', op: 'Relu', version: 'opset1' });
    n.addInput(other);
    m.graph.outputs.push(n.addOutput(tensorType('f32', [1])));
    expect(codesOf(() => writeIr(m))).toEqual(['GRAPH_FOREIGN_VALUE']);
  });
});

describe('write(read(x)) == x', () => {
  it('for the golden model: same XML and .bin after a read', () => {
    const first = writeIr(goldenModel());
    const second = writeIr(readIr(first.xml, concat(first.bin)));
    expect(second.xml).toBe(first.xml);
    expect(concat(second.bin)).toEqual(concat(first.bin));
  });

  it('structurally: inputs, outputs, nodes, attributes, names and types survive', () => {
    const a = goldenModel();
    const { xml, bin } = writeIr(a);
    const b = readIr(xml, concat(bin));
    const sig = (m: Model) => ({
      inputs: m.graph.inputs.map((v) => [v.meta['layerName'], v.names, v.type]),
      outputs: m.graph.outputs.map((v) => [v.names, v.type]),
      resultNames: m.graph.meta['resultNames'],
      nodes: m.graph.nodes.map((n) => [n.name, n.op, n.version, [...n.attrs.entries()].map(([k, v]) => [k, formatAttr(v)]), n.outputs.map((v) => [v.names, v.type])]),
      consts: m.graph.initializers.map((v) => [v.meta['layerName'], v.constant!.elem, v.constant!.dims, [...v.constant!.data]]),
    });
    const sa = sig(a);
    const sb = sig(b);
    // The reader orders initializers as the file does (Consts just before their first use).
    sa.consts.sort();
    sb.consts.sort();
    expect(sb).toEqual(sa);
  });
});
