import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import { A, allNodes, type Attr, type ElementTypeName, type Model } from '../../src/graph/index.js';
import { Builder } from '../convert/builder.js';

/**
 * ONNX GroupNormalization-21 ⇄ IR GroupNormalization-12 (mappings/nn/group-normalization.ts); the
 * numbers are judged by the engines on the backend cases (OVIR_ZOO_FILTER='group_norm').
 */
const ops = (m: Model): string[] => [...allNodes(m.graph)].map((n) => n.op);
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
  it('f32 is the IR op as it is, num_groups and epsilon carried', () => {
    const m = convertModel(model(21, 'f32', { num_groups: A.int(2), epsilon: A.float(0.01) }));
    expect(ops(m)).toEqual(['GroupNormalization']);
    const n = [...allNodes(m.graph)][0]!;
    expect([n.version, n.attrs.get('num_groups'), n.attrs.get('epsilon')]).toEqual(['opset12', A.raw('2'), A.raw('0.01')]);
  });

  it('f16 is normalized in f32 (stash_type 1) and converted back', () => {
    expect(ops(convertModel(model(21, 'f16', { num_groups: A.int(2) })))).toEqual(['Convert', 'Convert', 'Convert', 'GroupNormalization', 'Convert']);
  });

  it('IR → ONNX needs opset 21 (before it, scale and bias are per group); a missing num_groups or another stash_type is refused', () => {
    const ir = convertModel(model(21, 'f32', { num_groups: A.int(2) }));
    expect(ops(convertModel(ir, { opset: 21 }))).toEqual(['GroupNormalization']);
    expect(codes(() => convertModel(ir, { opset: 18 }))[0]).toMatch(/^CONVERT_/);
    expect(codes(() => convertModel(model(21, 'f32', {})))).toEqual(['CONVERT_UNSUPPORTED_ATTR main/n']);
    expect(codes(() => convertModel(model(21, 'f32', { num_groups: A.int(2), stash_type: A.int(10) })))).toEqual(['CONVERT_UNSUPPORTED_ATTR main/n']);
  });
});
