import type { Value } from '../../src/graph/value.js';
import { gemmToIrValue } from '../math/gemm.js';
import { CONV_ONNX, convToIrValue } from '../nn/conv.js';
import { irBuilder } from '../nn/ir-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { ACTIVATION_IR_OPS, applyActivation } from './activation.js';

/**
 * onnxruntime's fused com.microsoft ops (docs/ContribOperators.md; what its graph optimizer
 * writes for MatMul + Mul, Conv + activation, Gemm + activation):
 *   FusedMatMul(A, B) = alpha · MatMul(A', B', transA, transB), where transBatchA moves A's first
 *     dim behind its batch dims ([d0, b…, m, k] → [b…, d0, k]: the permutation [1 … r-2, 0, r-1],
 *     as onnxruntime computes it; OpenVINO's frontend writes another one), B' likewise.
 *   FusedConv(X, W, B?, Z?) = activation(Conv(X, W, B) + Z), activation optional (none: the sum),
 *     its parameters in activation_params.
 *   FusedGemm(A, B, C?) = activation(Gemm(A, B, C)), activation required, its parameters in
 *     activation_alpha / activation_beta / activation_gamma.
 */
const MS = 'com.microsoft';

/** [1 … r-2, 0, r-1]: dim 0 moved behind the batch dims. */
const batchPerm = (r: number): bigint[] => [...Array.from({ length: r - 2 }, (_, i) => BigInt(i + 1)), 0n, BigInt(r - 1)];

function fusedMatMulToIr(c: ConvertContext): void {
  const elem = c.elem(0);
  if (elem === null) { c.error('FusedMatMul needs the element type of A'); return; }
  const b = irBuilder(c);
  const operand = (i: number, attr: string): Value | null => {
    const v = c.input(i)!;
    if (c.attr.int(attr, 0n) === 0n) return v;
    const r = c.rank(i);
    if (r === null || r < 2) { c.unsupportedAttr(attr, '1', `needs ${i === 0 ? 'A' : 'B'} of known rank ≥ 2 (got ${r ?? 'unknown'})`); return null; }
    return r === 2 ? v : b.transpose(v, batchPerm(r));
  };
  const a = operand(0, 'transBatchA');
  const bb = operand(1, 'transBatchB');
  if (!a || !bb) return;
  const ta = c.attr.int('transA', 0n) !== 0n;
  const tb = c.attr.int('transB', 0n) !== 0n;
  if ((ta && c.rank(0) === 1) || (tb && c.rank(1) === 1)) { c.unsupportedAttr(ta && c.rank(0) === 1 ? 'transA' : 'transB', '1', 'a 1-D operand has no matrix to transpose'); return; }
  const y = c.emit('MatMul', [a, bb], { transpose_a: String(ta), transpose_b: String(tb) }, 1, 'opset1')[0]!;
  const alpha = c.attr.float('alpha', 1);
  c.output(0, alpha === 1 ? y : b.mul(y, b.scalar(elem, alpha)));
}

const CONV_ACTIVATIONS = ['Relu', 'Tanh', 'Sigmoid', 'LeakyRelu', 'Clip', 'HardSigmoid'];
const GEMM_ACTIVATIONS = ['Relu', 'Tanh', 'Sigmoid', 'LeakyRelu', 'HardSigmoid', 'Elu', 'Selu', 'ThresholdedRelu', 'Softsign', 'Softplus', 'ScaledTanh', 'ParametricSoftplus'];

function fusedConvToIr(c: ConvertContext): void {
  const elem = c.elem(0);
  if (elem === null) { c.error('FusedConv needs the element type of X'); return; }
  let y = convToIrValue(c);
  if (!y) return;
  if (c.numInputs > 3 && c.input(3)) y = c.emit('Add', [y, c.input(3)], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
  const kind = c.attr.string('activation', '');
  if (kind === '') { c.output(0, y); return; }
  const params = c.attr.floats('activation_params') ?? [];
  const act = applyActivation(c, y, elem, kind, { attr: 'activation', kinds: CONV_ACTIVATIONS, params, paramNames: ['activation_params[0]', 'activation_params[1]'] });
  if (act) c.output(0, act);
}

function fusedGemmToIr(c: ConvertContext): void {
  const elem = c.elem(0);
  if (elem === null) { c.error('FusedGemm needs the element type of A'); return; }
  const kind = c.attr.string('activation');
  if (kind === undefined) { c.error('FusedGemm needs its activation attribute (onnxruntime refuses the node without it)'); return; }
  const y = gemmToIrValue(c);
  if (!y) return;
  const params = [c.attr.float('activation_alpha'), c.attr.float('activation_beta'), c.attr.float('activation_gamma')];
  const act = applyActivation(c, y, elem, kind, { attr: 'activation', kinds: GEMM_ACTIVATIONS, params, paramNames: ['activation_alpha', 'activation_beta', 'activation_gamma'] });
  if (act) c.output(0, act);
}

export const MS_FUSED: readonly OpMapping[] = [
  {
    onnx: { op: 'FusedMatMul', domain: MS, since: 1 },
    ir: null,
    decomposes: ['Transpose', 'MatMul', 'Multiply'],
    handles: { onnx: ['alpha', 'transA', 'transB', 'transBatchA', 'transBatchB'] },
    note: 'IR: alpha · MatMul (transpose_a/b), transBatch as a Transpose [1 … r-2, 0, r-1]',
    toIr: fusedMatMulToIr,
  },
  {
    onnx: { op: 'FusedConv', domain: MS, since: 1 },
    ir: null,
    decomposes: ['Convolution', 'GroupConvolution', 'Reshape', 'Add', ...ACTIVATION_IR_OPS],
    handles: { onnx: [...CONV_ONNX, 'activation', 'activation_params'] },
    note: 'IR: Conv + Z, then the activation (Relu, Tanh, Sigmoid, LeakyRelu, Clip, HardSigmoid)',
    toIr: fusedConvToIr,
  },
  {
    onnx: { op: 'FusedGemm', domain: MS, since: 1 },
    ir: null,
    decomposes: ['MatMul', 'Add', ...ACTIVATION_IR_OPS],
    handles: { onnx: ['alpha', 'beta', 'transA', 'transB', 'activation', 'activation_alpha', 'activation_beta', 'activation_gamma'] },
    note: 'IR: Gemm, then the activation (onnxruntime\'s twelve kinds)',
    toIr: fusedGemmToIr,
  },
];
