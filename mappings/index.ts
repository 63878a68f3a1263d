import { ACTIVATION } from './activation.js';
import { BASIC } from './basic.js';
import { BITSHIFT } from './bitshift.js';
import { COMPRESS } from './compress.js';
import { CONTROL_FLOW } from './control-flow.js';
import { SCAN } from './controlflow/scan.js';
import { CONV } from './conv.js';
import { CONV_TRANSPOSE } from './conv-transpose.js';
import { DROPOUT } from './dropout.js';
import { ELEMENTWISE } from './elementwise.js';
import { EYE } from './eye.js';
import { GATHER } from './gather.js';
import { GRID_SAMPLE } from './grid-sample.js';
import { GENERATE } from './generate.js';
import { HARDMAX } from './hardmax.js';
import { IR_DECOMPOSE } from './ir-decompose.js';
import { LOSS } from './loss.js';
import { LINEAR } from './linear.js';
import { ONE_HOT_OPS } from './onehot.js';
import { PAD } from './pad.js';
import { POOL } from './pool.js';
import { REVERSE_SEQUENCE } from './reverse-sequence.js';
import { RNN } from './rnn.js';
import { MATH } from './math.js';
import { NN } from './nn.js';
import { NORM } from './norm.js';
import { OBJECT_DETECTION } from './object-detection.js';
import { OLD_OPSETS } from './old-opsets.js';
import { QUANTIZATION } from './quantization.js';
import { REDUCE } from './reduce.js';
import { RESIZE } from './resize.js';
import { SCATTER } from './scatter.js';
import { SHAPE } from './shape.js';
import { SLICE_IR } from './slice-ir.js';
import type { OpMapping } from './spec.js';
import { SPLIT } from './split.js';
import { UNIQUE } from './unique.js';
import { TRILU_OPS } from './trilu.js';

export type { AttrRule, ConvertContext, OpMapping } from './spec.js';

/** Every op relation ovir converts, both ways, by family. */
export const ALL_MAPPINGS: readonly OpMapping[] = [
  ...BASIC, ...CONTROL_FLOW, ...SCAN, ...ELEMENTWISE, ...MATH, ...SHAPE, ...SPLIT, ...GATHER, ...REDUCE, ...NN, ...CONV,
  ...GENERATE, ...LINEAR, ...PAD, ...RNN, ...ACTIVATION, ...NORM,
  ...SCATTER,
  ...BITSHIFT,
  ...IR_DECOMPOSE,
  ...LOSS,
  ...SLICE_IR,
  ...OLD_OPSETS,
  ...POOL,
  ...RESIZE,
  ...CONV_TRANSPOSE,
  ...TRILU_OPS,
  ...ONE_HOT_OPS,
  ...REVERSE_SEQUENCE,
  ...UNIQUE,
  ...HARDMAX,
  ...EYE,
  ...OBJECT_DETECTION,
  ...QUANTIZATION,
  ...GRID_SAMPLE,
  ...DROPOUT,
  ...COMPRESS,
];
