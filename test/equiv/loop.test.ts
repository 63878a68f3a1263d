import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { checkModels } from '../../src/equiv/check-models.js';
import type { Model } from '../../src/graph/index.js';
import { decodeOnnx } from '../../src/onnx/decode.js';
import { accumulate, ifInsideLoop } from '../convert/loop-fixtures.js';

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
