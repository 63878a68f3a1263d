import { attrBool, attrInt, attrInts, attrString } from '../graph/attr-read.js';
import { fromIrElementType, fromOnnxDataType, type ElementTypeName } from '../graph/element-type.js';
import type { Node } from '../graph/node.js';
import { elementCount } from '../graph/shape.js';
import { coerce, host, isFloat, isWide, strides, toHost, type HostTensor } from './host-tensor.js';

/**
 * What the constant folder can compute, op by op, with each spec's exact semantics. One kernel
 * serves both dialects where ONNX and OpenVINO agree (names listed per dialect); where they
 * differ (integer division, Reshape's zero, Gather's axis, Squeeze/Unsqueeze axes) the kernel
 * reads the node's own attributes or inputs. A kernel returns null when it cannot fold this
 * node exactly (an attribute or mode it does not implement): the node is then left as it is.
 */
export type Kernel = (node: Node, ins: readonly (HostTensor | null)[]) => HostTensor[] | null;

interface Entry { readonly onnx?: readonly string[]; readonly ov?: readonly string[]; readonly kernel: Kernel }

type Num = number | bigint;

/** numpy multidirectional broadcasting of two shapes; null when they do not broadcast. */
export function broadcastDims(a: readonly number[], b: readonly number[]): number[] | null {
  const r = Math.max(a.length, b.length);
  const out: number[] = [];
  for (let k = 0; k < r; k++) {
    const x = a[a.length - r + k] ?? 1;
    const y = b[b.length - r + k] ?? 1;
    if (x !== y && x !== 1 && y !== 1) return null;
    out.push(x === 1 ? y : x);
  }
  return out;
}

/** Index into a broadcast operand for each flat index of the output. */
function broadcastIndex(src: readonly number[], out: readonly number[]): (i: number) => number {
  const so = strides(out);
  const ss = strides(src);
  const off = out.length - src.length;
  return (i) => {
    let j = 0;
    for (let k = 0; k < src.length; k++) {
      const d = Math.floor(i / so[k + off]!) % out[k + off]!;
      if (src[k] !== 1) j += d * ss[k]!;
    }
    return j;
  };
}

function elementwise(ts: readonly HostTensor[], elem: ElementTypeName, f: (xs: Num[]) => Num): HostTensor | null {
  let dims: number[] = [];
  for (const t of ts) { const d = broadcastDims(dims, t.dims); if (!d) return null; dims = d; }
  const idx = ts.map((t) => broadcastIndex(t.dims, dims));
  const count = elementCount(dims);
  const values: Num[] = new Array(count);
  for (let i = 0; i < count; i++) values[i] = coerce(f(ts.map((t, k) => t.values[idx[k]!(i)]!)), elem);
  return { elem, dims, values };
}

const all = (ins: readonly (HostTensor | null)[], k: number): ins is HostTensor[] => ins.length >= k && ins.slice(0, k).every((t) => t !== null);

/** A binary arithmetic kernel: both operands of one element type (as both specs require). */
function arith(fFloat: (a: number, b: number) => number, fInt: (a: bigint, b: bigint) => bigint | null): Kernel {
  return (_node, ins) => {
    if (!all(ins, 2) || ins[0]!.elem !== ins[1]!.elem) return null;
    const elem = ins[0]!.elem;
    if (elem === 'boolean') return null;
    let bad = false;
    const r = elementwise([ins[0]!, ins[1]!], elem, ([a, b]) => {
      if (isFloat(elem)) return fFloat(Number(a), Number(b));
      const v = fInt(BigInt(a!), BigInt(b!));
      if (v === null) { bad = true; return 0; }
      return isWide(elem) ? v : Number(v);
    });
    return r && !bad ? [r] : null;
  };
}

function compare(f: (a: Num, b: Num) => boolean): Kernel {
  return (_node, ins) => {
    if (!all(ins, 2) || ins[0]!.elem !== ins[1]!.elem) return null;
    const r = elementwise([ins[0]!, ins[1]!], 'boolean', ([a, b]) => (f(a!, b!) ? 1 : 0));
    return r ? [r] : null;
  };
}

function logic(f: (a: boolean, b: boolean) => boolean): Kernel {
  return (_node, ins) => {
    if (!all(ins, 2) || ins[0]!.elem !== 'boolean' || ins[1]!.elem !== 'boolean') return null;
    const r = elementwise([ins[0]!, ins[1]!], 'boolean', ([a, b]) => (f(a !== 0, b !== 0) ? 1 : 0));
    return r ? [r] : null;
  };
}

function unary(f: (x: Num, elem: ElementTypeName) => Num | null): Kernel {
  return (_node, ins) => {
    if (!all(ins, 1)) return null;
    const t = ins[0]!;
    const values: Num[] = [];
    for (const x of t.values) { const y = f(x, t.elem); if (y === null) return null; values.push(coerce(y, t.elem)); }
    return [{ elem: t.elem, dims: t.dims, values }];
  };
}

const ints = (t: HostTensor | null | undefined): number[] | null => (t ? t.values.map(Number) : null);
const normAxis = (a: number, rank: number): number | null => (a < -rank || a >= rank ? null : a < 0 ? a + rank : a);

/** Gather along `axis` (batch_dims 0): negative indices count from the end. */
function gather(data: HostTensor, indices: HostTensor, axisIn: number): HostTensor | null {
  const axis = normAxis(axisIn, data.dims.length);
  if (axis === null) return null;
  const outer = elementCount(data.dims.slice(0, axis));
  const inner = elementCount(data.dims.slice(axis + 1));
  const n = data.dims[axis]!;
  const idx: number[] = [];
  for (const v of indices.values) {
    const i = Number(v);
    if (i < -n || i >= n) return null;
    idx.push(i < 0 ? i + n : i);
  }
  const values: Num[] = [];
  for (let o = 0; o < outer; o++) for (const i of idx) for (let k = 0; k < inner; k++) values.push(data.values[(o * n + i) * inner + k]!);
  return { elem: data.elem, dims: [...data.dims.slice(0, axis), ...indices.dims, ...data.dims.slice(axis + 1)], values };
}

function concat(ts: readonly HostTensor[], axisIn: number): HostTensor | null {
  if (!ts.length) return null;
  const rank = ts[0]!.dims.length;
  const axis = normAxis(axisIn, rank);
  if (axis === null || ts.some((t) => t.elem !== ts[0]!.elem || t.dims.length !== rank || t.dims.some((d, k) => k !== axis && d !== ts[0]!.dims[k]))) return null;
  const outer = elementCount(ts[0]!.dims.slice(0, axis));
  const values: Num[] = [];
  for (let o = 0; o < outer; o++) {
    for (const t of ts) {
      const chunk = elementCount(t.dims.slice(axis));
      for (let k = 0; k < chunk; k++) values.push(t.values[o * chunk + k]!);
    }
  }
  const dims = [...ts[0]!.dims];
  dims[axis] = ts.reduce((s, t) => s + t.dims[axis]!, 0);
  return { elem: ts[0]!.elem, dims, values };
}

/**
 * Reshape to `shape`: -1 infers one dim; 0 copies the input dim unless `zeroIsSize`
 * (ONNX allowzero=1 / OpenVINO special_zero=false, where 0 is a size).
 */
function reshape(t: HostTensor, shape: readonly number[], zeroIsSize: boolean): HostTensor | null {
  const dims = shape.map((d, k) => (d === 0 && !zeroIsSize ? t.dims[k] ?? -2 : d));
  if (dims.some((d) => d < -1) || dims.filter((d) => d === -1).length > 1) return null;
  const known = dims.reduce((p, d) => (d === -1 ? p : p * d), 1);
  const count = t.values.length;
  const at = dims.indexOf(-1);
  if (at >= 0) { if (known === 0 || count % known) return null; dims[at] = count / known; }
  if (elementCount(dims) !== count) return null;
  return { elem: t.elem, dims, values: t.values };
}

/** ONNX/OpenVINO Slice: per axis start/end clamped as the specs say, any non-zero step. */
function slice(t: HostTensor, starts: number[], ends: number[], axesIn: number[] | null, stepsIn: number[] | null): HostTensor | null {
  const rank = t.dims.length;
  const axes = axesIn ?? starts.map((_, k) => k);
  const steps = stepsIn ?? starts.map(() => 1);
  if (ends.length !== starts.length || axes.length !== starts.length || steps.length !== starts.length) return null;
  const lo = t.dims.map(() => 0);
  const st = t.dims.map(() => 1);
  const cnt = [...t.dims];
  const seen = new Set<number>();
  for (let k = 0; k < starts.length; k++) {
    const a = normAxis(axes[k]!, rank);
    const step = steps[k]!;
    if (a === null || seen.has(a) || step === 0) return null;
    seen.add(a);
    const d = t.dims[a]!;
    let s = starts[k]!;
    let e = ends[k]!;
    s = s < 0 ? s + d : s;
    e = e < 0 ? e + d : e;
    if (step > 0) { s = Math.min(Math.max(s, 0), d); e = Math.min(Math.max(e, 0), d); cnt[a] = Math.max(0, Math.ceil((e - s) / step)); }
    else { s = Math.min(Math.max(s, -1), d - 1); e = Math.min(Math.max(e, -1), d - 1); cnt[a] = Math.max(0, Math.ceil((s - e) / -step)); }
    lo[a] = s;
    st[a] = step;
  }
  const sIn = strides(t.dims);
  const sOut = strides(cnt);
  const count = elementCount(cnt);
  const values: Num[] = new Array(count);
  for (let i = 0; i < count; i++) {
    let j = 0;
    for (let k = 0; k < rank; k++) j += (lo[k]! + (Math.floor(i / sOut[k]!) % cnt[k]!) * st[k]!) * sIn[k]!;
    values[i] = t.values[j]!;
  }
  return { elem: t.elem, dims: cnt, values };
}

function squeeze(t: HostTensor, axesIn: number[] | null): HostTensor | null {
  const rank = t.dims.length;
  const axes = new Set<number>();
  for (const a of axesIn ?? t.dims.flatMap((d, k) => (d === 1 ? [k] : []))) {
    const x = normAxis(a, rank);
    if (x === null || t.dims[x] !== 1) return null;
    axes.add(x);
  }
  return { elem: t.elem, dims: t.dims.filter((_, k) => !axes.has(k)), values: t.values };
}

function unsqueeze(t: HostTensor, axesIn: number[]): HostTensor | null {
  const rank = t.dims.length + axesIn.length;
  const axes = new Set<number>();
  for (const a of axesIn) { const x = normAxis(a, rank); if (x === null || axes.has(x)) return null; axes.add(x); }
  const dims: number[] = [];
  let j = 0;
  for (let k = 0; k < rank; k++) dims.push(axes.has(k) ? 1 : t.dims[j++]!);
  return { elem: t.elem, dims, values: t.values };
}

function cast(t: HostTensor, to: ElementTypeName | undefined): HostTensor | null {
  if (!to || !['f32', 'f64', 'f16', 'i64', 'u64', 'i32', 'u32', 'i16', 'u16', 'i8', 'u8', 'boolean'].includes(to)) return null;
  // float → integer truncates toward zero; NaN/inf to an integer is undefined in both specs: refuse
  if (isFloat(t.elem) && !isFloat(to) && to !== 'boolean' && t.values.some((x) => !Number.isFinite(Number(x)))) return null;
  return host(to, t.dims, t.values.map((x) => (to === 'boolean' ? (Number(x) !== 0 ? 1 : 0) : x)));
}

function range(start: HostTensor, limit: HostTensor, delta: HostTensor, elem: ElementTypeName): HostTensor | null {
  const [s, l, d] = [Number(start.values[0]), Number(limit.values[0]), Number(delta.values[0])];
  if (d === 0 || ![s, l, d].every(Number.isFinite)) return null;
  const count = Math.max(Math.ceil((l - s) / d), 0);
  if (count > 1 << 20) return null;
  return host(elem, [count], Array.from({ length: count }, (_, i) => s + i * d));
}

const floorDiv = (a: bigint, b: bigint): bigint | null => {
  if (b === 0n) return null;
  const q = a / b;
  return (a % b !== 0n) && ((a < 0n) !== (b < 0n)) ? q - 1n : q;
};
const truncDiv = (a: bigint, b: bigint): bigint | null => (b === 0n ? null : a / b);

const ENTRIES: readonly Entry[] = [
  { onnx: ['Add'], ov: ['Add'], kernel: arith((a, b) => a + b, (a, b) => a + b) },
  { onnx: ['Sub'], ov: ['Subtract'], kernel: arith((a, b) => a - b, (a, b) => a - b) },
  { onnx: ['Mul'], ov: ['Multiply'], kernel: arith((a, b) => a * b, (a, b) => a * b) },
  // ONNX integer Div truncates (as C and onnxruntime do); OpenVINO Divide floors when m_pythondiv (default true)
  { onnx: ['Div'], kernel: arith((a, b) => a / b, truncDiv) },
  {
    ov: ['Divide'],
    kernel: (node, ins) => {
      const python = attrBool(node, 'm_pythondiv') ?? true;
      return arith((a, b) => a / b, python ? floorDiv : truncDiv)(node, ins);
    },
  },
  { onnx: ['Equal'], ov: ['Equal'], kernel: compare((a, b) => a === b || Number(a) === Number(b)) },
  { ov: ['NotEqual'], kernel: compare((a, b) => Number(a) !== Number(b) && a !== b) },
  { onnx: ['Greater'], ov: ['Greater'], kernel: compare((a, b) => a > b) },
  { onnx: ['Less'], ov: ['Less'], kernel: compare((a, b) => a < b) },
  { onnx: ['GreaterOrEqual'], ov: ['GreaterEqual'], kernel: compare((a, b) => a >= b) },
  { onnx: ['LessOrEqual'], ov: ['LessEqual'], kernel: compare((a, b) => a <= b) },
  { onnx: ['And'], ov: ['LogicalAnd'], kernel: logic((a, b) => a && b) },
  { onnx: ['Or'], ov: ['LogicalOr'], kernel: logic((a, b) => a || b) },
  { onnx: ['Xor'], ov: ['LogicalXor'], kernel: logic((a, b) => a !== b) },
  {
    onnx: ['Not'], ov: ['LogicalNot'],
    kernel: (_n, ins) => (all(ins, 1) && ins[0]!.elem === 'boolean' ? unary((x) => (x ? 0 : 1))(_n, ins) : null),
  },
  { onnx: ['Neg'], ov: ['Negative'], kernel: unary((x) => (typeof x === 'bigint' ? -x : -x)) },
  { onnx: ['Abs'], ov: ['Abs'], kernel: unary((x) => (typeof x === 'bigint' ? (x < 0n ? -x : x) : Math.abs(x))) },
  { onnx: ['Identity'], kernel: (_n, ins) => (all(ins, 1) ? [ins[0]!] : null) },
  {
    onnx: ['Where'], ov: ['Select'],
    kernel: (node, ins) => {
      if (!all(ins, 3) || ins[0]!.elem !== 'boolean' || ins[1]!.elem !== ins[2]!.elem) return null;
      if (node.dialect === 'ov' && (attrString(node, 'auto_broadcast') ?? 'numpy') !== 'numpy') return null;
      const r = elementwise([ins[0]!, ins[1]!, ins[2]!], ins[1]!.elem, ([c, x, y]) => (c ? x! : y!));
      return r ? [r] : null;
    },
  },
  {
    onnx: ['Gather'],
    kernel: (node, ins) => (all(ins, 2) ? wrap(gather(ins[0]!, ins[1]!, Number(attrInt(node, 'axis') ?? 0n))) : null),
  },
  {
    ov: ['Gather'],
    kernel: (node, ins) => {
      if (!all(ins, 3) || Number(attrInt(node, 'batch_dims') ?? 0n) !== 0) return null;
      return wrap(gather(ins[0]!, ins[1]!, Number(ins[2]!.values[0])));
    },
  },
  { onnx: ['Concat'], ov: ['Concat'], kernel: (node, ins) => (ins.every((t) => t) ? wrap(concat(ins as HostTensor[], Number(attrInt(node, 'axis') ?? 0n))) : null) },
  {
    onnx: ['Reshape'],
    kernel: (node, ins) => (all(ins, 2) ? wrap(reshape(ins[0]!, ints(ins[1])!, (attrInt(node, 'allowzero') ?? 0n) === 1n)) : null),
  },
  {
    ov: ['Reshape'],
    kernel: (node, ins) => {
      if (!all(ins, 2)) return null;
      return wrap(reshape(ins[0]!, ints(ins[1])!, !(attrBool(node, 'special_zero') ?? false)));
    },
  },
  {
    onnx: ['Squeeze'],
    kernel: (node, ins) => {
      if (!ins[0]) return null;
      const axes = ins[1] ? ints(ins[1]) : attrInts(node, 'axes')?.map(Number) ?? null;
      return wrap(squeeze(ins[0], axes));
    },
  },
  { ov: ['Squeeze'], kernel: (_n, ins) => (ins[0] && (ins.length < 2 || ins[1]) ? wrap(squeeze(ins[0], ins[1] ? ints(ins[1]) : null)) : null) },
  {
    onnx: ['Unsqueeze'],
    kernel: (node, ins) => {
      const axes = ins[1] ? ints(ins[1]) : attrInts(node, 'axes')?.map(Number) ?? null;
      return ins[0] && axes ? wrap(unsqueeze(ins[0], axes)) : null;
    },
  },
  { ov: ['Unsqueeze'], kernel: (_n, ins) => (all(ins, 2) ? wrap(unsqueeze(ins[0]!, ints(ins[1])!)) : null) },
  {
    onnx: ['Slice'],
    kernel: (node, ins) => {
      if (!ins[0]) return null;
      if (Number(node.version) < 10) {
        const s = attrInts(node, 'starts')?.map(Number);
        const e = attrInts(node, 'ends')?.map(Number);
        return s && e ? wrap(slice(ins[0], s, e, attrInts(node, 'axes')?.map(Number) ?? null, null)) : null;
      }
      if (!ins[1] || !ins[2] || (node.inputs[3] && !ins[3]) || (node.inputs[4] && !ins[4])) return null;
      return wrap(slice(ins[0], ints(ins[1])!, ints(ins[2])!, ints(ins[3]), ints(ins[4])));
    },
  },
  {
    ov: ['Slice'],
    kernel: (node, ins) => {
      if (!all(ins, 4) || (node.inputs[4] && !ins[4])) return null;
      return wrap(slice(ins[0]!, ints(ins[1])!, ints(ins[2])!, ints(ins[4]), ints(ins[3])));
    },
  },
  {
    onnx: ['Cast'],
    kernel: (node, ins) => (all(ins, 1) ? wrap(cast(ins[0]!, fromOnnxDataType(Number(attrInt(node, 'to') ?? -1n))?.name)) : null),
  },
  {
    ov: ['Convert'],
    kernel: (node, ins) => (all(ins, 1) ? wrap(cast(ins[0]!, fromIrElementType(attrString(node, 'destination_type') ?? '')?.name)) : null),
  },
  {
    onnx: ['ConstantOfShape'],
    kernel: (node, ins) => {
      if (!all(ins, 1)) return null;
      const dims = ints(ins[0])!;
      if (dims.some((d) => d < 0) || elementCount(dims) > 1 << 20) return null;
      const a = node.attrs.get('value');
      let elem: ElementTypeName = 'f32';
      let fill: Num = 0;
      if (a?.type === 'tensor') {
        const t = a.value;
        const h = toHost(t);
        if (!h || h.values.length !== 1) return null;
        elem = h.elem;
        fill = h.values[0]!;
      }
      return [host(elem, dims, new Array<Num>(elementCount(dims)).fill(fill))];
    },
  },
  {
    onnx: ['Range'],
    kernel: (_n, ins) => (all(ins, 3) ? wrap(range(ins[0]!, ins[1]!, ins[2]!, ins[0]!.elem)) : null),
  },
  {
    ov: ['Range'],
    kernel: (node, ins) => {
      if (!all(ins, 3)) return null;
      const ot = node.version === 'opset4' ? fromIrElementType(attrString(node, 'output_type') ?? '')?.name : ins[0]!.elem;
      return ot ? wrap(range(ins[0]!, ins[1]!, ins[2]!, ot)) : null;
    },
  },
];


const wrap = (t: HostTensor | null): HostTensor[] | null => (t ? [t] : null);

const TABLE = new Map<string, Kernel>();
for (const e of ENTRIES) {
  for (const op of e.onnx ?? []) TABLE.set(`onnx:${op}`, e.kernel);
  for (const op of e.ov ?? []) TABLE.set(`ov:${op}`, e.kernel);
}

/** The folding kernel for a node (ONNX default domain, or any OpenVINO op), if there is one. */
export function kernelFor(node: Node): Kernel | undefined {
  if (node.dialect === 'onnx' && node.domain !== '' && node.domain !== 'ai.onnx') return undefined;
  return TABLE.get(`${node.dialect}:${node.op}`);
}

/** Shape / ShapeOf of a value whose shape is static: as i64 (ONNX, ShapeOf-1, output_type i64) or i32. */
export function shapeKernel(node: Node): ElementTypeName | null {
  if (node.dialect === 'onnx' && node.op === 'Shape' && (node.domain === '' || node.domain === 'ai.onnx')) {
    return node.attrs.has('start') || node.attrs.has('end') ? null : 'i64';
  }
  if (node.dialect === 'ov' && node.op === 'ShapeOf') {
    const ot = attrString(node, 'output_type');
    return ot === undefined || ot === 'i64' ? 'i64' : ot === 'i32' ? 'i32' : null;
  }
  return null;
}
