import type { Value } from '../../src/graph/value.js';
import { on } from '../ir-only/onnx-build.js';
import type { ConvertContext } from '../spec.js';
import { f32Const } from './nms-rows.js';

/** A proposal decoded from its anchor: centre (cx, cy) and size (w, h). */
export interface DecodedBox { cx: Value; cy: Value; w: Value; h: Value }

/**
 * Detectron's decoding of box deltas (dx, dy, dw, dh) against anchors (x0, y0, x1, y1), as
 * OpenVINO's proposal ops compute it in f32: anchor sizes x1 − x0 + `one` (1, or 0 for normalized
 * boxes), centre moved by dx·w, dy·h from x0 + w/2, y0 + h/2, sizes scaled by exp of dw, dh capped
 * at log(1000 / 16) (the cap of Detectron's BBOX_XFORM_CLIP).
 */
export function decodeBoxDeltas(c: ConvertContext, anchors: readonly [Value, Value, Value, Value], deltas: readonly [Value, Value, Value, Value], one: Value): DecodedBox {
  const op = (name: string, a: Value, b: Value): Value => on(c, name, [a, b]);
  const [x0, y0, x1, y1] = anchors;
  const [dx, dy, dw, dh] = deltas;
  const half = f32Const(c, 0.5, []);
  const ww = op('Add', op('Sub', x1, x0), one);
  const hh = op('Add', op('Sub', y1, y0), one);
  const maxLog = f32Const(c, Math.fround(Math.log(1000 / 16)), []);
  return {
    cx: op('Add', op('Mul', dx, ww), op('Add', x0, op('Mul', half, ww))),
    cy: op('Add', op('Mul', dy, hh), op('Add', y0, op('Mul', half, hh))),
    w: op('Mul', on(c, 'Exp', [op('Min', dw, maxLog)]), ww),
    h: op('Mul', on(c, 'Exp', [op('Min', dh, maxLog)]), hh),
  };
}
