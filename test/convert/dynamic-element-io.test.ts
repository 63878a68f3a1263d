import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { readIr } from '../../src/ir/read.js';
import { diagnosticsOf, netXml, param, result } from '../ir/build.js';

/**
 * IR → ONNX: a Parameter of element_type "dynamic" (found by a hostile-input campaign) was written
 * as an ONNX input of elem_type 0, which onnx.checker and onnxruntime 1.31 refuse ("Invalid
 * tensor data type 0"); OpenVINO 2026.4 reads such an IR but cannot run it. Refused, nothing written.
 */
describe('a graph input of unknown element type', () => {
  it('is CONVERT_UNSUPPORTED_TYPE naming the input', () => {
    const xml = netXml([
      param(0, 'x', 'dynamic'),
      { id: 1, name: 'r', type: 'Relu', inputs: [{ precision: 'UNSPECIFIED', dims: [2, 4] }], outputs: [{ precision: 'UNSPECIFIED', names: 'y', dims: [2, 4] }] },
      result(2, 'y_res'),
    ], [[0, 0, 1, 0], [1, 1, 2, 0]]);
    const d = diagnosticsOf(() => convertModel(readIr(xml, null), { to: 'onnx' }));
    expect(d.filter((x) => x.code === 'CONVERT_UNSUPPORTED_TYPE').map((x) => [x.where, x.message])).toEqual([
      ['main/x', "graph input 'x' has type a tensor of unknown element type (dynamic), which ONNX (a graph input or output needs an element type) cannot hold"],
      ['main/y', "graph output 'y' has type a tensor of unknown element type (dynamic), which ONNX (a graph input or output needs an element type) cannot hold"],
    ]);
  });
});
