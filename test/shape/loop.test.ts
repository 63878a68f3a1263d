import { describe, expect, it } from 'vitest';
import type { Shape } from '../../src/graph/shape.js';
import type { Value } from '../../src/graph/value.js';
import { A, B, errors, shapeOf } from './build.js';

/** An ONNX loop node with one body; `make` fills the body from its formal inputs. */
function looped(b: B, op: 'Loop' | 'Scan', version: string, inputs: (Value | null)[], formal: number, outputs: number,
  make: (g: B['g'], params: Value[]) => Value[], attrs: Record<string, ReturnType<typeof A.int>> = {}) {
  const node = b.g.addNode({ dialect: 'onnx', op, version, name: `${op}_1` });
  for (const v of inputs) node.addInput(v);
  for (const [k, a] of Object.entries(attrs)) node.attrs.set(k, a);
  for (let i = 0; i < outputs; i++) node.addOutput(null, [`o${i}`]);
  const body = b.g.addBody(node, 'body');
  const params = Array.from({ length: formal }, (_, i) => body.graph.addInput(null, [`p${i}`]));
  const offset = op === 'Scan' && Number(version) < 9 ? 1 : 0;
  params.forEach((param, i) => body.inputs.push({ param, from: i + offset }));
  const results = make(body.graph, params);
  results.forEach((r) => body.graph.outputs.push(r));
  const skip = op === 'Loop' ? 1 : 0;
  for (let j = 0; j < outputs; j++) body.outputs.push({ result: j + skip, to: j });
  return node;
}

describe('ONNX Scan and Loop (onnx ScanInferenceFunction / LoopInferenceFunction)', () => {
  it('Scan-9 test_scan9_sum: state [2] and scan input [3,2] → state [2], scan output [3,2]', () => {
    const b = new B('onnx', '11');
    const init = b.input('initial', 'f32', [2]);
    const x = b.input('x', 'f32', [3, 2]);
    const n = looped(b, 'Scan', '11', [init, x], 2, 2, (g, [sum, next]) => {
      const add = b.node('Add', [sum!, next!], {}, { g, name: 'add' });
      const id = b.node('Identity', [add.outputs[0]!], {}, { g, name: 'id' });
      return [add.outputs[0]!, id.outputs[0]!];
    }, { num_scan_inputs: A.int(1) });
    const r = b.infer();
    expect(errors(r)).toEqual([]);
    expect(n.outputs.map((o) => shapeOf(r, o))).toEqual<Shape[]>([[2], [3, 2]]);
  });

  it('Scan-8 test_scan_sum: batch axis first, sequence second; state keeps the batch axis', () => {
    const b = new B('onnx', '8');
    const init = b.input('initial', 'f32', [1, 2]);
    const x = b.input('x', 'f32', [1, 3, 2]);
    // sequence_lens (absent) comes first in Scan-8
    const node = looped(b, 'Scan', '8', [null, init, x], 2, 2, (g, [sum, next]) => {
      const add = b.node('Add', [sum!, next!], {}, { g, name: 'add' });
      const id = b.node('Identity', [add.outputs[0]!], {}, { g, name: 'id' });
      return [add.outputs[0]!, id.outputs[0]!];
    }, { num_scan_inputs: A.int(1) });
    const r = b.infer();
    expect(node.outputs.map((o) => shapeOf(r, o))).toEqual<Shape[]>([[1, 2], [1, 3, 2]]);
  });

  it('Loop: carried values take the body output type; scan outputs gain an unknown leading dim', () => {
    const b = new B('onnx', '13');
    const m = b.i64([5], []);
    const cond = b.bool(true);
    const v = b.input('v', 'f32', [4]);
    const node = looped(b, 'Loop', '13', [m, cond, v], 3, 2, (g, [, c, carried]) => {
      const relu = b.node('Relu', [carried!], {}, { g, name: 'relu' });
      const cc = b.node('Identity', [c!], {}, { g, name: 'cc' });
      return [cc.outputs[0]!, relu.outputs[0]!, relu.outputs[0]!];
    });
    const r = b.infer();
    expect(errors(r)).toEqual([]);
    // onnx clears the carried shape in the body (it may change across iterations)
    expect(node.outputs.map((o) => shapeOf(r, o))).toEqual<Shape[]>([null, null]);
    expect(r.types.get(node.bodies.get('body')!.graph.inputs[0]!)).toEqual({ kind: 'tensor', elem: 'i64', shape: [] });
  });
});
