import type { Diagnostic } from '../diag/diagnostic.js';
import { Diagnostics } from '../diag/diagnostic.js';
import { allGraphs } from '../graph/graph.js';
import type { Model } from '../graph/model.js';
import type { Attr } from '../graph/attr.js';
import type { Node } from '../graph/node.js';
import type { Value } from '../graph/value.js';
import type { ElementTypeName } from '../graph/element-type.js';
import { captureStart } from './encode.js';
import { allowedElems, firstOpsetWhere, formalInput, formalOutput, onnxSchema, type OnnxFormalParam, type OnnxSchemaRow } from './op-schema.js';

/**
 * Checks every ai.onnx node of an ONNX model against the operator schema of the model's opset:
 * the op exists there, every attribute and the number of inputs are ones that version has, and
 * each input/output whose element type is known is one its type constraint allows (with one
 * binding per constraint). Run on every model ovir converts to ONNX before anything is written,
 * so a form the opset lacks (Reshape `allowzero` before 14) is an error, never a file onnxruntime
 * refuses. Linear in nodes; other domains are not checked.
 */
export function validateOnnxModel(model: Model): Diagnostic[] {
  const diags = new Diagnostics();
  const opset = model.onnx?.opsetImports.get('') ?? model.onnx?.opsetImports.get('ai.onnx');
  if (opset === undefined) return [];
  for (const g of allGraphs(model.graph)) {
    for (const n of g.nodes) {
      if (!isAiOnnx(n)) continue;
      checkNode(n, opset, diags);
    }
  }
  // A graph input or output is a tensor of some element type: an IR Parameter of element_type
  // "dynamic" would be written as elem_type 0 (UNDEFINED), which onnx.checker and onnxruntime
  // refuse ("Invalid tensor data type 0"); OpenVINO reads such an IR but cannot run it.
  const g = model.graph;
  for (const [what, list] of [['graph input', g.inputs], ['graph output', g.outputs]] as const) {
    for (const v of list) {
      if (v.type?.kind === 'tensor' && v.type.elem === 'dynamic') {
        diags.add('CONVERT_UNSUPPORTED_TYPE', `${g.path}/${v.name}`, { what, value: v.name, type: 'a tensor of unknown element type (dynamic)', target: 'ONNX (a graph input or output needs an element type)' });
      }
    }
  }
  return diags.list;
}

/** Whether `n` is an op of the ai.onnx domain, the only one whose schemas ovir has (others: nothing to check). */
const isAiOnnx = (n: Node): boolean => n.dialect === 'onnx' && (n.domain === '' || n.domain === 'ai.onnx');

/** A finding on node `n`: the op, the opset, and what a later opset changes. */
function report(diags: Diagnostics, n: Node, opset: number, detail: string, hint?: string, needsOpset?: number): void {
  diags.add('ONNX_INVALID_AT_OPSET', n.path, { op: n.op, detail, opset, ...(hint ? { hint } : {}), needsOpset });
}

function checkNode(n: Node, opset: number, diags: Diagnostics): void {
  const s = onnxSchema(n.op, opset);
  if (!s) {
    const from = firstOpsetWhere(n.op, opset + 1, () => true);
    report(diags, n, opset, 'the op does not exist', from !== null ? `it exists from opset ${from}` : undefined, from ?? undefined);
    return;
  }
  for (const name of n.attrsView.keys()) {
    if (name in s.attrs) continue;
    const from = firstOpsetWhere(n.op, opset + 1, (r) => name in r.attrs);
    report(diags, n, opset, `attribute '${name}' does not exist`, from !== null ? `it exists from opset ${from}` : undefined, from ?? undefined);
  }
  let count = captureStart(n);
  while (count > 0 && n.inputs[count - 1] === null) count--;
  if (count < s.minInputs || (s.maxInputs >= 0 && count > s.maxInputs)) {
    const from = firstOpsetWhere(n.op, opset + 1, (r) => count >= r.minInputs && (r.maxInputs < 0 || count <= r.maxInputs));
    report(diags, n, opset, `${count} inputs where the op takes ${range(s.minInputs, s.maxInputs)}`, from !== null ? `opset ${from} takes ${count}` : undefined, from ?? undefined);
  }
  // one binding per type constraint; a Map reused from node to node (this runs over every node converted)
  BOUND.clear();
  for (let i = 0; i < count; i++) {
    const t = n.inputs[i]?.type;
    if (t?.kind === 'tensor' && t.elem !== 'dynamic') checkType(n, s, opset, diags, 'input', i, t.elem, formalInput(s, i));
  }
  const outs = n.outputs;
  for (let i = 0; i < outs.length; i++) {
    const t = outs[i]!.type;
    if (t?.kind === 'tensor' && t.elem !== 'dynamic') checkType(n, s, opset, diags, 'output', i, t.elem, formalOutput(s, i));
  }
}

/** The element type each type constraint of the node being checked is bound to so far. */
const BOUND = new Map<string, string>();

function checkType(n: Node, s: OnnxSchemaRow, opset: number, diags: Diagnostics, what: 'input' | 'output', index: number, elem: string, param: OnnxFormalParam | null): void {
  if (!param) return;
  const allowed = allowedElems(s, param);
  if (!allowed.includes(elem)) {
    const from = firstOpsetWhere(n.op, opset + 1, (r) => {
      const p = what === 'input' ? formalInput(r, index) : formalOutput(r, index);
      return !!p && allowedElems(r, p).includes(elem);
    });
    report(diags, n, opset, `${what} ${index} has element type ${elem}, which the op does not take (it takes ${allowed.join(', ')})`, from !== null ? `opset ${from} takes it` : undefined, from ?? undefined);
    return;
  }
  if (!(param.type in s.types) || param.heterogeneous) return;
  const prev = BOUND.get(param.type);
  if (prev === undefined) BOUND.set(param.type, elem);
  else if (prev !== elem) report(diags, n, opset, `${what} ${index} is ${elem} where type ${param.type} is already ${prev}`);
}

const NO_DETAILS: readonly string[] = [];

/**
 * A source node's inputs whose element type (as inferred) its schema's type constraint does not
 * take: onnx.checker (full_check) and onnxruntime refuse the model (Reshape's shape of strings,
 * a Loop trip count of f32), and OpenVINO cannot read or compile what such a node becomes.
 * Captures of bodies are not the op's inputs and are not checked. None: the shared empty list.
 */
export function inputTypeProblems(n: Node, opset: number, elemOf: (v: Value) => ElementTypeName | null): readonly string[] {
  const s = isAiOnnx(n) ? onnxSchema(n.op, opset) : null;
  if (!s) return NO_DETAILS;
  let out: string[] | null = null;
  const count = captureStart(n);
  for (let i = 0; i < count; i++) {
    const v = n.inputs[i];
    const elem = v ? elemOf(v) : null;
    if (elem === null || elem === 'dynamic') continue;
    const p = formalInput(s, i);
    if (!p) continue;
    const allowed = allowedElems(s, p);
    if (!allowed.includes(elem)) (out ??= []).push(`input ${i} has element type ${elem}, which the ${n.op}-${s.since} schema does not take (it takes ${allowed.join(', ')}); onnx.checker and onnxruntime refuse the node`);
  }
  return out ?? NO_DETAILS;
}

/**
 * A source node's inputs and outputs against its operator schema (ai.onnx), counted as onnx's
 * OpSchema::Verify counts them (onnxruntime runs it on every node it loads): the number of inputs
 * and outputs as written (empty names included) within the schema's range, and no empty name where
 * the schema's parameter is a single (required) one. A converter that took such a node would read
 * an input that is not there or write an op with the wrong number of ports (Softmax with two
 * inputs became an IR OpenVINO cannot read). Details, one per problem; none: the shared empty list.
 */
export function arityProblems(n: Node, opset: number): readonly string[] {
  const s = isAiOnnx(n) ? onnxSchema(n.op, opset) : null;
  if (!s) return NO_DETAILS;
  let out: string[] | null = null; // none (the usual case): no array per node
  const count = captureStart(n);
  if (count < s.minInputs || (s.maxInputs >= 0 && count > s.maxInputs)) {
    // too few: the required ones missing are named (Unsqueeze-13 without 'axes')
    const missing = s.inputs.slice(count, s.minInputs).filter((p) => p.option !== 'optional').map((p) => `'${p.name}'`);
    (out ??= []).push(`${plural(count, 'input')} where ${schemaOf(n, s)} takes ${range(s.minInputs, s.maxInputs)}${missing.length ? ` (${missing.join(', ')} missing)` : ''}`);
  }
  for (let i = 0; i < count && i < s.inputs.length; i++) {
    const p = s.inputs[i]!;
    if (n.inputs[i] === null && p.option === 'single') (out ??= []).push(`input ${i} ('${p.name}' in ${schemaOf(n, s)}) is required, but its name is empty`);
  }
  const outs = n.outputs;
  if (outs.length < s.minOutputs || (s.maxOutputs >= 0 && outs.length > s.maxOutputs)) (out ??= []).push(`${plural(outs.length, 'output')} where ${schemaOf(n, s)} has ${range(s.minOutputs, s.maxOutputs)}`);
  for (let i = 0; i < outs.length && i < s.outputs.length; i++) {
    const p = s.outputs[i]!;
    if (writtenEmpty(outs[i]!) && p.option === 'single') (out ??= []).push(`output ${i} ('${p.name}' in ${schemaOf(n, s)}) is required, but its name is empty`);
  }
  return out ?? NO_DETAILS;
}

/** How findings name the schema (built only for a finding: this runs on every node). */
const schemaOf = (n: Node, s: OnnxSchemaRow): string => `the ${n.op}-${s.since} schema`;

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * Whether an output was written as an empty name (an absent optional output, as the decoder reads
 * one: names ['']). A value made without names through the graph API is unnamed, not absent.
 */
const writtenEmpty = (v: Value): boolean => v.names.length === 1 && v.names[0] === '';

/** A count range as words: '1', '1 to 3', 'at least 2'. */
function range(min: number, max: number): string {
  return max < 0 ? `at least ${min}` : min === max ? `${min}` : `${min} to ${max}`;
}

/** The schema's attribute kinds (AttributeProto types) and the Attr types that carry them. */
const CARRIES: Readonly<Record<string, readonly Attr['type'][]>> = {
  int: ['int', 'bool'], ints: ['ints'],
  // an integer where a float is due reads as that number (what onnxruntime's GetAttr does not, but
  // a converter may: it changes nothing)
  float: ['float', 'int'], floats: ['floats'],
  string: ['string'], strings: ['strings'], tensor: ['tensor'], tensors: ['tensors'],
};

export interface AttributeProblem { readonly attr: string; readonly value: string | null; readonly detail: string }
const NO_PROBLEMS: readonly AttributeProblem[] = [];

/**
 * A source node's attributes against its operator schema (ai.onnx): each of a kind the schema
 * gives another kind (Softmax `axis` as a string), and each required one that is absent (Concat
 * without `axis`). Such a model is not valid ONNX (onnx's checker refuses it); converting it would
 * read a default in place of what the node says. `value` null: the attribute is absent. Kinds ovir carries as written (sparse tensors,
 * graph lists) and attributes the schema lacks (reported elsewhere) are not checked here.
 */
export function attributeProblems(n: Node, opset: number): readonly AttributeProblem[] {
  const s = isAiOnnx(n) ? onnxSchema(n.op, opset) : null;
  if (!s) return NO_PROBLEMS;
  let out: AttributeProblem[] | null = null; // none (the usual case): no array per node
  for (const [name, a] of n.attrsView) {
    const kind = s.attrs[name];
    const carriers = kind === undefined ? undefined : CARRIES[kind];
    if (carriers && a.type !== 'raw' && !carriers.includes(a.type)) (out ??= []).push({ attr: name, value: `<${a.type}>`, detail: `the ${n.op}-${s.since} schema says ${kind}` });
  }
  // a graph attribute is a body: one where the schema has no graph (Softmax 'axis' of type GRAPH)
  // would be dropped with its body, the op reading its default instead (onnx.checker refuses it)
  // (size first: iterating even an empty Map allocates an iterator, on every node)
  if (n.bodies.size) for (const name of n.bodies.keys()) {
    const kind = s.attrs[name];
    if (kind !== 'graph') (out ??= []).push({ attr: name, value: '<graph>', detail: kind === undefined ? `the ${n.op}-${s.since} schema has no such attribute` : `the ${n.op}-${s.since} schema says ${kind}` });
  }
  for (const name of s.required ?? []) {
    // a graph attribute is a body here (a missing branch or body has its own diagnostic)
    if (s.attrs[name] === 'graph' || s.attrs[name] === 'graphs') continue;
    if (!n.attrsView.has(name)) (out ??= []).push({ attr: name, value: null, detail: `attribute '${name}' is required (the ${n.op}-${s.since} schema); the node has none` });
  }
  return out ?? NO_PROBLEMS;
}
