import { A, type Attr } from '../../src/graph/attr.js';
import { attrInt } from '../../src/graph/attr-read.js';
import type { Value } from '../../src/graph/value.js';
import { reshaped, withChannelBias } from './conv.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * ConvTranspose ⇄ ConvolutionBackpropData-1 (group 1) / GroupConvolutionBackpropData-1.
 *
 * Both compute, per spatial dim, the full transposed convolution of length
 * s·(in-1) + (k-1)·d + 1, crop pads_begin / pads_end and extend the end by output_padding. ONNX
 * weights are [C, M/G, k…]; IR GroupConvolutionBackpropData wants [G, C/G, M/G, k…]. The bias
 * input becomes an Add of the bias reshaped to [1, M, 1…].
 *
 * ONNX → IR always writes explicit pads, computed as onnx's reference does: auto_pad SAME_*
 * (output in·s, or output_shape) fixes the total padding
 *   total = s·(in-1) + output_padding + (k-1)·d + 1 - out
 * split SAME_UPPER: begin = ⌊total/2⌋, else begin = total - ⌊total/2⌋. Otherwise the pads
 * (given, or 0) stay and output_shape is reached by output_padding (or a larger end crop). Those cases need static
 * input dims; a negative begin pad has no IR form and is refused.
 */

interface Spatial { strides: bigint[]; dilations: bigint[]; pb: bigint[]; pe: bigint[]; op: bigint[] }

function spatialToIr(c: ConvertContext, n: number, kernel: readonly (number | null)[]): Spatial | null {
  const ones = new Array<bigint>(n).fill(1n);
  const zeros = new Array<bigint>(n).fill(0n);
  const strides = c.attr.ints('strides') ?? ones;
  const dilations = c.attr.ints('dilations') ?? ones;
  const pads = c.attr.ints('pads');
  const op = [...(c.attr.ints('output_padding') ?? zeros)];
  const outShape = c.attr.ints('output_shape');
  const auto = c.attr.string('auto_pad') ?? 'NOTSET';
  if (strides.length !== n || dilations.length !== n || op.length !== n || (pads && pads.length !== 2 * n)) {
    c.error(`strides/dilations/pads/output_padding do not match ${n} spatial dims`);
    return null;
  }
  if (!['NOTSET', 'VALID', 'SAME_UPPER', 'SAME_LOWER'].includes(auto)) { c.unsupportedAttr('auto_pad', auto); return null; }
  const same = auto === 'SAME_UPPER' || auto === 'SAME_LOWER';
  let pb = pads && auto === 'NOTSET' ? pads.slice(0, n) : [...zeros];
  let pe = pads && auto === 'NOTSET' ? pads.slice(n) : [...zeros];
  if (!same && !outShape) return { strides, dilations, pb, pe, op };

  const t = c.type(0);
  const x = t?.kind === 'tensor' && t.shape ? t.shape.slice(2) : null;
  if (!x || !x.every((d) => typeof d === 'number') || !kernel.every((k) => typeof k === 'number')) {
    c.error(`${outShape ? 'output_shape' : `auto_pad ${auto}`} needs static spatial dims of X and of the kernel (the pads are computed)`);
    return null;
  }
  const full = (i: number): bigint => strides[i]! * BigInt((x[i] as number) - 1) + BigInt((kernel[i] as number) - 1) * dilations[i]! + 1n;
  const out = outShape ? outShape.slice(-n) : x.map((d, i) => BigInt(d as number) * strides[i]!);
  if (out.length !== n) { c.error(`output_shape has ${outShape?.length} dims for ${n} spatial dims`); return null; }
  if (same) {
    const floorHalf = (v: bigint): bigint => (v >= 0n ? v / 2n : -((-v + 1n) / 2n));
    const total = out.map((o, i) => full(i) + op[i]! - o);
    pb = total.map((tp) => (auto === 'SAME_UPPER' ? floorHalf(tp) : tp - floorHalf(tp)));
    pe = total.map((tp, i) => tp - pb[i]!);
  }
  // Reach `out` with the pads fixed: output_padding (or a larger end crop) takes the difference.
  for (let i = 0; i < n; i++) {
    const diff = out[i]! - (full(i) - pb[i]! - pe[i]!);
    if (diff >= 0n) op[i] = diff; else { op[i] = 0n; pe[i] = pe[i]! - diff; }
    if (pb[i]! < 0n) { c.error(`the computed begin padding of spatial dim ${i} is ${pb[i]}; OpenVINO cannot pad at the begin of a transposed convolution`); return null; }
  }
  return { strides, dilations, pb, pe, op };
}

function convTransposeToIr(c: ConvertContext): void {
  const wt = c.type(1);
  const wdims = wt?.kind === 'tensor' ? wt.shape : null;
  if (!wdims) { c.error('ConvTranspose needs the rank of its weights'); return; }
  const n = wdims.length - 2;
  const kernelAttr = c.attr.ints('kernel_shape');
  const kernel = wdims.slice(2).map((d, i) => (typeof d === 'number' ? d : kernelAttr?.[i] !== undefined ? Number(kernelAttr[i]) : null));
  const sp = spatialToIr(c, n, kernel);
  if (!sp) return;
  const group = c.attr.int('group') ?? 1n;
  const attrs: Record<string, string> = {
    strides: sp.strides.join(','), dilations: sp.dilations.join(','),
    pads_begin: sp.pb.join(','), pads_end: sp.pe.join(','), output_padding: sp.op.join(','), auto_pad: 'explicit',
  };
  let w = c.input(1)!;
  let op = 'ConvolutionBackpropData';
  if (group !== 1n) {
    if (!wdims.every((d) => typeof d === 'number')) { c.error('grouped ConvTranspose needs static weight dims'); return; }
    const [cin, ...rest] = wdims as number[];
    const g = Number(group);
    if (g < 1 || cin! % g !== 0) { c.error(`weights have ${cin} input channels, not divisible by group ${g}`); return; }
    w = reshaped(c, 1, w, [g, cin! / g, ...rest]);
    op = 'GroupConvolutionBackpropData';
  }
  c.output(0, withChannelBias(c, c.emit(op, [c.input(0), w], attrs, 1, 'opset1')[0]!, n));
}

/**
 * IR pads as ONNX explicit pads + output_padding. Measured on OpenVINO 2026.4: without output_shape,
 * same_upper / same_lower compute the uncropped output (no padding); with an output_shape input,
 * explicit pads crop pads_begin and the output runs on for output_shape elements (zeros past the
 * end; output_padding is ignored), and same_upper / same_lower crop ⌈total/2⌉ / ⌊total/2⌋ at the
 * begin, total = full + output_padding - out.
 */
function padsToOnnx(c: ConvertContext, grouped: boolean, ap: string): { pads: bigint[]; op: bigint[] } | null {
  const pb = c.attr.ints('pads_begin') ?? [];
  const pe = c.attr.ints('pads_end') ?? [];
  const op = c.attr.ints('output_padding') ?? [];
  const explicit = ap === 'explicit' || ap === 'notset';
  if (!(c.numInputs > 2 && c.input(2))) return explicit ? { pads: [...pb, ...pe], op } : { pads: [], op };
  const out = c.constInts(2);
  if (out === null) { c.needsConstant(2, 'output_shape (ONNX output_shape is an attribute)'); return null; }
  const xt = c.type(0);
  const wt = c.type(1);
  const x = xt?.kind === 'tensor' && xt.shape ? xt.shape.slice(2) : null;
  const k = wt?.kind === 'tensor' && wt.shape ? wt.shape.slice(grouped ? 3 : 2) : null;
  const n = out.length;
  if (!x || !k || x.length !== n || k.length !== n || ![...x, ...k].every((d) => typeof d === 'number')) {
    c.error('an output_shape input needs static spatial dims of data and filters (the ONNX pads are computed)');
    return null;
  }
  const strides = c.attr.ints('strides') ?? new Array<bigint>(n).fill(1n);
  const dil = c.attr.ints('dilations') ?? new Array<bigint>(n).fill(1n);
  const begin: bigint[] = [];
  const end: bigint[] = [];
  const extra: bigint[] = [];
  for (let i = 0; i < n; i++) {
    const full = strides[i]! * BigInt((x[i] as number) - 1) + BigInt((k[i] as number) - 1) * dil[i]! + 1n;
    // explicit pads ignore output_padding here; same_* count it into the total (measured)
    const total = full + (explicit ? 0n : op[i] ?? 0n) - out[i]!;
    const half = total >= 0n ? total / 2n : -((-total + 1n) / 2n);
    let b = explicit ? (pb[i] ?? 0n) : ap === 'same_upper' ? total - half : ap === 'same_lower' ? half : 0n;
    if (b < 0n) b = 0n;
    const rest = full - b - out[i]!;
    begin.push(b);
    end.push(rest >= 0n ? rest : 0n);
    extra.push(rest >= 0n ? 0n : -rest);
  }
  return { pads: [...begin, ...end], op: extra };
}

function backpropToOnnx(c: ConvertContext, grouped: boolean): void {
  const ap = (c.attr.string('auto_pad') ?? 'explicit').trim().toLowerCase();
  if (!['explicit', 'notset', 'valid', 'same_upper', 'same_lower'].includes(ap)) { c.unsupportedAttr('auto_pad', ap); return; }
  const p = padsToOnnx(c, grouped, ap);
  if (!p) return;
  const strides = c.attr.ints('strides') ?? [];
  const dil = c.attr.ints('dilations') ?? [];
  const attrs = new Map<string, Attr>();
  if (strides.some((s) => s !== 1n)) attrs.set('strides', A.ints(strides));
  if (dil.some((s) => s !== 1n)) attrs.set('dilations', A.ints(dil));
  if (p.pads.some((v) => v !== 0n)) attrs.set('pads', A.ints(p.pads));
  if (p.op.some((v) => v !== 0n)) attrs.set('output_padding', A.ints(p.op));
  let w: Value = c.input(1)!;
  if (grouped) {
    const wt = c.type(1);
    const dims = wt?.kind === 'tensor' ? wt.shape : null;
    if (!dims || !dims.every((d) => typeof d === 'number')) { c.error('GroupConvolutionBackpropData needs static weight dims'); return; }
    // [G, C/G, M/G, k…] → [C, M/G, k…]
    const [g, cg, ...rest] = dims as number[];
    attrs.set('group', A.int(g!));
    w = reshaped(c, 1, w, [g! * cg!, ...rest]);
  }
  c.output(0, c.emit('ConvTranspose', [c.input(0), w], attrs)[0]!);
}

const ONNX_ATTRS = ['auto_pad', 'dilations', 'group', 'kernel_shape', 'output_padding', 'output_shape', 'pads', 'strides'];
const IR_ATTRS = ['strides', 'dilations', 'pads_begin', 'pads_end', 'output_padding', 'auto_pad'];

export const CONV_TRANSPOSE: readonly OpMapping[] = [
  {
    onnx: { op: 'ConvTranspose', since: 1 },
    ir: { op: 'ConvolutionBackpropData', version: 'opset1' },
    when: (n) => (attrInt(n, 'group') ?? 1n) === 1n,
    handles: { onnx: ONNX_ATTRS, ir: IR_ATTRS },
    note: 'explicit pads (output_shape / SAME_* computed from static dims); bias becomes an Add',
    toIr: convTransposeToIr,
    toOnnx: (c) => backpropToOnnx(c, false),
  },
  {
    onnx: { op: 'ConvTranspose', since: 1 },
    ir: { op: 'GroupConvolutionBackpropData', version: 'opset1' },
    when: (n) => (attrInt(n, 'group') ?? 1n) !== 1n,
    handles: { onnx: ONNX_ATTRS, ir: IR_ATTRS },
    note: 'weights [C, M/G, k…] ⇄ [G, C/G, M/G, k…]',
    toIr: convTransposeToIr,
    toOnnx: (c) => backpropToOnnx(c, true),
  },
];
