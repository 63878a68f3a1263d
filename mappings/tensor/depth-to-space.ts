import { int, string, irOnly, type OpMapping } from '../spec.js';

export const DEPTH_TO_SPACE: readonly OpMapping[] = [
  {
    // ONNX DCR (default) is IR blocks_first; CRD is depth_first.
    onnx: { op: 'DepthToSpace', since: 11 },
    ir: { op: 'DepthToSpace', version: 'opset1' },
    attrs: [int('blocksize').as('block_size'), string('mode').default('DCR').map([['DCR', 'blocks_first'], ['CRD', 'depth_first']]).irDefaultTo('blocks_first')],
  },
  {
    onnx: { op: 'SpaceToDepth', since: 1 },
    ir: { op: 'SpaceToDepth', version: 'opset1' },
    attrs: [int('blocksize').as('block_size'), irOnly('mode', 'blocks_first')],
  },
];
