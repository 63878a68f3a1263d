import { A, type Attr } from '../../src/graph/attr.js';
import type { Value } from '../../src/graph/value.js';
import { i64Scalar } from '../helpers.js';
import { int, type ConvertContext, type OpMapping } from '../spec.js';

/**
 * Scatter and gather by index tensors (onnx/defs/tensor): ScatterElements (and its deprecated
 * spelling Scatter-9) ⇄ ScatterElementsUpdate-12, ScatterND ⇄ ScatterNDUpdate-15, GatherND ⇄
 * GatherND-8. ONNX's `axis` attribute is IR's 4th input; ONNX `reduction` (16: add/mul, 18:
 * max/min) is IR's `reduction` (sum/prod/max/min). IR forms ONNX lacks (reduction mean/sub,
 * use_init_val=false, GatherND-5's flattened batch) are refused with the reason.
 */

/** ONNX reduction → IR reduction, with the ONNX opset that introduced it. */
const REDUCTIONS: ReadonlyArray<readonly [onnx: string, ir: string, since: number]> = [
  ['none', 'none', 0], ['add', 'sum', 16], ['mul', 'prod', 16], ['max', 'max', 18], ['min', 'min', 18],
];

function reductionToIr(c: ConvertContext): string | null {
  const r = c.attr.string('reduction') ?? 'none';
  const hit = REDUCTIONS.find(([o]) => o === r);
  if (!hit) { c.unsupportedAttr('reduction', r, `supported: ${REDUCTIONS.map(([o]) => o).join(', ')}`); return null; }
  return hit[1];
}

/** IR reduction → ONNX attributes at the target opset (nothing for `none`), or null after a diagnostic. */
function reductionToOnnx(c: ConvertContext, onnxOp: string): Record<string, Attr> | null {
  const r = (c.attr.string('reduction') ?? 'none').trim().toLowerCase();
  const hit = REDUCTIONS.find(([, ir]) => ir === r);
  if (!hit) { c.unsupportedAttr('reduction', r, `ONNX ${onnxOp} reduces only by ${REDUCTIONS.slice(1).map(([o]) => o).join('/')}`); return null; }
  if (c.opset < hit[2]) { c.unsupportedAttr('reduction', r, `ONNX ${onnxOp} has reduction '${hit[0]}' from opset ${hit[2]} (target opset ${c.opset})`, hit[2]); return null; }
  return hit[0] === 'none' ? {} : { reduction: A.string(hit[0]) };
}

/** IR → ONNX: index operand `i` as the int64 ONNX's GatherND / ScatterND require (IR allows i32). */
function indicesI64(c: ConvertContext, i: number): Value | null {
  const v = c.input(i);
  if (!v || c.elem(i) === 'i64') return v;
  return c.emit('Cast', [v], { to: A.int(7) })[0]!;
}

/** ScatterElements (or Scatter-9) ⇄ ScatterElementsUpdate-12(data, indices, updates, axis). */
function scatterElements(onnxOp: string, since: number, until?: number): OpMapping {
  return {
    onnx: { op: onnxOp, since, ...(until !== undefined ? { until } : {}) },
    ir: { op: 'ScatterElementsUpdate', version: 'opset12', reads: ['opset3'] },
    handles: { onnx: ['axis', 'reduction'], ir: ['reduction', 'use_init_val'] },
    toIr: (c) => {
      const reduction = reductionToIr(c);
      if (reduction === null) return;
      const axis = c.attr.int('axis') ?? 0n;
      const outs = c.emit('ScatterElementsUpdate', [c.input(0), c.input(1), c.input(2), i64Scalar(c, axis)],
        { reduction, use_init_val: 'true' }, 1, 'opset12');
      c.output(0, outs[0]!);
    },
    toOnnx: (c) => {
      const red = reductionToOnnx(c, onnxOp);
      if (red === null) return;
      if (c.attr.bool('use_init_val') === false && red['reduction']) {
        c.unsupportedAttr('use_init_val', 'false', `ONNX ${onnxOp} always reduces into the initial value`); return;
      }
      const axis = c.constInts(3);
      if (axis === null || axis.length !== 1) { c.needsConstant(3, 'axis (ONNX axis is an attribute)'); return; }
      const attrs: Record<string, Attr> = { ...red };
      if (axis[0] !== 0n) attrs['axis'] = A.int(axis[0]!);
      c.output(0, c.emit(onnxOp, [c.input(0), c.input(1), c.input(2)], attrs)[0]!);
    },
  };
}

const SCATTER_ND: OpMapping = {
  onnx: { op: 'ScatterND', since: 11 },
  ir: { op: 'ScatterNDUpdate', version: 'opset15', reads: ['opset3', 'opset4'] },
  handles: { onnx: ['reduction'], ir: ['reduction'] },
  toIr: (c) => {
    const reduction = reductionToIr(c);
    if (reduction === null) return;
    c.output(0, c.emit('ScatterNDUpdate', [c.input(0), c.input(1), c.input(2)], { reduction }, 1, 'opset15')[0]!);
  },
  toOnnx: (c) => {
    const red = reductionToOnnx(c, 'ScatterND');
    if (red === null) return;
    c.output(0, c.emit('ScatterND', [c.input(0), indicesI64(c, 1), c.input(2)], red)[0]!);
  },
};

/**
 * GatherND-12+ (batch_dims) ⇄ GatherND-8: the same output shape, indices[:-1] + data[b + k:].
 * IR GatherND-5 flattens the batch dims into one; with batch_dims > 0 that shape has no ONNX op.
 */
const GATHER_ND: OpMapping = {
  onnx: { op: 'GatherND', since: 11 },
  ir: { op: 'GatherND', version: 'opset8', reads: ['opset5'] },
  attrs: [int('batch_dims').default(0n).irDefaultTo('0')],
  toOnnx: (c) => {
    const bd = c.attr.int('batch_dims') ?? 0n;
    if (c.node.version === 'opset5' && bd !== 0n) {
      c.unsupportedAttr('batch_dims', String(bd), 'GatherND-5 flattens the batch dims into one; ONNX GatherND keeps them (GatherND-8 converts)');
      return;
    }
    if (bd !== 0n && c.opset < 12) { c.unsupportedAttr('batch_dims', String(bd), `ONNX GatherND has batch_dims from opset 12 (target opset ${c.opset})`); return; }
    c.output(0, c.emit('GatherND', [c.input(0), indicesI64(c, 1)], bd === 0n ? {} : { batch_dims: A.int(bd) })[0]!);
  },
};

export const SCATTER: readonly OpMapping[] = [
  scatterElements('Scatter', 9, 10),
  scatterElements('ScatterElements', 11),
  SCATTER_ND,
  GATHER_ND,
];
