import type { ElementTypeName } from '../../src/graph/element-type.js';
import type { Dim, Shape } from '../../src/graph/shape.js';
import { tensorType } from '../../src/graph/types.js';
import type { Value } from '../../src/graph/value.js';
import { bodyOps } from '../body-ops.js';
import { irLoop } from '../ir-loop.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { irBuilder, type IrBuilder } from './ir-build.js';

/**
 * ONNX LinearAttention-27 has no OpenVINO op: IR writes onnx's reference, the recurrence token by
 * token, as a Loop-5 over T (the delta rules read the state they update: no closed form):
 *   Q, K, V [B, T, H·D] → [B, H, T, D] in f32 (the reference accumulates in f32); decay
 *     [B, T, H_kv·d_k | H_kv] → [B, H_kv, T, d_k | 1], exponentiated before the loop; beta
 *     [B, T, H_kv | 1] → [B, H_kv | 1, T, 1]
 *   S₀ = past_state (in f32) or zeros [B, H_kv, d_k, d_v); per token t (Gather at iteration_num):
 *     gated rules:  S ← exp(g_t) · S
 *     delta rules:  v_t ← β_t · (v_t − Sᵀk_t)             (MatMul of k_t as a row with S)
 *     S ← S + k_t ⊗ v_t;  o_t = scale · q_tᵀ S            (GQA: q_t as [B, H_kv, group, d_k],
 *                                                          each KV head's S read by its group)
 *   the o_t concatenated along T, back to [B, T, H_q·d_v] in query's type; present_state the
 *   last S in past_state's type (query's without one). scale 0 (the default) is 1/√d_k;
 *   chunk_size is a tuning hint with no effect on the numbers (read, not used).
 */
const UPDATE_RULES = ['linear', 'gated', 'delta', 'gated_delta'];

const present = (c: ConvertContext, i: number): boolean => c.numInputs > i && c.input(i) !== null;
const shapeOf = (c: ConvertContext, i: number): Shape => {
  const t = c.type(i);
  return t && t.kind === 'tensor' ? t.shape : null;
};
const at = (s: Shape, i: number): number | null => (s && typeof s[i] === 'number' ? s[i] : null);
const per = (d: number | null, n: number): number | null => (d !== null && d % n === 0 ? d / n : null);

/** [B, T, heads·D] → [B, heads, T, D] (D = -1: what is left). */
const toHeads = (b: IrBuilder, x: Value, heads: bigint, d = -1n): Value => b.transpose(b.reshape(x, [0n, 0n, heads, d]), [0n, 2n, 1n, 3n]);

function linearAttentionToIr(c: ConvertContext): void {
  const rule = c.attr.string('update_rule', 'gated_delta');
  if (!UPDATE_RULES.includes(rule)) { c.unsupportedAttr('update_rule', rule, 'linear, gated, delta or gated_delta'); return; }
  const qHeads = c.attr.int('q_num_heads');
  const kvHeads = c.attr.int('kv_num_heads');
  if (qHeads === undefined || qHeads <= 0n) { c.unsupportedAttr('q_num_heads', String(qHeads ?? 'absent'), 'a positive head count (required)'); return; }
  if (kvHeads === undefined || kvHeads <= 0n) { c.unsupportedAttr('kv_num_heads', String(kvHeads ?? 'absent'), 'a positive head count (required)'); return; }
  if (qHeads % kvHeads !== 0n) { c.unsupportedAttr('q_num_heads', String(qHeads), `a multiple of kv_num_heads (${kvHeads})`); return; }
  const scaleAttr = c.attr.float('scale', 0);
  c.attr.int('chunk_size', 64n); // a tuning hint: typed, no effect on the output
  const gated = rule === 'gated' || rule === 'gated_delta';
  const delta = rule === 'delta' || rule === 'gated_delta';
  if (gated !== present(c, 4)) { c.error(`update_rule '${rule}' ${gated ? 'needs' : 'takes no'} decay input`); return; }
  if (delta !== present(c, 5)) { c.error(`update_rule '${rule}' ${delta ? 'needs' : 'takes no'} beta input`); return; }
  const elem = c.elem(0);
  if (elem === null) { c.error('LinearAttention needs the element type of query to be known'); return; }
  for (const [i, name, rank] of [[0, 'query', 3], [1, 'key', 3], [2, 'value', 3], [3, 'past_state', 4], [4, 'decay', 3], [5, 'beta', 3]] as const) {
    const r = present(c, i) ? c.rank(i) : null;
    if (r !== null && r !== rank) { c.error(`${name} must be rank ${rank}, got rank ${r}`); return; }
  }
  const stateElem: ElementTypeName = present(c, 3) ? (c.elem(3) ?? elem) : elem;
  const group = qHeads / kvHeads;
  const qs = shapeOf(c, 0);
  const dk = per(at(qs, 2), Number(qHeads)) ?? per(at(shapeOf(c, 1), 2), Number(kvHeads));
  const dv = per(at(shapeOf(c, 2), 2), Number(kvHeads));
  const decayLast = gated ? at(shapeOf(c, 4), 2) : null;
  if (decayLast !== null && decayLast !== Number(kvHeads) && (dk === null || decayLast !== Number(kvHeads) * dk)) {
    c.error(`decay's last dim ${decayLast} is neither kv_num_heads (${kvHeads}) nor kv_num_heads·d_k (${dk === null ? '?' : Number(kvHeads) * dk})`);
    return;
  }
  const betaLast = delta ? at(shapeOf(c, 5), 2) : null;
  if (betaLast !== null && betaLast !== Number(kvHeads) && betaLast !== 1) { c.error(`beta's last dim ${betaLast} is neither kv_num_heads (${kvHeads}) nor 1`); return; }
  const batch = at(qs, 0);
  const steps = at(qs, 1);

  const b = irBuilder(c);
  const f32 = (x: Value, e: ElementTypeName | null): Value => (e === 'f32' ? x : b.convert(x, 'f32'));
  const q = toHeads(b, f32(c.input(0)!, elem), qHeads);
  const k = toHeads(b, f32(c.input(1)!, c.elem(1)), kvHeads);
  const v = toHeads(b, f32(c.input(2)!, c.elem(2)), kvHeads);
  const decay = gated ? c.emit('Exp', [toHeads(b, f32(c.input(4)!, c.elem(4)), kvHeads)], {}, 1, 'opset1')[0]! : null;
  const beta = delta ? b.transpose(b.reshape(f32(c.input(5)!, c.elem(5)), [0n, 0n, -1n, 1n]), [0n, 2n, 1n, 3n]) : null;
  let s0: Value;
  if (present(c, 3)) s0 = f32(c.input(3)!, c.elem(3));
  else {
    const ks = b.shapeOf(k);
    const dims = b.concat([b.slice(ks, 0n, 2n, 0n), b.slice(ks, 3n, 4n, 0n), b.slice(b.shapeOf(v), 3n, 4n, 0n)], 0);
    s0 = c.emit('Broadcast', [b.scalar('f32', 0), dims], { mode: 'numpy' }, 1, 'opset3')[0]!;
  }
  const scale = scaleAttr !== 0 ? b.scalar('f32', scaleAttr)
    : dk !== null ? b.scalar('f32', 1 / Math.sqrt(dk))
      : b.div(b.scalar('f32', 1), c.emit('Sqrt', [b.convert(b.dim(k, 3n), 'f32')], {}, 1, 'opset1')[0]!);

  const heads4 = (h: bigint, d: Dim): Shape => [batch, Number(h), steps, d];
  const [outs, last] = irLoop(c, {
    trips: b.dim(q, 2n), iteration: 'iteration',
    carried: [{ value: s0, name: 'state', type: tensorType('f32', [batch, Number(kvHeads), dk, dv]) }],
    invariant: [
      { value: q, name: 'query', type: tensorType('f32', heads4(qHeads, dk)) },
      { value: k, name: 'key', type: tensorType('f32', heads4(kvHeads, dk)) },
      { value: v, name: 'value', type: tensorType('f32', heads4(kvHeads, dv)) },
      { value: scale, name: 'scale', type: tensorType('f32', []) },
      ...(decay ? [{ value: decay, name: 'decay', type: tensorType('f32', [batch, Number(kvHeads), steps, null]) }] : []),
      ...(beta ? [{ value: beta, name: 'beta', type: tensorType('f32', [batch, null, steps, 1]) }] : []),
    ],
    outputs: [{ scan: 0, axis: 2 }, { last: 0 }],
  }, ({ graph: g, iteration: it, carried: [S], invariant }) => {
    const [Q, K, V, SC] = invariant as [Value, Value, Value, Value];
    const D = decay ? invariant[4]! : null;
    const BT = beta ? invariant[decay ? 5 : 4]! : null;
    const { op: one, i64, i64s: ints } = bodyOps(g, c.node.name || 'LinearAttention');
    const nb = { auto_broadcast: 'numpy' };
    const mul = (x: Value, y: Value) => one('Multiply', [x, y], 'opset1', nb);
    const matmul = (x: Value, y: Value) => one('MatMul', [x, y], 'opset1', { transpose_a: 'false', transpose_b: 'false' });
    const unsq = (x: Value, axis: bigint) => one('Unsqueeze', [x, ints([axis])]);
    const two = i64(2n);
    const step = (x: Value) => one('Gather', [x, it, two], 'opset8', { batch_dims: '0' }); // [B, H, T, D] → [B, H, D]

    let state: Value = S;
    if (D) state = mul(state, unsq(step(D), -1n));
    const kt = step(K);
    let vt = step(V);
    if (BT) {
      const retrieved = one('Squeeze', [matmul(unsq(kt, 2n), state), ints([2n])]); // Sᵀk_t: [B, H_kv, d_v]
      vt = mul(step(BT), one('Subtract', [vt, retrieved], 'opset1', nb));
    }
    state = one('Add', [state, mul(unsq(kt, -1n), unsq(vt, 2n))], 'opset1', nb);
    // o_t: each query head h reads KV head ⌊h / group⌋, so q_t as [B, H_kv, group, d_k] times S
    const grouped = one('Reshape', [step(Q), ints([0n, kvHeads, group, -1n])], 'opset1', { special_zero: 'true' });
    const read = one('Reshape', [matmul(grouped, state), ints([0n, qHeads, -1n])], 'opset1', { special_zero: 'true' });
    const ot = unsq(mul(read, SC), 2n); // [B, H_q, 1, d_v]
    return { carried: [state], scans: [ot] };
  }) as [Value, Value];

  const y = b.reshape(b.transpose(outs, [0n, 2n, 1n, 3n]), [0n, 0n, -1n]);
  c.output(0, elem === 'f32' ? y : b.convert(y, elem));
  if (c.node.outputs.length > 1) c.output(1, stateElem === 'f32' ? last : b.convert(last, stateElem));
}

export const LINEAR_ATTENTION: readonly OpMapping[] = [
  {
    onnx: { op: 'LinearAttention', since: 27 },
    ir: null,
    decomposes: ['Convert', 'Reshape', 'Transpose', 'Exp', 'ShapeOf', 'Slice', 'Concat', 'Broadcast', 'Gather', 'Sqrt', 'Divide',
      'Loop', 'Multiply', 'Unsqueeze', 'Squeeze', 'MatMul', 'Subtract', 'Add'],
    handles: { onnx: ['chunk_size', 'kv_num_heads', 'q_num_heads', 'scale', 'update_rule'] },
    note: 'IR: the recurrence token by token in a Loop-5 over T, in f32 (decay, delta correction, outer-product update, GQA read), outputs concatenated; present_state the last state',
    toIr: linearAttentionToIr,
  },
];
