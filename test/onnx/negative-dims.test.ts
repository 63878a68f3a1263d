import { describe, expect, it } from 'vitest';
import { decodeOnnx } from '../../src/onnx/decode.js';
import * as ob from '../helpers/onnx-builder.js';

/**
 * A declared dim_value below 0 is read as an unknown dim with a warning (ONNX_DIM_NEGATIVE): it was
 * passed on as written, and the IR carried `<dim>-2</dim>`, which OpenVINO refuses ("must be
 * greater or equal to -1"; found by a hostile-input campaign). Some exporters write -1 for a
 * run-time dim, so it is no error.
 */
describe('negative declared dims', () => {
  it('x f32[-2, 3]: read as [?, 3], with a warning naming the value', () => {
    const m = decodeOnnx(ob.encodeModelProto(ob.model({
      opset: 17,
      graph: ob.graph({ name: 'main', inputs: [ob.valueInfo('x', 'f32', [-2, 3])], outputs: [ob.valueInfo('y', 'f32', [-1, 3])], nodes: [ob.node('Relu', ['x'], ['y'])] }),
    })));
    const x = m.graph.inputs[0]!.type;
    expect(x).toEqual({ kind: 'tensor', elem: 'f32', shape: [null, 3] });
    const warnings = (m.graph.meta['diagnostics'] as { code: string; message: string }[]).map((d) => `${d.code} ${d.message}`);
    expect(warnings).toContain("ONNX_DIM_NEGATIVE value 'x': dimension -2 is negative (some exporters write -1 for a run-time dim): read as unknown");
    expect(warnings).toContain("ONNX_DIM_NEGATIVE value 'y': dimension -1 is negative (some exporters write -1 for a run-time dim): read as unknown");
  });
});
