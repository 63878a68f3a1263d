import type { ConvertContext, OpMapping, SequenceElement } from '../spec.js';
import { position } from './position.js';

/**
 * The ONNX ops that build a sequence, resolved at conversion time: the sequence is the list of
 * its tensors (IR has no sequence type; OpenVINO's ONNX frontend keeps the same list). Each op
 * writes no IR node; the tensors are the converted inputs.
 *  - SequenceEmpty(): [] (`dtype` only types the empty sequence).
 *  - SequenceConstruct(x₀, …, xₖ): [x₀, …, xₖ].
 *  - SequenceInsert(S, t, position = n): t inserted before S[position]; [-n, n], negative + n.
 *  - SequenceErase(S, position = n-1): S without S[position]; [-n, n-1], negative + n.
 */
const element = (c: ConvertContext, i: number): SequenceElement | null => {
  const value = c.input(i);
  return value ? { value, type: c.type(i) } : null;
};

/**
 * The list a SequenceInsert / SequenceErase writes: the input's own when this node is its only
 * reader (nothing reads the old sequence again: a chain of inserts stays linear), else a copy.
 * Lists are never shared between two sequence values, so this is safe.
 */
const writable = (c: ConvertContext, seq: readonly SequenceElement[]): SequenceElement[] =>
  c.node.inputs[0]!.uses.length === 1 ? (seq as SequenceElement[]) : [...seq];

function construct(c: ConvertContext): void {
  const elems: SequenceElement[] = [];
  for (let i = 0; i < c.numInputs; i++) {
    const e = element(c, i);
    if (!e) { c.error(`input ${i} is empty: every SequenceConstruct input is a tensor`); return; }
    elems.push(e);
  }
  c.outputSequence(0, elems);
}

function insert(c: ConvertContext): void {
  const seq = c.sequence(0);
  const t = element(c, 1);
  if (!t) { c.error('input 1 (tensor) is required'); return; }
  if (!seq) return;
  const at = position(c, 2, seq.length, 'insert', seq.length);
  if (at === null) return;
  const out = writable(c, seq);
  if (at === out.length) out.push(t);
  else out.splice(at, 0, t);
  c.outputSequence(0, out);
}

function erase(c: ConvertContext): void {
  const seq = c.sequence(0);
  if (!seq) return;
  if (seq.length === 0) { c.error('the sequence is empty: there is no tensor to erase'); return; }
  const at = position(c, 1, seq.length, 'element', seq.length - 1);
  if (at === null) return;
  const out = writable(c, seq);
  out.splice(at, 1);
  c.outputSequence(0, out);
}

export const SEQUENCE_BUILD: readonly OpMapping[] = [
  {
    onnx: { op: 'SequenceEmpty', since: 11 }, ir: null, decomposes: [], sequences: true,
    handles: { onnx: ['dtype'] },
    toIr: (c) => { c.attr.int('dtype'); c.outputSequence(0, []); },
    note: 'resolved at conversion time: an empty list of tensors',
  },
  {
    onnx: { op: 'SequenceConstruct', since: 11 }, ir: null, decomposes: [], sequences: true, toIr: construct,
    note: 'resolved at conversion time: the list of its input tensors',
  },
  {
    onnx: { op: 'SequenceInsert', since: 11 }, ir: null, decomposes: [], sequences: true, toIr: insert,
    note: 'resolved at conversion time; position must be a constant',
  },
  {
    onnx: { op: 'SequenceErase', since: 11 }, ir: null, decomposes: [], sequences: true, toIr: erase,
    note: 'resolved at conversion time; position must be a constant',
  },
];
