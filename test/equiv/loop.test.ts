import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { checkModels } from '../../src/equiv/check-models.js';
import type { Model } from '../../src/graph/index.js';
import { tensorFromBool } from '../../src/graph/tensor.js';
import { decodeOnnx } from '../../src/onnx/decode.js';
import * as ob from '../helpers/onnx-builder.js';
import { accumulate, ifInsideLoop } from '../convert/loop-fixtures.js';

/**
 * y_final = Loop(M, cond, y0) with y ← y + x, whose body declares iteration_num as i64[1] (the spec's
 * is a scalar; onnxruntime runs both; paddle2onnx writes [1]); `read`: y ← (y + x) · iteration_num.
 */
function counterOfShape1(read: boolean): Uint8Array {
  const f32 = (name: string) => ob.valueInfo(name, 'f32', [2]);
  const body = ob.graph({
    name: 'body',
    inputs: [ob.valueInfo('i', 'i64', [1]), ob.valueInfo('c', 'boolean', []), f32('y')],
    outputs: [ob.valueInfo('c_out', 'boolean', []), f32('y_next')],
    nodes: [
      ob.node('Identity', ['c'], ['c_out']),
      ...(read
        ? [ob.node('Add', ['y', 'x'], ['s']), ob.node('Cast', ['i'], ['i_f'], { to: 1 }), ob.node('Mul', ['s', 'i_f'], ['y_next'])]
        : [ob.node('Add', ['y', 'x'], ['y_next'])]),
    ],
  });
  return ob.encodeModelProto(ob.model({
    opset: 17,
    irVersion: 8,
    graph: ob.graph({
      name: 'loop_counter_1d',
      inputs: [ob.valueInfo('M', 'i64', []), ob.valueInfo('cond', 'boolean', []), f32('y0'), f32('x')],
      outputs: [f32('y_final')],
      nodes: [ob.node('Loop', ['M', 'cond', 'y0'], ['y_final'], { body: ob.attr.graph(body) }, { name: 'loop' })],
    }),
  }));
}

/** The ONNX form (A) of a Loop model against its IR form (B); where B is wired wrong, the check says where. */
const onnxOf = (bytes: Uint8Array): Model => decodeOnnx(bytes);
const loopOf = (m: Model) => m.graph.nodes.find((n) => n.op === 'Loop')!;

describe('ovir check pairs values inside Loop bodies through the port map', () => {
  it('ONNX Loop and its Loop-5: iteration_num ↔ current_iteration, carried and invariant Parameters by binding; no warning', () => {
    for (const bytes of [accumulate({ condOut: 'computed' }), ifInsideLoop()]) {
      const r = checkModels(onnxOf(bytes), convertModel(onnxOf(bytes)));
      expect(r.ok).toBe(true);
      expect(r.diagnostics.filter((d) => d.code.startsWith('EQUIV_'))).toEqual([]);
      const body = r.entries.filter((e) => e.scope === 'main/loop/body');
      expect(body.find((e) => e.pathA === 'main/loop/body/i')).toMatchObject({ status: 'equal', pathB: 'main/loop/body/i' });
      expect(body.find((e) => e.pathA === 'main/loop/body/x')).toMatchObject({ status: 'equal', pathB: 'main/loop/body/x' });
    }
  });

  it('an iteration_num declared i64[1]: ONNX → IR → ONNX writes the spec\'s scalar (and a Reshape to [1] where the body reads it); the two forms are equivalent, read or not', () => {
    for (const read of [true, false]) {
      const bytes = counterOfShape1(read);
      const back = convertModel(convertModel(onnxOf(bytes)), { to: 'onnx' });
      expect(loopOf(back).bodies.get('body')!.graph.inputs[0]!.type).toMatchObject({ elem: 'i64', shape: [] });
      const r = checkModels(onnxOf(bytes), back);
      expect(r.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.code}: ${d.message}`)).toEqual([]);
      expect(r.ok).toBe(true);
    }
  });

  it('a body Parameter fed from the wrong Loop input is EQUIV_BINDING_MISMATCH, naming the Loop and both feeders', () => {
    const bytes = accumulate({ condOut: 'computed' });
    const ir = convertModel(onnxOf(bytes));
    const body = loopOf(ir).bodies.get('body')!;
    const y = body.inputs.findIndex((b) => b.from === 2);
    body.inputs[y] = { param: body.inputs[y]!.param, from: 3 };
    const r = checkModels(onnxOf(bytes), ir);
    expect(r.diagnostics.map((d) => `${d.code}: ${d.message}`)).toContainEqual(
      expect.stringMatching(/^EQUIV_BINDING_MISMATCH: body body: parameter 'y' is fed from node input 3 \('x'\) in B, but its counterpart in A from input 2 \('y0'\)/));
  });

  it('the condition results pair by that role (they feed no node output), so what they are computed from decides, even between two files: Less(i, two)', () => {
    const bytes = accumulate({ condOut: 'computed' });
    const r = checkModels(onnxOf(bytes), convertModel(onnxOf(bytes)), { names: 'hint' });
    expect(r.ok).toBe(true);
    expect(r.entries.find((e) => e.pathA === 'main/loop/body/Less#3:0')).toMatchObject({ via: 'result', status: 'equal' });
    const two = r.entries.find((e) => e.pathA === 'main/loop/body/two')!;
    expect(two.status).toBe('equal');
    expect(two.hint).toBeUndefined();
  });

  it('a condition passed through, which an IR writes as a constant true of one element ([1], as ovc does): nothing to pair there (no contradiction of [] against [1])', () => {
    const bytes = accumulate({ condOut: 'through' });
    const ir = convertModel(onnxOf(bytes));
    const body = loopOf(ir).bodies.get('body')!;
    const k = body.outputs.find((o) => o.to === -1)!.result;
    body.graph.outputs[k] = body.graph.addInitializer(tensorFromBool([true], [1]), []);
    const r = checkModels(onnxOf(bytes), ir);
    expect(r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message)).toEqual([]);
    expect(r.entries.filter((e) => e.status === 'contradiction')).toEqual([]);
    expect(r.ok).toBe(true);
  });

  it('a Loop whose cond is left empty or passed through unchanged: its Loop-5 cond Parameter and condition Result are scalars, as ONNX\'s cond and cond_out are; equivalent', () => {
    for (const opts of [{ cond: 'empty', condOut: 'through' }, { cond: 'empty', condOut: 'computed' }, { cond: 'input', condOut: 'through' }] as const) {
      const bytes = accumulate(opts);
      const ir = convertModel(onnxOf(bytes));
      const body = loopOf(ir).bodies.get('body')!;
      const condParam = body.inputs.find((b) => b.from === 1)!.param;
      const condResult = body.graph.outputs[body.outputs.find((o) => o.to === -1)!.result]!;
      expect(condParam.type).toMatchObject({ kind: 'tensor', elem: 'boolean', shape: [] });
      expect(condResult.type).toMatchObject({ kind: 'tensor', elem: 'boolean', shape: [] });
      const r = checkModels(onnxOf(bytes), ir);
      expect(r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message)).toEqual([]);
      expect(r.ok).toBe(true);
    }
  });
});
