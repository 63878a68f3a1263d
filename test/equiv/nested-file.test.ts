import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { checkFile } from '../../src/equiv/check-file.js';
import { checkModels } from '../../src/equiv/check-models.js';
import { allNodes } from '../../src/graph/index.js';
import { loadModel, saveModel } from '../../src/io/load.js';
import * as ob from '../helpers/onnx-builder.js';

/**
 * A real .onnx file with nested If whose innermost branch reads main-graph values two levels up
 * (x, with a symbolic dim, and the initializer w): the decoder turns those reads into captures and
 * bindings at each level, the converter into port maps. The check follows the bindings down.
 */
function nestedOnnx(): string {
  const inner = ob.node('If', ['c'], ['inner_out'], {
    then_branch: ob.graph({ name: 'it', outputs: [ob.valueInfo('sum', 'f32')], nodes: [ob.node('Add', ['x', 'w'], ['sum'], {}, { name: 'Add_xw' })] }),
    else_branch: ob.graph({ name: 'ie', outputs: [ob.valueInfo('negx', 'f32')], nodes: [ob.node('Neg', ['x'], ['negx'], {}, { name: 'Neg_x' })] }),
  }, { name: 'If_inner' });
  const outer = ob.node('If', ['c'], ['y'], {
    then_branch: ob.graph({ name: 'ot', outputs: [ob.valueInfo('inner_out', 'f32')], nodes: [inner] }),
    else_branch: ob.graph({ name: 'oe', outputs: [ob.valueInfo('e0', 'f32')], nodes: [ob.node('Relu', ['x'], ['e0'], {}, { name: 'Relu_x' })] }),
  }, { name: 'If_outer' });
  const bytes = ob.encodeModelProto(ob.model({
    opset: 17,
    graph: ob.graph({
      name: 'g',
      inputs: [ob.valueInfo('c', 'boolean', []), ob.valueInfo('x', 'f32', ['N', 2])],
      outputs: [ob.valueInfo('y', 'f32', null)],
      initializers: [ob.floatTensor('w', [2], [1, 2])],
      nodes: [outer],
    }),
  }));
  const dir = mkdtempSync(join(tmpdir(), 'ovir-check-nested-'));
  const p = join(dir, 'nested.onnx');
  writeFileSync(p, bytes);
  return p;
}

describe('nested If through a real file', () => {
  const path = nestedOnnx();

  it('one file, and there and back: no contradiction; the innermost values are compared', () => {
    const r = checkFile(path, undefined, { roundtrip: true });
    expect(r.ok).toBe(true);
    expect(r.roundtrip!.ok).toBe(true);
    const sum = r.entries.find((e) => e.name === 'sum')!;
    expect(sum.pathA).toBe('main/If_outer/then/If_inner/then/Add_xw:0');
    // In memory, the converted Parameter still carries the symbol N.
    expect(sum).toMatchObject({ status: 'equal', a: { shape: ['N', 2] }, b: { shape: ['N', 2] } });
    expect(r.roundtrip!.entries.every((e) => e.status === 'equal')).toBe(true);
  });

  it('against the IR written to disk: IR has no symbols, so [N,2] meets [?,2] — compatible, A more precise', () => {
    const xml = path.replace(/\.onnx$/, '.xml');
    saveModel(convertModel(loadModel(path), { to: 'ov' }), xml);
    const r = checkFile(path, xml);
    expect(r.ok).toBe(true);
    expect(r.entries.find((e) => e.name === 'sum')).toMatchObject({
      status: 'compatible', moreSpecific: 'a', a: { shape: ['N', 2] }, b: { shape: [null, 2] },
    });
  });

  it('the inner then_body fed w where x belongs: contradictions two levels down, with their paths', () => {
    const a = loadModel(path);
    const b = convertModel(a, { to: 'ov' });
    const innerIf = [...allNodes(b.graph)].find((n) => n.name === 'If_inner')!;
    const body = innerIf.bodies.get('then_body')!;
    const xBinding = body.inputs.findIndex((bi) => bi.param.names.includes('x'));
    const wInput = body.inputs.find((bi) => bi.param.names.includes('w'))?.from
      ?? innerIf.inputs.findIndex((v) => v?.names.includes('w'));
    expect(xBinding).toBeGreaterThanOrEqual(0);
    expect(wInput).toBeGreaterThanOrEqual(0);
    body.inputs[xBinding] = { param: body.inputs[xBinding]!.param, from: wInput };
    const r = checkModels(a, b);
    expect(r.ok).toBe(false);
    const bad = r.entries.filter((e) => e.status === 'contradiction');
    expect(bad.map((e) => e.pathA)).toContain('main/If_outer/then/If_inner/then/x');
    expect(bad.find((e) => e.pathA === 'main/If_outer/then/If_inner/then/x')!.detail).toBe('rank 2 vs 1');
    expect(r.diagnostics.some((d) => d.code === 'EQUIV_BINDING_MISMATCH' && d.where === 'main/If_outer/then/If_inner')).toBe(true);
  });
});
