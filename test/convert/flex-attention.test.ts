import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { A, allNodes, tensorFromFloat32, type Attr, type ElementTypeName, type Graph, type Model, type Node, type Value } from '../../src/graph/index.js';
import { tensorType } from '../../src/graph/types.js';
import { diags, ops } from '../convert-extra/graph-probes.js';
import { Builder } from './builder.js';

/**
 * ONNX FlexAttention-1 (ai.onnx.preview) as IR ops (mappings/nn/flex-attention.ts), checked on
 * the graph it builds against the function body: Scores = (Q·√scale)(K·√scale)ᵀ in the softmax
 * precision, score_mod, Softmax, prob_mod, · V. Each modifier graph becomes the body of a Loop-5
 * of one iteration whose formal input reads the tensor modified. The numbers are judged by
 * OpenVINO on the backend cases (`OVIR_ZOO_FILTER='flexattention'` in
 * test/conformance/convert-zoo.test.ts).
 */

type In = { elem?: ElementTypeName; shape: number[] };
type Mod = (b: Builder, g: Graph, x: Value) => Value;
function model(inputs: In[], attrs: Record<string, Attr> = {}, mods: Partial<Record<'score_mod' | 'prob_mod', Mod>> = {}): Model {
  const b = new Builder('onnx', 26);
  b.model.onnx!.opsetImports.set('ai.onnx.preview', 1);
  const ins = inputs.map((s, i) => b.input('QKV'[i]!, s.elem ?? 'f32', s.shape));
  const n = b.node(b.graph, 'FlexAttention', ins, ['Y'], attrs, { name: 'n', version: '1' });
  n.domain = 'ai.onnx.preview';
  n.meta['onnxInputCount'] = 3;
  for (const [key, mod] of Object.entries(mods)) {
    const g = b.body(n, key);
    const x = g.addInput(tensorType('f32', [null, null, null, null]), [`${key}_in`]);
    g.outputs.push(mod(b, g, x));
    for (const bnd of n.bodies.get(key)!.inputs) bnd.param.meta['onnxCapture'] = true;
  }
  b.output(n.outputs[0]!);
  return b.model;
}
const qkv = (q: number[], k: number[], v: number[], elem?: ElementTypeName): In[] => [{ shape: q, elem }, { shape: k, elem }, { shape: v, elem }].map((s) => (elem ? s : { shape: s.shape }));
const loops = (m: Model): Node[] => [...allNodes(m.graph)].filter((n) => n.op === 'Loop');
const bodyOf = (n: Node): Graph => n.bodies.get('body')!.graph;
const outType = (m: Model): unknown => m.graph.outputs[0]!.type;

describe('FlexAttention: Softmax(score_mod((Q·√scale)(K·√scale)ᵀ)) then prob_mod, · V', () => {
  it('no modifiers, equal head counts: two scaled operands, one MatMul with K transposed, Softmax, MatMul; no Loop', () => {
    const m = convertModel(model(qkv([2, 4, 8, 16], [2, 4, 6, 16], [2, 4, 6, 32])));
    expect(ops(m)).toEqual(['Multiply', 'Multiply', 'MatMul', 'Softmax', 'MatMul']);
    expect(outType(m)).toEqual({ kind: 'tensor', elem: 'f32', shape: [2, 4, 8, 32] });
  });

  it('GQA (8 query heads, 2 KV heads): each K/V head repeated 4 times in place', () => {
    const m = convertModel(model(qkv([2, 8, 4, 16], [2, 2, 6, 16], [2, 2, 6, 16])));
    expect(ops(m).filter((o) => o === 'Broadcast')).toHaveLength(2);
    expect(outType(m)).toEqual({ kind: 'tensor', elem: 'f32', shape: [2, 8, 4, 16] });
  });

  it('f16 inputs: scores, softmax and P·V in f32 (the default softmax precision), Y back in f16; f64 stays f64', () => {
    const m = convertModel(model(qkv([1, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4], 'f16')));
    const softmax = [...allNodes(m.graph)].find((n) => n.op === 'Softmax')!;
    expect(softmax.inputs[0]!.producer!.attrs.get('destination_type')).toEqual(A.raw('f32'));
    expect(m.graph.outputs[0]!.producer!.attrs.get('destination_type')).toEqual(A.raw('f16'));
    expect(outType(m)).toEqual({ kind: 'tensor', elem: 'f16', shape: [1, 2, 3, 4] });
    expect(ops(convertModel(model(qkv([1, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4], 'f64'))))).not.toContain('Convert');
  });

  it('score_mod and prob_mod: each the body of a one-iteration Loop-5 reading the scores / probabilities; an outer value the body reads is an invariant input', () => {
    const m = convertModel(model(qkv([1, 2, 3, 4], [1, 2, 5, 4], [1, 2, 5, 4]), {}, {
      score_mod: (b, g, x) => b.op(g, 'Add', [x, b.input('bias', 'f32', [3, 5])], 'biased'),
      prob_mod: (b, g, x) => b.op(g, 'Mul', [x, b.init('half', tensorFromFloat32([0.5], []), g)], 'halved'),
    }));
    const [score, prob] = loops(m) as [Node, Node];
    expect(score.inputs[0]!.constant).toBeTruthy(); // trip count 1
    expect(score.inputs[2]!.producer!.op).toBe('MatMul');
    expect(score.inputs[3]!.names).toContain('bias');
    expect(prob.inputs[2]!.producer!.op).toBe('Softmax');
    expect(prob.outputs[0]!.uses[0]!.node.op).toBe('MatMul');
    expect([...allNodes(bodyOf(score))].map((n) => n.op)).toEqual(['Add']);
    expect([...allNodes(bodyOf(prob))].map((n) => n.op)).toEqual(['Multiply']);
    const body = score.bodies.get('body')!;
    expect(body.inputs.map((bnd) => bnd.from).sort()).toEqual([2, 3]);
    expect(body.outputs).toEqual([{ result: 1, to: 0 }, { result: 0, to: -1, extra: { purpose: 'execution_condition' } }]);
    expect(outType(m)).toEqual({ kind: 'tensor', elem: 'f32', shape: [1, 2, 3, 4] });
  });

  it('a bad softmax_precision, inputs of another rank and a modifier of two inputs are coded refusals naming the node', () => {
    const ok = qkv([1, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4]);
    expect(diags(() => convertModel(model(ok, { softmax_precision: A.int(7) })))).toEqual(expect.arrayContaining([
      expect.objectContaining({ code: 'CONVERT_UNSUPPORTED_ATTR', path: 'main/n', message: expect.stringContaining('softmax_precision') })]));
    expect(diags(() => convertModel(model(qkv([2, 3, 4], [2, 3, 4], [2, 3, 4]))))).toEqual(expect.arrayContaining([
      expect.objectContaining({ path: 'main/n', message: expect.stringContaining('Q must be rank 4') })]));
    const two: Mod = (b, g, x) => { g.addInput(tensorType('f32', null), ['extra']); return b.op(g, 'Neg', [x], 'neg'); };
    expect(diags(() => convertModel(model(ok, {}, { score_mod: two })))).toEqual(expect.arrayContaining([
      expect.objectContaining({ path: 'main/n', message: expect.stringContaining('score_mod must take exactly one input') })]));
  });
});
