import type { OpMapping } from '../spec.js';
import { gridSampleNdToIr } from './grid-sample-nd.js';
import { boolInt, string, type ConvertContext } from '../spec.js';

/**
 * GridSample-16/20/22 ⇄ GridSample-9 (4-D data and grid only, as in OpenVINO). ONNX 20 renamed
 * the modes: linear = bilinear, cubic = bicubic; padding modes are the same three names. Data of
 * other ranks (GridSample-20's N-D form, e.g. volumetric [N, C, D, H, W]) is written as its
 * definition in IR ops (grid-sample-nd.ts).
 */
const toIr = (c: ConvertContext): void => {
  const r = c.rank(0);
  if (r !== 4) {
    const mode = c.attr.string('mode') ?? (c.opset >= 20 ? 'linear' : 'bilinear');
    gridSampleNdToIr(c, mode === 'bilinear' ? 'linear' : mode, c.attr.string('padding_mode') ?? 'zeros', (c.attr.int('align_corners') ?? 0n) !== 0n);
    return;
  }
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
    toIr,
  },
  {
    onnx: { op: 'GridSample', since: 20 },
    ir: { op: 'GridSample', version: 'opset9' },
    attrs: [...COMMON, string('mode').default('linear').irDefaultTo('bilinear').map([['linear', 'bilinear'], ['nearest', 'nearest'], ['cubic', 'bicubic']])],
    toIr,
  },
];
