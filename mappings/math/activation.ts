import { scalarLike } from '../generator/constant-of-shape.js';
import { i64Const } from '../helpers.js';
import { floatAttrIsIrInput, type ConvertContext, type OpMapping } from '../spec.js';

/**
 * Activations whose parameters are ONNX attributes and IR scalar inputs (HardSigmoid, Selu), or
 * whose broadcasting differs (PRelu), or that IR spells with another op (LeakyRelu, Reciprocal).
 */

/**
 * ONNX PRelu broadcasts slope numpy-style (unidirectionally) to X; IR PRelu reads a 1-D slope of
 * X's channel count as per-channel (axis 1). Giving IR a slope of X's rank makes both numpy.
 */
function preluToIr(c: ConvertContext): void {
  const rx = c.rank(0);
  const rs = c.rank(1);
  let slope = c.input(1)!;
  if (rs === null || rx === null) { c.error('PRelu needs the ranks of X and slope to be known'); return; }
  if (rs > 0 && rs < rx) slope = c.emit('Unsqueeze', [slope, i64Const(c, Array.from({ length: rx - rs }, (_, i) => BigInt(i)))], {}, 1, 'opset1')[0]!;
  c.output(0, c.emit('PRelu', [c.input(0), slope], {}, 1, 'opset1')[0]!);
}

function preluToOnnx(c: ConvertContext): void {
  const rx = c.rank(0);
  const rs = c.rank(1);
  if (rs === null || rx === null) { c.error('PRelu needs the ranks of data and slope to be known'); return; }
  let slope = c.input(1)!;
  const t = c.type(1);
  const n = t?.kind === 'tensor' && t.shape ? t.shape[0] : undefined;
  const xt = c.type(0);
  const channels = xt?.kind === 'tensor' && xt.shape ? xt.shape[1] : undefined;
  // OpenVINO (reference prelu): a 1-D slope as long as data's axis 1 is per channel; any other
  // slope broadcasts numpy-style, as ONNX's does (a slope of 5 on [3, 4, 5] is per last axis).
  const perChannel = typeof n === 'number' && typeof channels === 'number' ? n === channels : n !== 1;
  if (rs === 1 && rx >= 3 && perChannel) {
    // IR: a 1-D slope is per channel (axis 1); ONNX: shape [C, 1, …, 1].
    slope = c.emit('Unsqueeze', [slope, i64Const(c, Array.from({ length: rx - 2 }, (_, i) => BigInt(i + 1)))])[0]!;
    if (c.opset < 13) { c.error('the per-channel slope needs ONNX opset 13 or later here (Unsqueeze axes input)'); return; }
  }
  c.output(0, c.emit('PRelu', [c.input(0), slope])[0]!);
}

export const ACTIVATION: readonly OpMapping[] = [
  {
    onnx: { op: 'HardSigmoid', since: 6 },
    ir: { op: 'HardSigmoid', version: 'opset1' },
    moves: [floatAttrIsIrInput('alpha', 1, 0.2), floatAttrIsIrInput('beta', 2, 0.5)],
  },
  {
    onnx: { op: 'Selu', since: 6 },
    ir: { op: 'Selu', version: 'opset1' },
    note: 'ONNX gamma is IR lambda (input 2)',
    moves: [floatAttrIsIrInput('alpha', 1, 1.67326319217681884765625), floatAttrIsIrInput('gamma', 2, 1.05070102214813232421875)],
  },
  {
    // PRelu-6: a 1-D slope is per channel (axis 1), as IR PRelu reads it; no broadcasting rule.
    onnx: { op: 'PRelu', since: 6, until: 6 },
    ir: { op: 'PRelu', version: 'opset1' },
  },
  {
    onnx: { op: 'PRelu', since: 7 },
    ir: { op: 'PRelu', version: 'opset1' },
    toIr: preluToIr,
    toOnnx: preluToOnnx,
  },
  {
    onnx: { op: 'LeakyRelu', since: 6 },
    ir: null,
    decomposes: ['PRelu'],
    handles: { onnx: ['alpha'] },
    note: 'IR: PRelu with a scalar slope',
    toIr: (c) => {
      const s = scalarLike(c, 0, c.attr.float('alpha', 0.01), 'LeakyRelu alpha');
      if (s) c.output(0, c.emit('PRelu', [c.input(0), s], {}, 1, 'opset1')[0]!);
    },
  },
  {
    onnx: { op: 'Reciprocal', since: 6 },
    ir: null,
    decomposes: ['Divide'],
    note: 'IR: Divide(1, x)',
    toIr: (c) => {
      const one = scalarLike(c, 0, 1, 'Reciprocal');
      if (one) c.output(0, c.emit('Divide', [one, c.input(0)], { auto_broadcast: 'numpy', m_pythondiv: 'true' }, 1, 'opset1')[0]!);
    },
  },
  {
    onnx: { op: 'Softsign', since: 1 },
    ir: { op: 'SoftSign', version: 'opset9' },
  },
  {
    // ONNX Gelu-20 approximate none/tanh ↔ IR Gelu-7 approximation_mode ERF/TANH.
    onnx: { op: 'Gelu', since: 20 },
    ir: { op: 'Gelu', version: 'opset7', reads: ['opset2'] },
    attrs: [{ onnx: 'approximate', ir: 'approximation_mode', kind: 'string', onnxDefault: 'none', irDefault: 'ERF', values: [['none', 'ERF'], ['tanh', 'TANH']] }],
  },
  {
    onnx: { op: 'ThresholdedRelu', since: 10 },
    ir: null,
    decomposes: ['Greater', 'Select'],
    handles: { onnx: ['alpha'] },
    note: 'IR: Select(x > alpha, x, 0)',
    toIr: (c) => {
      const a = scalarLike(c, 0, c.attr.float('alpha', 1), 'ThresholdedRelu alpha');
      const z = scalarLike(c, 0, 0, 'ThresholdedRelu');
      if (!a || !z) return;
      const gt = c.emit('Greater', [c.input(0), a], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
      c.output(0, c.emit('Select', [gt, c.input(0), z], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!);
    },
  },
];
