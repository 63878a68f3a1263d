import { describe, expect, it } from 'vitest';
import type { Attr } from '../../src/graph/attr.js';
import type { ElementTypeName } from '../../src/graph/element-type.js';
import type { Shape } from '../../src/graph/shape.js';
import { A, B, elemOf, errors, iv, shapeOf } from './build.js';

/**
 * OpenVINO's recurrent cells (rnn::cell_base_shape_infer, src/shape/rules/ov/cell.ts): each output
 * is [batch, hidden]; batch merges X[0] with the states' [0]; hidden merges H[1], C[1] and R[1]
 * (not the hidden_size attribute), or else W[0] / gates and R[0] / gates; W[0], R[0] and B[0]
 * must fit gates · hidden (GRUCell linear_before_reset: B fits 4 · hidden; LSTMCell-1's P 3 · hidden).
 */
const t = (shape: Shape, elem: ElementTypeName = 'f32') => ({ shape, elem });
type In = ReturnType<typeof t> | null;

function run(op: string, version: string, inputs: In[], attrs: Record<string, Attr> = {}) {
  const b = new B('ov', version);
  const vs = inputs.map((x, i) => (x ? b.input(`in${i}`, x.elem, x.shape) : null));
  const n = b.node(op, vs, { hidden_size: A.raw('5'), ...attrs }, { outputs: op === 'LSTMCell' ? 2 : 1 });
  const r = b.infer();
  return { r, shapes: n.outputs.map((o) => shapeOf(r, o)), elems: n.outputs.map((o) => elemOf(r, o)), errs: errors(r).map((d) => d.message) };
}

describe('OpenVINO recurrent cells: [batch, hidden] from the inputs', () => {
  it.each<[string, string, string, In[], Record<string, Attr>, Shape]>([
    ['LSTMCell-4: batch from H when X has it dynamic, hidden from H', 'LSTMCell', 'opset4',
      [t([null, 3]), t([2, 5]), t([null, 5]), t([20, 3]), t([20, 5]), t([20])], {}, [2, 5]],
    ['LSTMCell-1 with P [3·hidden]', 'LSTMCell', 'opset1',
      [t([2, 3]), t([2, 5]), t([2, 5]), t([20, 3]), t([20, 5]), t([20]), t([15])], {}, [2, 5]],
    ['GRUCell-3: hidden from R[1] when the state has none', 'GRUCell', 'opset3',
      [t([iv(1, 8), 3]), t([null, null]), t([15, 3]), t([15, 5]), t([15])], {}, [iv(1, 8), 5]],
    ['GRUCell-3 linear_before_reset: hidden from W[0] / 3 when nothing else says, B has 4 blocks', 'GRUCell', 'opset3',
      [t([2, 3]), t(null), t([15, 3]), t(null), t([20])], { linear_before_reset: A.raw('true') }, [2, 5]],
    ['RNNCell-0: the hidden_size attribute is not read (H says 4)', 'RNNCell', 'opset1',
      [t([2, 3]), t([2, 4]), t([4, 3]), t([4, 4]), t([4])], {}, [2, 4]],
  ])('%s', (_, op, version, inputs, attrs, shape) => {
    const { shapes, elems, errs } = run(op, version, inputs, attrs);
    expect(errs).toEqual([]);
    expect(shapes).toEqual(shapes.map(() => shape));
    expect(elems.every((e) => e === 'f32')).toBe(true);
  });

  it.each<[string, string, In[], Record<string, Attr>, RegExp]>([
    ['batch 2 against 3', 'RNNCell', [t([2, 3]), t([3, 4]), t([4, 3]), t([4, 4]), t([4])], {}, /batch_size/],
    ['hidden 5 (H) against 4 (R)', 'GRUCell', [t([2, 3]), t([2, 5]), t([15, 3]), t([15, 4]), t([15])], {}, /hidden_size/],
    ['B of 3 blocks with linear_before_reset', 'GRUCell', [t([2, 3]), t([2, 5]), t([15, 3]), t([15, 5]), t([15])], { linear_before_reset: A.raw('true') }, /first dimension of B must be compatible with 20/],
    ['W of 3 blocks for an LSTMCell', 'LSTMCell', [t([2, 3]), t([2, 5]), t([2, 5]), t([15, 3]), t([20, 5]), t([20])], {}, /first dimension of W must be compatible with 20/],
    ['X of rank 3', 'RNNCell', [t([1, 2, 3]), t([2, 4]), t([4, 3]), t([4, 4]), t([4])], {}, /input 0 has rank 3, expected 2/],
    ['element types f32 and f16', 'RNNCell', [t([2, 3]), t([2, 4], 'f16'), t([4, 3]), t([4, 4]), t([4])], {}, /different element types/],
  ])('reports %s', (_, op, inputs, attrs, message) => {
    const { errs } = run(op, op === 'GRUCell' ? 'opset3' : op === 'LSTMCell' ? 'opset4' : 'opset1', inputs, attrs);
    expect(errs.some((m) => message.test(m))).toBe(true);
  });
});
