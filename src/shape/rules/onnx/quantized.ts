import type { ElementTypeName } from '../../../graph/element-type.js';
import { out, type InferFn, type Rule, type RuleContext } from '../../rule.js';
import { conv } from './nn.js';

/**
 * Integer and quantized convolutions (onnx/defs/quantization, nn): the dims are Conv's over the
 * data and weight operands; ConvInteger gives int32, QLinearConv y_zero_point's type.
 */
function convOver(c: RuleContext, x: number, w: number, elem: ElementTypeName): ReturnType<InferFn> {
  const view: RuleContext = Object.create(c, {
    shape: { value: (i: number) => c.shape(i === 0 ? x : i === 1 ? w : i) },
    elem: { value: (i: number) => c.elem(i === 0 ? x : i === 1 ? w : i) },
  }) as RuleContext;
  const dims = conv(view)[0];
  return [out(elem, dims?.type?.kind === 'tensor' ? dims.type.shape : null)];
}

const convInteger: InferFn = (c) => convOver(c, 0, 1, 'i32');
const qlinearConv: InferFn = (c) => convOver(c, 0, 3, c.elem(7));

export const onnxQuantizedRules: Rule[] = [
  { dialect: 'onnx', op: 'ConvInteger', since: 10, infer: convInteger },
  { dialect: 'onnx', op: 'QLinearConv', since: 10, infer: qlinearConv },
];
