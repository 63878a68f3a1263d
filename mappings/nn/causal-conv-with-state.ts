import type { Value } from '../../src/graph/value.js';
import { i64Const, INT64_MAX } from '../helpers.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { irBuilder } from './ir-build.js';

/**
 * ONNX CausalConvWithState-27 has no OpenVINO op: IR writes onnx's reference.
 *   padded = Concat(past_state or zeros [B, C, k − 1], input) along the length axis
 *   output = GroupConvolution(padded, weight as [C, 1, 1, k]) (groups = channels, stride 1, no
 *            padding, so position t sees inputs t − k + 1 … t), + bias as [C, 1]; a weight whose
 *            shape is known only at run time: Σ_j weight[:, 0, j] · padded[:, :, t + j] as a Gather of
 *            the windows, Multiply and ReduceSum (OpenVINO's CPU plugin convolves static weights only)
 *   activation silu / swish: output · Sigmoid(output) as Swish-4, computed in f32 (the reference
 *            casts f16 / bf16 to f32 for it) and converted back
 *   present_state = the last k − 1 positions of padded (empty for k = 1).
 */
const ACTIVATIONS = ['none', 'silu', 'swish'];

function causalConvToIr(c: ConvertContext): void {
  const activation = c.attr.string('activation', 'none');
  if (!ACTIVATIONS.includes(activation)) { c.unsupportedAttr('activation', activation, 'none, silu or swish'); return; }
  const elem = c.elem(0);
  if (elem === null) { c.error('CausalConvWithState needs the element type of input to be known'); return; }
  for (const [i, name, rank] of [[0, 'input', 3], [1, 'weight', 3], [2, 'bias', 1], [3, 'past_state', 3]] as const) {
    const r = c.numInputs > i && c.input(i) ? c.rank(i) : null;
    if (r !== null && r !== rank) { c.error(`${name} must be rank ${rank} (got rank ${r})`); return; }
  }
  const b = irBuilder(c);
  const x = c.input(0)!;
  const w = c.input(1)!;
  const bias = c.numInputs > 2 ? c.input(2) : null;
  const past = c.numInputs > 3 ? c.input(3) : null;
  const wType = c.type(1);
  const wDims = wType?.kind === 'tensor' ? wType.shape : null;
  const kDim = wDims?.[2] ?? null;
  const kStatic = typeof kDim === 'number' ? kDim : null;

  // k − 1 as a [1] i64 tensor: from the weight's static dim, else its run-time shape
  const kMinusOne = (): Value => (kStatic !== null ? i64Const(c, [BigInt(kStatic - 1)]) : b.reshape(b.sub(b.dim(w, 2n), i64Const(c, [1n])), [1n]));
  let padded: Value;
  if (past) padded = b.concat([past, x], 2);
  else if (kStatic === 1) padded = x;
  else {
    const zerosShape = b.concat([b.slice(b.shapeOf(x), 0n, 2n, 0n), kMinusOne()], 0);
    const zeros = c.emit('Broadcast', [b.scalar(elem, 0), zerosShape], { mode: 'numpy' }, 1, 'opset3')[0]!;
    padded = b.concat([zeros, x], 2);
  }

  let y: Value;
  if (wDims !== null && wDims.every((d) => typeof d === 'number')) {
    const kernel = b.unsqueeze(w, [1n]); // [C, 1, k] → [C, 1, 1, k]: one group per channel
    y = c.emit('GroupConvolution', [padded, kernel], { strides: '1', pads_begin: '0', pads_end: '0', dilations: '1', auto_pad: 'explicit' }, 1, 'opset1')[0]!;
  } else {
    // OpenVINO's CPU plugin has no convolution with a weight shape known only at run time
    // ("Doesn't support dynamic weights shape", measured): the windows padded[:, :, t + j] gathered
    // as [B, C, L, k], times weight [C, 1, k], summed over j
    const taps = b.add(b.unsqueeze(b.range(b.dim(x, 2n)), [1n]), b.unsqueeze(b.range(b.dim(w, 2n)), [0n])); // [L, k]: t + j
    const windows = b.gather(padded, taps, 2n);
    y = c.emit('ReduceSum', [b.mul(windows, w), i64Const(c, [-1n])], { keep_dims: 'false' }, 1, 'opset1')[0]!;
  }
  if (bias) y = b.add(y, b.unsqueeze(bias, [1n]));
  if (activation !== 'none') {
    const wide = elem === 'f32' || elem === 'f64' ? y : b.convert(y, 'f32');
    const act = c.emit('Swish', [wide], {}, 1, 'opset4')[0]!;
    y = wide === y ? act : b.convert(act, elem);
  }
  c.output(0, y);

  // the last k − 1 positions of padded (start −(k − 1) from the end; past the end when k = 1)
  const start = kStatic !== null
    ? i64Const(c, [kStatic > 1 ? BigInt(1 - kStatic) : INT64_MAX])
    : b.reshape(b.sub(b.dim(padded, 2n), b.reshape(kMinusOne(), [])), [1n]);
  const state = c.emit('Slice', [padded, start, i64Const(c, [INT64_MAX]), i64Const(c, [1n]), i64Const(c, [2n])], {}, 1, 'opset8')[0]!;
  if (c.node.outputs.length > 1) c.output(1, state);
}

export const CAUSAL_CONV_WITH_STATE: readonly OpMapping[] = [
  {
    onnx: { op: 'CausalConvWithState', since: 27 },
    ir: null,
    decomposes: ['Concat', 'Broadcast', 'ShapeOf', 'Gather', 'Slice', 'Subtract', 'Reshape', 'Unsqueeze', 'GroupConvolution', 'Range', 'Multiply', 'ReduceSum', 'Add', 'Convert', 'Swish'],
    handles: { onnx: ['activation'] },
    note: 'IR: a depthwise GroupConvolution over past_state (or zeros) ++ input, Swish for silu; present_state the last k − 1 positions',
    toIr: causalConvToIr,
  },
];
