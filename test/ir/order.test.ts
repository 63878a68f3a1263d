import { describe, expect, it } from 'vitest';
import { stdSort } from '../../src/ir/std-sort.js';
import { readIr } from '../../src/ir/read.js';
import { writeIr } from '../../src/ir/write.js';
import { Model, tensorFromFloat32, tensorType, type Value } from '../../src/graph/index.js';

describe("stdSort (libstdc++'s std::sort, which the serializer uses for edges)", () => {
  const rand = (seed: number) => () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  it.each([0, 1, 2, 5, 16, 17, 40, 200, 1000])('sorts %i keys', (n) => {
    const r = rand(n + 1);
    const a = Array.from({ length: n }, () => Math.floor(r() * 10));
    const b = [...a];
    stdSort(b, (x, y) => x < y);
    expect(b).toEqual([...a].sort((x, y) => x - y));
  });

  it('is an insertion sort (stable) up to 16 elements, and permutes equal keys beyond, as libstdc++ does', () => {
    const small = Array.from({ length: 16 }, (_, i) => ({ k: i % 3, i }));
    stdSort(small, (x, y) => x.k < y.k);
    expect(small.map((e) => e.i)).toEqual([...small].sort((x, y) => x.k - y.k || x.i - y.i).map((e) => e.i));
    const big = Array.from({ length: 40 }, (_, i) => ({ k: i % 2, i }));
    stdSort(big, (x, y) => x.k < y.k);
    expect(big.map((e) => e.k)).toEqual([...Array(20).fill(0), ...Array(20).fill(1)]);
    expect(big.filter((e) => e.k === 0).map((e) => e.i)).not.toEqual(Array.from({ length: 20 }, (_, i) => 2 * i));
  });
});

describe('writeIr: layer order of the serializer', () => {
  it('Parameters first, then ops depth-first from the last Result, Consts where first reached, Results last', () => {
    const m = new Model('ov');
    const g = m.graph;
    const f = tensorType('f32', [1]);
    const x = g.addInput(f, ['x']);
    const op = (name: string, ...ins: Value[]) => {
      const n = g.addNode({ dialect: 'ov', op: 'Add', version: 'opset1', name });
      ins.forEach((v) => n.addInput(v));
      return n.addOutput(f, [name]);
    };
    const c1 = g.addInitializer(tensorFromFloat32([1]), ['c1']);
    const c2 = g.addInitializer(tensorFromFloat32([2]), ['c2']);
    const a = op('a', x, c1);
    const b = op('b', c2, x);
    g.addNode({ dialect: 'ov', op: 'Relu', version: 'opset1', name: 'dead' }).addInput(x);
    g.outputs.push(a, b);
    const { xml } = writeIr(m);
    const names = [...xml.matchAll(/<layer id="(\d+)" name="([^"]*)"/g)].map((r) => `${r[1]}:${r[2]}`);
    expect(names).toEqual(['0:x', '1:c2', '2:b', '3:c1', '4:a', '5:dead', '6:Result_6', '7:Result_7']);
  });

  it('escapes attribute values as pugixml does, and reads them back', () => {
    const m = new Model('ov');
    const v = m.graph.addInput(tensorType('f32', [1]), ['a>b', 'tab\there', 'new\nline']);
    v.meta['layerName'] = 'p<q&r"s';
    m.graph.outputs.push(v);
    const { xml } = writeIr(m);
    expect(xml).toContain('name="p&lt;q&amp;r&quot;s"');
    // As OpenVINO's serializer (pugixml) writes them: control characters as two-digit references.
    expect(xml).toContain('names="a>b,new&#10;line,tab&#09;here"');
    const back = readIr(xml, null).graph.inputs[0]!;
    expect([back.meta['layerName'], back.names]).toEqual(['p<q&r"s', ['a>b', 'new\nline', 'tab\there']]);
  });

  it('escapes every & (an entity-like text too) and control characters exactly as OpenVINO 2026.4 save_model wrote them', () => {
    // Expected text copied from ov.save_model of a Parameter with this name and these tensor names.
    const m = new Model('ov');
    const v = m.graph.addInput(tensorType('f32', [1]), ['amp&amp;x', 'c\u0001d', 'nl\nx', 'tab\there']);
    v.meta['layerName'] = 'p<q&amp;r"s\'t>';
    m.graph.outputs.push(v);
    const { xml } = writeIr(m);
    expect(xml).toContain('name="p&lt;q&amp;amp;r&quot;s\'t>"');
    expect(xml).toContain('names="amp&amp;amp;x,c&#01;d,nl&#10;x,tab&#09;here"');
    const back = readIr(xml, null).graph.inputs[0]!;
    expect([back.meta['layerName'], back.names]).toEqual(['p<q&amp;r"s\'t>', ['amp&amp;x', 'c\u0001d', 'nl\nx', 'tab\there']]);
  });

  it("routes a body's read of cond through an extra If input (OpenVINO misfeeds Parameters bound to port 0)", () => {
    const m = new Model('ov');
    const g = m.graph;
    const cond = g.addInput(tensorType('boolean', []), ['cond']);
    const iff = g.addNode({ dialect: 'ov', op: 'If', version: 'opset8', name: 'if' });
    iff.addInput(cond);
    const out = iff.addOutput(tensorType('boolean', []), ['o']);
    for (const key of ['then_body', 'else_body']) {
      const b = g.addBody(iff, key);
      const p = b.graph.addInput(tensorType('boolean', []), [`${key}_c`]);
      b.inputs.push({ param: p, from: 0 });
      b.graph.outputs.push(p);
      b.outputs.push({ result: 0, to: 0 });
    }
    g.outputs.push(out);
    const { xml } = writeIr(m);
    expect(xml).not.toContain('<input external_port_id="0"');
    expect(xml.match(/<input external_port_id="1" internal_layer_id="0" \/>/g)).toHaveLength(2);
    expect(xml).toContain('<output external_port_id="2" internal_layer_id="1" />');
    expect(xml).toContain('<edge from-layer="0" from-port="0" to-layer="1" to-port="1" />');
    const back = readIr(xml, null);
    expect(back.graph.nodes[0]!.inputs).toEqual([back.graph.inputs[0], back.graph.inputs[0]]);
    const d = readIr(xml.replace(/external_port_id="1" internal_layer_id="0"/g, 'external_port_id="0" internal_layer_id="0"'), null).graph.meta['diagnostics'] as { code: string }[];
    expect(d.map((x) => x.code)).toEqual(['IR_IF_COND_PARAM', 'IR_IF_COND_PARAM']);
  });
});
