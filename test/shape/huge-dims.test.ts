import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { decodeOnnx } from '../../src/onnx/decode.js';
import { diagnosticsOf } from '../helpers/diagnostics.js';
import * as ob from '../helpers/onnx-builder.js';

/**
 * An inferred dimension of 2^53 or more is a rounded double: 60 doublings of f32[1] by Concat were
 * written to the IR as 1152921504606847000 (2^60 is …976) and 3^34 as …568 (it is …569), and `check`
 * called the result equivalent (found by a hostile-input campaign). Declared dims that large were
 * already refused (ONNX_DIM_TOO_LARGE); inferred ones are now a SHAPE_RULE error at the first node.
 */
describe('inferred dimensions from 2^53 on', () => {
  it('60 doublings by Concat: an error at the node whose output reaches 2^53, nothing written', () => {
    const nodes = Array.from({ length: 60 }, (_, k) => ob.node('Concat', [k ? `t${k - 1}` : 'x', k ? `t${k - 1}` : 'x'], [k === 59 ? 'y' : `t${k}`], { axis: 0 }));
    const bytes = ob.encodeModelProto(ob.model({
      opset: 17,
      graph: ob.graph({ name: 'main', inputs: [ob.valueInfo('x', 'f32', [1])], outputs: [ob.valueInfo('y', 'f32', null)], nodes }),
    }));
    const got = diagnosticsOf(() => convertModel(decodeOnnx(bytes)));
    expect(got).toEqual(['SHAPE_RULE main/Concat#52: Concat: output 0 has a dimension of about 9.007e+15: from 2^53 on, a dimension cannot be represented exactly']);
  });
});
