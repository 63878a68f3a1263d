import { attrInt, attrInts } from '../../../graph/attr-read.js';
import type { Dim } from '../../../graph/shape.js';
import type { ValueType } from '../../../graph/types.js';
import { normAxis } from '../../dim.js';
import { out, type InferFn, type OutputInfo, type Rule, type RuleContext } from '../../rule.js';
import { intAttr, intsAttr } from '../common.js';

/**
 * ONNX Loop and Scan, as onnx's LoopInferenceFunction / ScanInferenceFunction: loop-carried
 * (state) outputs take the body's output types; scan outputs stack the body's per-iteration
 * output along a new axis (Loop: unknown trip count first; Scan: the scan length, at
 * scan_output_axes). The body was inferred from its formal inputs (see infer.ts seedGraph).
 */
const formalInputs = (c: RuleContext): number => c.node.bodies.get('body')?.graph.inputs.filter((p) => p.metaView['onnxCapture'] !== true).length ?? 0;

/**
 * The node's own inputs (captures, the outer values its body reads, come after them) against the
 * body's formal inputs: onnx.checker requires as many (Scan-8: one more, sequence_lens). An input
 * no formal takes would never be fed (and an IR port map could not name it).
 */
function checkFormalCount(c: RuleContext, formal: number, extra: number): boolean {
  const body = c.node.bodies.get('body');
  let own = c.node.inputs.length;
  for (const b of body?.inputs ?? []) if (b.param.metaView['onnxCapture'] === true) own = Math.min(own, b.from);
  if (own === formal + extra) return true;
  c.error(`${own} input(s) but its body takes ${formal}${extra ? ` (plus sequence_lens: ${formal + extra} expected)` : ''}: each input is one body input, in order`);
  return false;
}

function stacked(t: ValueType | null, axis: number, length: Dim): OutputInfo {
  if (!t || t.kind !== 'tensor') return { type: null };
  if (t.shape === null) return out(t.elem, null);
  const a = normAxis(axis, t.shape.length + 1);
  if (a === undefined) return out(t.elem, null);
  const dims = [...t.shape];
  dims.splice(a, 0, length);
  return out(t.elem, dims);
}

/**
 * A loop-carried value's initial value (node input 2 + k) has the element type of the body's
 * formal input as declared: onnx's LoopInferenceFunction merges the one into the other, and
 * onnx.checker refuses a Loop where they differ.
 */
function checkCarriedTypes(c: RuleContext, carried: number): void {
  const params = c.node.bodies.get('body')?.graph.inputs.filter((p) => p.metaView['onnxCapture'] !== true) ?? [];
  for (let k = 0; k < carried; k++) {
    const init = c.elem(2 + k);
    const p = params[2 + k];
    const formal = p?.type?.kind === 'tensor' ? p.type.elem : 'dynamic';
    if (init !== 'dynamic' && formal !== 'dynamic' && init !== formal) {
      c.error(`loop-carried '${p?.label ?? 2 + k}' starts as ${init} (input ${2 + k}) but the body takes it as ${formal}`);
    }
  }
}

const loop: InferFn = (c) => {
  const body = c.body('body');
  if (!body) { c.error('missing body'); return []; }
  if (!checkFormalCount(c, formalInputs(c), 0)) return [];
  const carried = Math.max(0, formalInputs(c) - 2);
  checkCarriedTypes(c, carried);
  return c.node.outputs.map((_, j) => (j < carried ? { type: body.types[j] ?? null } : stacked(body.types[j] ?? null, 0, null)));
};

/** Each scan input's axis names one of its dims (onnx's ScanInferenceFunction refuses any other). */
function checkScanAxes(c: RuleContext, first: number, nScan: number, axes: readonly number[]): void {
  for (let i = 0; i < nScan; i++) {
    const s = c.shape(first + i);
    const a = axes[i] ?? 0;
    if (s !== null && normAxis(a, s.length) === undefined) c.error(`scan_input_axes[${i}] = ${a} is out of range for scan input ${first + i} of rank ${s.length}`);
  }
}

const scan: InferFn = (c) => {
  const body = c.body('body');
  if (!body) { c.error('missing body'); return []; }
  const nScan = intAttr(c, 'num_scan_inputs', 0);
  const v8 = c.version < 9;
  const formal = formalInputs(c);
  if (!checkFormalCount(c, formal, v8 ? 1 : 0)) return [];
  const nState = formal - nScan;
  // a count the node's inputs cannot hold (2^62 would make every loop below endless)
  if (!(nScan >= 1 && nState >= 0)) { c.error(`num_scan_inputs = ${nScan} does not fit the node's ${formal} state and scan inputs (it must be 1 to ${formal})`); return []; }
  const first = (v8 ? 1 : 0) + nState; // node input of the first scan input
  const inAxes = intsAttr(c, 'scan_input_axes') ?? [];
  const outAxes = intsAttr(c, 'scan_output_axes') ?? [];
  if (!v8) checkScanAxes(c, first, nScan, inAxes);
  const s = c.shape(first);
  const seqAxis = v8 ? 1 : inAxes[0] ?? 0;
  const length: Dim = s === null ? null : s[normAxis(seqAxis, s.length) ?? 0] ?? null;
  return c.node.outputs.map((_, j) => {
    const t = body.types[j] ?? null;
    if (j < nState) {
      // opset 8 state variables carry the batch axis too
      if (!v8 || !t || t.kind !== 'tensor' || t.shape === null) return { type: t };
      return out(t.elem, [s === null ? null : s[0] ?? null, ...t.shape]);
    }
    if (v8) {
      // opset 8: [batch, sequence, …]
      const batch: Dim = s === null ? null : s[0] ?? null;
      const st = stacked(t, 0, length);
      return st.type && st.type.kind === 'tensor' && st.type.shape ? out(st.type.elem, [batch, ...st.type.shape]) : st;
    }
    return stacked(t, outAxes[j - nState] ?? 0, length);
  });
};

/** Loop body inputs: iteration_num i64 [], cond bool [], carried values with their shapes cleared. */
const loopParam: Rule['bodyParam'] = (_node, formal, bound, declared) => {
  if (formal === 0) return declared ?? { kind: 'tensor', elem: 'i64', shape: [] };
  if (formal === 1) return declared ?? { kind: 'tensor', elem: 'boolean', shape: [] };
  if (declared) return declared;
  return bound && bound.kind === 'tensor' ? { kind: 'tensor', elem: bound.elem, shape: null } : bound;
};

/** Scan body inputs: state as bound (opset 8: minus the batch axis); scan inputs minus their scan axis. */
const scanParam: Rule['bodyParam'] = (node, formal, bound, declared) => {
  if (!bound || bound.kind !== 'tensor' || bound.shape === null) return declared ?? bound;
  const v8 = Number(node.version) < 9;
  const nScan = Number(attrInt(node, 'num_scan_inputs') ?? 0n);
  const nState = (node.bodies.get('body')?.graph.inputs.filter((p) => p.metaView['onnxCapture'] !== true).length ?? 0) - nScan;
  const drop = (axes: number[]): ValueType => ({ kind: 'tensor', elem: bound.elem, shape: bound.shape!.filter((_, i) => !axes.includes(i)) });
  if (v8) return drop(formal < nState ? [0] : [0, 1]);
  if (formal < nState) return bound;
  const axis = attrInts(node, 'scan_input_axes')?.[formal - nState];
  const a = normAxis(Number(axis ?? 0n), bound.shape.length);
  return a === undefined ? declared ?? bound : drop([a]);
};

export const onnxLoopRules: Rule[] = [
  { dialect: 'onnx', op: 'Loop', since: 1, infer: loop, bodyParam: loopParam },
  { dialect: 'onnx', op: 'Scan', since: 8, infer: scan, bodyParam: scanParam },
];
