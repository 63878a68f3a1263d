import type { ElementTypeName } from '../../src/graph/element-type.js';
import type { Value } from '../../src/graph/value.js';
import { i64Scalar } from '../helpers.js';
import { irBuilder, type IrBuilder } from '../nn/ir-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * The optimizers of ai.onnx.preview.training (OpenVINO has no op): one update step, written as
 * its elementwise formula (onnx's operator docs and reference, onnx/reference/ops/
 * aionnx_preview_training) for each optimized tensor. Inputs are [R, T, then runs of n tensors]:
 *   Adagrad  [R, T, X…, G…, H…]       → [X_new…, H_new…]
 *   Momentum [R, T, X…, G…, V…]       → [X_new…, V_new…]
 *   Adam     [R, T, X…, G…, V…, H…]   → [X_new…, V_new…, H_new…]
 * R (learning rate) and T (update count, int64) are scalars, converted to X's element type; every
 * constant is of X's element type. With G' = norm_coefficient · X + G:
 *   Adagrad:  r = R / (1 + T · decay_factor); H_new = H + G'²;
 *             X_new = X − r · G' / (√H_new + epsilon)
 *   Momentum: b = beta where T > 0, else 1; V_new = alpha · V + b · G';
 *             standard: X_new = X − R · V_new; nesterov: X_new = X − R · (G' + alpha · V_new)
 *   Adam:     V_new = alpha · V + (1 − alpha) · G'; H_new = beta · H + (1 − beta) · G'²;
 *             r = R · √(1 − betaᵀ) / (1 − alphaᵀ) where T > 0, else R;
 *             X_new = (1 − norm_coefficient_post) · (X − r · V_new / (√H_new + epsilon))
 */

interface Step {
  readonly b: IrBuilder;
  readonly k: (v: number) => Value;
  readonly r: Value;
  /** T converted to X's element type. */
  readonly t: Value;
  /** T > 0, as a boolean scalar. */
  readonly started: Value;
}

/** The run length n, the shared R/T operands, or null after a diagnostic. */
function prepare(c: ConvertContext, runs: number): { n: number; elem: ElementTypeName; step: Step } | null {
  const rest = c.numInputs - 2;
  if (rest <= 0 || rest % runs !== 0) { c.error(`${c.node.op} takes R, T and ${runs} runs of equal length; it has ${c.numInputs} inputs`); return null; }
  const n = rest / runs;
  const elem = c.elem(2);
  if (elem !== 'f32' && elem !== 'f64' && elem !== 'f16') { c.error(`${c.node.op} of ${elem ?? 'unknown'} tensors: only floating-point tensors are optimized`); return null; }
  for (let i = 2; i < c.numInputs; i++) {
    if (c.elem(i) !== elem) { c.error(`${c.node.op} input ${i} is ${c.elem(i) ?? 'of unknown type'}, not ${elem} as X`); return null; }
  }
  const b = irBuilder(c);
  const k = (v: number): Value => b.scalar(elem, v);
  const r = c.elem(0) === elem ? c.input(0)! : b.convert(c.input(0)!, elem);
  const t = b.convert(c.input(1)!, elem);
  const started = b.compare('Less', i64Scalar(c, 0n), c.input(1)!);
  return { n, elem, step: { b, k, r, t, started } };
}

/** G' = norm · X + G. */
const regularized = (s: Step, norm: number, x: Value, g: Value): Value => s.b.add(s.b.mul(s.k(norm), x), g);

function adagrad(c: ConvertContext): void {
  const p = prepare(c, 3);
  if (!p) return;
  const { n, step: s } = p;
  const { b, k } = s;
  const norm = c.attr.float('norm_coefficient', 0);
  const decay = c.attr.float('decay_factor', 0);
  const eps = c.attr.float('epsilon', 1e-6);
  const rate = b.div(s.r, b.add(k(1), b.mul(s.t, k(decay))));
  for (let i = 0; i < n; i++) {
    const x = c.input(2 + i)!;
    const g = regularized(s, norm, x, c.input(2 + n + i)!);
    const h = b.add(c.input(2 + 2 * n + i)!, b.mul(g, g));
    c.output(i, b.sub(x, b.div(b.mul(rate, g), b.add(b.unary('Sqrt', h), k(eps)))));
    c.output(n + i, h);
  }
}

function momentum(c: ConvertContext): void {
  const missing = ['alpha', 'beta', 'mode', 'norm_coefficient'].filter((a) => !c.attr.has(a));
  if (missing.length) { c.error(`Momentum requires attribute${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`); return; }
  const mode = c.attr.string('mode', '');
  if (mode !== 'standard' && mode !== 'nesterov') { c.unsupportedAttr('mode', mode, "mode is 'standard' or 'nesterov'"); return; }
  const p = prepare(c, 3);
  if (!p) return;
  const { n, step: s } = p;
  const { b, k } = s;
  const alpha = c.attr.float('alpha', 0);
  const norm = c.attr.float('norm_coefficient', 0);
  const beta = b.select(s.started, k(c.attr.float('beta', 0)), k(1));
  for (let i = 0; i < n; i++) {
    const x = c.input(2 + i)!;
    const g = regularized(s, norm, x, c.input(2 + n + i)!);
    const v = b.add(b.mul(k(alpha), c.input(2 + 2 * n + i)!), b.mul(beta, g));
    const direction = mode === 'standard' ? v : b.add(g, b.mul(k(alpha), v));
    c.output(i, b.sub(x, b.mul(s.r, direction)));
    c.output(n + i, v);
  }
}

function adam(c: ConvertContext): void {
  const p = prepare(c, 4);
  if (!p) return;
  const { n, step: s } = p;
  const { b, k } = s;
  const alpha = c.attr.float('alpha', 0.9);
  const beta = c.attr.float('beta', 0.999);
  const eps = c.attr.float('epsilon', 1e-6);
  const norm = c.attr.float('norm_coefficient', 0);
  const post = c.attr.float('norm_coefficient_post', 0);
  const pow = (base: number): Value => c.emit('Power', [k(base), s.t], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
  const corrected = b.div(b.mul(s.r, b.unary('Sqrt', b.sub(k(1), pow(beta)))), b.sub(k(1), pow(alpha)));
  const rate = b.select(s.started, corrected, s.r);
  for (let i = 0; i < n; i++) {
    const x = c.input(2 + i)!;
    const g = regularized(s, norm, x, c.input(2 + n + i)!);
    const v = b.add(b.mul(k(alpha), c.input(2 + 2 * n + i)!), b.mul(k(1 - alpha), g));
    const h = b.add(b.mul(k(beta), c.input(2 + 3 * n + i)!), b.mul(k(1 - beta), b.mul(g, g)));
    const stepped = b.sub(x, b.mul(rate, b.div(v, b.add(b.unary('Sqrt', h), k(eps)))));
    c.output(i, b.mul(k(1 - post), stepped));
    c.output(n + i, v);
    c.output(2 * n + i, h);
  }
}

const TRAINING = 'ai.onnx.preview.training';
const ARITH = ['Convert', 'Add', 'Subtract', 'Multiply', 'Divide', 'Sqrt'];

export const OPTIMIZERS: readonly OpMapping[] = [
  {
    onnx: { op: 'Adagrad', domain: TRAINING, since: 1 },
    ir: null,
    decomposes: ARITH,
    handles: { onnx: ['norm_coefficient', 'decay_factor', 'epsilon'] },
    note: 'IR: H_new = H + G\'², X_new = X − R / (1 + T·decay_factor) · G\' / (√H_new + epsilon), G\' = norm_coefficient·X + G',
    toIr: adagrad,
  },
  {
    onnx: { op: 'Momentum', domain: TRAINING, since: 1 },
    ir: null,
    decomposes: [...ARITH.filter((o) => o !== 'Sqrt'), 'Less', 'Select'],
    handles: { onnx: ['alpha', 'beta', 'mode', 'norm_coefficient'] },
    note: 'IR: V_new = alpha·V + (T > 0 ? beta : 1)·G\', X_new = X − R·V_new (standard) or X − R·(G\' + alpha·V_new) (nesterov)',
    toIr: momentum,
  },
  {
    onnx: { op: 'Adam', domain: TRAINING, since: 1 },
    ir: null,
    decomposes: [...ARITH, 'Power', 'Less', 'Select'],
    handles: { onnx: ['alpha', 'beta', 'epsilon', 'norm_coefficient', 'norm_coefficient_post'] },
    note: 'IR: V_new, H_new the moving moments of G\', X_new = (1 − norm_coefficient_post)·(X − r·V_new / (√H_new + epsilon)), r bias-corrected where T > 0',
    toIr: adam,
  },
];
