import { int, type OpMapping } from '../spec.js';
import { coerced2dToIr, coerced2dToOnnx } from './coerce-2d.js';

export const SOFTMAX: readonly OpMapping[] = [
  {
    // Softmax-13: over `axis` (default -1) = IR Softmax-8. Before 13 ONNX coerces x to 2-D at
    // `axis` (default 1): mappings/math/coerce-2d.ts.
    onnx: { op: 'Softmax', since: 13 },
    ir: { op: 'Softmax', version: 'opset8', reads: ['opset1'] },
    attrs: [int('axis').default(-1n)],
  },
  {
    onnx: { op: 'Softmax', since: 1, until: 12 },
    ir: { op: 'Softmax', version: 'opset8', reads: ['opset1'] },
    handles: { onnx: ['axis'], ir: ['axis'] },
    note: 'x coerced to 2-D at axis, Softmax over the second dim, reshaped back',
    toIr: (c) => coerced2dToIr(c, 'Softmax', 'opset8'),
    toOnnx: (c) => coerced2dToOnnx(c, 'Softmax'),
  },
  {
    onnx: { op: 'LogSoftmax', since: 13 },
    ir: { op: 'LogSoftmax', version: 'opset5' },
    attrs: [int('axis').default(-1n)],
  },
  {
    onnx: { op: 'LogSoftmax', since: 1, until: 12 },
    ir: { op: 'LogSoftmax', version: 'opset5' },
    handles: { onnx: ['axis'], ir: ['axis'] },
    note: 'x coerced to 2-D at axis, LogSoftmax over the second dim, reshaped back',
    toIr: (c) => coerced2dToIr(c, 'LogSoftmax', 'opset5'),
    toOnnx: (c) => coerced2dToOnnx(c, 'LogSoftmax'),
  },
];
