import { A, type Attr } from '../../src/graph/attr.js';
import type { Value } from '../../src/graph/value.js';
import { scalarLike, scalarOf } from '../generator/constant-of-shape.js';
import { i64Const, i64Scalar, operandAsAttrOrInput } from '../helpers.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { irOnly, never } from './onnx-build.js';

/**
 * IR ops that ONNX has only from some opset on (Gelu-20, HardSwish-14, Mish-18, Swish-24) or not at
 * all (HSigmoid, NormalizeL2): IR → ONNX writes them as the ONNX subgraph of their definition at
 * the opsets that lack them. These entries serve IR → ONNX only (`when` is false: ONNX → IR never
 * picks them); the ONNX op they name is the one they stand in for.
 */

/** A scalar constant of input 0's element type. */
const k = (c: ConvertContext, v: number, what: string): Value | null => scalarLike(c, 0, v, what);
const bin = (c: ConvertContext, op: string, a: Value, b: Value): Value => c.emit(op, [a, b])[0]!;
const un = (c: ConvertContext, op: string, a: Value, attrs: Record<string, Attr> = {}): Value => c.emit(op, [a], attrs)[0]!;

/** Gelu: ERF 0.5·x·(1 + erf(x/√2)); TANH 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))). */
function geluToOnnx(c: ConvertContext): void {
  const x = c.input(0)!;
  const mode = (c.attr.string('approximation_mode') ?? 'ERF').toUpperCase();
  if (mode !== 'ERF' && mode !== 'TANH') { c.unsupportedAttr('approximation_mode', mode, 'ERF or TANH'); return; }
  if (c.opset >= 20) {
    c.output(0, c.emit('Gelu', [x], mode === 'TANH' ? { approximate: A.string('tanh') } : {})[0]!);
    return;
  }
  const half = k(c, 0.5, 'Gelu');
  const one = k(c, 1, 'Gelu');
  if (!half || !one) return;
  let inner: Value;
  if (mode === 'ERF') {
    const s = k(c, Math.SQRT1_2, 'Gelu');
    if (!s) return;
    inner = un(c, 'Erf', bin(c, 'Mul', x, s));
  } else {
    const a = k(c, 0.044715, 'Gelu');
    const s = k(c, Math.sqrt(2 / Math.PI), 'Gelu');
    if (!a || !s) return;
    const cube = bin(c, 'Mul', bin(c, 'Mul', x, x), x);
    inner = un(c, 'Tanh', bin(c, 'Mul', bin(c, 'Add', x, bin(c, 'Mul', cube, a)), s));
  }
  c.output(0, bin(c, 'Mul', bin(c, 'Mul', x, bin(c, 'Add', inner, one)), half));
}

/** Swish: x·sigmoid(β·x), β an optional IR input (default 1); ONNX Swish-24 takes it as `alpha`. */
function swishToOnnx(c: ConvertContext): void {
  const x = c.input(0)!;
  const betaIn = c.numInputs > 1 ? c.input(1) : null;
  const beta = betaIn ? c.constNumbers(1) : [1];
  if (c.opset >= 24 && beta !== null && beta.length === 1) {
    c.output(0, c.emit('Swish', [x], beta[0] === 1 ? {} : { alpha: A.float(Math.fround(beta[0]!)) })[0]!);
    return;
  }
  const scaled = betaIn ? bin(c, 'Mul', x, betaIn) : x;
  c.output(0, bin(c, 'Mul', x, un(c, 'Sigmoid', scaled)));
}

/** HSigmoid: min(max(x + 3, 0), 6) / 6 = HardSigmoid(alpha 1/6, beta 1/2). */
const hardSigmoid = (c: ConvertContext, x: Value): Value => un(c, 'HardSigmoid', x, { alpha: A.float(1 / 6), beta: A.float(0.5) });

/** NormalizeL2: x / sqrt(sum(x², axes) + eps) (eps_mode add) or x / sqrt(max(sum(x², axes), eps)) (max). */
function normalizeL2ToOnnx(c: ConvertContext): void {
  const x = c.input(0)!;
  const eps = c.attr.float('eps') ?? 0;
  const mode = (c.attr.string('eps_mode') ?? 'add').toLowerCase();
  if (mode !== 'add' && mode !== 'max') { c.unsupportedAttr('eps_mode', mode, 'add or max'); return; }
  const e = k(c, eps, 'NormalizeL2 eps');
  if (!e) return;
  const axes = c.constInts(1);
  let sum: Value;
  if (axes !== null && axes.length === 0) {
    sum = bin(c, 'Mul', x, x); // no axes: each element is its own norm
  } else {
    const inputs: (Value | null)[] = [x];
    const attrs = new Map<string, Attr>([['keepdims', A.int(1)]]);
    operandAsAttrOrInput(c, 1, 'axes', 18, inputs, attrs, 'axes');
    if (c.opset < 18 && !attrs.has('axes')) return;
    sum = c.emit('ReduceSumSquare', inputs, attrs)[0]!;
  }
  const guarded = bin(c, mode === 'add' ? 'Add' : 'Max', sum, e);
  c.output(0, bin(c, 'Div', x, un(c, 'Sqrt', guarded)));
}

/**
 * ScaledDotProductAttention-13: softmax(Q·Kᵀ·scale + bias)·V. scale: input 4, else 1/√E (E =
 * query's last dim). bias: causal → 0 where key position ≤ query position, −∞ elsewhere (the
 * attention_mask is then ignored); else a boolean mask as 0 / −∞, a float mask as it is.
 */
function sdpaToOnnx(c: ConvertContext): void {
  if (c.numInputs > 5) { c.error('ScaledDotProductAttention with a sink input has no ONNX form here'); return; }
  if (c.opset < 13) { c.error('ScaledDotProductAttention needs ONNX Softmax over the last axis (opset 13)'); return; }
  const [q, key, v] = [c.input(0)!, c.input(1)!, c.input(2)!];
  const rank = c.rank(1);
  if (rank === null || rank < 2) { c.error('ScaledDotProductAttention needs the rank of key to be known'); return; }
  const perm = Array.from({ length: rank }, (_, i) => BigInt(i < rank - 2 ? i : i === rank - 2 ? rank - 1 : rank - 2));
  const kt = c.emit('Transpose', [key], { perm: A.ints(perm) })[0]!;
  let scale = c.numInputs > 4 ? c.input(4) : null;
  if (!scale) {
    const t = c.type(0);
    const e = t?.kind === 'tensor' && t.shape ? t.shape[t.shape.length - 1] : null;
    if (typeof e === 'number') scale = k(c, 1 / Math.sqrt(e), 'ScaledDotProductAttention scale');
    else {
      const dims = c.emit('Shape', [q])[0]!;
      const last = c.emit('Gather', [dims, i64Scalar(c, -1n)], { axis: A.int(0) })[0]!;
      const elem = c.elem(0);
      const asFloat = c.emit('Cast', [last], { to: A.int(elem === 'f16' ? 10 : elem === 'f64' ? 11 : 1) })[0]!;
      scale = un(c, 'Reciprocal', un(c, 'Sqrt', asFloat));
    }
    if (!scale) return;
  }
  let scores = bin(c, 'Mul', bin(c, 'MatMul', q, kt), scale);
  const ninf = k(c, -Infinity, 'ScaledDotProductAttention');
  const zero = k(c, 0, 'ScaledDotProductAttention');
  if (!ninf || !zero) return;
  const mask = c.numInputs > 3 ? c.input(3) : null;
  if (c.attr.bool('causal') ?? false) {
    // key position s may be attended from query position l when s ≤ l
    const dim = (x: Value): Value => c.emit('Gather', [c.emit('Shape', [x])[0]!, i64Scalar(c, -2n)], { axis: A.int(0) })[0]!;
    const positions = (n: Value): Value => c.emit('Range', [i64Scalar(c, 0n), n, i64Scalar(c, 1n)])[0]!;
    const l = c.emit('Unsqueeze', [positions(dim(q)), i64Const(c, [1n])])[0]!;
    const s = c.emit('Unsqueeze', [positions(dim(key)), i64Const(c, [0n])])[0]!;
    const allowed = c.emit('LessOrEqual', [s, l])[0]!;
    scores = bin(c, 'Add', scores, c.emit('Where', [allowed, zero, ninf])[0]!);
  } else if (mask) {
    const bias = c.elem(3) === 'boolean' ? c.emit('Where', [mask, zero, ninf])[0]! : mask;
    scores = bin(c, 'Add', scores, bias);
  }
  const weights = un(c, 'Softmax', scores, { axis: A.int(-1) });
  c.output(0, bin(c, 'MatMul', weights, v));
}

/**
 * ErfInv-17: y with erf(y) = x. Giles' single-precision approximation ("Approximating the erfinv
 * function", GPU Computing Gems, 2010: relative error below 4e-7 on (-1, 1)), w = −ln((1 − x)(1 + x)):
 * x·P(w − 2.5) for w < 5, else x·Q(√w − 3); f32 and f64 in their own type, f16/bf16 in f32 and cast
 * back. ±1 → ±inf (the polynomial would not reach it), |x| > 1 → NaN (the logarithm of a negative),
 * as the spec says. No Newton step for f64: onnxruntime has no f64 Erf. Measured: exact to f32 against
 * the true inverse (bisection on libm's erf), where OpenVINO 2026.4's CPU plugin is off by up to 4e-3
 * near ±1 (x = 1 − 2⁻²³: 3.7284 for 3.7439).
 */
const ERFINV_CENTRAL = [2.81022636e-8, 3.43273939e-7, -3.5233877e-6, -4.39150654e-6, 0.00021858087, -0.00125372503, -0.00417768164, 0.246640727, 1.50140941];
const ERFINV_TAIL = [-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773, -0.0076224613, 0.00943887047, 1.00167406, 2.83297682];

function erfInvToOnnx(c: ConvertContext): void {
  const elem = c.elem(0);
  if (elem !== 'f32' && elem !== 'f64' && elem !== 'f16' && elem !== 'bf16') { c.error(`input 0 has element type ${elem ?? 'unknown'}; ErfInv takes f32, f64, f16 or bf16`); return; }
  const wide = elem === 'f64' ? 'f64' : 'f32';
  const to = wide === 'f64' ? 11 : 1;
  const x = wide === elem ? c.input(0)! : c.emit('Cast', [c.input(0)!], { to: A.int(to) })[0]!;
  const num = (v: number): Value => c.constant(scalarOf(wide, v)!);
  const horner = (coef: readonly number[], w: Value): Value => coef.slice(1).reduce((p, a) => bin(c, 'Add', bin(c, 'Mul', p, w), num(a)), num(coef[0]!));
  const one = num(1);
  const w = un(c, 'Neg', un(c, 'Log', bin(c, 'Mul', bin(c, 'Sub', one, x), bin(c, 'Add', one, x))));
  const central = horner(ERFINV_CENTRAL, bin(c, 'Sub', w, num(2.5)));
  const tail = horner(ERFINV_TAIL, bin(c, 'Sub', un(c, 'Sqrt', w), num(3)));
  let y = bin(c, 'Mul', c.emit('Where', [bin(c, 'Less', w, num(5)), central, tail])[0]!, x);
  // ±1: ±inf (x · inf keeps the sign)
  const edge = c.emit('Equal', [un(c, 'Abs', x), one])[0]!;
  y = c.emit('Where', [edge, bin(c, 'Mul', x, num(Infinity)), y])[0]!;
  c.output(0, wide === elem ? y : c.emit('Cast', [y], { to: A.int(elem === 'f16' ? 10 : 16) })[0]!);
}

export const IR_DECOMPOSE: readonly OpMapping[] = [
  {
    // ONNX has no inverse error function: the entry stands on Erf, the function it inverts
    onnx: { op: 'Erf', since: 13 },
    ir: { op: 'ErfInv', version: 'opset17' },
    when: never,
    note: "Giles' approximation (f32, f64; f16/bf16 through f32), ±1 → ±inf, |x| > 1 → NaN",
    toIr: irOnly,
    toOnnx: erfInvToOnnx,
  },
  {
    // ONNX has no op of this meaning before Attention-23 (which differs in layout and options):
    // the entry stands on the Softmax at its heart, which is also what needs opset 13.
    onnx: { op: 'Softmax', since: 13 },
    ir: { op: 'ScaledDotProductAttention', version: 'opset13' },
    when: never,
    handles: { ir: ['causal'] },
    note: 'softmax(Q·Kᵀ·scale + mask)·V',
    toIr: irOnly,
    toOnnx: sdpaToOnnx,
  },
  {
    onnx: { op: 'Gelu', since: 1, until: 19 },
    ir: { op: 'Gelu', version: 'opset7', reads: ['opset2'] },
    when: never,
    handles: { ir: ['approximation_mode'] },
    note: 'before ONNX opset 20: 0.5·x·(1 + erf(x/√2)), or the tanh approximation',
    toIr: irOnly,
    toOnnx: geluToOnnx,
  },
  {
    onnx: { op: 'Swish', since: 24 },
    ir: { op: 'Swish', version: 'opset4' },
    handles: { onnx: ['alpha'] },
    toIr: (c) => {
      const a = c.attr.float('alpha') ?? 1;
      const beta = a === 1 ? null : k(c, a, 'Swish alpha');
      c.output(0, c.emit('Swish', beta ? [c.input(0), beta] : [c.input(0)], {}, 1, 'opset4')[0]!);
    },
    toOnnx: swishToOnnx,
  },
  {
    onnx: { op: 'Swish', since: 1, until: 23 },
    ir: { op: 'Swish', version: 'opset4' },
    when: never,
    note: 'before ONNX opset 24: x·sigmoid(β·x)',
    toIr: irOnly,
    toOnnx: swishToOnnx,
  },
  {
    onnx: { op: 'HardSigmoid', since: 6 },
    ir: { op: 'HSigmoid', version: 'opset5' },
    when: never,
    note: 'ONNX HardSigmoid with alpha 1/6, beta 1/2',
    toIr: irOnly,
    toOnnx: (c) => c.output(0, hardSigmoid(c, c.input(0)!)),
  },
  {
    onnx: { op: 'HardSwish', since: 1, until: 13 },
    ir: { op: 'HSwish', version: 'opset4' },
    when: never,
    note: 'before ONNX opset 14: x·HardSigmoid(x, 1/6, 1/2)',
    toIr: irOnly,
    toOnnx: (c) => c.output(0, bin(c, 'Mul', c.input(0)!, hardSigmoid(c, c.input(0)!))),
  },
  {
    onnx: { op: 'Mish', since: 1, until: 17 },
    ir: { op: 'Mish', version: 'opset4' },
    when: never,
    note: 'before ONNX opset 18: x·tanh(softplus(x))',
    toIr: irOnly,
    toOnnx: (c) => c.output(0, bin(c, 'Mul', c.input(0)!, un(c, 'Tanh', un(c, 'Softplus', c.input(0)!)))),
  },
  {
    onnx: { op: 'LpNormalization', since: 1 },
    ir: { op: 'NormalizeL2', version: 'opset1' },
    when: never,
    handles: { ir: ['eps', 'eps_mode'] },
    note: 'x / sqrt(ReduceSumSquare(x, axes) ⊕ eps), ⊕ = Add or Max by eps_mode',
    toIr: irOnly,
    toOnnx: normalizeL2ToOnnx,
  },
];
