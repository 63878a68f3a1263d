import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { checkModels } from '../../src/equiv/check-models.js';
import type { EquivReport } from '../../src/equiv/report.js';
import { backEdgeIndices } from '../../src/graph/body.js';
import type { Value } from '../../src/graph/value.js';
import { readIr } from '../../src/ir/read.js';
import { decodeOnnx } from '../../src/onnx/decode.js';
import { encodeOnnx } from '../../src/onnx/encode.js';
import { tfLoop, type TfLoopOptions } from './tf-loop-fixture.js';

const ir = (opts: TfLoopOptions = {}) => {
  const { xml, bin } = tfLoop(opts);
  return readIr(xml, bin);
};
/** What `ovir check --roundtrip` compares the IR with: IR → ONNX → IR. */
const roundTrip = (opts: TfLoopOptions = {}) => convertModel(convertModel(ir(opts)), { to: 'ov' });

const errors = (r: EquivReport) => r.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.code}: ${d.message}`);
const contradictions = (r: EquivReport) => r.entries.filter((e) => e.status === 'contradiction');
/** The B counterpart of A's body value `name` (main/while/body/<name>), and how it was paired. */
const pairOf = (r: EquivReport, name: string) => r.entries.filter((e) => e.pathA === `main/while/body/${name}`).map((e) => ({ pathB: e.pathB, via: e.via }));
/** The B path of the carried body Parameter fed back by the output of body node `node` (B's Loop). */
const carriedBy = (m: ReturnType<typeof ir>, node: string): string => {
  const body = m.graph.nodes.find((n) => n.op === 'Loop')!.bodies.get('body')!;
  const edge = backEdgeIndices(body).find((e) => e && body.graph.outputs[e.result]?.producer?.name === node)!;
  return bodyPath(body.graph.inputs[edge.param]!);
};
/** The B paths of the body Parameters bound to the Loop input made by node `node` (B's Loop). */
const allBoundTo = (m: ReturnType<typeof ir>, node: string): string[] => {
  const loop = m.graph.nodes.find((n) => n.op === 'Loop')!;
  const body = loop.bodies.get('body')!;
  return body.inputs.filter((b) => loop.inputs[b.from]?.producer?.name === node).map((b) => bodyPath(b.param));
};
/** The B path of the (first) body Parameter bound to the Loop input made by node `node`. */
const boundTo = (m: ReturnType<typeof ir>, node: string): string => allBoundTo(m, node)[0]!;
const bodyPath = (p: Value): string => `main/while/body/${p.metaView['layerName'] ?? p.names[0]}`;

describe('ovir check of a Loop-5 in TensorFlow-frontend form: body Parameters pair by what they are bound to, never by position', () => {
  it('against its ONNX Loop (which takes M, cond, the carried values, then the invariant one): no contradiction, in memory and through the ONNX file', () => {
    const onnx = convertModel(ir());
    for (const b of [onnx, decodeOnnx(encodeOnnx(onnx).bytes)]) {
      const r = checkModels(ir(), b);
      expect(errors(r)).toEqual([]);
      expect(contradictions(r)).toEqual([]);
      expect(r.ok).toBe(true);
    }
  });

  it('against its round trip IR → ONNX → IR (carried values first there, the invariant ones after them): equivalent; each Parameter pairs with one bound alike', () => {
    const b = roundTrip();
    const r = checkModels(ir(), b);
    expect(errors(r)).toEqual([]);
    expect(contradictions(r)).toEqual([]);
    expect(r.ok).toBe(true);
    expect(r.entries.filter((e) => e.via === 'position')).toEqual([]);
    // the invariant Parameters: each pairs with one B binds to the input fed from Relu 'inv'
    for (const name of ['inv_in', 'inv_again']) {
      const pairs = pairOf(r, name).map((p) => p.pathB);
      expect(pairs.length).toBeGreaterThan(0);
      for (const path of pairs) expect(allBoundTo(b, 'inv')).toContain(path);
    }
    // the carried ones: fed back by corresponding values (and fed from corresponding ones)
    expect(pairOf(r, 'acc_in').map((p) => p.pathB)).toEqual([carriedBy(b, 'acc_plus')]);
    expect(pairOf(r, 'prod_in').map((p) => p.pathB)).toEqual([carriedBy(b, 'prod_next')]);
    expect(pairOf(r, 'loop_counter').map((p) => p.pathB)).toEqual([carriedBy(b, 'next')]);
    expect(boundTo(b, 'acc0')).toBe(carriedBy(b, 'acc_plus'));
  });

  it('against the same Loop written otherwise (its Parameters declared and bound to ports in another order, and named as another writer would): equivalent; each pairs with its like', () => {
    const order = ['prod', 'invAgain', 'acc', 'counter', 'inv'] as const;
    const r = checkModels(ir(), ir({ order, renamed: true }));
    expect(errors(r)).toEqual([]);
    expect(contradictions(r)).toEqual([]);
    expect(r.ok).toBe(true);
    expect(r.entries.filter((e) => e.via === 'position')).toEqual([]);
    // B's Parameter k is p<k>, in `order`
    const b = (p: (typeof order)[number]) => `main/while/body/p${order.indexOf(p)}`;
    expect(pairOf(r, 'acc_in').map((p) => p.pathB)).toEqual([b('acc')]);
    expect(pairOf(r, 'prod_in').map((p) => p.pathB)).toEqual([b('prod')]);
    expect(pairOf(r, 'loop_counter').map((p) => p.pathB)).toEqual([b('counter')]);
    expect(pairOf(r, 'inv_in').map((p) => p.pathB)).toContain(b('inv'));
  });

  it('a Loop whose body reads another value is still reported: the invariant bound to z (f32[1]) in B is a contradiction, whatever the order', () => {
    for (const order of [undefined, ['inv', 'prod', 'counter', 'invAgain', 'acc'] as const]) {
      const r = checkModels(ir(), ir({ ...(order ? { order } : {}), renamed: true, feeds: { inv: 'z' } }));
      expect(r.ok).toBe(false);
      expect(contradictions(r).map((e) => `${e.pathA}: ${e.detail}`)).toContainEqual(expect.stringMatching(/^main\/while\/body\/inv_in: dim 0: 3 vs 1/));
    }
  });

  it('a Loop whose accumulator starts from another value is still reported: feeders swapped (acc from Relu, prod from Sigmoid) are EQUIV_PROVENANCE', () => {
    const r = checkModels(ir({ namedFeeders: true }), ir({ namedFeeders: true, order: ['inv', 'prod', 'counter', 'invAgain', 'acc'], renamed: true, feeds: { acc: 'prod0', prod: 'acc0' } }));
    expect(r.ok).toBe(false);
    expect(errors(r)).toContainEqual(expect.stringMatching(/^EQUIV_PROVENANCE: body parameter 'main\/while\/body\/acc_in' \(B: main\/while\/body\/p4\) is wired differently: main\/while\/body\/p4 ← main\/prod0:0 in B, ← main\/acc0:0 in A/));
  });

  it('a Loop whose carried values are fed back each other\'s next value is still reported: the Parameters pair by name, the back edges disagree (EQUIV_PROVENANCE; the types cannot tell, all are f32[3])', () => {
    const r = checkModels(ir(), ir({ order: ['acc', 'inv', 'counter', 'prod', 'invAgain'], crossed: true }));
    expect(r.ok).toBe(false);
    expect(errors(r)).toContainEqual(expect.stringMatching(
      /^EQUIV_PROVENANCE: loop-carried parameter 'main\/while\/body\/acc_in' \(B: main\/while\/body\/acc_in\) is wired differently: main\/while\/body\/acc_in ← main\/while\/body\/prod_next:0 in B, main\/while\/body\/acc_in ← main\/while\/body\/acc_plus:0 in A, across the back edge/));
  });

  it('two files whose Loop outputs only the data flow reaches (the graph outputs are their Abs): the Loop outputs\' results, then the Parameters they feed back, decide', () => {
    const order = ['prod', 'invAgain', 'acc', 'counter', 'inv'] as const;
    const r = checkModels(ir({ through: true }), ir({ through: true, order, renamed: true }), { names: 'hint' });
    expect(contradictions(r)).toEqual([]);
    const acc = r.entries.find((e) => e.pathA === 'main/while/body/acc_in')!;
    expect(acc).toMatchObject({ pathB: `main/while/body/p${order.indexOf('acc')}`, status: 'equal' });
    expect(acc.hint).toBeUndefined();
    // the back edges crossed: the results feeding the Loop's outputs are wired to others
    const crossed = checkModels(ir({ through: true }), ir({ through: true, crossed: true }), { names: 'hint' });
    expect(crossed.ok).toBe(false);
    expect(errors(crossed)).toContainEqual(expect.stringMatching(/^EQUIV_PROVENANCE: body result 'main\/while\/body\/acc_plus:0'/));
  });

  it('… and when the Parameters carry other names, they pair by what they become (fed back, and the output they end as): then their initial values disagree (EQUIV_PROVENANCE)', () => {
    const r = checkModels(ir({ namedFeeders: true }), ir({ namedFeeders: true, order: ['acc', 'inv', 'counter', 'prod', 'invAgain'], renamed: true, crossed: true }));
    expect(r.ok).toBe(false);
    expect(errors(r)).toContainEqual(expect.stringMatching(/^EQUIV_PROVENANCE: body parameter 'main\/while\/body\/acc_in' \(B: main\/while\/body\/p3\) is wired differently: main\/while\/body\/p3 ← main\/prod0:0 in B, ← main\/acc0:0 in A/));
  });
});
