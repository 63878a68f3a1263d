import type { OpMapping } from '../spec.js';
import { boolInt, string, type ConvertContext } from '../spec.js';

/**
 * GridSample-16/20/22 ⇄ GridSample-9 (4-D data and grid only, as in OpenVINO). ONNX 20 renamed
 * the modes: linear = bilinear, cubic = bicubic; padding modes are the same three names.
 */
const only4d = (c: ConvertContext): void => {
  const r = c.rank(0);
  if (r !== 4) { c.error(`GridSample of rank ${r ?? 'unknown'} data: OpenVINO GridSample samples 4-D (N, C, H, W) data only`); return; }
  const attrs = c.attrs();
  c.output(0, c.emit('GridSample', [c.input(0), c.input(1)], attrs, 1, 'opset9')[0]!);
};

const COMMON = [
  boolInt('align_corners').default(0n).irDefaultTo('false'),
  string('padding_mode').default('zeros').irDefaultTo('zeros').onlyValues('zeros', 'border', 'reflection'),
];

export const GRID_SAMPLE: readonly OpMapping[] = [
  {
    onnx: { op: 'GridSample', since: 16, until: 19 },
    ir: { op: 'GridSample', version: 'opset9' },
    attrs: [...COMMON, string('mode').default('bilinear').irDefaultTo('bilinear').onlyValues('bilinear', 'nearest', 'bicubic')],
    toIr: only4d,
  },
  {
    onnx: { op: 'GridSample', since: 20 },
    ir: { op: 'GridSample', version: 'opset9' },
    attrs: [...COMMON, string('mode').default('linear').irDefaultTo('bilinear').map([['linear', 'bilinear'], ['nearest', 'nearest'], ['cubic', 'bicubic']])],
    toIr: only4d,
  },
];
