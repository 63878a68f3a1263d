import { ACTIVATION } from './activation.js';
import { BASIC } from './basic.js';
import { CONTROL_FLOW } from './control-flow.js';
import { CONV } from './conv.js';
import { CONV_TRANSPOSE } from './conv-transpose.js';
import { DROPOUT } from './dropout.js';
import { ELEMENTWISE } from './elementwise.js';
import { GATHER } from './gather.js';
import { GRID_SAMPLE } from './grid-sample.js';
import { GENERATE } from './generate.js';
import { LINEAR } from './linear.js';
import { PAD } from './pad.js';
import { POOL } from './pool.js';
import { RNN } from './rnn.js';
import { MATH } from './math.js';
import { NN } from './nn.js';
import { NORM } from './norm.js';
import { OLD_OPSETS } from './old-opsets.js';
import { REDUCE } from './reduce.js';
import { RESIZE } from './resize.js';
import { SHAPE } from './shape.js';
import type { OpMapping } from './spec.js';
import { SPLIT } from './split.js';

export type { AttrRule, ConvertContext, OpMapping } from './spec.js';

/** Every op relation ovir converts, both ways, by family. */
export const ALL_MAPPINGS: readonly OpMapping[] = [
  ...BASIC, ...CONTROL_FLOW, ...ELEMENTWISE, ...MATH, ...SHAPE, ...SPLIT, ...GATHER, ...REDUCE, ...NN, ...CONV,
  ...GENERATE, ...LINEAR, ...PAD, ...RNN, ...ACTIVATION, ...NORM,
  ...OLD_OPSETS, ...POOL, ...RESIZE, ...CONV_TRANSPOSE, ...GRID_SAMPLE, ...DROPOUT,
];
