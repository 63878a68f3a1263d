import { A } from '../../src/graph/attr.js';
import { normAxis } from '../helpers.js';
import { int, type OpMapping } from '../spec.js';

export const SOFTMAX: readonly OpMapping[] = [
  {
    // Softmax-13: over `axis` (default -1) = IR Softmax-8. Before 13 ONNX flattens to 2-D at
    // `axis` (default 1): the same thing only when axis is the last dim.
    onnx: { op: 'Softmax', since: 13 },
    ir: { op: 'Softmax', version: 'opset8', reads: ['opset1'] },
    attrs: [int('axis').default(-1n)],
  },
  {
    onnx: { op: 'Softmax', since: 1, until: 12 },
    ir: { op: 'Softmax', version: 'opset8', reads: ['opset1'] },
    handles: { onnx: ['axis'], ir: ['axis'] },
    toIr: (c) => {
      const a = c.attr.int('axis') ?? 1n;
      const r = c.rank(0);
      if (r === null || normAxis(a, r) !== r - 1) {
        c.unsupportedAttr('axis', String(a), `Softmax before opset 13 flattens at axis; only the last axis (rank ${r ?? 'unknown'}) converts`);
        return;
      }
      c.output(0, c.emit('Softmax', [c.input(0)], { axis: '-1' })[0]!);
    },
    toOnnx: (c) => {
      const a = c.attr.int('axis') ?? 1n;
      const r = c.rank(0);
      if (r === null || normAxis(a, r) !== r - 1) {
        c.unsupportedAttr('axis', String(a), `ONNX Softmax before opset 13 flattens at axis; only the last axis converts (use --opset 13 or later)`);
        return;
      }
      c.output(0, c.emit('Softmax', [c.input(0)], { axis: A.int(r - 1) })[0]!);
    },
  },
  {
    onnx: { op: 'LogSoftmax', since: 13 },
    ir: { op: 'LogSoftmax', version: 'opset5' },
    attrs: [int('axis').default(-1n)],
  },
];
