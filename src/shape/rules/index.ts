import { buildRegistry, type Registry } from '../registry.js';
import type { Rule } from '../rule.js';
import { controlFlowRules } from './control.js';
import { einsumRules } from './einsum.js';
import { softmaxRules } from './softmax.js';
import { imageOpsRules } from './image-ops.js';
import { onnxAttentionRules } from './onnx/attention.js';
import { onnxMicrosoftTransformerRules } from './onnx/microsoft-transformer.js';
import { onnxCausalConvWithStateRules } from './onnx/causal-conv-with-state.js';
import { onnxLinearAttentionRules } from './onnx/linear-attention.js';
import { onnxFlexAttentionRules } from './onnx/flex-attention.js';
import { onnxCropGridRules } from './onnx/crop-grid.js';
import { onnxElementwiseRules } from './onnx/elementwise.js';
import { onnxGeneratorRules } from './onnx/generator.js';
import { onnxLoopRules } from './onnx/loop.js';
import { onnxMathRules } from './onnx/math.js';
import { onnxMoreRules } from './onnx/more.js';
import { onnxNnRules } from './onnx/nn.js';
import { onnxReduceRules } from './onnx/reduce.js';
import { onnxSequenceRules } from './onnx/sequence.js';
import { onnxOptionalRules } from './onnx/optional.js';
import { onnxTensorRules } from './onnx/tensor.js';
import { onnxTensorExtraRules } from './onnx/tensor-extra.js';
import { onnxTrainingRules } from './onnx/training.js';
import { onnxTextRules } from './onnx/text.js';
import { onnxMlRules } from './onnx/ml.js';
import { onnxMlClassicRules } from './onnx/ml-classic.js';
import { onnxMsQuantRules } from './onnx/ms-quant.js';
import { onnxImageRules } from './onnx/image.js';
import { ovElementwiseRules } from './ov/elementwise.js';
import { ovMovementRules } from './ov/movement.js';
import { ovGeneratorRules } from './ov/generator.js';
import { ovLoopRules } from './ov/loop.js';
import { ovNnRules } from './ov/nn.js';
import { ovSequenceRules } from './ov/sequence.js';
import { ovCellRules } from './ov/cell.js';
import { ovReduceRules } from './ov/reduce.js';
import { ovTensorExtraRules } from './ov/tensor-extra.js';
import { ovIrOnlyRules } from './ov/ir-only.js';
import { ovFrontendOpsRules } from './ov/frontend-ops.js';
import { ovDetectionRules } from './ov/detection.js';
import { ovStateRules } from './ov/state.js';
import { onnxSignalRules } from './onnx/signal.js';
import { onnxQuantizedRules } from './onnx/quantized.js';
import { ovSignalRules } from './ov/signal.js';
import { ovTensorIteratorRules } from './ov/tensor-iterator.js';

/** Every shape rule, both dialects. */
export const ALL_RULES: readonly Rule[] = [
  ...onnxElementwiseRules, ...onnxTensorRules, ...onnxReduceRules, ...onnxMathRules, ...onnxNnRules, ...onnxGeneratorRules, ...onnxLoopRules, ...onnxMoreRules,
  ...ovElementwiseRules, ...ovMovementRules, ...ovReduceRules, ...ovNnRules, ...ovSequenceRules, ...ovGeneratorRules, ...ovLoopRules,
  ...controlFlowRules, ...einsumRules, ...softmaxRules,
  ...ovTensorExtraRules, ...onnxTensorExtraRules,
  ...onnxAttentionRules,
  ...onnxMicrosoftTransformerRules,
  ...onnxCausalConvWithStateRules,
  ...onnxLinearAttentionRules,
  ...onnxFlexAttentionRules,
  ...onnxCropGridRules,
  ...onnxSignalRules,
  ...ovSignalRules,
  ...onnxQuantizedRules,
  ...ovTensorIteratorRules,
  ...imageOpsRules,
  ...onnxSequenceRules, ...onnxOptionalRules,
  ...ovCellRules,
  ...ovIrOnlyRules,
  ...ovFrontendOpsRules,
  ...ovDetectionRules,
  ...ovStateRules,
  ...onnxTrainingRules, ...onnxTextRules, ...onnxMlRules, ...onnxMlClassicRules, ...onnxMsQuantRules, ...onnxImageRules,
];

let cached: Registry | undefined;
export function defaultRegistry(): Registry {
  cached ??= buildRegistry(ALL_RULES);
  return cached;
}
