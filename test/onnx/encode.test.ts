import { describe, expect, it } from 'vitest';
import { OvirError } from '../../src/diag/diagnostic.js';
import { A } from '../../src/graph/attr.js';
import { Model } from '../../src/graph/model.js';
import { tensorFromFloat32 } from '../../src/graph/tensor.js';
import { tensorType } from '../../src/graph/types.js';
import { verifyGraph } from '../../src/graph/verify.js';
import { decodeOnnx } from '../../src/onnx/decode.js';
import { encodeOnnx, encodeOnnxChunks } from '../../src/onnx/encode.js';
import type { GraphProto, ModelProto } from '../../src/onnx/proto-types.js';
import { T } from '../../src/onnx/schema.js';
import { decodeMessage } from '../../src/onnx/wire.js';
import * as ob from '../helpers/onnx-builder.js';
import { plainProto, structure } from './structure.js';
import { hugeIdentityModel } from './huge-model.js';

const proto = (m: Model): ModelProto => decodeMessage<ModelProto>(T.ModelProto, encodeOnnx(m).bytes);
const f32 = (shape: number[]) => tensorType('f32', shape);

/** What an IR→ONNX conversion produces: an If whose branch reuses outer names, some values unnamed. */
function convertedStyleModel(): Model {
  const m = new Model('onnx');
  const g = m.graph;
  const c = g.addInput(tensorType('boolean', []), ['c']);
  const x = g.addInput(f32([2]), ['x']);
  const iff = g.addNode({ dialect: 'onnx', op: 'If', version: '17', name: 'If_1' });
  iff.addInput(c);
  iff.addInput(x); // capture
  const y = iff.addOutput(f32([2]), ['y']);
  for (const key of ['then_branch', 'else_branch']) {
    const b = g.addBody(iff, key);
    const p = b.graph.addInput(f32([2]), ['x_param']);
    b.inputs.push({ param: p, from: 1 });
    const neg = b.graph.addNode({ dialect: 'onnx', op: key === 'then_branch' ? 'Neg' : 'Abs', version: '17' });
    neg.addInput(p);
    const t = neg.addOutput(f32([2]), ['x']); // same name as the outer x
    const id = b.graph.addNode({ dialect: 'onnx', op: 'Identity', version: '17' });
    id.addInput(t);
    const out = id.addOutput(f32([2]), ['y']); // same name as the If's own output
    b.graph.outputs.push(out);
    b.outputs.push({ result: 0, to: 0 });
  }
  const tail = g.addNode({ dialect: 'onnx', op: 'Relu', version: '17' });
  tail.addInput(y);
  const unnamed = tail.addOutput(f32([2]), []); // no name at all
  const last = g.addNode({ dialect: 'onnx', op: 'Add', version: '17' });
  last.addInput(unnamed);
  last.addInput(g.addInitializer(tensorFromFloat32([1, 2]), ['x'])); // duplicate of an input name
  g.outputs.push(last.addOutput(f32([2]), ['out']));
  return m;
}

function allNames(gp: GraphProto, acc: string[] = []): string[] {
  const stack = [gp];
  while (stack.length) {
    const g = stack.pop()!;
    for (const v of g.input ?? []) acc.push(v.name!);
    for (const t of g.initializer ?? []) acc.push(t.name!);
    for (const n of g.node ?? []) {
      for (const o of n.output ?? []) if (o) acc.push(o);
      for (const a of n.attribute ?? []) if (a.g) stack.push(a.g);
    }
  }
  return acc;
}

describe('encoding names', () => {
  it('gives every value a name unique in the whole model, renaming collisions deterministically', () => {
    const m = convertedStyleModel();
    expect(verifyGraph(m.graph)).toEqual([]);
    const mp = proto(m);
    const names = allNames(mp.graph!);
    expect(new Set(names).size).toBe(names.length);
    expect(mp.graph!.input!.map((v) => v.name)).toEqual(['c', 'x']);
    expect(mp.graph!.initializer!.map((t) => t.name)).toEqual(['x__1']);
    const [ifp, relu, add] = mp.graph!.node!;
    expect(ifp!.input).toEqual(['c']);
    const thenG = ifp!.attribute!.find((a) => a.name === 'then_branch')!.g!;
    expect(thenG.input ?? []).toEqual([]);
    expect(thenG.node![0]!.input).toEqual(['x']); // the capture is the outer name again
    expect(thenG.node![0]!.output).toEqual(['x__2']);
    expect(thenG.output!.map((o) => o.name)).toEqual(['y__1']);
    expect(relu!.output).toEqual(['ovir_1']);
    expect(add!.input).toEqual(['ovir_1', 'x__1']);
    // deterministic: the same model encodes to the same bytes
    expect(encodeOnnx(convertedStyleModel()).bytes).toEqual(encodeOnnx(convertedStyleModel()).bytes);
  });

  it('the renamed model decodes without scoping errors', () => {
    const again = decodeOnnx(encodeOnnx(convertedStyleModel()).bytes);
    expect(verifyGraph(again.graph)).toEqual([]);
    expect(again.graph.nodes[0]!.inputs.map((v) => v?.name)).toEqual(['c', 'x']);
  });

  it('skipped optional outputs stay empty; unnamed but used outputs get names', () => {
    const m = decodeOnnx(ob.encodeModelProto(ob.model({
      graph: ob.graph({
        inputs: [ob.valueInfo('x', 'f32', [4])],
        outputs: [ob.valueInfo('y', 'f32')],
        nodes: [ob.node('Dropout', ['x', '', ''], ['y', ''])],
      }),
    })));
    const node = proto(m).graph!.node![0]!;
    expect(node.input).toEqual(['x', '', '']);
    expect(node.output).toEqual(['y', '']);
  });
});

describe('encoding order and types', () => {
  it('writes nodes in topological order even when the graph lists them otherwise', () => {
    const m = new Model('onnx');
    const g = m.graph;
    const x = g.addInput(f32([2]), ['x']);
    const second = g.addNode({ dialect: 'onnx', op: 'Neg', version: '17', name: 'second' });
    const first = g.addNode({ dialect: 'onnx', op: 'Abs', version: '17', name: 'first' });
    first.addInput(x);
    const a = first.addOutput(f32([2]), ['a']);
    second.addInput(a);
    g.outputs.push(second.addOutput(f32([2]), ['b']));
    expect(proto(m).graph!.node!.map((n) => n.name)).toEqual(['first', 'second']);
  });

  it('writes known types of intermediate values as value_info, and dims as declared', () => {
    const bytes = ob.encodeModelProto(ob.model({
      graph: ob.graph({
        inputs: [ob.valueInfo('x', 'f32', [2, 'N', null])],
        outputs: [ob.valueInfo('y', 'f32')],
        valueInfo: [ob.valueInfo('t', 'f32', ['N'])],
        nodes: [ob.node('Abs', ['x'], ['t']), ob.node('Neg', ['t'], ['y'])],
      }),
    }));
    const m = decodeOnnx(bytes);
    expect(m.graph.inputs[0]!.type).toEqual({ kind: 'tensor', elem: 'f32', shape: [2, { sym: 'N' }, null] });
    expect(m.graph.outputs[0]!.type).toEqual({ kind: 'tensor', elem: 'f32', shape: null });
    const mp = proto(m);
    expect(mp.graph!.value_info!.map((v) => v.name)).toEqual(['t']);
    expect(mp.graph!.value_info![0]!.type!.tensor_type!.shape!.dim).toEqual([{ dim_param: 'N' }]);
    expect(mp.graph!.input![0]!.type!.tensor_type!.shape!.dim).toEqual([{ dim_value: 2n }, { dim_param: 'N' }, {}]);
  });

  it('sequence, optional, map and sparse types round-trip; opaque types are carried as written', () => {
    const tp = (t: object) => ({ name: 'v', type: t });
    const types = [
      { sequence_type: { elem_type: ob.tensorType('i64', [3]) } },
      { optional_type: { elem_type: { sequence_type: { elem_type: ob.tensorType('f32') } } } },
      { map_type: { key_type: 7, value_type: ob.tensorType('f32', []) } },
      { sparse_tensor_type: { elem_type: 1, shape: { dim: [{ dim_value: 5n }] } } },
      { opaque_type: { domain: 'com.x', name: 'Blob' } },
    ];
    for (const t of types) {
      const bytes = ob.encodeModelProto(ob.model({ graph: ob.graph({ inputs: [tp(t)], outputs: [ob.valueInfo('w', 'f32')], nodes: [ob.node('Foo', ['v'], ['w'], {}, { domain: 'com.x' })] }) }));
      const m = decodeOnnx(bytes);
      const back = proto(m).graph!.input![0]!.type;
      expect(plainProto(back)).toEqual(plainProto(t));
    }
  });

  it('refuses to write nodes of the ov dialect and element types ONNX lacks, reporting all', () => {
    const m = new Model('onnx');
    const x = m.graph.addInput(tensorType('u1', [8]), ['x']);
    const n = m.graph.addNode({ dialect: 'ov', op: 'Relu', version: 'opset1', name: 'r' });
    n.addInput(x);
    m.graph.outputs.push(n.addOutput(null, ['y']));
    try {
      encodeOnnx(m);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(OvirError);
      expect((e as OvirError).diagnostics.map((d) => [d.code, d.where])).toEqual([['ONNX_ENCODE', 'main'], ['ONNX_ENCODE', 'main/r']]);
    }
  });
});

describe('what ONNX carries besides the graph round-trips', () => {
  it('model info, doc strings, metadata, functions, old-style input defaults, sparse initializers, odd attributes', () => {
    const fn = { name: 'MyFn', domain: 'local', input: ['a'], output: ['b'], node: [ob.node('Neg', ['a'], ['b'])], opset_import: [{ domain: '', version: 17n }] };
    const sparse = { values: ob.floatTensor('sp', [2], [1, 2]), indices: ob.int64Tensor('', [2], [0, 3]), dims: [4n] };
    const g = ob.graph({
      name: 'the_graph',
      docString: 'graph doc',
      inputs: [ob.valueInfo('x', 'f32', [4]), ob.valueInfo('bias', 'f32', [4])],
      initializers: [ob.floatTensor('bias', [4], [1, 1, 1, 1])],
      outputs: [ob.valueInfo('y', 'f32', [4])],
      nodes: [
        ob.node('Add', ['x', 'bias'], ['s'], {}, { name: 'add', docString: 'node doc' }),
        ob.node('Add', ['s', 'sp'], ['s2']),
        // an op of a custom domain that no function defines (a call of MyFn would be inlined: functions.test.ts)
        ob.node('MyOp', ['s2'], ['y'], {
          big: 2n ** 60n + 1n,
          neg: -(2n ** 62n),
          list: [2n ** 55n, -3n],
          f: ob.attr.float(1),
          text: 'héllo',
          ref: ob.attr.ref('alpha'),
          graphs: ob.attr.graphs([ob.graph({ name: 'g1' })]),
          sp: ob.attr.proto({ type: ob.AttrType.SPARSE_TENSOR, sparse_tensor: sparse }),
          tp: ob.attr.type(ob.tensorType('f16', ['B'])),
          t: ob.int64Tensor('', [2], [2n ** 62n, -1n]),
        }, { domain: 'local' }),
      ],
    });
    (g as GraphProto).sparse_initializer = [sparse];
    const bytes = ob.encodeModelProto({
      ...ob.model({ graph: g, opsets: { local: 1 }, producerName: 'p', producerVersion: '1.2', docString: 'model doc', metadata: { k: 'v' }, functions: [fn] }),
      model_version: 2n ** 55n,
      domain: 'ai.test',
    });
    const m = decodeOnnx(bytes);
    const call = m.graph.nodes[2]!;
    expect(call.attrs.get('big')).toEqual({ type: 'int', value: 2n ** 60n + 1n });
    expect(call.attrs.get('neg')).toEqual({ type: 'int', value: -(2n ** 62n) });
    expect(call.attrs.get('list')).toEqual({ type: 'ints', value: [2n ** 55n, -3n] });
    expect(call.attrs.get('f')).toEqual({ type: 'float', value: 1 });
    expect(call.attrs.get('text')).toEqual({ type: 'string', value: 'héllo' });
    expect(call.attrs.get('tp')).toEqual({ type: 'type', value: { kind: 'tensor', elem: 'f16', shape: [{ sym: 'B' }] } });
    for (const k of ['ref', 'graphs', 'sp']) expect(call.attrs.get(k)!.type).toBe('raw');
    expect(call.version).toBe('1');
    expect(m.onnx!.modelVersion).toBe(2n ** 55n);
    const bias = m.graph.inputs[1]!;
    expect(bias.constant).not.toBeNull();
    expect(bias.meta['onnxInitializerDefault']).toBe(true);
    expect(m.graph.initializers).toHaveLength(0);

    const again = encodeOnnx(m).bytes;
    const m2 = decodeOnnx(again);
    expect(structure(m2)).toEqual(structure(m));
    const a = decodeMessage<ModelProto>(T.ModelProto, bytes);
    const b = decodeMessage<ModelProto>(T.ModelProto, again);
    const j = plainProto;
    expect(j(b.functions)).toEqual(j(a.functions));
    expect(j(b.graph!.sparse_initializer)).toEqual(j(a.graph!.sparse_initializer));
    // attributes come back exactly, except that tensors are always rewritten as raw_data (same bytes: see structure)
    const attrs = (mp: ModelProto) => mp.graph!.node![2]!.attribute!.filter((x) => x.name !== 't');
    expect(j(attrs(b))).toEqual(j(attrs(a)));
    expect(b.graph!.node![2]!.attribute!.find((x) => x.name === 't')!.t!.raw_data!.byteLength).toBe(16);
    expect(b.graph!.input!.map((v) => v.name)).toEqual(['x', 'bias']);
    expect(b.graph!.initializer!.map((t) => t.name)).toEqual(['bias']);
    for (const k of ['producer_name', 'producer_version', 'doc_string', 'domain', 'model_version', 'ir_version'] as const) expect(b[k]).toEqual(a[k]);
    expect(j(b.metadata_props)).toEqual([{ key: 'k', value: 'v' }]);
    expect(b.graph!.name).toBe('the_graph');
    expect(b.graph!.doc_string).toBe('graph doc');
    expect(b.graph!.node![0]!.doc_string).toBe('node doc');
    expect(j(b.opset_import)).toEqual(j(a.opset_import));
  });

  it('dims beyond 2^53 are reported, not rounded', () => {
    const bytes = ob.encodeModelProto(ob.model({
      graph: ob.graph({ inputs: [ob.valueInfo('x', 'f32', [2n ** 53n + 1n])], outputs: [ob.valueInfo('x', 'f32')], initializers: [ob.tensor('w', 'f32', [2n ** 60n], { raw_data: new Uint8Array(0) })] }),
    }));
    try {
      decodeOnnx(bytes);
      expect.unreachable();
    } catch (e) {
      const ds = (e as OvirError).diagnostics;
      expect(ds.map((d) => d.code)).toEqual(['ONNX_DIM_TOO_LARGE', 'ONNX_DIM_TOO_LARGE']);
      expect(ds.map((d) => d.message).join()).toContain(String(2n ** 53n + 1n));
      expect(ds.map((d) => d.message).join()).toContain(String(2n ** 60n));
    }
  });

  it('Constant tensors in attributes, and typed attributes written by other passes', () => {
    const m = new Model('onnx');
    const n = m.graph.addNode({ dialect: 'onnx', op: 'Constant', version: '17' });
    n.attrs.set('value', A.tensor(tensorFromFloat32([3, 4])));
    m.graph.outputs.push(n.addOutput(f32([2]), ['k']));
    const back = decodeOnnx(encodeOnnx(m).bytes);
    const a = back.graph.nodes[0]!.attrs.get('value')!;
    expect(a.type === 'tensor' && [...new Float32Array(new Uint8Array(a.value.data).buffer)]).toEqual([3, 4]);
    expect(back.onnx!.opsetImports.get('')).toBe(17);
  });
});

describe('IR version of models built in memory', () => {
  it.each([[11, 6n], [17, 8n], [19, 9n], [21, 10n], [23, 11n], [24, 12n], [25, 13n]])('opset %i → IR %s (as onnx.helper.find_min_ir_version_for)', (opset, ir) => {
    const m = new Model('onnx');
    const x = m.graph.addInput(f32([1]), ['x']);
    const n = m.graph.addNode({ dialect: 'onnx', op: 'Neg', version: String(opset) });
    n.addInput(x);
    m.graph.outputs.push(n.addOutput(f32([1]), ['y']));
    const mp = proto(m);
    expect(mp.ir_version).toBe(ir);
    expect(mp.opset_import!.map((o) => [o.domain, o.version])).toEqual([['', BigInt(opset)]]);
  });
});

describe('encodeOnnxChunks: the bytes of encodeOnnx, weights as views', () => {
  it('concatenates to exactly encodeOnnx\'s bytes, and big initializers are the tensors\' own views', () => {
    const m = new Model('onnx');
    const g = m.graph;
    const x = g.addInput(tensorType('f32', [1, 20000]), ['x']);
    const big = g.addInitializer(tensorFromFloat32(Array.from({ length: 20000 }, (_, i) => i / 7), [1, 20000]), ['big']);
    const small = g.addInitializer(tensorFromFloat32([0.5], [1]), ['small']);
    const big2 = g.addInitializer(tensorFromFloat32(Array.from({ length: 30000 }, (_, i) => -i), [1, 30000]), ['unused_big']);
    let h = x;
    for (const [op, w] of [['Add', big], ['Mul', small]] as const) {
      const n = g.addNode({ dialect: 'onnx', op, version: '17', name: op });
      n.addInput(h);
      n.addInput(w);
      h = n.addOutput(tensorType('f32', [1, 20000]), [`${op}_out`]);
    }
    g.outputs.push(h);
    const { chunks } = encodeOnnxChunks(m);
    expect(Buffer.concat(chunks)).toEqual(Buffer.from(encodeOnnx(m).bytes));
    expect(chunks.filter((c) => c === big.constant!.data || c === big2.constant!.data)).toHaveLength(2);
    expect(chunks.some((c) => c === small.constant!.data)).toBe(false);
  });

  it('past 2 GB the weights go to external data, the views themselves, as with encodeOnnx', () => {
    const { model: m, huge } = hugeIdentityModel();
    const { chunks, external } = encodeOnnxChunks(m, { defaultLocation: 'big.onnx.data' });
    expect(external).toEqual([{ path: 'big.onnx.data', chunks: [huge] }]);
    expect(Buffer.concat(chunks)).toEqual(Buffer.from(encodeOnnx(m, { defaultLocation: 'big.onnx.data' }).bytes));
  });
});
