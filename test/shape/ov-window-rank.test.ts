import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { decodeOnnx } from '../../src/onnx/decode.js';
import { diagnosticsOf } from '../helpers/diagnostics.js';
import * as ob from '../helpers/onnx-builder.js';

/**
 * MaxPool / AvgPool and Convolution on the IR side need data of rank 2 + the kernel's dims: data of
 * another rank made the pool rule return a shape with holes, and the check of declared against
 * inferred shapes stopped with "internal error: Cannot read properties of undefined" (a graph input
 * f32[1,1,4,4] shadowed by an initializer f32[3], then MaxPool 3×3: found by a hostile-input
 * campaign). Now a SHAPE_RULE error naming the ranks.
 */
const errors = (bytes: Uint8Array): string[] => diagnosticsOf(() => convertModel(decodeOnnx(bytes)));

describe('IR window ops on data of the wrong rank', () => {
  // the initializer's contradiction of the input's declaration is the root cause (engine-refusals.test.ts)
  const shadowed = (declared: number[]) => ob.encodeModelProto(ob.model({
    opset: 17,
    graph: ob.graph({
      name: 'main',
      inputs: [ob.valueInfo('x', 'f32', declared)],
      outputs: [ob.valueInfo('y', 'f32', null)],
      initializers: [ob.floatTensor('x', [3], [1, 2, 3])],
      nodes: [ob.node('MaxPool', ['x'], ['y'], { kernel_shape: [3, 3], pads: [2, 2, 2, 2] })],
    }),
  }));

  it('MaxPool 3×3 over an initializer f32[3] that shadows the input f32[1,1,4,4]: the contradiction is the error', () => {
    expect(errors(shadowed([1, 1, 4, 4]))).toEqual([
      "SHAPE_DECLARED_CONTRADICTS main: value 'x' is declared f32[1,1,4,4] but inferred f32[3] (its initializer): rank 4 [1,1,4,4] vs 1 [3]",
    ]);
  });

  it('MaxPool 3×3 over an input f32[3] (its initializer agreeing): one SHAPE_RULE error naming the ranks', () => {
    expect(errors(shadowed([3]))).toEqual(['SHAPE_RULE main/MaxPool#0: MaxPool: input of rank 1: rank ≥ 3 is needed (batch, channels, then one dim per spatial dim)']);
  });
});
