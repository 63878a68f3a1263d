import { makeTensor } from '../../src/graph/tensor.js';
import type { Value } from '../../src/graph/value.js';
import type { ConvertContext } from '../spec.js';

/**
 * IR → ONNX: an IR Add of a per-channel constant onto a convolution's output is the convolution's
 * bias. IR has no bias input (OpenVINO's frontend and ovc write ONNX Conv's B as a Const
 * [1, C, 1…] added to the output), so without this every ONNX Conv would come back as Conv + Add:
 * twice the nodes, and onnxruntime then runs other kernels than on the original (its f16 Conv adds
 * a bias before rounding, Conv + Add after: measured on the ISNet background-removal model).
 *
 * The Add folds when its other operand is a constant of the output's element type and of shape
 * [1, C, 1…] (or [C, 1…]), C the convolution's known output channels, and the convolution's output
 * is read by this Add only: the already converted ONNX Conv / ConvTranspose (without B) is
 * written again with B = the constant's bytes as [C]; the first one then feeds nothing and is pruned.
 * DeformableConvolution likewise becomes DeformConv with B (its input 3, before the mask).
 */
const CONVOLUTIONS = new Set(['Convolution', 'GroupConvolution', 'ConvolutionBackpropData', 'GroupConvolutionBackpropData', 'DeformableConvolution']);
/** The ONNX ops those are written as, and the input index of their bias B. */
const BIAS_INPUT: Readonly<Record<string, number>> = { Conv: 2, ConvTranspose: 2, DeformConv: 3 };

export function convWithBias(c: ConvertContext): Value | null {
  for (const side of [0, 1]) {
    const y = c.node.inputs[side];
    const b = c.node.inputs[1 - side];
    const conv = y?.producer;
    if (!y || !b?.constant || !conv || !CONVOLUTIONS.has(conv.op) || y.uses.length !== 1 || y.graph.outputs.includes(y)) continue;
    const t = c.typeOf(y);
    const bias = b.constant;
    if (t?.kind !== 'tensor' || !t.shape || t.elem !== bias.elem) continue;
    const channels = t.shape[1];
    const r = t.shape.length;
    const at = bias.dims.length === r ? 1 : bias.dims.length === r - 1 ? 0 : -1;
    if (typeof channels !== 'number' || at < 0 || bias.dims.some((d, k) => d !== (k === at ? channels : 1))) continue;
    const done = c.converted(y);
    const onnx = done?.producer;
    const biasAt = onnx?.dialect === 'onnx' && (onnx.domain === '' || onnx.domain === 'ai.onnx') ? BIAS_INPUT[onnx.op] : undefined;
    if (!done || !onnx || biasAt === undefined || onnx.inputs.length < biasAt || onnx.inputs[biasAt] || done.uses.length) continue;
    const inputs: (Value | null)[] = [...onnx.inputs];
    inputs[biasAt] = c.constant(makeTensor(bias.elem, [channels], bias.data));
    return c.emit(onnx.op, inputs, new Map(onnx.attrs))[0]!;
  }
  return null;
}
