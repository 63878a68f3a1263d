import { A, type Attr } from '../../src/graph/attr.js';
import type { Value } from '../../src/graph/value.js';
import { scalarLike, scalarOf } from '../generator/constant-of-shape.js';
import { i64Const, normAxis } from '../helpers.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * Normalizations IR writes as MVN-6 (mean/variance normalization over constant axes, epsilon inside
 * the square root, as ONNX) followed by the scale and bias:
 *   LayerNormalization    = MVN(X, axes [axis, rank)) · Scale + B
 *   InstanceNormalization = MVN(X, axes [2, rank)) · scale[C,1..] + B[C,1..]
 */
function mvn(c: ConvertContext, x: Value, from: number, rank: number, eps: number): Value {
  const axes = i64Const(c, Array.from({ length: rank - from }, (_, i) => BigInt(from + i)));
  return c.emit('MVN', [x, axes], { normalize_variance: 'true', eps: String(eps), eps_mode: 'inside_sqrt' }, 1, 'opset6')[0]!;
}

const mul = (c: ConvertContext, a: Value, b: Value): Value => c.emit('Multiply', [a, b], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
const add = (c: ConvertContext, a: Value, b: Value): Value => c.emit('Add', [a, b], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;


/**
 * IR MVN-6 → ONNX: MeanVarianceNormalization when it is exactly that op (normalize_variance,
 * epsilon 1e-9 outside the square root), else ReduceMean / Sub / Mul / Sqrt / Div.
 */
/**
 * MVN-1 (IR version opset2) reduces over `reduction_axes`, or [1, rank) with across_channels and
 * [2, rank) without; its eps is added inside the square root (OpenVINO's CPU plugin computes it
 * so, measured: native-ir-ops mvn_v0_*).
 */
const MVN1_EPS_MODE = 'inside_sqrt';

function mvn1Axes(c: ConvertContext): bigint[] | null {
  const listed = c.attr.ints('reduction_axes');
  if (listed && listed.length) return listed;
  const r = c.rank(0);
  if (r === null) { c.error('MVN-1 without reduction_axes needs the rank of data to be known'); return null; }
  const from = (c.attr.bool('across_channels') ?? false) ? 1 : 2;
  return Array.from({ length: r - from }, (_, i) => BigInt(from + i));
}

function mvnToOnnx(c: ConvertContext): void {
  const v1 = c.numInputs < 2;
  const axes = v1 ? mvn1Axes(c) : c.constInts(1);
  if (axes === null) { if (!v1) c.needsConstant(1, 'axes'); return; }
  const variance = c.attr.bool('normalize_variance') ?? true;
  const eps = c.attr.float('eps') ?? 0;
  const mode = v1 ? MVN1_EPS_MODE : c.attr.string('eps_mode')?.trim().toLowerCase() ?? 'inside_sqrt';
  if (mode !== 'inside_sqrt' && mode !== 'outside_sqrt') { c.unsupportedAttr('eps_mode', mode); return; }
  const x = c.input(0)!;
  if (variance && mode === 'outside_sqrt' && Math.fround(eps) === Math.fround(1e-9) && c.elem(0) === 'f32') {
    c.output(0, c.emit('MeanVarianceNormalization', [x], { axes: A.ints(axes) })[0]!);
    return;
  }
  const reduceMean = (v: Value): Value => {
    if (c.opset >= 18) return c.emit('ReduceMean', [v, i64Const(c, axes)])[0]!;
    return c.emit('ReduceMean', [v], new Map<string, Attr>([['axes', A.ints(axes)]]))[0]!;
  };
  const d = c.emit('Sub', [x, reduceMean(x)])[0]!;
  if (!variance) { c.output(0, d); return; }
  const e = scalarLike(c, 0, eps, 'MVN eps');
  if (!e) return;
  const v = reduceMean(c.emit('Mul', [d, d])[0]!);
  const denom = mode === 'inside_sqrt'
    ? c.emit('Sqrt', [c.emit('Add', [v, e])[0]!])[0]!
    : c.emit('Add', [c.emit('Sqrt', [v])[0]!, e])[0]!;
  c.output(0, c.emit('Div', [d, denom])[0]!);
}

/**
 * RMSNormalization-23: X / sqrt(mean(X², axes [axis, rank)) + epsilon) · scale, computed in f32
 * (stash_type 1) as ONNX specifies; IR has no such op.
 */
function rmsNormToIr(c: ConvertContext): void {
  const r = c.rank(0);
  const elem = c.elem(0);
  if (r === null || elem === null) { c.error('RMSNormalization needs the rank and type of X to be known (the axes are constant)'); return; }
  const stash = c.attr.int('stash_type') ?? 1n;
  if (stash !== 1n) { c.unsupportedAttr('stash_type', String(stash), 'only f32 (1) computation'); return; }
  const axis = normAxis(c.attr.int('axis') ?? -1n, r);
  let x = c.input(0)!;
  if (elem !== 'f32') x = c.emit('Convert', [x], { destination_type: 'f32' }, 1, 'opset1')[0]!;
  const axes = i64Const(c, Array.from({ length: r - axis }, (_, i) => BigInt(axis + i)));
  const ms = c.emit('ReduceMean', [mul(c, x, x), axes], { keep_dims: 'true' }, 1, 'opset1')[0]!;
  const eps = c.constant(scalarOf('f32', c.attr.float('epsilon') ?? 1e-5)!);
  const rms = c.emit('Sqrt', [add(c, ms, eps)], {}, 1, 'opset1')[0]!;
  let y = c.emit('Divide', [x, rms], { auto_broadcast: 'numpy', m_pythondiv: 'true' }, 1, 'opset1')[0]!;
  if (elem !== 'f32') y = c.emit('Convert', [y], { destination_type: elem }, 1, 'opset1')[0]!;
  c.output(0, mul(c, y, c.input(1)!));
}

/** LRN over channels: IR LRN-1 with axes [1] computes the same (alpha divided by size). */
function lrnToOnnx(c: ConvertContext): void {
  const axes = c.constInts(1);
  if (axes === null) { c.needsConstant(1, 'axes'); return; }
  const r = c.rank(0);
  if (axes.length !== 1 || (r !== null ? normAxis(axes[0]!, r) : Number(axes[0])) !== 1) {
    c.error(`LRN over axes [${axes.join(',')}]: ONNX LRN normalizes across channels (axis 1) only`);
    return;
  }
  const attrs = new Map<string, Attr>([['size', A.int(c.attr.int('size') ?? 1n)]]);
  for (const [name, dflt] of [['alpha', 1e-4], ['beta', 0.75], ['bias', 1]] as const) {
    const v = c.attr.float(name);
    if (v !== undefined && Math.fround(v) !== Math.fround(dflt)) attrs.set(name, A.float(v));
  }
  c.output(0, c.emit('LRN', [c.input(0)], attrs)[0]!);
}

export const NORMALIZATION: readonly OpMapping[] = [
  {
    // ONNX MeanVarianceNormalization: (X - E[X]) / (sqrt(Var) + 1e-9) over axes (default 0, 2, 3).
    onnx: { op: 'MeanVarianceNormalization', since: 9 },
    ir: { op: 'MVN', version: 'opset6', reads: ['opset2'] },
    handles: { onnx: ['axes'], ir: ['normalize_variance', 'eps', 'eps_mode', 'across_channels', 'reduction_axes'] },
    toIr: (c) => {
      const axes = c.attr.ints('axes') ?? [0n, 2n, 3n];
      c.output(0, c.emit('MVN', [c.input(0), i64Const(c, axes)], { normalize_variance: 'true', eps: '1e-9', eps_mode: 'outside_sqrt' }, 1, 'opset6')[0]!);
    },
    toOnnx: mvnToOnnx,
  },
  {
    onnx: { op: 'LayerNormalization', since: 17 },
    ir: null,
    decomposes: ['MVN', 'Multiply', 'Add'],
    handles: { onnx: ['axis', 'epsilon', 'stash_type'] },
    note: 'IR: MVN-6 over [axis, rank) · Scale + B; Mean / InvStdDev (when read) from ReduceMean',
    toIr: (c) => {
      const r = c.rank(0);
      if (r === null) { c.error('LayerNormalization needs the rank of X to be known (MVN axes are constant)'); return; }
      const axis = normAxis(c.attr.int('axis') ?? -1n, r);
      let y = mul(c, mvn(c, c.input(0)!, axis, r, c.attr.float('epsilon') ?? 1e-5), c.input(1)!);
      if (c.numInputs > 2 && c.input(2)) y = add(c, y, c.input(2)!);
      c.output(0, y);
      const wanted = (i: number): boolean => { const o = c.node.outputs[i]; return !!o && (o.uses.length > 0 || o.graph.outputs.includes(o)); };
      if (wanted(1) || wanted(2)) {
        // Mean and 1 / sqrt(Var + epsilon) over the same axes, kept as dims.
        const axes = i64Const(c, Array.from({ length: r - axis }, (_, i) => BigInt(axis + i)));
        const x = c.input(0)!;
        const mean = c.emit('ReduceMean', [x, axes], { keep_dims: 'true' }, 1, 'opset1')[0]!;
        const d = c.emit('Subtract', [x, mean], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
        const v = c.emit('ReduceMean', [mul(c, d, d), axes], { keep_dims: 'true' }, 1, 'opset1')[0]!;
        const eps = scalarLike(c, 0, c.attr.float('epsilon') ?? 1e-5, 'epsilon');
        const one = scalarLike(c, 0, 1, 'InvStdDev');
        if (!eps || !one) return;
        const inv = c.emit('Divide', [one, c.emit('Sqrt', [add(c, v, eps)], {}, 1, 'opset1')[0]!], { auto_broadcast: 'numpy', m_pythondiv: 'true' }, 1, 'opset1')[0]!;
        if (wanted(1)) c.output(1, mean); else c.unused(1);
        if (wanted(2)) c.output(2, inv); else c.unused(2);
      } else {
        for (let i = 1; i < c.node.outputs.length; i++) c.unused(i);
      }
    },
  },
  {
    onnx: { op: 'InstanceNormalization', since: 6 },
    ir: null,
    decomposes: ['MVN', 'Multiply', 'Add'],
    handles: { onnx: ['epsilon'] },
    note: 'IR: MVN-6 over the spatial axes, then per-channel scale and bias',
    toIr: (c) => {
      const r = c.rank(0);
      if (r === null || r < 3) { c.error('InstanceNormalization needs X of known rank 3 or more'); return; }
      const perChannel = (v: Value): Value => c.emit('Unsqueeze', [v, i64Const(c, Array.from({ length: r - 2 }, (_, i) => BigInt(i + 1)))], {}, 1, 'opset1')[0]!;
      const y = mul(c, mvn(c, c.input(0)!, 2, r, c.attr.float('epsilon') ?? 1e-5), perChannel(c.input(1)!));
      c.output(0, add(c, y, perChannel(c.input(2)!)));
    },
  },
  {
    onnx: { op: 'RMSNormalization', since: 23 },
    ir: null,
    decomposes: ['Multiply', 'ReduceMean', 'Add', 'Sqrt', 'Divide', 'Convert'],
    handles: { onnx: ['axis', 'epsilon', 'stash_type'] },
    note: 'IR: X / Sqrt(ReduceMean(X·X over [axis, rank)) + epsilon) · scale, in f32',
    toIr: rmsNormToIr,
  },
  {
    onnx: { op: 'LRN', since: 1 },
    ir: { op: 'LRN', version: 'opset1' },
    handles: { onnx: ['alpha', 'beta', 'bias', 'size'], ir: ['alpha', 'beta', 'bias', 'size'] },
    note: 'IR takes the normalized axes as input 1: [1] (across channels)',
    toIr: (c) => {
      const size = c.attr.int('size');
      if (size === undefined) { c.error('LRN needs its size attribute'); return; }
      c.output(0, c.emit('LRN', [c.input(0), i64Const(c, [1n])], {
        alpha: String(c.attr.float('alpha') ?? 1e-4), beta: String(c.attr.float('beta') ?? 0.75),
        bias: String(c.attr.float('bias') ?? 1), size: String(size),
      }, 1, 'opset1')[0]!);
    },
    toOnnx: lrnToOnnx,
  },
];
