import { describe, expect, it } from 'vitest';
import { ALL_MAPPINGS } from '../../mappings/index.js';
import { buildConvertRegistry, convertModel } from '../../src/convert/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import { A, allNodes, tensorFromInt64, type Attr, type Model, type Node } from '../../src/graph/index.js';
import { Builder } from './builder.js';

/**
 * Table-generated checks over mappings/: the registry builds (no overlapping version ranges), and
 * every entry round-trips: an ONNX node at an opset in the entry's range → IR (the entry's IR op
 * appears) → ONNX at the same opset gives the same op with the same attributes and operands.
 */
import { F, I, SAMPLES, sampleKey, W, type In } from './op-samples.js';
import { buildSampleModel as build, sampleDefaultOpset as defaultOpset } from './sample-model.js';

const key = sampleKey;


const attrText = (n: Node) => JSON.stringify([...n.attrs].sort(([a], [b]) => a.localeCompare(b)), (_, v) => (typeof v === 'bigint' ? `${v}n` : v));
const operands = (n: Node) => n.inputs.map((v) => (v?.constant ? `const[${[...v.constant.data].join(',')}]` : v ? 'value' : 'none')).join(' ');

describe('mapping tables', () => {
  it('the registry builds: no two entries claim the same op at the same version', () => {
    expect(() => buildConvertRegistry()).not.toThrow();
  });

  it('overlapping ranges are caught', () => {
    const add = ALL_MAPPINGS.find((e) => e.onnx.op === 'Add')!;
    expect(() => buildConvertRegistry([add, { ...add, onnx: { op: 'Add', since: 13 } }])).toThrow(/overlap/);
  });

  it('every entry has round-trip samples (or its own suite)', () => {
    expect(ALL_MAPPINGS.map(key).filter((k) => !(k in SAMPLES))).toEqual([]);
  });

  // A decomposition (ir: null) sharing its key with a one-to-one entry has its own suite.
  const cases = ALL_MAPPINGS.filter((e) => e.ir !== null).flatMap((e) => (SAMPLES[key(e)] ?? []).flatMap((s, i) =>
    (s.opsets ?? [defaultOpset(e)]).map((opset) => ({ name: `${key(e)} #${i} at opset ${opset}`, e, s, opset }))));

  it.each(cases)('$name round-trips', ({ e, s, opset }) => {
    const onnx = build(e, s, opset);
    const ir = convertModel(onnx);
    expect([...allNodes(ir.graph)].map((n) => n.op)).toContain(e.ir?.op);
    const back = convertModel(ir, { opset });
    const src = onnx.graph.nodes[0]!;
    const got = [...allNodes(back.graph)].filter((n) => n.op === e.onnx.op);
    expect(got).toHaveLength(1);
    if (s.back) {
      const want = new Map(Object.entries(s.back));
      expect(attrText(got[0]!)).toBe(attrText({ attrs: want } as unknown as Node));
    } else {
      expect(attrText(got[0]!)).toBe(attrText(src));
    }
    expect(operands(got[0]!)).toBe(operands(src));
    expect(back.graph.outputs.map((v) => v.name)).toEqual(onnx.graph.outputs.map((v) => v.name));
  });
});

describe('semantic differences are handled or reported, never dropped', () => {
  const one = (opset: number, op: string, ins: In[], attrs: Record<string, Attr> = {}) =>
    build({ onnx: { op, since: 1 }, ir: { op, version: 'opset1' } }, { inputs: ins, attrs }, opset);
  const ops = (m: Model) => [...allNodes(m.graph)].map((n) => n.op);
  const fails = (f: () => unknown): string => {
    try { f(); } catch (e) { if (e instanceof OvirError) return e.message; throw e; }
    return 'no error';
  };

  it('Unsqueeze axes: attribute before opset 13, input from 13 (IR → ONNX)', () => {
    const ir = convertModel(one(13, 'Unsqueeze', [F(), I(0)]));
    const n11 = [...allNodes(convertModel(ir, { opset: 11 }).graph)].find((n) => n.op === 'Unsqueeze')!;
    expect(n11.attrs.get('axes')).toEqual(A.ints([0]));
    expect(n11.inputs).toHaveLength(1);
    const n13 = [...allNodes(convertModel(ir, { opset: 13 }).graph)].find((n) => n.op === 'Unsqueeze')!;
    expect(n13.attrs.size).toBe(0);
    expect(n13.inputs).toHaveLength(2);
  });

  it('Reduce without axes reduces every dim (IR axes: every axis of a known rank, else computed from the rank)', () => {
    const ir = convertModel(one(13, 'ReduceMax', [F()]));
    expect(ops(ir)).toEqual(['ReduceMax']);
    expect(ir.graph.nodes[0]!.inputs[1]!.constant?.data.length).toBe(16);
    const unranked = new Builder('onnx', 13);
    unranked.output(unranked.op(unranked.graph, 'ReduceMax', [unranked.input('x', 'f32', null)], 'y'));
    const irUnranked = convertModel(unranked.model);
    expect(ops(irUnranked)).toEqual(['ShapeOf', 'ShapeOf', 'Squeeze', 'Range', 'ReduceMax']);
    // … which IR → ONNX reads back as absent axes, at every opset
    for (const opset of [13, 17, 18]) {
      const back = convertModel(irUnranked, { opset });
      expect(ops(back)).toEqual(['ReduceMax']);
      expect(back.graph.nodes[0]!.inputs.filter((v) => v)).toHaveLength(1);
      expect(back.graph.nodes[0]!.attrs.has('axes')).toBe(false);
    }
  });

  it('Reshape special_zero=false with a run-time shape needs ONNX opset 14 (allowzero)', () => {
    const b = new Builder('ov');
    const x = b.input('x', 'f32', [2, 3]);
    const s = b.input('s', 'i64', [2]);
    b.output(b.op(b.graph, 'Reshape', [x, s], 'y', { special_zero: A.raw('false') }));
    expect(fails(() => convertModel(b.model, { opset: 13 }))).toMatch(/special_zero' = false.*opset 14/);
    expect(convertModel(b.model, { opset: 14 }).graph.nodes[0]!.attrs.get('allowzero')).toEqual(A.int(1));
  });

  it('ReduceSum noop_with_empty_axes=1 without axes is an Identity', () => {
    expect(ops(convertModel(one(13, 'ReduceSum', [F()], { noop_with_empty_axes: A.int(1) })))).toEqual(['Identity']);
  });

  it('MatMul transpose_b becomes a Transpose of the last two dims', () => {
    const b = new Builder('ov');
    const x = b.input('x', 'f32', [2, 3]);
    const y = b.input('y', 'f32', [2, 3]);
    b.output(b.op(b.graph, 'MatMul', [x, y], 'z', { transpose_a: A.raw('false'), transpose_b: A.raw('true') }));
    const onnx = convertModel(b.model);
    expect(ops(onnx)).toEqual(['Transpose', 'MatMul']);
    expect(onnx.graph.nodes[0]!.attrs.get('perm')).toEqual(A.ints([1, 0]));
  });

  it('IR Divide that floors integers becomes Div(a - Mod(a, b), b); before opset 10 it is refused', () => {
    const b = new Builder('ov');
    const x = b.input('x', 'i32', [2]);
    b.output(b.op(b.graph, 'Divide', [x, x], 'z', { auto_broadcast: A.raw('numpy'), m_pythondiv: A.raw('true') }));
    expect(ops(convertModel(b.model))).toEqual(['Mod', 'Sub', 'Div']);
    expect(fails(() => convertModel(b.model, { opset: 9 }))).toMatch(/m_pythondiv/);
  });

  it('Gather batch_dims ≠ 0 has no ONNX form', () => {
    const b = new Builder('ov');
    const x = b.input('x', 'f32', [2, 3]);
    const i = b.init('i', tensorFromInt64([0, 1], [2, 1]));
    const ax = b.init('ax', tensorFromInt64([1], []));
    b.output(b.op(b.graph, 'Gather', [x, i, ax], 'z', { batch_dims: A.raw('1') }, { version: 'opset8' }));
    expect(fails(() => convertModel(b.model))).toMatch(/batch_dims.*= 1/);
  });

  it('Softmax before opset 13 coerces to 2-D at axis: over the last axis one Softmax, else Reshape · Softmax · Reshape', () => {
    expect(ops(convertModel(one(11, 'Softmax', [F()], { axis: A.int(1) })))).toEqual(['Softmax']);
    expect(ops(convertModel(one(11, 'Softmax', [F()], { axis: A.int(0) })))).toEqual(['ShapeOf', 'Slice', 'ReduceProd', 'Concat', 'Reshape', 'Softmax', 'Reshape']);
  });

  it('unsupported attribute values are a diagnostic', () => {
    expect(fails(() => convertModel(one(24, 'Cast', [F()], { to: A.int(24), round_mode: A.string('nearest') })))).toMatch(/round_mode' = nearest/);
  });

  it('Reshape allowzero=1 is special_zero=false', () => {
    const ir = convertModel(one(14, 'Reshape', [F(), I(3, 2)], { allowzero: A.int(1) }));
    expect(ir.graph.nodes[0]!.attrs.get('special_zero')).toEqual(A.raw('false'));
  });

  it('IR lookup is keyed by op version: a declared `reads` version converts, an undeclared one is refused by name', () => {
    const softmax = (version: string) => {
      const b = new Builder('ov');
      const x = b.input('x', 'f32', [2, 3]);
      b.output(b.op(b.graph, 'Softmax', [x], 'z', { axis: A.raw('1') }, { version }));
      return b.model;
    };
    expect(ops(convertModel(softmax('opset1')))).toEqual(['Softmax']);
    expect(ops(convertModel(softmax('opset8')))).toEqual(['Softmax']);
    expect(fails(() => convertModel(softmax('opset99')))).toMatch(/Softmax.*opset99.*ovir reads Softmax opset8, opset1/s);
  });

  it('a decomposition is no IR op: IR lookup never finds it', () => {
    const reg = buildConvertRegistry();
    expect(reg.forIr('LeakyRelu', 'decomposed', 17)).toBeUndefined();
    expect(reg.entries.filter((e) => e.ir === null).map((e) => e.onnx.op)).toContain('LeakyRelu');
  });

  it('a mistyped attribute is reported with node and attribute, not replaced by its default', () => {
    expect(fails(() => convertModel(one(13, 'Gather', [F(), I(0)], { axis: A.float(1) })))).toMatch(/main\/n.*'axis' = <float>.*the Gather-13 schema says int/s);
    expect(fails(() => convertModel(one(11, 'Conv', [F(1, 2, 5, 5), W(4, 2, 3, 3)], { group: A.string('1') })))).toMatch(/'group'.*should be an integer/s);
  });

  it('moves: ONNX attributes that are IR scalar inputs come back as attributes, defaults left out', () => {
    const ir = convertModel(one(13, 'HardSigmoid', [F()], { alpha: A.float(0.25) }));
    const hs = ir.graph.nodes.find((n) => n.op === 'HardSigmoid')!;
    expect(hs.inputs.map((v) => v?.constant ? [...new Float32Array(v.constant.data.slice().buffer)] : 'x')).toEqual(['x', [0.25], [0.5]]);
    const back = convertModel(ir, { opset: 13 }).graph.nodes.find((n) => n.op === 'HardSigmoid')!;
    expect([...back.attrs]).toEqual([['alpha', A.float(0.25)]]);
  });

  it('moves: a required moved operand that is absent is named', () => {
    expect(fails(() => convertModel(one(11, 'Unsqueeze', [F()])))).toMatch(/attribute 'axes' is required/);
    // (the schema's count of inputs says it first: ONNX_NODE_ARITY)
    expect(fails(() => convertModel(one(13, 'Unsqueeze', [F()])))).toMatch(/1 input where the Unsqueeze-13 schema takes 2 \('axes' missing\)/);
  });

  it('moves: a run-time operand cannot become an attribute (IR → ONNX before the opset that made it an input)', () => {
    const b = new Builder('ov');
    const x = b.input('x', 'f32', [1, 3]);
    const axes = b.input('axes', 'i32', []);
    b.output(b.op(b.graph, 'Squeeze', [x, axes], 'z'));
    expect(fails(() => convertModel(b.model, { opset: 11 }))).toMatch(/axes \(an ONNX attribute before opset 13: convert with --opset 13 or later\)/);
    const onnx = convertModel(b.model, { opset: 13 });
    expect(ops(onnx)).toEqual(['Cast', 'Reshape', 'Squeeze']);
  });

  it('moves: an operand computed at run time but known from the model (a shape) becomes the attribute', () => {
    const b = new Builder('ov');
    const x = b.input('x', 'f32', [2, 3]);
    const z = b.input('z', 'f32', [1]);
    const axes = b.op(b.graph, 'ShapeOf', [z], 'axes', { output_type: A.raw('i64') }, { version: 'opset3' });
    b.output(b.op(b.graph, 'ReduceMean', [x, axes], 'y', { keep_dims: A.raw('true') }));
    const mean = convertModel(b.model, { opset: 13 }).graph.nodes.find((n) => n.op === 'ReduceMean')!;
    expect(mean.attrs.get('axes')).toEqual(A.ints([1]));
    expect(mean.inputs).toHaveLength(1);
  });

  it('Cast to ↔ Convert destination_type', () => {
    const ir = convertModel(one(13, 'Cast', [F()], { to: A.int(10) }));
    expect(ir.graph.nodes[0]!.attrs.get('destination_type')).toEqual(A.raw('f16'));
  });
});
