import { A } from '../../src/graph/attr.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const, i64Scalar } from '../helpers.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { typedScalar } from '../typed-consts.js';

/**
 * ONNX NonMaxSuppression-10/11(boxes, scores, max_output_boxes_per_class?, iou_threshold?,
 * score_threshold?; center_point_box) ⇄ IR NonMaxSuppression-9 (-5: the same operands)
 * (…, soft_nms_sigma?; box_encoding, sort_result_descending, output_type), as OpenVINO's frontend:
 * the 1-element thresholds are IR scalars, results per batch and class in ONNX's order
 * (sort_result_descending=false). ONNX without score_threshold keeps every score: IR gets -inf.
 * IR's extra outputs (selected_scores, valid_outputs) are computed from the indices when read.
 * NonMaxSuppression-1/3/4 (one output) are read too: their spec gives the output a fixed row count
 * padded with −1, but OpenVINO's CPU plugin returns the selected rows only, as ONNX does (measured
 * in native-ir-ops nms_v*: 5 rows out of a declared 6).
 */
function scalarOf(c: ConvertContext, i: number): Value {
  const v = c.input(i)!;
  return c.rank(i) === 0 ? v : c.emit('Reshape', [v, i64Const(c, [])], { special_zero: 'false' }, 1, 'opset1')[0]!;
}

function vectorOf(c: ConvertContext, i: number, cast?: number): Value {
  let v = c.input(i)!;
  if (cast !== undefined) v = c.emit('Cast', [v], { to: A.int(cast) })[0]!;
  return c.rank(i) === 1 ? v : c.emit('Reshape', [v, i64Const(c, [1n])])[0]!;
}

const present = (c: ConvertContext, i: number): boolean => c.numInputs > i && c.input(i) !== null;

export const NON_MAX_SUPPRESSION: readonly OpMapping[] = [
  {
    onnx: { op: 'NonMaxSuppression', since: 10 },
    ir: { op: 'NonMaxSuppression', version: 'opset9', reads: ['opset5', 'opset1', 'opset3', 'opset4'] },
    handles: { onnx: ['center_point_box'], ir: ['box_encoding', 'sort_result_descending', 'output_type'] },
    toIr: (c) => {
      const center = c.attr.int('center_point_box') ?? 0n;
      if (center !== 0n && center !== 1n) { c.unsupportedAttr('center_point_box', String(center), 'supported: 0, 1'); return; }
      const f32 = (v: number): Value => c.constant(typedScalar('f32', v)!);
      const ins = [
        c.input(0), c.input(1),
        present(c, 2) ? scalarOf(c, 2) : i64Scalar(c, 0n),
        present(c, 3) ? scalarOf(c, 3) : f32(0),
        present(c, 4) ? scalarOf(c, 4) : f32(-Infinity),
      ];
      const outs = c.emit('NonMaxSuppression', ins, { box_encoding: center === 1n ? 'center' : 'corner', sort_result_descending: 'false', output_type: 'i64' }, 3, 'opset9');
      c.output(0, outs[0]!);
    },
    toOnnx: (c) => {
      const encoding = (c.attr.string('box_encoding') ?? 'corner').trim().toLowerCase();
      if (encoding !== 'corner' && encoding !== 'center') { c.unsupportedAttr('box_encoding', encoding, 'supported: corner, center'); return; }
      if (c.attr.bool('sort_result_descending') ?? true) {
        c.unsupportedAttr('sort_result_descending', 'true', 'ONNX NonMaxSuppression orders results by batch and class; sorting all of them by score has no ONNX form');
        return;
      }
      if (present(c, 5)) {
        const sigma = c.constNumbers(5);
        if (sigma === null) { c.needsConstant(5, 'soft_nms_sigma (ONNX has no soft NMS)'); return; }
        if (sigma.some((s) => s !== 0)) { c.error(`soft_nms_sigma ${sigma.join(',')}: ONNX NonMaxSuppression has no soft NMS`); return; }
      }
      const ins: (Value | null)[] = [c.input(0), c.input(1)];
      if (present(c, 2)) ins.push(vectorOf(c, 2, c.elem(2) === 'i64' ? undefined : 7));
      if (present(c, 3)) { while (ins.length < 3) ins.push(null); ins.push(vectorOf(c, 3)); }
      if (present(c, 4)) { while (ins.length < 4) ins.push(null); ins.push(vectorOf(c, 4)); }
      const [sel] = c.emit('NonMaxSuppression', ins, encoding === 'center' ? { center_point_box: A.int(1) } : {});
      const outType = (c.attr.string('output_type') ?? 'i64').trim().toLowerCase();
      const typed = (v: Value): Value => (outType === 'i64' ? v : c.emit('Cast', [v], { to: A.int(6) })[0]!);
      c.output(0, typed(sel!));
      const used = (i: number): boolean => { const o = c.node.outputs[i]; return !!o && (o.uses.length > 0 || o.graph.outputs.includes(o)); };
      if (used(1)) {
        // selected_scores: [batch, class, score] rows, as floats of the scores' type
        const elem = c.elem(1);
        const code = elem === 'f16' ? 10 : elem === 'f64' ? 11 : 1;
        const score = c.emit('Unsqueeze', [c.emit('GatherND', [c.input(1), sel!])[0]!, ...(c.opset >= 13 ? [i64Const(c, [1n])] : [])], c.opset >= 13 ? {} : { axes: A.ints([1n]) })[0]!;
        const head = c.emit('Cast', [c.emit('Slice', [sel!, i64Const(c, [0n]), i64Const(c, [2n]), i64Const(c, [1n])])[0]!], { to: A.int(code) })[0]!;
        c.output(1, c.emit('Concat', [head, score], { axis: A.int(1) })[0]!);
      } else c.unused(1);
      if (used(2)) {
        const count = c.emit('Slice', [c.emit('Shape', [sel!])[0]!, i64Const(c, [0n]), i64Const(c, [1n])])[0]!;
        c.output(2, typed(count));
      } else c.unused(2);
    },
  },
];

