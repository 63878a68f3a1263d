import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import { A, allNodes, readIntegers, type Attr, type ElementTypeName, type Model } from '../../src/graph/index.js';
import { Builder } from '../convert/builder.js';
import { ops } from './graph-probes.js';

/**
 * ONNX GroupNormalization-21 → IR MVN-6 form, IR GroupNormalization-12 → ONNX (mappings/nn/group-normalization.ts); the
 * numbers are judged by the engines on the backend cases (OVIR_ZOO_FILTER='group_norm').
 */
function model(opset: number, elem: ElementTypeName, attrs: Record<string, Attr>): Model {
  const b = new Builder('onnx', opset);
  const n = b.node(b.graph, 'GroupNormalization', [b.input('x', elem, [2, 4, 3]), b.input('s', elem, [4]), b.input('b', elem, [4])], ['y'], attrs, { name: 'n' });
  b.output(n.outputs[0]!);
  return b.model;
}
const codes = (f: () => unknown): string[] => {
  try { f(); } catch (e) { if (e instanceof OvirError) return e.diagnostics.map((d) => `${d.code} ${d.where}`); throw e; }
  return [];
};

describe('GroupNormalization-21: per-channel scale and bias, statistics in f32', () => {
  it('IR: MVN over [N, num_groups, -1] (epsilon inside the square root), reshaped back, · scale + bias per channel', () => {
    const m = convertModel(model(21, 'f32', { num_groups: A.int(2), epsilon: A.float(0.01) }));
    expect(ops(m)).toEqual(['Reshape', 'MVN', 'ShapeOf', 'Reshape', 'Unsqueeze', 'Multiply', 'Unsqueeze', 'Add']);
    const [grouped, mvn] = [...allNodes(m.graph)];
    expect(readIntegers(grouped!.inputs[1]!.constant!)).toEqual([0n, 2n, -1n]);
    expect([mvn!.version, mvn!.attrs.get('eps'), mvn!.attrs.get('eps_mode'), readIntegers(mvn!.inputs[1]!.constant!)]).toEqual(['opset6', A.raw('0.01'), A.raw('inside_sqrt'), [2n]]);
    expect(m.graph.outputs[0]!.type).toMatchObject({ shape: [2, 4, 3] });
  });

  it('f16: the statistics in f32 (stash_type 1), scale and bias in f16, as in the onnx function body', () => {
    expect(ops(convertModel(model(21, 'f16', { num_groups: A.int(2) })))).toEqual(['Convert', 'Reshape', 'MVN', 'ShapeOf', 'Reshape', 'Convert', 'Unsqueeze', 'Multiply', 'Unsqueeze', 'Add']);
  });

  it('IR GroupNormalization-12 (as ovc writes it) is read back as ONNX GroupNormalization-21, not before opset 21', () => {
    const b = new Builder('ov');
    const n = b.node(b.graph, 'GroupNormalization', [b.input('x', 'f32', [2, 4, 3]), b.input('s', 'f32', [4]), b.input('b', 'f32', [4])], ['y'],
      { num_groups: A.raw('2'), epsilon: A.raw('0.001') }, { name: 'g', version: 'opset12' });
    b.output(n.outputs[0]!);
    const back = convertModel(b.model, { opset: 21 });
    const g = [...allNodes(back.graph)];
    expect(g.map((x) => x.op)).toEqual(['GroupNormalization']);
    expect([g[0]!.attrs.get('num_groups'), g[0]!.attrs.get('epsilon')]).toEqual([A.int(2), A.float(0.001)]);
    expect(codes(() => convertModel(b.model, { opset: 18 }))[0]).toMatch(/^CONVERT_.* main\/g$/);
  });

  it('a missing num_groups or another stash_type is refused naming the node', () => {
    // num_groups is required by the schema (src/onnx/validate.ts attributeProblems)
    expect(codes(() => convertModel(model(21, 'f32', {})))).toEqual(['CONVERT_OP main/n']);
    expect(codes(() => convertModel(model(21, 'f32', { num_groups: A.int(2), stash_type: A.int(10) })))).toEqual(['CONVERT_UNSUPPORTED_ATTR main/n']);
  });
});
