import { irBodyKind, onnxBodyKind } from '../../src/graph/body-kinds.js';
import { bindingLookup, type Body } from '../../src/graph/body.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const } from '../helpers.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { notOneElement, typeProblem } from './body-types.js';

/**
 * ONNX If (every opset, 1…25) ↔ OpenVINO If-8.
 *
 * In the graph both are the same structure (docs/architecture.md): the ONNX decoder already turned
 * every outer value a branch reads into a capture input of the If plus a body parameter binding,
 * which is exactly If-8's port map. So the conversion checks what IR cannot hold, makes one If
 * input per distinct outer value (shared by both bodies), and hands each body to the converter,
 * which converts it like any graph (iteratively, so nesting depth is not bounded by the stack).
 */

const ONNX_KEYS = onnxBodyKind('If')!.keys;
const IR_BODIES = irBodyKind('If')!.bodies;
const IR_KEYS = IR_BODIES.map((b) => b.key);

/**
 * Checks what both directions require of an If: two bodies, and outputs. ONNX branches give one
 * output per If output, in order. An IR body may hold Results its port map does not name (OpenVINO
 * writes such bodies, e.g. ovc's IR of nested ONNX Ifs, and reads them: only mapped Results are
 * outputs), so IR bodies are checked by their port maps (ifToOnnx), not by their Result counts.
 */
function bodiesOf(c: ConvertContext, keys: readonly string[], resultsByPortMap = false): [Body, Body] | null {
  const [t, e] = keys.map((k) => c.node.bodies.get(k));
  if (!t || !e) {
    for (const k of keys) if (!c.node.bodies.has(k)) c.error(`missing ${k}`);
    return null;
  }
  const n = c.node.outputs.length;
  const nt = t.graph.outputs.length;
  const ne = e.graph.outputs.length;
  if (!resultsByPortMap && (nt !== ne || nt !== n)) {
    c.error(`branch output counts differ: ${keys[0]} has ${nt}, ${keys[1]} has ${ne}, the node has ${n}`);
    return null;
  }
  if (n === 0) { c.error('no outputs'); return null; }
  return [t, e];
}

/** ONNX → IR. */
function ifToIr(c: ConvertContext): void {
  const bodies = bodiesOf(c, ONNX_KEYS);
  if (!bodies) return;
  let ok = true;
  bodies.forEach((b, bi) => {
    const bound = new Set(b.inputs.map((x) => x.param));
    const declared = b.graph.inputs.filter((p) => !bound.has(p));
    if (declared.length) {
      c.error(`${ONNX_KEYS[bi]} declares inputs (${declared.map((p) => p.label).join(', ')}); If branches take none`);
      ok = false;
    }
    b.graph.outputs.forEach((v, k) => {
      const bad = typeProblem(c.typeOf(v), 'ov');
      if (bad) { c.error(`${ONNX_KEYS[bi]} output ${k} ('${v.label}') has type ${bad}, which OpenVINO IR cannot hold (IR has tensors only)`); ok = false; }
    });
  });
  c.node.outputs.forEach((v, k) => {
    const bad = typeProblem(c.typeOf(v), 'ov');
    if (bad) { c.error(`output ${k} ('${v.label}') has type ${bad}, which OpenVINO IR cannot hold (IR has tensors only)`); ok = false; }
  });
  const many = c.node.inputs[0] ? notOneElement(c.typeOf(c.node.inputs[0])) : null;
  if (many) { c.error(`the condition is ${many}; an If condition holds exactly one element`); ok = false; }
  if (!ok) return;
  // cond: one element; IR takes [] or [1].
  let cond = c.input(0);
  const r = c.rank(0);
  if (r !== null && r > 1) cond = c.emit('Reshape', [cond, i64Const(c, [1n])], { special_zero: 'false' }, 1, 'opset1')[0]!;
  // One If input per distinct outer value, in order of first use; both bodies share it.
  const inputs: (Value | null)[] = [cond];
  // A body reading cond gets it as a data input of its own: port 0 is the condition only.
  const index = new Map<Value, number>();
  const from = new Map<number, number>();
  const used = new Set<number>();
  for (const b of bodies) for (const x of b.inputs) used.add(x.from);
  for (let i = 0; i < c.numInputs; i++) {
    if (!used.has(i)) continue;
    const v = c.input(i);
    if (!v) { c.error(`capture input ${i} is empty`); return; }
    let k = index.get(v);
    if (k === undefined) { k = inputs.length; inputs.push(v); index.set(v, k); }
    from.set(i, k);
  }
  const outs = c.emit('If', inputs, {}, c.node.outputs.length, 'opset8');
  const ifNode = c.lastNode!;
  ONNX_KEYS.forEach((k, bi) => c.body(ifNode, k, IR_KEYS[bi]!, (i) => from.get(i)!));
  outs.forEach((v, i) => c.output(i, v));
}

/** IR → ONNX. */
function ifToOnnx(c: ConvertContext): void {
  const bodies = bodiesOf(c, IR_KEYS, true);
  if (!bodies) return;
  const n = c.node.outputs.length;
  const numInputs = c.numInputs;
  let ok = true;
  // Indexed loops, and a set or sorted list only for a message: an If's checks run once per If,
  // mostly in code not yet optimized, where every Set, closure and array was measurable on a net
  // of thousands of Ifs.
  const covered: string[] = [];
  for (let bi = 0; bi < bodies.length; bi++) {
    const b = bodies[bi]!;
    const key = IR_KEYS[bi]!;
    const portMap = IR_BODIES[bi]!.portMap;
    const params = b.graph.inputs;
    const bindingOf = bindingLookup(b);
    for (let i = 0; i < params.length; i++) {
      const p = params[i]!;
      if (!bindingOf(p)) { c.error(`${key} Parameter '${p.metaView['layerName'] ?? p.label}' is not mapped in ${portMap} (it would never be fed)`); ok = false; }
    }
    for (let i = 0; i < b.inputs.length; i++) {
      const from = b.inputs[i]!.from;
      if (from < 0 || from >= numInputs || !c.node.inputs[from]) {
        c.error(`${portMap} maps a Parameter to If input ${from}, which does not exist`); ok = false;
      }
    }
    for (let i = 0; i < b.outputs.length; i++) {
      const o = b.outputs[i]!;
      if (o.result < 0 || o.result >= b.graph.outputs.length) { c.error(`${portMap} names a Result that does not exist in ${key}`); ok = false; }
    }
    // The port map covers outputs 0…n-1 exactly once each when its targets, sorted, are 0…n-1:
    // n targets, each in range and none twice.
    let full = b.outputs.length === n;
    if (full) {
      const seen = new Uint8Array(n);
      for (let i = 0; i < n && full; i++) {
        const to = b.outputs[i]!.to;
        if (!(Number.isInteger(to) && to >= 0 && to < n) || seen[to]) full = false;
        else seen[to] = 1;
      }
    }
    const tos = full ? '' : b.outputs.map((o) => o.to).sort((x, y) => x - y).join(',');
    if (!full) { c.error(`${portMap} covers If outputs [${tos}] but the node has ${n} outputs`); ok = false; }
    covered.push(tos);
  }
  if (ok && covered[0] !== covered[1]) { c.error(`then_port_map and else_port_map cover different outputs ([${covered[0]}] vs [${covered[1]}])`); ok = false; }
  for (let k = 0; k < n; k++) {
    const v = c.node.outputs[k]!;
    const bad = typeProblem(c.typeOf(v), 'onnx');
    if (bad) { c.error(`output ${k} ('${v.label}') has type ${bad}, which ONNX cannot hold`); ok = false; }
  }
  if (!ok) return;
  // Captures: only the If inputs some body reads, in order; cond stays input 0.
  // ONNX captures follow cond; a body reading cond itself (IR port 0) gets it as a capture too.
  const inputs: (Value | null)[] = [c.input(0)];
  const read = new Uint8Array(numInputs);
  for (let bi = 0; bi < bodies.length; bi++) {
    const b = bodies[bi]!;
    for (let i = 0; i < b.inputs.length; i++) read[b.inputs[i]!.from] = 1;
  }
  const from = new Map<number, number>();
  for (let i = 0; i < numInputs; i++) {
    if (!read[i]) continue;
    from.set(i, inputs.length);
    inputs.push(c.input(i));
  }
  const outs = c.emit('If', inputs, {}, n);
  const ifNode = c.lastNode!;
  const at = (i: number): number => from.get(i)!;
  for (let bi = 0; bi < IR_KEYS.length; bi++) c.body(ifNode, IR_KEYS[bi]!, ONNX_KEYS[bi]!, at);
  for (let i = 0; i < outs.length; i++) c.output(i, outs[i]!);
}


export const IF_ELSE: readonly OpMapping[] = [
  {
    onnx: { op: 'If', since: 1 },
    ir: { op: 'If', version: 'opset8' },
    toIr: ifToIr,
    toOnnx: ifToOnnx,
    note: 'then_branch/else_branch ↔ then_body/else_body; captures ↔ port maps',
  },
];
