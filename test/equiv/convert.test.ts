import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { checkModels } from '../../src/equiv/check-models.js';
import { defaultOnnxInfo, type Model } from '../../src/graph/index.js';
import { ifModel, type IfSpec } from './fixtures.js';

/** Our converter's output, compared with its source, both inferred (no files involved). */
const spec: IfSpec = { dialect: 'onnx', inputs: { x: [2, 4], z: [3, 4] }, then: ['x'], else: ['z'] };

function onnxSource(over: Partial<IfSpec> = {}): Model {
  const { model } = ifModel({ ...spec, ...over });
  model.onnx = defaultOnnxInfo(13);
  return model;
}

const statuses = (r: ReturnType<typeof checkModels>) => Object.fromEntries(r.entries.map((e) => [e.pathA, e.status]));

describe('ONNX → IR by convertModel, compared with the source', () => {
  const a = onnxSource();
  const b = convertModel(a, { to: 'ov' });
  const r = checkModels(a, b);

  it('pairs every tensor and finds no contradiction', () => {
    expect(r.ok).toBe(true);
    expect(r.unmatched).toEqual([]);
    expect(statuses(r)).toEqual({
      'main/cond': 'equal', 'main/x': 'equal', 'main/z': 'equal',
      'main/If_0/then/x': 'equal', 'main/If_0/then/Neg_x:0': 'equal',
      'main/If_0/else/z': 'equal', 'main/If_0/else/Neg_z:0': 'equal',
      // ONNX's If merges [2,4] and [3,4] to [?,4]; OpenVINO's to [2..3,4]: B is more precise.
      'main/If_0:0': 'compatible',
    });
    expect(r.entries.find((e) => e.pathA === 'main/If_0:0')).toMatchObject({ moreSpecific: 'b', b: { shape: ['2..3', 4] } });
  });

  it('catches the converted IR\'s port map edited to feed then_body from the wrong input', () => {
    const edited = convertModel(a, { to: 'ov' });
    const ifNode = edited.graph.nodes.find((n) => n.op === 'If')!;
    const body = ifNode.bodies.get('then_body')!;
    const wrong = ifNode.inputs.findIndex((v) => v?.names.includes('z'));
    body.inputs[0] = { param: body.inputs[0]!.param, from: wrong };
    const r2 = checkModels(a, edited);
    expect(r2.ok).toBe(false);
    expect(r2.entries.filter((e) => e.status === 'contradiction').map((e) => [e.pathA, e.pathB, e.detail])).toEqual([
      ['main/If_0/then/x', 'main/If_0/then/x', 'dim 0: 2 vs 3'],
      ['main/If_0/then/Neg_x:0', 'main/If_0/then/Neg_x:0', 'dim 0: 2 vs 3'],
    ]);
  });
});

describe('round trip ONNX → IR → ONNX', () => {
  it('gives back the same types everywhere', () => {
    const a = onnxSource();
    const back = convertModel(convertModel(a, { to: 'ov' }), { to: 'onnx' });
    const r = checkModels(a, back);
    expect(r.ok).toBe(true);
    expect(r.entries.every((e) => e.status === 'equal')).toBe(true);
    expect(r.entries).toHaveLength(8);
  });
});

describe('IR → ONNX by convertModel, compared with the source', () => {
  it('has no contradiction', () => {
    const { model } = ifModel({ ...spec, dialect: 'ov' });
    model.ir = { name: 'm', version: 11, rtInfo: null };
    const r = checkModels(model, convertModel(model, { to: 'onnx' }));
    expect(r.ok).toBe(true);
    expect(r.entries.filter((e) => e.status === 'contradiction')).toEqual([]);
    expect(r.entries.length).toBeGreaterThanOrEqual(8);
  });
});
