import { ELEMENT_TYPES, elementType, type ElementTypeName } from '../graph/element-type.js';
import { A } from '../graph/attr.js';
import { allGraphs } from '../graph/graph.js';
import type { Model } from '../graph/model.js';
import { Node } from '../graph/node.js';
import { tensorType } from '../graph/types.js';
import { Value } from '../graph/value.js';
import { allowedElems, formalInput, formalOutput, onnxSchema, type OnnxSchemaRow } from '../onnx/op-schema.js';
import { ortLacks } from '../onnx/ort-gaps.js';

/** Entries of WIDEN for ops whose bf16 form is computed in f32 (constraint T), one reason for all. */
function bf16InF32(ops: readonly string[], why: string): Record<string, { param: string; why: string; bf16Only: true }> {
  return Object.fromEntries(ops.map((op) => [op, { param: 'T', why, bf16Only: true as const }]));
}

/**
 * IR → ONNX type legalization. IR ops take element types the ONNX op at the target opset does not
 * (Pow on int8), or that onnxruntime has no kernel for (Max on int16, TopK on uint64). Where
 * computing in a wider type and casting back gives exactly the same numbers, the operands bound to
 * the offending type constraint are Cast up and the outputs bound to it Cast back. Ops not listed
 * here keep their types, and the schema validation (src/onnx/validate.ts) refuses what the opset
 * does not take, naming the op, the type and the opset that would.
 *
 * Exact widening, per op (constraint parameter → why):
 */
const WIDEN: Readonly<Record<string, { readonly param: string; readonly why: string; readonly alongside?: string; readonly copies?: true; readonly bf16Only?: true }>> = {
  Max: { param: 'T', why: 'the larger of two values is the same in a wider type' },
  Min: { param: 'T', why: 'the smaller of two values is the same in a wider type' },
  // Selection only copies values: a type that goes to another and back bit for bit (u64 ⇄ i64
  // wraps modulo 2^64 both ways, boolean ⇄ u8 is 0/1) works as well as a wider one.
  Where: { param: 'T', why: 'selection copies values', copies: true },
  ReverseSequence: { param: 'T', why: 'reversing copies values', copies: true },
  Compress: { param: 'T', why: 'selection copies values', copies: true },
  OneHot: { param: 'T3', why: 'the output copies the on/off values', copies: true },
  Unique: { param: 'T', why: 'ordering and equality are the same in a wider type' },
  TopK: { param: 'T', why: 'ordering is the same in a wider type' },
  ArgMax: { param: 'T', why: 'ordering is the same in a wider type' },
  ArgMin: { param: 'T', why: 'ordering is the same in a wider type' },
  ReduceMax: { param: 'T', why: 'ordering is the same in a wider type' },
  ReduceMin: { param: 'T', why: 'ordering is the same in a wider type' },
  Relu: { param: 'T', why: 'max(x, 0) is the same in a wider type' },
  IsInf: { param: 'T1', why: 'f16/bf16 → f32 keeps every value, infinities included' },
  IsNaN: { param: 'T1', why: 'f16/bf16 → f32 keeps every value, NaNs included' },
  // Integer sums and products wrap modulo 2^bits: computed wider and truncated back, the low bits agree.
  ReduceSum: { param: 'T', why: 'integer sums agree modulo 2^bits' },
  ReduceProd: { param: 'T', why: 'integer products agree modulo 2^bits' },
  CumSum: { param: 'T', why: 'integer sums agree modulo 2^bits' },
  // Integer powers: exact wherever the result fits the narrow type (IR leaves overflow undefined).
  // The exponent (T1) follows the base: onnxruntime's Pow takes only i32/i64/f32/f64 exponents.
  Pow: { param: 'T', alongside: 'T1', why: 'integer powers that fit the narrow type are computed exactly in a wider one' },
  // Computed once in f32 and rounded to f16/bf16 at the end, as OpenVINO's CPU plugin computes these
  // types (f32 inference precision; measured on the ONNX backend cases in the conformance suite).
  // Integer Range values fit the narrow type (IR leaves overflow undefined) and are exact wider.
  Range: { param: 'T', why: 'start + i·delta computed in f32 (floats) or a wider integer and cast back' },
  Einsum: { param: 'T', why: 'products and sums in f32, rounded once to f16/bf16' },
  // 4-bit integers, which onnxruntime reshapes in no kernel (measured): their values in 8 bits
  Reshape: { param: 'T', why: 'reshaping copies values' },
  Squeeze: { param: 'T', why: 'reshaping copies values' },
  Unsqueeze: { param: 'T', why: 'reshaping copies values' },
  Identity: { param: 'V', why: 'copies values' },
  Pad: { param: 'T', why: 'padding copies values' },
  // bf16, for which onnxruntime's CPU EP has almost no kernel (measured: scripts/probe-ort-kernels):
  // one add, subtract, multiply, divide or square root of bf16 values computed in f32 and rounded to
  // bf16 is the correctly rounded bf16 result (f32's 24 bits ≥ 2·8 + 2: the double rounding is
  // harmless); sign, comparisons, rounding to integers and broadcasting are exact.
  ...bf16InF32(['Add', 'Sub', 'Mul', 'Div', 'Sqrt', 'Reciprocal'], 'correctly rounded in f32, so once more in bf16'),
  ...bf16InF32(['Abs', 'Neg', 'Floor', 'Ceil'], 'exact in f32'),
  ...bf16InF32(['Equal', 'Less', 'Greater', 'LessOrEqual', 'GreaterOrEqual'], 'comparisons are the same in f32'),
  ...bf16InF32(['Expand'], 'broadcasting copies values'),
  // Sums, products, transcendentals and activations (bf16 from opset 22) of bf16 in f32, rounded
  // once to bf16: what OpenVINO's CPU plugin computes for bf16 at f32 inference precision (as Einsum).
  ...bf16InF32(['MatMul', 'Gemm', 'Softmax', 'LogSoftmax', 'ReduceMean', 'Exp', 'Log', 'Tanh', 'Sigmoid', 'Erf',
    'Elu', 'Selu', 'LeakyRelu', 'HardSigmoid', 'HardSwish', 'Softplus', 'Softsign', 'Mish', 'ThresholdedRelu', 'Sin', 'Cos'], 'in f32, rounded once to bf16'),
};

/** Wider types that hold every value of a type, nearest first. */
const LADDER: Partial<Record<ElementTypeName, readonly ElementTypeName[]>> = {
  i8: ['i16', 'i32', 'i64'], u8: ['i16', 'i32', 'i64'], i16: ['i32', 'i64'], u16: ['i32', 'i64'], u32: ['i64'],
  f16: ['f32', 'f64'], bf16: ['f32', 'f64'], i4: ['i8', 'i16', 'i32', 'i64'], u4: ['u8', 'i16', 'i32', 'i64'],
};

/** Same-width or lossless round trips through Cast, for ops that only copy values (`copies`). */
const ROUND_TRIP: Partial<Record<ElementTypeName, readonly ElementTypeName[]>> = {
  u64: ['i64'], boolean: ['u8', 'i32'],
};

/**
 * Integer-only widenings (a float result rounded to a wider float then back may differ), but for
 * bf16: onnxruntime has no bf16 kernel for them, and f32 sums rounded once to bf16 are what
 * OpenVINO computes.
 */
const INTEGER_ONLY = new Set(['ReduceSum', 'ReduceProd', 'CumSum', 'Pow']);

/** Widens where needed (see above); whether it added any node. */
export function legalizeOnnxTypes(model: Model, opset: number): boolean {
  let added = false;
  for (const g of allGraphs(model.graph)) {
    const list = g.nodes;
    // a new node list only once some node gets Casts (most models: none; runs over every node)
    let nodes: Node[] | null = null;
    for (let k = 0; k < list.length; k++) {
      const n = list[k]!;
      const onnxOp = n.dialect === 'onnx' && (n.domain === '' || n.domain === 'ai.onnx');
      const casts = onnxOp ? (WIDEN[n.op] ? widen(n, opset) : null) ?? widenIndices(n, opset) : null;
      if (casts) {
        nodes ??= list.slice(0, k);
        nodes.push(...casts.before, n, ...casts.after);
        added = true;
      } else if (nodes) nodes.push(n);
    }
    if (nodes) g.nodes = nodes;
  }
  return added;
}

const INTEGERS: ReadonlySet<string> = new Set(ELEMENT_TYPES.filter((t) => t.kind === 'int' || t.kind === 'uint').map((t) => t.name));
const isInteger = (elem: string): boolean => INTEGERS.has(elem);

/**
 * Index operands: an ONNX input whose formal parameter takes integers only and binds no output
 * (Expand's and Reshape's shape, Tile's repeats, Slice's starts/ends/axes/steps, Gather's indices)
 * where IR takes any integer type for the same operand, and each operand its own: TensorFlow's
 * frontend writes i32 shapes beside i64 constants (a Slice-8 of i32 start/stop/axes and i64 step;
 * a Broadcast of an i32 target). Such operands are Cast to int64, exact for every index and shape
 * value, when the parameter's type is not one the op takes or its operands disagree.
 */
function widenIndices(n: Node, opset: number): { before: Node[]; after: Node[] } | null {
  // most nodes: no integer operand other than int64 (which every such parameter takes)
  if (!n.inputs.some((v) => v?.type?.kind === 'tensor' && v.type.elem !== 'i64' && isInteger(v.type.elem))) return null;
  const s = onnxSchema(n.op, opset);
  if (!s) return null;
  const byParam = new Map<string, number[]>();
  n.inputs.forEach((v, i) => {
    const p = v ? formalInput(s, i) : null;
    if (p) byParam.set(p.type, [...(byParam.get(p.type) ?? []), i]);
  });
  const elemAt = (i: number): string | null => {
    const t = n.inputs[i]?.type;
    return t?.kind === 'tensor' && t.elem !== 'dynamic' ? t.elem : null;
  };
  let before: Node[] | null = null;
  for (const [param, idx] of byParam) {
    const allowed = allowedElems(s, formalInput(s, idx[0]!)!);
    if (!allowed.includes('i64') || !allowed.every(isInteger)) continue;
    if (s.outputs.some((o) => o.type === param)) continue;
    const elems = idx.map(elemAt);
    if (elems.some((e) => e === null || !isInteger(e))) continue;
    if (elems.every((e) => e === elems[0] && allowed.includes(e!) && !ortLacks(n.op, opset, e!))) continue;
    for (const i of idx) {
      if (elems[idx.indexOf(i)] === 'i64') continue;
      const v = n.inputs[i]!;
      const c = new Node(n.graph, { dialect: 'onnx', op: 'Cast', version: n.version, name: `${n.name || n.op}/Cast_i64` });
      c.attrs.set('to', A.int(elementType('i64').onnx!));
      c.addInput(v);
      c.addOutput(v.type?.kind === 'tensor' ? tensorType('i64', v.type.shape) : null);
      n.setInput(i, c.outputs[0]!);
      (before ??= []).push(c);
    }
  }
  return before ? { before, after: [] } : null;
}

function takes(s: OnnxSchemaRow, op: string, opset: number, param: string, elem: string): boolean {
  return (s.types[param] ?? []).includes(elem) && !ortLacks(op, opset, elem);
}

/** The Casts `n` needs before and after it (the node's inputs and outputs rewired), or null when it needs none. */
function widen(n: Node, opset: number): { before: Node[]; after: Node[] } | null {
  const s = onnxSchema(n.op, opset);
  const rule = WIDEN[n.op]!;
  if (!s || !(rule.param in s.types)) return null;
  // the element type bound to the constraint: the first known one of its inputs (asked of every node: no arrays yet)
  let elem: ElementTypeName | undefined;
  for (let i = 0; i < n.inputs.length && !elem; i++) {
    const t = n.inputs[i]?.type;
    if (t?.kind === 'tensor' && t.elem !== 'dynamic' && formalInput(s, i)?.type === rule.param) elem = t.elem;
  }
  if (!elem || takes(s, n.op, opset, rule.param, elem)) return null;
  if (rule.bf16Only && elem !== 'bf16') return null;
  if (INTEGER_ONLY.has(n.op) && elementType(elem).kind === 'float' && elem !== 'bf16') return null;
  const ladder = [...(LADDER[elem] ?? []), ...(rule.copies ? ROUND_TRIP[elem] ?? [] : [])];
  const wide = ladder.find((w) => takes(s, n.op, opset, rule.param, w));
  if (!wide) return null;
  const before: Node[] = [];
  const after: Node[] = [];
  const bound = n.inputs.map((v, i) => (v && formalInput(s, i)?.type === rule.param ? v : null));
  const along = n.inputs.map((v, i) => (v && rule.alongside !== undefined && formalInput(s, i)?.type === rule.alongside ? v : null));
  const g = n.graph;
  const cast = (v: Value, to: ElementTypeName): Node => {
    const c = new Node(g, { dialect: 'onnx', op: 'Cast', version: n.version, name: `${n.name || n.op}/Cast_${to}` });
    c.attrs.set('to', A.int(elementType(to).onnx!));
    c.addInput(v);
    return c;
  };
  const elemOf = (v: Value): string | null => (v.type?.kind === 'tensor' ? v.type.elem : null);
  bound.forEach((v, i) => {
    const a = along[i];
    // an integer operand of the companion constraint goes to the same wide type (exact)
    if (a && elemOf(a) !== wide && (LADDER[elemOf(a) as ElementTypeName] ?? []).includes(wide)) v = a;
    if (!v) return;
    const c = cast(v, wide);
    c.addOutput(v.type?.kind === 'tensor' ? tensorType(wide, v.type.shape) : null);
    n.setInput(i, c.outputs[0]!);
    before.push(c);
  });
  n.outputs.forEach((v, i) => {
    if (formalOutput(s, i)?.type !== rule.param) return;
    // The node now computes a wide value; the original value (its names, uses, graph-output place)
    // becomes the Cast back's output.
    const w = new Value(g, v.type?.kind === 'tensor' ? tensorType(wide, v.type.shape) : null);
    w.producer = n;
    w.outputIndex = i;
    n.outputs[i] = w;
    const c = cast(w, elem);
    v.producer = c;
    v.outputIndex = 0;
    c.outputs.push(v);
    after.push(c);
  });
  return { before, after };
}
