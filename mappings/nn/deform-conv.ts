import { A, type Attr } from '../../src/graph/attr.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { spatialToIr, withChannelBias } from './conv.js';

/**
 * DeformConv-19/22 ⇄ DeformableConvolution-8 (2-D, as OpenVINO's op).
 *   ONNX (X, W, offset, B?, mask?)  ⇄  IR (data, offsets, filters, mask?) + Add of B as [1, C, 1, 1]
 * Both lay offsets out as [N, offset_group·kH·kW·2, oH, oW] with (Δy, Δx) pairs per kernel
 * position, and the mask as [N, offset_group·kH·kW, oH, oW]; group = group, offset_group =
 * deformable_group. ONNX samples outside the image bilinearly with zeros beyond the border, which is
 * OpenVINO's bilinear_interpolation_pad = true (false, OpenVINO's default, drops samples whose
 * corners are not all inside: no ONNX form, refused). kernel_shape is implied by W.
 */
function deformToIr(c: ConvertContext): void {
  const wr = c.rank(1);
  if (wr !== 4) { c.error(`DeformConv weights of rank ${wr ?? 'unknown'}: OpenVINO DeformableConvolution-8 is 2-D only (weights [C_out, C_in/group, kH, kW])`); return; }
  const ks = c.attr.ints('kernel_shape');
  const wt = c.type(1);
  const wdims = wt?.kind === 'tensor' ? wt.shape : null;
  if (ks && wdims && ks.some((k, i) => typeof wdims[2 + i] === 'number' && BigInt(wdims[2 + i] as number) !== k)) {
    c.unsupportedAttr('kernel_shape', ks.join(','), `kernel_shape differs from the weights' spatial dims ${wdims.slice(2).join('x')}`);
    return;
  }
  const sp = spatialToIr(c, 2, true);
  if (!sp) return;
  delete sp['auto_pad'];
  const mask = c.numInputs > 4 ? c.input(4) : null;
  const attrs: Record<string, string> = {
    ...sp, auto_pad: 'explicit',
    group: String(c.attr.int('group', 1n)), deformable_group: String(c.attr.int('offset_group', 1n)),
    bilinear_interpolation_pad: 'true',
  };
  const y = c.emitOwn(mask ? [c.input(0), c.input(2), c.input(1), mask] : [c.input(0), c.input(2), c.input(1)], attrs)[0]!;
  c.output(0, withChannelBias(c, y, 2, 3));
}

function deformToOnnx(c: ConvertContext): void {
  if (!c.attr.bool('bilinear_interpolation_pad', false)) {
    c.unsupportedAttr('bilinear_interpolation_pad', 'false', 'ONNX DeformConv samples with zero padding beyond the border (bilinear_interpolation_pad = true) only');
    return;
  }
  const ap = c.attr.string('auto_pad', 'explicit').trim().toLowerCase();
  if (ap !== 'explicit' && ap !== 'notset') { c.unsupportedAttr('auto_pad', ap, 'ONNX DeformConv has explicit pads only'); return; }
  const attrs: Record<string, Attr> = {};
  const strides = c.attr.ints('strides') ?? [];
  const dil = c.attr.ints('dilations') ?? [];
  const pads = [...(c.attr.ints('pads_begin') ?? []), ...(c.attr.ints('pads_end') ?? [])];
  if (strides.some((v) => v !== 1n)) attrs['strides'] = A.ints(strides);
  if (dil.some((v) => v !== 1n)) attrs['dilations'] = A.ints(dil);
  if (pads.some((v) => v !== 0n)) attrs['pads'] = A.ints(pads);
  const group = c.attr.int('group', 1n);
  const dg = c.attr.int('deformable_group', 1n);
  if (group !== 1n) attrs['group'] = A.int(group);
  if (dg !== 1n) attrs['offset_group'] = A.int(dg);
  const mask = c.numInputs > 3 ? c.input(3) : null;
  c.output(0, c.emitOwn(mask ? [c.input(0), c.input(2), c.input(1), null, mask] : [c.input(0), c.input(2), c.input(1)], attrs)[0]!);
}

export const DEFORM_CONV: readonly OpMapping[] = [
  {
    onnx: { op: 'DeformConv', since: 19 },
    ir: { op: 'DeformableConvolution', version: 'opset8' },
    handles: {
      onnx: ['strides', 'dilations', 'pads', 'kernel_shape', 'group', 'offset_group'],
      ir: ['strides', 'dilations', 'pads_begin', 'pads_end', 'auto_pad', 'group', 'deformable_group', 'bilinear_interpolation_pad'],
    },
    note: 'IR inputs (X, offset, W, mask); bias B an Add; bilinear_interpolation_pad = true',
    toIr: deformToIr,
    toOnnx: deformToOnnx,
  },
];
