import { int, string, type OpMapping } from '../spec.js';

export const DEPTH_TO_SPACE: readonly OpMapping[] = [
  {
    // ONNX DCR (default) is IR blocks_first; CRD is depth_first.
    onnx: { op: 'DepthToSpace', since: 11 },
    ir: { op: 'DepthToSpace', version: 'opset1' },
    attrs: [int('blocksize').as('block_size'), string('mode').default('DCR').map([['DCR', 'blocks_first'], ['CRD', 'depth_first']]).irDefaultTo('blocks_first')],
  },
  {
    // SpaceToDepth-28's mode: DCR (default, what earlier opsets do) is IR blocks_first, CRD is
    // depth_first. IR → ONNX writes mode only when it is not the default, which opsets before 28
    // lack (then refused by the ONNX schema check).
    onnx: { op: 'SpaceToDepth', since: 1 },
    ir: { op: 'SpaceToDepth', version: 'opset1' },
    attrs: [int('blocksize').as('block_size'), string('mode').default('DCR').map([['DCR', 'blocks_first'], ['CRD', 'depth_first']]).irDefaultTo('blocks_first')],
  },
];
