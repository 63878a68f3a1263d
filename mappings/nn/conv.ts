import { A, type Attr } from '../../src/graph/attr.js';
import { attrInt } from '../../src/graph/attr-read.js';
import { makeTensor, tensorFromInt64 } from '../../src/graph/tensor.js';
import type { Value } from '../../src/graph/value.js';
import { scalarLike } from '../generator/constant-of-shape.js';
import { i64Const } from '../helpers.js';
import { integerConvOperands } from './conv-integer.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * Convolution and pooling. ONNX spells padding as one `pads` list (all begins, then all ends) and
 * leaves strides/dilations/pads to defaults; IR wants pads_begin/pads_end/strides/dilations
 * explicit. ONNX Conv with group > 1 is IR GroupConvolution (weights [G, O/G, I/G, k…]); Conv's
 * bias input is an IR Add of the bias reshaped to [1, C, 1…].
 */
const AUTO_PAD: ReadonlyArray<readonly [string, string]> = [['NOTSET', 'explicit'], ['SAME_UPPER', 'same_upper'], ['SAME_LOWER', 'same_lower'], ['VALID', 'valid']];

/** ONNX spatial attributes → IR strings; `spatial` = number of spatial dims. */
export function spatialToIr(c: ConvertContext, spatial: number, withDilations: boolean): Record<string, string> | null {
  const ones = new Array<bigint>(spatial).fill(1n);
  const zeros = new Array<bigint>(spatial).fill(0n);
  const strides = c.attr.ints('strides') ?? ones;
  const dilations = c.attr.ints('dilations') ?? ones;
  const pads = c.attr.ints('pads') ?? [...zeros, ...zeros];
  if (pads.length !== 2 * spatial || strides.length !== spatial || dilations.length !== spatial) {
    c.error(`strides/dilations/pads do not match ${spatial} spatial dims`);
    return null;
  }
  const ap = c.attr.string('auto_pad', 'NOTSET');
  const m = AUTO_PAD.find(([o]) => o === ap);
  if (!m) { c.unsupportedAttr('auto_pad', ap); return null; }
  const out: Record<string, string> = {
    strides: strides.join(','),
    pads_begin: pads.slice(0, spatial).join(','),
    pads_end: pads.slice(spatial).join(','),
    auto_pad: m[1],
  };
  if (withDilations) out['dilations'] = dilations.join(',');
  return out;
}

/** IR spatial attributes → ONNX (defaults left out). */
function spatialToOnnx(c: ConvertContext, withDilations: boolean): Record<string, Attr> | null {
  const strides = c.attr.ints('strides') ?? [];
  const pb = c.attr.ints('pads_begin') ?? [];
  const pe = c.attr.ints('pads_end') ?? [];
  const dil = c.attr.ints('dilations') ?? [];
  const ap = c.attr.string('auto_pad', 'explicit').trim().toLowerCase();
  const m = AUTO_PAD.find(([, i]) => i === ap);
  if (!m) { c.unsupportedAttr('auto_pad', ap); return null; }
  const out: Record<string, Attr> = {};
  if (m[0] !== 'NOTSET') out['auto_pad'] = A.string(m[0]);
  if (strides.some((s) => s !== 1n)) out['strides'] = A.ints(strides);
  if (withDilations && dil.some((s) => s !== 1n)) out['dilations'] = A.ints(dil);
  if (m[0] === 'NOTSET' && [...pb, ...pe].some((p) => p !== 0n)) out['pads'] = A.ints([...pb, ...pe]);
  return out;
}

/** Input `i` (converted: `v`) with new dims: the same bytes when it is a constant, else a Reshape. */
export function reshaped(c: ConvertContext, i: number, v: Value, dims: number[]): Value {
  const t = v.constant;
  if (t) return c.constant(makeTensor(t.elem, dims, t.data));
  const ov = c.node.dialect === 'onnx';
  return c.emit('Reshape', [v, i64Const(c, dims.map(BigInt))], ov ? { special_zero: 'false' } : {}, 1, ov ? 'opset1' : undefined)[0]!;
}

/**
 * ONNX Conv's IR form (Convolution or GroupConvolution, the bias B added), or null after a
 * diagnostic; com.microsoft FusedConv builds on it (mappings/microsoft/fused.ts).
 */
export function convToIrValue(c: ConvertContext): Value | null {
  const wr = c.rank(1);
  if (wr === null) { c.error(`${c.node.op} needs the rank of its weights`); return null; }
  const spatial = wr - 2;
  const attrs = spatialToIr(c, spatial, true);
  if (!attrs) return null;
  const group = c.attr.int('group', 1n);
  let w = c.input(1)!;
  let op = 'Convolution';
  if (group !== 1n) {
    const wt = c.type(1);
    const dims = wt?.kind === 'tensor' ? wt.shape : null;
    if (!dims || !dims.every((d) => typeof d === 'number')) { c.error(`grouped ${c.node.op} needs static weight dims`); return null; }
    // [O, I/G, k…] → [G, O/G, I/G, k…]
    const [o, ...rest] = dims as number[];
    const g = Number(group);
    if (g < 1 || o! % g !== 0) { c.error(`weights have ${o} output channels, not divisible by group ${group}`); return null; }
    w = reshaped(c, 1, w, [g, o! / g, ...rest]);
    op = 'GroupConvolution';
  }
  return withChannelBias(c, c.emit(op, [c.input(0), w], attrs, 1, 'opset1')[0]!, spatial);
}

function convToIr(c: ConvertContext): void {
  const y = convToIrValue(c);
  if (y) c.output(0, y);
}

/**
 * A convolution's bias input B [C] (input `index`: 2 for Conv/ConvTranspose, 3 for DeformConv),
 * when present, added to `y` as IR writes it: Add of B as [1, C, 1…] — a Const of that shape when
 * B is constant, as ovc writes it (IR → ONNX folds it back into B: conv-bias.ts), else a Reshape.
 */
export function withChannelBias(c: ConvertContext, y: Value, spatial: number, index = 2): Value {
  const bias = c.numInputs > index ? c.input(index) : null;
  if (!bias) return y;
  const channels = bias.constant ? bias.constant.dims.reduce((n, d) => n * d, 1) : -1;
  const b = reshaped(c, index, bias, [1, channels, ...new Array<number>(spatial).fill(1)]);
  return c.emit('Add', [y, b], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
}

/** A GroupConvolution's static weight dims [G, O/G, I/G, k…], else an error and null. */
function groupedWeightDims(c: ConvertContext): number[] | null {
  const wt = c.type(1);
  const dims = wt?.kind === 'tensor' ? wt.shape : null;
  if (!dims || !dims.every((d) => typeof d === 'number')) { c.error('GroupConvolution needs static weight dims'); return null; }
  return dims as number[];
}

function convToOnnx(c: ConvertContext, grouped: boolean): void {
  const attrs = spatialToOnnx(c, true);
  if (!attrs) return;
  const integer = integerConvOperands(c, grouped);
  if (integer) {
    const { x, xZero, wZero } = integer;
    let w = integer.w;
    if (grouped) {
      const dims = groupedWeightDims(c);
      if (!dims) return;
      const [groups, perGroup, ...rest] = dims;
      attrs['group'] = A.int(groups!);
      if (!integer.onnxLayout) w = c.emit('Reshape', [w, c.constant(tensorFromInt64([BigInt(groups! * perGroup!), ...rest.map(BigInt)], [rest.length + 1]))])[0]!;
    }
    const ins = wZero ? [x, w, xZero, wZero] : xZero ? [x, w, xZero] : [x, w];
    c.output(0, c.emit('ConvInteger', ins, attrs)[0]!);
    return;
  }
  let w: Value | null = c.input(1);
  if (grouped) {
    const dims = groupedWeightDims(c);
    if (!dims) return;
    // [G, O/G, I/G, k…] → [O, I/G, k…]
    const [groups, perGroup, ...rest] = dims;
    attrs['group'] = A.int(groups!);
    w = reshaped(c, 1, w!, [groups! * perGroup!, ...rest]);
  }
  c.output(0, c.emit('Conv', [c.input(0), w], attrs)[0]!);
}

/**
 * MaxPool storage_order=1 over 2 spatial dims: the index of (n, c, h, w) is
 * (n·C + c)·H·W + h + w·H instead of IR's row-major (n·C + c)·H·W + h·W + w. From the row-major
 * index i: local = i mod HW, h = local div W, w = local - h·W, base = i - local.
 */
function columnMajor(c: ConvertContext, rowMajor: Value): Value {
  const bin = (op: string, a: Value, b: Value): Value =>
    c.emit(op, [a, b], op === 'Divide' ? { auto_broadcast: 'numpy', m_pythondiv: 'true' } : { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
  const shape = c.emit('ShapeOf', [c.input(0)], { output_type: 'i64' }, 1, 'opset3')[0]!;
  const dim = (i: bigint): Value => c.emit('Gather', [shape, c.constant(tensorFromInt64([i], [])), c.constant(tensorFromInt64([0n], []))], { batch_dims: '0' }, 1, 'opset8')[0]!;
  const [h, w] = [dim(2n), dim(3n)];
  const local = bin('FloorMod', rowMajor, bin('Multiply', h, w));
  const row = bin('Divide', local, w);
  const col = bin('Subtract', local, bin('Multiply', row, w));
  return bin('Add', bin('Subtract', rowMajor, local), bin('Add', row, bin('Multiply', col, h)));
}

/**
 * BatchNormalization-14/15 training_mode=1: Y is normalized with the batch's own statistics
 * (mean and population variance over every axis but 1), and the running statistics are updated:
 *   Y = BatchNormInference(x, scale, B, mean(x), var(x), epsilon)
 *   running_mean = input_mean · momentum + mean(x) · (1 - momentum)   (running_var alike)
 */
function batchNormTraining(c: ConvertContext): void {
  const r = c.rank(0);
  if (r === null || r < 2) { c.error(`training_mode=1 needs x of known rank ≥ 2 (got ${r ?? 'unknown'})`); return; }
  const momentum = c.attr.float('momentum', 0.9);
  const m = scalarLike(c, 3, momentum, 'BatchNormalization momentum');
  const rest = scalarLike(c, 3, 1 - momentum, 'BatchNormalization momentum');
  if (!m || !rest) return;
  const bin = (op: string, a: Value | null, b: Value): Value => c.emit(op, [a, b], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
  const axes = i64Const(c, [0n, ...Array.from({ length: r - 2 }, (_, i) => BigInt(i + 2))]);
  const x = c.input(0)!;
  const meanK = c.emit('ReduceMean', [x, axes], { keep_dims: 'true' }, 1, 'opset1')[0]!;
  const d = bin('Subtract', x, meanK);
  const varK = c.emit('ReduceMean', [bin('Multiply', d, d), axes], { keep_dims: 'true' }, 1, 'opset1')[0]!;
  const flat = (v: Value): Value => c.emit('Reshape', [v, i64Const(c, [-1n])], { special_zero: 'false' }, 1, 'opset1')[0]!;
  const [mean, variance] = [flat(meanK), flat(varK)];
  const eps = String(c.attr.float('epsilon', 1e-5));
  c.output(0, c.emit('BatchNormInference', [x, c.input(1), c.input(2), mean, variance], { epsilon: eps }, 1, 'opset5')[0]!);
  const running = (i: number, batch: Value): Value => bin('Add', bin('Multiply', c.input(i), m), bin('Multiply', batch, rest));
  if (c.node.outputs.length > 1) c.output(1, running(3, mean));
  if (c.node.outputs.length > 2) c.output(2, running(4, variance));
}

/** Pools: kernel_shape ↔ kernel; ceil_mode ↔ rounding_type. */
function poolToIr(c: ConvertContext, op: 'MaxPool' | 'AvgPool'): void {
  const kernel = c.attr.ints('kernel_shape');
  if (!kernel) { c.error('kernel_shape is required'); return; }
  const attrs = spatialToIr(c, kernel.length, op === 'MaxPool');
  if (!attrs) return;
  attrs['kernel'] = kernel.join(',');
  const rounding = roundingToIr(c, kernel);
  attrs['rounding_type'] = rounding;
  const torch = rounding === 'ceil_torch';
  if (op === 'MaxPool') {
    const so = c.attr.int('storage_order', 0n);
    const withIndices = c.node.outputs.length > 1;
    if (so !== 0n && so !== 1n) { c.unsupportedAttr('storage_order', String(so), 'must be 0 (row-major) or 1 (column-major)'); return; }
    if (so === 1n && withIndices && kernel.length > 2) { c.unsupportedAttr('storage_order', '1', `column-major indices of ${kernel.length} spatial dims are not converted (1 or 2 only)`); return; }
    attrs['index_element_type'] = 'i64';
    attrs['axis'] = '0';
    // Indices: ONNX flattens N, C and the spatial dims row-major = IR axis 0.
    const outs = c.emit('MaxPool', [c.input(0)], attrs, 2, torch ? 'opset14' : 'opset8');
    c.output(0, outs[0]!);
    if (withIndices) c.output(1, so === 1n && kernel.length === 2 ? columnMajor(c, outs[1]!) : outs[1]!);
  } else {
    // AveragePool-19 dilations: IR AvgPool-16 has them, AvgPool-1 does not.
    const dil = c.attr.ints('dilations');
    const dilated = !!dil?.some((d) => d !== 1n);
    if (dilated) attrs['dilations'] = dil!.join(',');
    attrs['exclude-pad'] = c.attr.int('count_include_pad', 0n) !== 0n ? 'false' : 'true';
    c.output(0, c.emit('AvgPool', [c.input(0)], attrs, 1, dilated ? 'opset16' : torch ? 'opset14' : 'opset1')[0]!);
  }
}

/**
 * True when every last window starts inside the input or its begin padding (static dims), so that
 * ceil rounding with and without dropping a last window in the end padding agree (IR ceil vs
 * ceil_torch; ONNX ceil_mode before and from opset 22).
 */
function lastWindowsStartInside(x: readonly unknown[] | null, k: readonly bigint[], s: readonly bigint[], d: readonly bigint[], pb: readonly bigint[], pe: readonly bigint[]): boolean {
  if (!x || x.length !== k.length || !x.every((v) => typeof v === 'number')) return false;
  return (x as number[]).every((dim, i) => {
    const stride = Number(s[i] ?? 1n);
    const span = (Number(k[i]!) - 1) * Number(d[i] ?? 1n) + 1;
    const padded = dim + Number(pb[i] ?? 0n) + Number(pe[i] ?? 0n);
    const out = Math.ceil((padded - span) / stride) + 1;
    return (out - 1) * stride < dim + Number(pb[i] ?? 0n);
  });
}

/** The static spatial dims of source input 0, or null. */
function spatialDims(c: ConvertContext): readonly unknown[] | null {
  const t = c.type(0);
  return t?.kind === 'tensor' && t.shape ? t.shape.slice(2) : null;
}

/** IR attributes of a pool: whether ceil_torch and plain ceil agree. */
function lastWindowStartsInside(c: ConvertContext): boolean {
  const a = (n: string): bigint[] => c.attr.ints(n) ?? [];
  return lastWindowsStartInside(spatialDims(c), a('kernel'), a('strides'), a('dilations'), a('pads_begin'), a('pads_end'));
}

/**
 * ONNX ceil_mode → IR rounding_type. From opset 22 ONNX drops a last window that would start in
 * the end padding (onnx's test_maxpool_2d_ceil_output_size_reduce_by_one): IR ceil_torch
 * (MaxPool-14, AvgPool-14), where it can make a difference.
 */
function roundingToIr(c: ConvertContext, kernel: readonly bigint[]): 'floor' | 'ceil' | 'ceil_torch' {
  if (c.attr.int('ceil_mode', 0n) === 0n) return 'floor';
  if (c.opset < 22 || c.attr.string('auto_pad', 'NOTSET') !== 'NOTSET') return 'ceil';
  const a = (n: string): bigint[] => c.attr.ints(n) ?? [];
  const pads = a('pads');
  const inside = lastWindowsStartInside(spatialDims(c), kernel, a('strides'), a('dilations'), pads.slice(0, kernel.length), pads.slice(kernel.length));
  return inside ? 'ceil' : 'ceil_torch';
}

function poolToOnnx(c: ConvertContext, op: 'MaxPool' | 'AveragePool'): void {
  const attrs = spatialToOnnx(c, op === 'MaxPool');
  if (!attrs) return;
  attrs['kernel_shape'] = A.ints(c.attr.ints('kernel') ?? []);
  const rt = c.attr.string('rounding_type', 'floor').trim().toLowerCase();
  if (rt !== 'floor' && rt !== 'ceil' && rt !== 'ceil_torch') { c.unsupportedAttr('rounding_type', rt); return; }
  if (rt === 'ceil_torch' && c.opset < 22 && !lastWindowStartsInside(c)) {
    c.unsupportedAttr('rounding_type', rt, 'a last window starting in the end padding is dropped, as ONNX ceil_mode does from opset 22 (use --opset 22 or later)', 22);
    return;
  }
  if (rt !== 'floor') attrs['ceil_mode'] = A.int(1);
  if (op === 'MaxPool') {
    const idx = c.node.outputs[1];
    const wanted = !!idx && (idx.uses.length > 0 || idx.graph.outputs.includes(idx));
    if (!wanted) {
      c.output(0, c.emit('MaxPool', [c.input(0)], attrs)[0]!);
      for (let i = 1; i < c.node.outputs.length; i++) c.unused(i);
      return;
    }
    // ONNX Indices flatten N, C and the spatial dims row-major: IR axis 0; other axes differ.
    const axis = c.attr.int('axis') ?? 0n;
    if (axis !== 0n) { c.unsupportedAttr('axis', String(axis), 'ONNX MaxPool indices count from the batch dim (axis 0)'); return; }
    if (c.opset < 8) { c.error('MaxPool with an Indices output needs ONNX opset 8 or later'); return; }
    const [y, i64] = c.emit('MaxPool', [c.input(0)], attrs, 2);
    c.output(0, y!);
    const elem = idx.type?.kind === 'tensor' ? idx.type.elem : 'i64';
    c.output(1, elem === 'i32' ? c.emit('Cast', [i64!], { to: A.int(6) })[0]! : i64!);
  } else {
    const dil = c.attr.ints('dilations') ?? [];
    if (dil.some((d) => d !== 1n)) {
      if (c.opset < 19) { c.unsupportedAttr('dilations', dil.join(','), 'ONNX AveragePool has dilations from opset 19 (use --opset 19 or later)', 19); return; }
      attrs['dilations'] = A.ints(dil);
    }
    if (!c.attr.bool('exclude-pad', false)) attrs['count_include_pad'] = A.int(1);
    c.output(0, c.emit('AveragePool', [c.input(0)], attrs)[0]!);
  }
}

export const CONV_ONNX = ['strides', 'dilations', 'pads', 'auto_pad', 'group', 'kernel_shape'];
const CONV_IR = ['strides', 'dilations', 'pads_begin', 'pads_end', 'auto_pad'];
const POOL_ONNX = ['strides', 'dilations', 'pads', 'auto_pad', 'kernel_shape', 'ceil_mode'];
const POOL_IR = ['strides', 'pads_begin', 'pads_end', 'auto_pad', 'kernel', 'rounding_type'];

/** IR BatchNormInference operands in ONNX order (X, scale, B, mean, var): -1 has (gamma, beta, data, mean, variance). */
const bnOperands = (c: ConvertContext): (Value | null)[] => (c.node.version === 'opset1' ? [2, 0, 1, 3, 4] : [0, 1, 2, 3, 4]).map((i) => c.input(i));

export const CONV: readonly OpMapping[] = [
  {
    onnx: { op: 'Conv', since: 1 },
    ir: { op: 'Convolution', version: 'opset1' },
    when: (n) => (attrInt(n, 'group') ?? 1n) === 1n,
    handles: { onnx: CONV_ONNX, ir: CONV_IR },
    toIr: convToIr,
    toOnnx: (c) => convToOnnx(c, false),
    note: 'kernel_shape is implied by the weights; bias becomes an Add',
  },
  {
    onnx: { op: 'Conv', since: 1 },
    ir: { op: 'GroupConvolution', version: 'opset1' },
    when: (n) => (attrInt(n, 'group') ?? 1n) !== 1n,
    handles: { onnx: CONV_ONNX, ir: CONV_IR },
    toIr: convToIr,
    toOnnx: (c) => convToOnnx(c, true),
  },
  {
    onnx: { op: 'MaxPool', since: 1 },
    ir: { op: 'MaxPool', version: 'opset8', reads: ['opset1', 'opset14'] },
    handles: { onnx: [...POOL_ONNX, 'storage_order'], ir: [...POOL_IR, 'dilations', 'index_element_type', 'axis'] },
    toIr: (c) => poolToIr(c, 'MaxPool'),
    toOnnx: (c) => poolToOnnx(c, 'MaxPool'),
  },
  {
    onnx: { op: 'AveragePool', since: 1 },
    ir: { op: 'AvgPool', version: 'opset1', reads: ['opset14', 'opset16'] },
    handles: { onnx: [...POOL_ONNX, 'count_include_pad'], ir: [...POOL_IR, 'exclude-pad', 'dilations'] },
    toIr: (c) => poolToIr(c, 'AvgPool'),
    toOnnx: (c) => poolToOnnx(c, 'AveragePool'),
  },
  {
    // BatchNormalization-6/7: is_test and spatial (1: statistics per channel, as from opset 9).
    onnx: { op: 'BatchNormalization', since: 6, until: 8 },
    ir: { op: 'BatchNormInference', version: 'opset5', reads: ['opset1'] },
    handles: { onnx: ['momentum', 'is_test', 'spatial', 'consumed_inputs', 'epsilon'], ir: ['epsilon'] },
    toIr: (c) => {
      const spatial = c.attr.int('spatial') ?? 1n;
      if (spatial !== 1n) { c.unsupportedAttr('spatial', String(spatial), 'statistics per element are not converted (OpenVINO normalizes per channel)'); return; }
      if (c.node.outputs.length > 1) { c.error('training outputs (running mean/var, saved statistics) are not converted'); return; }
      c.output(0, c.emit('BatchNormInference', [0, 1, 2, 3, 4].map((i) => c.input(i)), { epsilon: String(c.attr.float('epsilon') ?? 1e-5) }, 1, 'opset5')[0]!);
    },
    toOnnx: (c) => {
      const attrs = new Map<string, Attr>();
      const e = c.attr.float('epsilon');
      if (e !== undefined && Math.fround(e) !== Math.fround(1e-5)) attrs.set('epsilon', A.float(e));
      if (c.opset < 7) attrs.set('is_test', A.int(1));
      c.output(0, c.emit('BatchNormalization', bnOperands(c), attrs)[0]!);
    },
  },
  {
    // Inference form only: momentum and spatial do not change what inference computes.
    onnx: { op: 'BatchNormalization', since: 9 },
    ir: { op: 'BatchNormInference', version: 'opset5', reads: ['opset1'] },
    handles: { onnx: ['momentum', 'training_mode'] },
    attrs: [{ onnx: 'epsilon', ir: 'epsilon', kind: 'float', onnxDefault: 1e-5 }],
    // BatchNormInference-1 is the same op with data third: the ONNX op of its operands in ONNX order
    foldOnnx: (c) => (c.node.version === 'opset1' ? c.emitOwn(bnOperands(c), c.attrs())[0]! : null),
    toIr: (c) => {
      if (c.attr.int('training_mode', 0n) !== 0n) { batchNormTraining(c); return; }
      if (c.node.outputs.length > 1) { c.error('training outputs (running mean/var) are not converted'); return; }
      // epsilon: by the declarative rule (c.attrs()).
      c.output(0, c.emitOwn([0, 1, 2, 3, 4].map((i) => c.input(i)), c.attrs())[0]!);
    },
  },
];
