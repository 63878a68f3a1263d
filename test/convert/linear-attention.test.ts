import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { A, allNodes, readIntegers, type Attr, type ElementTypeName, type Model, type Node } from '../../src/graph/index.js';
import { diags, ops } from '../convert-extra/graph-probes.js';
import { Builder } from './builder.js';

/**
 * ONNX LinearAttention-27 as IR ops (mappings/nn/linear-attention.ts), checked on the graph it
 * builds against onnx's reference: the recurrence runs token by token in a Loop-5 over T, in f32;
 * gated rules decay the state by exp(g_t), delta rules correct v_t by β_t·(v_t − Sᵀk_t) first;
 * S ← S + k_t ⊗ v_t, o_t = scale · q_tᵀS. The numbers are judged by OpenVINO on the backend cases
 * (`OVIR_ZOO_FILTER='linear_attention'` in test/conformance/convert-zoo.test.ts).
 */

const NAMES = ['query', 'key', 'value', 'past_state', 'decay', 'beta'];
type In = { elem?: ElementTypeName; shape: number[] } | null;
function model(inputs: In[], attrs: Record<string, Attr>): Model {
  const b = new Builder('onnx', 27);
  const ins = inputs.map((s, i) => (s === null ? null : b.input(NAMES[i]!, s.elem ?? 'f32', s.shape)));
  const n = b.node(b.graph, 'LinearAttention', ins, ['output', 'present_state'], attrs, { name: 'n' });
  n.outputs.forEach((o) => b.output(o));
  return b.model;
}
const heads = (q: number, kv: number): Record<string, Attr> => ({ q_num_heads: A.int(q), kv_num_heads: A.int(kv) });
const loopOf = (m: Model): Node => m.graph.nodes.find((n) => n.op === 'Loop')!;
const bodyOps = (m: Model): string[] => [...allNodes(loopOf(m).bodies.get('body')!.graph)].map((n) => n.op);
const outType = (m: Model, i: number): unknown => m.graph.outputs[i]!.type;
const qkv = (t: number, q = 32, kv = 32): In[] => [{ shape: [2, t, q] }, { shape: [2, t, kv] }, { shape: [2, t, kv] }];

describe('LinearAttention: the recurrence in a Loop over T', () => {
  it('linear: S ← S + k_t ⊗ v_t, o_t = scale · q_tᵀS; zero initial state; the loop runs T times and concatenates o_t along T', () => {
    const m = convertModel(model(qkv(5), { ...heads(4, 4), update_rule: A.string('linear') }));
    const loop = loopOf(m);
    expect(ops(m).filter((o) => o === 'Loop')).toHaveLength(1);
    expect(loop.inputs[2]!.producer!.op).toBe('Broadcast'); // S₀ = zeros [B, H_kv, d_k, d_v]
    expect(bodyOps(m)).not.toContain('Exp');
    expect(bodyOps(m)).not.toContain('Subtract');
    expect(bodyOps(m)).toEqual(expect.arrayContaining(['Gather', 'Add', 'MatMul', 'Multiply']));
    const concat = loop.bodies.get('body')!.outputs.find((o) => o.to === 0)!;
    expect(concat.extra).toMatchObject({ axis: '2' });
    // scale 0 (absent): 1/√d_k with d_k = 32 / 4
    expect(outType(m, 0)).toEqual({ kind: 'tensor', elem: 'f32', shape: [2, 5, 32] });
    expect(outType(m, 1)).toEqual({ kind: 'tensor', elem: 'f32', shape: [2, 4, 8, 8] });
  });

  it('gated_delta (the default): exp(decay) taken before the loop, the delta correction reads the decayed state', () => {
    const m = convertModel(model([...qkv(4), null, { shape: [2, 4, 32] }, { shape: [2, 4, 4] }], heads(4, 4)));
    expect(ops(m)).toContain('Exp');
    const body = bodyOps(m);
    expect(body).toEqual(expect.arrayContaining(['Subtract', 'Squeeze', 'MatMul']));
    // the first body Multiply decays S: S · Unsqueeze(exp(g_t), -1)
    const g = loopOf(m).bodies.get('body')!.graph;
    const first = g.nodes.find((n) => n.op === 'Multiply')!;
    expect(first.inputs[0]).toBe(g.inputs[1]);
  });

  it('GQA (8 query heads over 2 KV heads): q_t read as [B, 2, 4, d_k] against its KV head state, back to [B, 8, d_v]', () => {
    const m = convertModel(model([...qkv(3, 64, 16), null, { shape: [2, 3, 2] }, { shape: [2, 3, 1] }], heads(8, 2)));
    const g = loopOf(m).bodies.get('body')!.graph;
    const patterns = g.nodes.filter((n) => n.op === 'Reshape').map((n) => readIntegers(n.inputs[1]!.constant!));
    expect(patterns).toEqual([[0n, 2n, 4n, -1n], [0n, 8n, -1n]]);
    expect(outType(m, 0)).toEqual({ kind: 'tensor', elem: 'f32', shape: [2, 3, 64] });
    expect(outType(m, 1)).toEqual({ kind: 'tensor', elem: 'f32', shape: [2, 2, 8, 8] });
  });

  it('f16 with an f32 past_state: computed in f32, output back in f16, present_state in past_state\'s f32', () => {
    const f16 = (...shape: number[]): In => ({ elem: 'f16', shape });
    const m = convertModel(model([f16(2, 1, 32), f16(2, 1, 32), f16(2, 1, 32), { shape: [2, 4, 8, 8] }], { ...heads(4, 4), update_rule: A.string('linear') }));
    expect(m.graph.outputs[0]!.producer!.op).toBe('Convert');
    expect(outType(m, 0)).toEqual({ kind: 'tensor', elem: 'f16', shape: [2, 1, 32] });
    expect(outType(m, 1)).toEqual({ kind: 'tensor', elem: 'f32', shape: [2, 4, 8, 8] });
    expect(loopOf(m).inputs[2]!.names).toContain('past_state');
  });

  it('bad attributes and inputs the rule forbids are coded refusals naming node and attribute', () => {
    const refuse = (inputs: In[], attrs: Record<string, Attr>) => diags(() => convertModel(model(inputs, attrs)));
    expect(refuse(qkv(2), { ...heads(4, 4), update_rule: A.string('mamba') })).toEqual(expect.arrayContaining([
      expect.objectContaining({ code: 'CONVERT_UNSUPPORTED_ATTR', path: 'main/n', message: expect.stringContaining('update_rule') })]));
    // a required attribute absent: the LinearAttention-27 schema says so first
    expect(refuse(qkv(2), { kv_num_heads: A.int(4), update_rule: A.string('linear') })).toEqual(expect.arrayContaining([
      expect.objectContaining({ code: 'CONVERT_OP', message: expect.stringContaining("attribute 'q_num_heads' is required") })]));
    expect(refuse(qkv(2), { ...heads(6, 4), update_rule: A.string('linear') })).toEqual(expect.arrayContaining([
      expect.objectContaining({ code: 'CONVERT_UNSUPPORTED_ATTR', message: expect.stringContaining('multiple of kv_num_heads') })]));
    // gated without decay; linear with a beta it forbids
    expect(refuse(qkv(2), { ...heads(4, 4), update_rule: A.string('gated') })).toEqual(expect.arrayContaining([
      expect.objectContaining({ path: 'main/n', message: expect.stringContaining('needs decay') })]));
    expect(refuse([...qkv(2), null, null, { shape: [2, 2, 4] }], { ...heads(4, 4), update_rule: A.string('linear') })).toEqual(expect.arrayContaining([
      expect.objectContaining({ path: 'main/n', message: expect.stringContaining('takes no beta') })]));
    // decay per head or per key dim, beta per head or shared: other widths are named
    expect(refuse([...qkv(2), null, { shape: [2, 2, 16] }, { shape: [2, 2, 4] }], heads(4, 4))).toEqual(expect.arrayContaining([
      expect.objectContaining({ path: 'main/n', message: expect.stringContaining("decay's last dim 16") })]));
    expect(refuse([...qkv(2), null, { shape: [2, 2, 4] }, { shape: [2, 2, 2] }], heads(4, 4))).toEqual(expect.arrayContaining([
      expect.objectContaining({ path: 'main/n', message: expect.stringContaining("beta's last dim 2") })]));
  });
});
