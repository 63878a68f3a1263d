import { A } from '../../src/graph/attr.js';
import { i64Scalar } from '../helpers.js';
import { int, irOnly, type OpMapping } from '../spec.js';

/**
 * ONNX Gather(data, indices; axis attribute) = IR Gather-8(data, indices, axis input) with
 * batch_dims 0. Both accept negative indices (Gather-8 does; Gather-1/7 did not).
 */
const GATHER_OPS: readonly OpMapping[] = [
  {
    onnx: { op: 'Gather', since: 1 },
    ir: { op: 'Gather', version: 'opset8', reads: ['opset1', 'opset7'] },
    handles: { onnx: ['axis'], ir: ['batch_dims'] },
    toIr: (c) => {
      const axis = c.attr.int('axis', 0n);
      c.output(0, c.emit('Gather', [c.input(0), c.input(1), i64Scalar(c, axis)], { batch_dims: '0' })[0]!);
    },
    toOnnx: (c) => {
      const bd = c.attr.int('batch_dims') ?? 0n;
      if (bd !== 0n) { c.unsupportedAttr('batch_dims', String(bd), 'ONNX Gather has no batch dims'); return; }
      const axis = c.constInts(2);
      if (axis === null || axis.length !== 1) { c.needsConstant(2, 'axis (ONNX axis is an attribute)'); return; }
      c.output(0, c.emit('Gather', [c.input(0), c.input(1)], axis[0] === 0n ? {} : { axis: A.int(axis[0]!) })[0]!);
    },
  },
  {
    onnx: { op: 'GatherElements', since: 11 },
    ir: { op: 'GatherElements', version: 'opset6' },
    attrs: [int('axis').default(0n).irDefaultTo('0')],
  },
  {
    onnx: { op: 'NonZero', since: 9 },
    ir: { op: 'NonZero', version: 'opset3' },
    attrs: [irOnly('output_type', 'i64')],
  },
];

export const GATHER: readonly OpMapping[] = GATHER_OPS;
