import type { StateInitial } from '../../mappings/spec.js';
import type { Diagnostics } from '../diag/diagnostic.js';
import { A } from '../graph/attr.js';
import { allGraphs, type Graph } from '../graph/graph.js';
import type { Model } from '../graph/model.js';
import type { ValueType } from '../graph/types.js';
import type { Value } from '../graph/value.js';
import { formatShapeText } from '../ir/shape-text.js';
import { stateMetadata, stateNamesOf, type StatePair } from '../graph/state-metadata.js';

export { STATE_METADATA_KEY, stateNamesOf, type StatePair } from '../graph/state-metadata.js';


/** IR → ONNX: an OpenVINO state variable on its way to ONNX (the engine's record, by variable_id). */
export interface StateVariable {
  /** The graph input a ReadValue reads, and what the first call feeds it. */
  input: Value | null;
  initial: StateInitial | null;
  /** The value an Assign writes, and the graph output returning it. */
  output: Value | null;
  result: Value | null;
  /** The first node that used the variable, and the Assign's. */
  readonly path: string;
  assignedAt: string;
}

/** Every name a value of the model has (ONNX names are unique across the whole model). */
function namesIn(root: Graph): Set<string> {
  const used = new Set<string>();
  for (const g of allGraphs(root)) {
    for (const v of [...g.inputs, ...g.initializers]) for (const n of v.names) used.add(n);
    for (const n of g.nodes) for (const o of n.outputs) for (const x of o.names) used.add(x);
  }
  return used;
}

/**
 * IR → ONNX, after the ONNX names are final: a CONVERT_STATE_VARIABLE warning per variable
 * naming the graph input and output it became and what the first call feeds; a constant initial
 * value as an initializer `<variable_id>.initial` (read by no node: where a caller finds it, and
 * what ONNX → IR makes the variable's init again); the pairs as metadata.
 */
export function reportStates(states: ReadonlyMap<string, StateVariable>, dst: Model, diags: Diagnostics): void {
  if (!states.size) return;
  const used = namesIn(dst.graph);
  const pairs = new Map<string, StatePair>();
  for (const [id, s] of states) {
    const input = s.input ? s.input.name : null;
    const output = s.result ? s.result.name : null;
    let initialValue: string | null = null;
    if (input !== null && s.initial?.tensor) {
      initialValue = `${id}.initial`;
      for (let k = 1; used.has(initialValue); k++) initialValue = `${id}.initial_${k}`;
      used.add(initialValue);
      dst.graph.addInitializer(s.initial.tensor, [initialValue]);
    }
    pairs.set(id, { input, output, initial: input === null ? null : s.initial?.kind ?? null, initialValue });
    const gives = `${s.initial?.detail ?? 'its initial value'}${initialValue === null ? '' : `, initializer '${initialValue}'`}`;
    diags.add('CONVERT_STATE_VARIABLE', s.path, {
      variable: id,
      input: input === null ? '(none: the variable is never read)' : `'${input}' (the first call gives ${gives})`,
      output: output === null ? '(none: the variable is never assigned)' : `'${output}'`,
    });
  }
  dst.onnx?.metadataProps.push(stateMetadata(pairs));
}

/** ONNX → IR: the inputs and outputs to make state variables again, by source value. */
export interface StateRestore {
  readonly inputs: Map<Value, { readonly id: string; readonly initial: Value | null }>;
  readonly outputs: Map<Value, string>;
}

/**
 * ONNX → IR of a model whose metadata says which graph inputs and outputs an IR → ONNX made of
 * state variables: each pair whose input, output and initial value are all in the model becomes
 * a variable again (ReadValue-6 reading it, its init the `.initial` initializer, or none for zeros
 * of a static shape; Assign-6 writing it), reported as CONVERT_STATE_RESTORED; a pair that cannot
 * (an initial value the IR computed, which the ONNX model does not hold) stays inputs and outputs,
 * reported as CONVERT_STATE_NOT_RESTORED. Null when there is nothing to restore.
 */
export function restorableStates(src: Model, diags: Diagnostics): StateRestore | null {
  const pairs = stateNamesOf(src.onnx?.metadataProps);
  if (!pairs.size) return null;
  const g = src.graph;
  const restore: StateRestore = { inputs: new Map(), outputs: new Map() };
  for (const [id, p] of pairs) {
    const input = p.input === null ? undefined : g.inputs.find((v) => !v.constant && v.names.includes(p.input!));
    const output = p.output === null ? undefined : g.outputs.find((v) => v.names.includes(p.output!));
    const initial = p.initialValue === null ? undefined : g.initializers.find((v) => v.names.includes(p.initialValue!));
    const shape = input?.type?.kind === 'tensor' ? input.type.shape : null;
    const staticShape = shape !== null && shape.every((d) => typeof d === 'number');
    const names = { variable: id, input: `'${p.input ?? '?'}'`, output: `'${p.output ?? '?'}'` };
    let why = '';
    if (!input || !output) why = `the model has no graph ${!input ? `input '${p.input ?? '(none)'}'` : `output '${p.output ?? '(none)'}'`} for it`;
    else if (restore.outputs.has(output) || [...restore.inputs.keys()].includes(input)) why = 'another variable has that input or output';
    else if (!initial && !(p.initial === 'zeros' && staticShape)) {
      why = p.initial === 'computed' ? 'its initial value was computed by the IR, which the ONNX model does not hold'
        : `its initial value is not in the model (no initializer '${p.initialValue ?? `${id}.initial`}')`;
    }
    if (why) { diags.add('CONVERT_STATE_NOT_RESTORED', 'main', { ...names, detail: why }); continue; }
    restore.inputs.set(input!, { id, initial: initial ?? null });
    restore.outputs.set(output!, id);
    diags.add('CONVERT_STATE_RESTORED', 'main', { ...names, detail: initial ? `its init the initializer '${p.initialValue}'` : 'starting at zeros' });
  }
  return restore.inputs.size ? restore : null;
}

/** ONNX → IR: a ReadValue-6 for each restored variable, read where its graph input was. */
export function restoreStateInputs(
  restore: StateRestore, dst: Graph, map: { get(v: Value): Value | undefined; set(v: Value, to: Value): unknown }, typeOf: (v: Value) => ValueType | null,
): void {
  for (const [v, st] of restore.inputs) {
    const t = typeOf(v);
    const n = dst.addNode({ dialect: 'ov', op: 'ReadValue', version: 'opset6', name: st.id });
    n.attrs.set('variable_id', A.raw(st.id));
    if (t?.kind === 'tensor') {
      n.attrs.set('variable_type', A.raw(t.elem === 'dynamic' ? 'dynamic' : t.elem));
      n.attrs.set('variable_shape', A.raw(formatShapeText(t.shape)));
    }
    if (st.initial) n.addInput(map.get(st.initial) ?? null);
    const o = n.addOutput(t, [...v.names]);
    map.set(v, o);
  }
}

/** ONNX → IR: an Assign-6 of variable `id` writing `v`, where a graph output was. */
export function assignState(dst: Graph, id: string, v: Value): void {
  const n = dst.addNode({ dialect: 'ov', op: 'Assign', version: 'opset6', name: `${id}/Assign` });
  n.attrs.set('variable_id', A.raw(id));
  n.addInput(v);
  n.addOutput(v.type, []);
}
