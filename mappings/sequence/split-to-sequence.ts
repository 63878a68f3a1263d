import type { Dim } from '../../src/graph/shape.js';
import { tensorType, type ValueType } from '../../src/graph/types.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const, i64Scalar, normAxis } from '../helpers.js';
import type { ConvertContext, OpMapping, SequenceElement } from '../spec.js';

/**
 * ONNX SplitToSequence(input, split?; axis = 0, keepdims = 1), resolved at conversion time as
 * OpenVINO's ONNX frontend does: the sequence is the outputs of one IR split, so the number of
 * tensors must be known when converting.
 *  - no `split`: parts of length 1 along `axis` (whose length must be static): IR Split with
 *    num_splits = that length; keepdims = 0 squeezes `axis` from each part.
 *  - scalar `split` (a constant): parts of that length, the last one shorter when it does not
 *    divide the axis: IR VariadicSplit with those lengths.
 *  - 1-D `split` (of static length k, its values may be known only at run time): k parts of those
 *    lengths: IR VariadicSplit with `split` as the lengths.
 * With `split` given, keepdims is ignored (the ONNX spec says so).
 */
/**
 * The most tensors a sequence is split into at conversion time (each is an output port of one IR
 * Split and a value of its own): 142 bytes of SplitToSequence over f32[10^7] made ten million of
 * them and ran out of memory (found by a hostile-input campaign; 10^6 took 18 s and a 70 MB .xml).
 */
export const MAX_SEQUENCE_TENSORS = 1 << 16;

function splitToSequence(c: ConvertContext): void {
  const t = c.type(0);
  const shape = t?.kind === 'tensor' ? t.shape : null;
  if (shape === null) { c.error('the input rank must be known: the sequence is resolved at conversion time'); return; }
  const a = c.attr.int('axis', 0n);
  const keepdims = c.attr.int('keepdims', 1n);
  if (a < -BigInt(shape.length) || a >= BigInt(shape.length)) { c.unsupportedAttr('axis', String(a), `out of range for an input of rank ${shape.length}`); return; }
  const axis = normAxis(a, shape.length);
  const dim = shape[axis]!;
  const elem = t?.kind === 'tensor' ? t.elem : 'dynamic';
  /** A part's type: `axis` of length d, or squeezed. */
  const part = (d: Dim | 'squeezed'): ValueType =>
    tensorType(elem, d === 'squeezed' ? shape.filter((_, i) => i !== axis) : shape.map((x, i) => (i === axis ? d : x)));
  const x = c.input(0)!;
  const axisConst = (): Value => i64Scalar(c, BigInt(axis));
  const done = (values: Value[], types: ValueType[]): void => {
    c.outputSequence(0, values.map((value, i): SequenceElement => ({ value, type: types[i]! })));
  };
  const staticDim = (why: string): number | null => {
    if (typeof dim === 'number') return dim;
    c.error(`${why} needs a static length of axis ${axis}: the number of tensors is fixed at conversion time`);
    return null;
  };
  const tooMany = (n: number | bigint): boolean => {
    if (n <= MAX_SEQUENCE_TENSORS) return false;
    c.error(`the sequence would hold ${n} tensors: at most ${MAX_SEQUENCE_TENSORS} are made at conversion time (one IR Split output each)`);
    return true;
  };

  if (!c.node.inputs[1]) {
    const n = staticDim('splitting into parts of 1');
    if (n === null || tooMany(n)) return;
    if (n === 0) { done([], []); return; }
    const parts = c.emit('Split', [x, axisConst()], { num_splits: String(n) }, n);
    if (keepdims !== 0n) { done(parts, parts.map(() => part(1))); return; }
    done(parts.map((p) => c.emit('Squeeze', [p, i64Const(c, [BigInt(axis)])])[0]!), parts.map(() => part('squeezed')));
    return;
  }
  const splitRank = c.rank(1);
  if (splitRank === 0) {
    const v = c.constInts(1);
    if (v === null) { c.needsConstant(1, 'split, a scalar: the number of tensors is fixed at conversion time'); return; }
    const chunk = v[0]!;
    if (chunk <= 0n) { c.error(`split ${chunk} must be positive`); return; }
    const n = staticDim('a scalar split');
    if (n === null || tooMany((BigInt(n) + chunk - 1n) / chunk)) return;
    const lengths: bigint[] = [];
    for (let at = 0n; at < BigInt(n); at += chunk) lengths.push(BigInt(n) - at < chunk ? BigInt(n) - at : chunk);
    if (!lengths.length) { done([], []); return; }
    const parts = c.emit('VariadicSplit', [x, axisConst(), i64Const(c, lengths)], {}, lengths.length);
    done(parts, lengths.map((l) => part(Number(l))));
    return;
  }
  if (splitRank === 1) {
    const st = c.type(1);
    const k = st?.kind === 'tensor' && st.shape !== null ? st.shape[0] : null;
    if (typeof k !== 'number') { c.error('split must have a static length: the number of tensors is fixed at conversion time'); return; }
    if (k === 0) { c.error('split is empty'); return; }
    if (tooMany(k)) return;
    const known = c.constInts(1);
    // ONNX: lengths ≥ 0 summing to the axis length (IR VariadicSplit would read a -1 as "the rest")
    if (known?.some((l) => l < 0n)) { c.error(`split ${known.join(',')} has a negative length`); return; }
    if (known && typeof dim === 'number' && known.reduce((x, l) => x + l, 0n) !== BigInt(dim)) {
      c.error(`split ${known.join(',')} does not sum to the length ${dim} of axis ${axis}`);
      return;
    }
    const parts = c.emit('VariadicSplit', [x, axisConst(), c.input(1)], {}, k);
    done(parts, parts.map((_, i) => part(known ? Number(known[i]!) : null)));
    return;
  }
  c.error(splitRank === null ? 'split must have a known rank (a scalar or 1-D)' : `split must be a scalar or 1-D, got rank ${splitRank}`);
}

export const SPLIT_TO_SEQUENCE: readonly OpMapping[] = [
  {
    onnx: { op: 'SplitToSequence', since: 11 }, ir: null, decomposes: ['Split', 'VariadicSplit', 'Squeeze'], sequences: true,
    handles: { onnx: ['axis', 'keepdims'] },
    toIr: splitToSequence,
    note: 'resolved at conversion time: the number of tensors must be static',
  },
];
