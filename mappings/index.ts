/**
 * The op table: every op relation ovir converts, both ways. One folder per ONNX operator family
 * (as onnx/defs/ names them: math, nn, tensor, reduction, generator, logical, controlflow, rnn,
 * sequence, optional, quantization, object_detection), one file per op or close group of ops; `ir-only/` holds IR ops
 * that ONNX lacks at some opsets, written as ONNX subgraphs. Entries of one op that span files keep
 * their relative order here (the registry takes the first entry that matches).
 */
import { IF_ELSE } from './controlflow/if.js';
import { LOOP } from './controlflow/loop.js';
import { SCAN } from './controlflow/scan.js';
import { CONSTANT_OF_SHAPE } from './generator/constant-of-shape.js';
import { EYE } from './generator/eye-like.js';
import { BERNOULLI } from './generator/bernoulli.js';
import { MULTINOMIAL } from './generator/multinomial.js';
import { RANDOM_NORMAL } from './generator/random-normal.js';
import { RANDOM_UNIFORM } from './generator/random-uniform.js';
import { IR_DECOMPOSE } from './ir-only/decompose.js';
import { IR_ELEMENTWISE } from './ir-only/elementwise.js';
import { BUCKETIZE } from './math/bucketize.js';
import { GRN } from './nn/grn.js';
import { STATE_VARIABLES } from './state/variables.js';
import { ADAPTIVE_POOL } from './nn/adaptive-pool.js';
import { EMBEDDING_BAG } from './tensor/embedding-bag.js';
import { ROLL } from './tensor/roll.js';
import { SEGMENT_MAX } from './tensor/segment-max.js';
import { TFIDF_VECTORIZER } from './tensor/tfidf-vectorizer.js';
import { BITCAST } from './tensor/bitcast.js';
import { SPACE_BATCH } from './tensor/space-batch.js';
import { SCATTER_UPDATE } from './tensor/scatter-update.js';
import { BITSHIFT } from './logical/bitshift.js';
import { ACTIVATION } from './math/activation.js';
import { CELU } from './math/celu.js';
import { CLIP } from './math/clip.js';
import { DFT_OPS } from './math/dft.js';
import { ELEMENTWISE } from './math/elementwise.js';
import { GEMM } from './math/gemm.js';
import { HARDMAX } from './math/hardmax.js';
import { LEGACY_BROADCAST } from './math/legacy-broadcast.js';
import { LOSS } from './math/loss.js';
import { MATMUL } from './math/matmul.js';
import { OLD_OPSETS } from './math/old-opsets.js';
import { SOFTMAX } from './math/softmax.js';
import { TOPK } from './math/topk.js';
import { STFT } from './math/stft.js';
import { SWIGLU } from './math/swiglu.js';
import { CUMPROD } from './math/cumprod.js';
import { DET } from './math/det.js';
import { MEL_WEIGHT_MATRIX } from './math/mel-weight-matrix.js';
import { UNARY } from './math/unary.js';
import { VARIADIC } from './math/variadic.js';
import { WINDOW } from './math/window.js';
import { ATTENTION } from './nn/attention.js';
import { CAUSAL_CONV_WITH_STATE } from './nn/causal-conv-with-state.js';
import { LINEAR_ATTENTION } from './nn/linear-attention.js';
import { FLEX_ATTENTION } from './nn/flex-attention.js';
import { CONV } from './nn/conv.js';
import { CONV_TRANSPOSE } from './nn/conv-transpose.js';
import { DROPOUT } from './nn/dropout.js';
import { DEFORM_CONV } from './nn/deform-conv.js';
import { MAX_UNPOOL } from './nn/max-unpool.js';
import { GROUP_NORMALIZATION } from './nn/group-normalization.js';
import { LP_NORMALIZATION } from './nn/lp-normalization.js';
import { LP_POOL } from './nn/lp-pool.js';
import { NORMALIZATION } from './nn/normalization.js';
import { POOL } from './nn/pool.js';
import { ROTARY_EMBEDDING } from './nn/rotary-embedding.js';
import { SHRINK } from './nn/shrink.js';
import { NON_MAX_SUPPRESSION } from './object_detection/non-max-suppression.js';
import { ROI_ALIGN } from './object_detection/roi-align.js';
import { REGION_YOLO } from './object_detection/region-yolo.js';
import { ROI_POOLING } from './object_detection/roi-pooling.js';
import { PRIOR_BOX_CLUSTERED } from './object_detection/prior-box-clustered.js';
import { PSROI_POOLING } from './object_detection/psroi-pooling.js';
import { ROI_ALIGN_ROTATED } from './object_detection/roi-align-rotated.js';
import { NMS_ROTATED } from './object_detection/nms-rotated.js';
import { GENERATE_PROPOSALS } from './object_detection/generate-proposals.js';
import { EXPERIMENTAL_DETECTRON_ROI_FEATURE_EXTRACTOR } from './object_detection/experimental-detectron-roi-feature-extractor.js';
import { EXPERIMENTAL_DETECTRON_DETECTION_OUTPUT } from './object_detection/experimental-detectron-detection-output.js';
import { DEFORMABLE_PSROI_POOLING } from './object_detection/deformable-psroi-pooling.js';
import { GATHER_TREE } from './tensor/gather-tree.js';
import { ISTFT } from './math/istft.js';
import { INVERSE } from './math/inverse.js';
import { SPARSE_FILL_EMPTY_ROWS } from './tensor/sparse-fill-empty-rows.js';
import { CTC_LOSS } from './math/ctc-loss.js';
import { GROUPED_MATMUL } from './math/grouped-matmul.js';
import { PRIOR_BOX } from './object_detection/prior-box.js';
import { DETECTION_OUTPUT } from './object_detection/detection-output.js';
import { MULTICLASS_NMS } from './object_detection/multiclass-nms.js';
import { MATRIX_NMS } from './object_detection/matrix-nms.js';
import { PROPOSAL } from './object_detection/proposal.js';
import { EXPERIMENTAL_DETECTRON_TOPK_ROIS } from './object_detection/experimental-detectron-topk-rois.js';
import { EXPERIMENTAL_DETECTRON_PRIOR_GRID } from './object_detection/experimental-detectron-prior-grid.js';
import { EXPERIMENTAL_DETECTRON_GENERATE_PROPOSALS } from './object_detection/experimental-detectron-generate-proposals.js';
import { INTEGER_OPS } from './quantization/integer-ops.js';
import { QUANTIZATION } from './quantization/quantize-linear.js';
import { MS_QLINEAR } from './quantization/ms-qlinear.js';
import { MS_MATMUL } from './quantization/ms-matmul.js';
import { MS_MATMUL_NBITS } from './quantization/ms-matmul-nbits.js';
import { MS_QLINEAR_CONV } from './quantization/ms-qlinear-conv.js';
import { MS_DYNAMIC_QUANTIZE_LSTM } from './quantization/ms-dynamic-quantize-lstm.js';
import { MS_GATHER_BLOCK_QUANTIZED } from './quantization/ms-gather-block-quantized.js';
import { MS_QUANTIZE_LINEAR } from './quantization/ms-quantize-linear.js';
import { FAKE_CONVERT } from './quantization/fake-convert.js';
import { ARG_MAX } from './reduction/argmax.js';
import { REDUCE } from './reduction/reduce.js';
import { RNN } from './rnn/rnn.js';
import { RNN_CELLS } from './rnn/cells.js';
import { OPTIONAL } from './optional/optional.js';
import { SEQUENCE_BUILD } from './sequence/build.js';
import { CONCAT_FROM_SEQUENCE } from './sequence/concat-from-sequence.js';
import { SEQUENCE_READ } from './sequence/read.js';
import { SPLIT_TO_SEQUENCE } from './sequence/split-to-sequence.js';
import type { OpMapping } from './spec.js';
import { AFFINE_GRID } from './tensor/affine-grid.js';
import { CAST } from './tensor/cast.js';
import { CENTER_CROP_PAD } from './tensor/center-crop-pad.js';
import { COL2IM } from './tensor/col2im.js';
import { COMPRESS } from './tensor/compress.js';
import { DEPTH_TO_SPACE } from './tensor/depth-to-space.js';
import { FLATTEN_SIZE } from './tensor/flatten.js';
import { GATHER } from './tensor/gather.js';
import { GRID_SAMPLE } from './tensor/grid-sample.js';
import { ONE_HOT_OPS } from './tensor/onehot.js';
import { PAD } from './tensor/pad.js';
import { RESIZE } from './tensor/resize.js';
import { REVERSE_SEQUENCE } from './tensor/reverse-sequence.js';
import { SCATTER } from './tensor/scatter.js';
import { SHAPE } from './tensor/shape.js';
import { SPLIT } from './tensor/split.js';
import { TENSOR_SCATTER } from './tensor/tensor-scatter.js';
import { SLICE_IR } from './tensor/strided-slice.js';
import { TRILU_OPS } from './tensor/trilu.js';
import { UNIQUE } from './tensor/unique.js';
import { CONVERT_PROMOTE_TYPES } from './tensor/convert-promote-types.js';
import { REORG_YOLO } from './tensor/reorg-yolo.js';
import { COLOR_CONVERSION } from './tensor/color-conversion.js';
import { EXTRACT_IMAGE_PATCHES } from './nn/extract-image-patches.js';
import { CTC_GREEDY_DECODER } from './nn/ctc-greedy-decoder.js';

export type { AttrRule, ConvertContext, OpMapping } from './spec.js';

import { OPTIMIZERS } from './training/optimizers.js';
import { BINARIZER } from './ml/binarizer.js';
import { ARRAY_FEATURE_EXTRACTOR } from './ml/array-feature-extractor.js';
import { LABEL_ENCODER } from './ml/label-encoder.js';
import { TREE_ENSEMBLE } from './ml/tree-ensemble.js';
import { TREE_ENSEMBLE_CLASSIC } from './ml/tree-ensemble-classic.js';
import { LINEAR_MODELS } from './ml/linear.js';
import { SCALER } from './ml/scaler.js';
import { NORMALIZER } from './ml/normalizer.js';
import { IMPUTER } from './ml/imputer.js';
import { ONE_HOT_ENCODER } from './ml/one-hot-encoder.js';
import { FEATURE_VECTORIZER } from './ml/feature-vectorizer.js';
import { SVM } from './ml/svm.js';
import { MS_GELU } from './microsoft/gelu.js';
import { MS_FUSED } from './microsoft/fused.js';
import { MS_GROUP_NORM } from './microsoft/group-norm.js';
import { MS_LAYER_NORM } from './microsoft/layer-norm.js';
import { MS_EMBED_LAYER_NORM } from './microsoft/embed-layer-norm.js';
import { MS_ATTENTION } from './microsoft/attention.js';
import { MS_ROTARY_EMBEDDING } from './microsoft/rotary-embedding.js';
import { MS_RANGE_TRILU } from './microsoft/range-trilu.js';
import { MS_PAD_GATHER_ND } from './microsoft/pad-gather-nd.js';
import { MS_GROUP_QUERY_ATTENTION } from './microsoft/group-query-attention.js';
import { MS_MULTI_HEAD_ATTENTION } from './microsoft/multi-head-attention.js';
/** Every op relation ovir converts, both ways, by family. */
export const ALL_MAPPINGS: readonly OpMapping[] = [
  // math
  ...ELEMENTWISE, ...UNARY, ...ACTIVATION, ...SOFTMAX, ...MATMUL, ...CLIP, ...GEMM, ...TOPK, ...HARDMAX, ...LOSS,
  ...OLD_OPSETS, ...CELU, ...LEGACY_BROADCAST, ...VARIADIC, ...DFT_OPS, ...WINDOW, ...STFT, ...SWIGLU, ...CUMPROD, ...DET, ...MEL_WEIGHT_MATRIX,
  // nn
  ...CONV, ...CONV_TRANSPOSE, ...POOL, ...NORMALIZATION, ...DROPOUT, ...ATTENTION, ...GROUP_NORMALIZATION,
  ...ROTARY_EMBEDDING, ...LP_NORMALIZATION, ...LP_POOL, ...SHRINK, ...DEFORM_CONV, ...MAX_UNPOOL,
  ...CAUSAL_CONV_WITH_STATE, ...LINEAR_ATTENTION, ...FLEX_ATTENTION,
  // tensor
  ...CAST, ...SHAPE, ...FLATTEN_SIZE, ...SPLIT, ...GATHER, ...PAD, ...SCATTER, ...SLICE_IR, ...RESIZE, ...DEPTH_TO_SPACE,
  ...TRILU_OPS, ...ONE_HOT_OPS, ...REVERSE_SEQUENCE, ...UNIQUE, ...GRID_SAMPLE, ...COMPRESS,
  ...AFFINE_GRID, ...CENTER_CROP_PAD, ...COL2IM, ...TENSOR_SCATTER,
  // reduction
  ...REDUCE, ...ARG_MAX,
  // generator
  ...CONSTANT_OF_SHAPE, ...EYE, ...RANDOM_UNIFORM, ...RANDOM_NORMAL, ...BERNOULLI, ...MULTINOMIAL,
  // logical
  ...BITSHIFT,
  // controlflow
  ...IF_ELSE, ...LOOP, ...SCAN,
  // rnn
  ...RNN, ...RNN_CELLS,
  // sequence (resolved at conversion time: IR has no sequence type)
  ...SEQUENCE_BUILD, ...SEQUENCE_READ, ...SPLIT_TO_SEQUENCE, ...CONCAT_FROM_SEQUENCE,
  // optional (resolved at conversion time: a list of at most one tensor)
  ...OPTIONAL,
  // quantization
  ...QUANTIZATION, ...INTEGER_OPS, ...FAKE_CONVERT,
  // onnxruntime's com.microsoft quantization contrib ops (ONNX → IR only)
  ...MS_QLINEAR, ...MS_QLINEAR_CONV, ...MS_QUANTIZE_LINEAR, ...MS_MATMUL, ...MS_MATMUL_NBITS, ...MS_GATHER_BLOCK_QUANTIZED, ...MS_DYNAMIC_QUANTIZE_LSTM,
  // object_detection
  ...NON_MAX_SUPPRESSION, ...ROI_ALIGN, ...ROI_POOLING, ...PRIOR_BOX_CLUSTERED, ...PRIOR_BOX, ...DETECTION_OUTPUT,
  // IR-only ops written as longer ONNX subgraphs (a summed-area table, Loops)
  ...PSROI_POOLING, ...ROI_ALIGN_ROTATED, ...NMS_ROTATED, ...GENERATE_PROPOSALS, ...EXPERIMENTAL_DETECTRON_ROI_FEATURE_EXTRACTOR, ...EXPERIMENTAL_DETECTRON_DETECTION_OUTPUT, ...DEFORMABLE_PSROI_POOLING, ...GATHER_TREE, ...ISTFT, ...INVERSE, ...SPARSE_FILL_EMPTY_ROWS, ...CTC_LOSS, ...GROUPED_MATMUL,
  ...MULTICLASS_NMS, ...MATRIX_NMS, ...PROPOSAL, ...EXPERIMENTAL_DETECTRON_TOPK_ROIS, ...EXPERIMENTAL_DETECTRON_PRIOR_GRID, ...EXPERIMENTAL_DETECTRON_GENERATE_PROPOSALS,
  // ai.onnx.preview.training
  ...OPTIMIZERS,
  // ai.onnx.ml
  ...BINARIZER, ...ARRAY_FEATURE_EXTRACTOR, ...LABEL_ENCODER, ...TREE_ENSEMBLE, ...TREE_ENSEMBLE_CLASSIC,
  ...LINEAR_MODELS, ...SCALER, ...NORMALIZER, ...IMPUTER, ...ONE_HOT_ENCODER, ...FEATURE_VECTORIZER, ...SVM,
  // com.microsoft (onnxruntime's contrib ops of transformer models; SimplifiedLayerNormalization is its op in the ONNX domain)
  ...MS_GELU, ...MS_FUSED, ...MS_LAYER_NORM, ...MS_GROUP_NORM, ...MS_EMBED_LAYER_NORM, ...MS_ATTENTION, ...MS_MULTI_HEAD_ATTENTION, ...MS_GROUP_QUERY_ATTENTION, ...MS_ROTARY_EMBEDDING, ...MS_RANGE_TRILU, ...MS_PAD_GATHER_ND,
  // IR ops ONNX lacks at some opsets, as ONNX subgraphs
  ...IR_DECOMPOSE, ...IR_ELEMENTWISE, ...CONVERT_PROMOTE_TYPES, ...REORG_YOLO, ...REGION_YOLO, ...COLOR_CONVERSION, ...EXTRACT_IMAGE_PATCHES, ...CTC_GREEDY_DECODER, ...BUCKETIZE, ...GRN, ...EMBEDDING_BAG, ...ROLL, ...SCATTER_UPDATE, ...ADAPTIVE_POOL, ...SPACE_BATCH, ...SEGMENT_MAX, ...TFIDF_VECTORIZER, ...BITCAST, ...STATE_VARIABLES,
];
