import type { Diagnostics } from '../diag/diagnostic.js';
import type { NodeList } from './proto-read.js';
import type {
  AttributeProto, FunctionProto, GraphProto, NodeProto, SparseTensorProto, StringStringEntryProto, TensorAnnotation, TensorProto, ValueInfoProto,
} from './proto-types.js';
import { int64, list, str } from './wire.js';

/**
 * Model-local functions (ModelProto.functions), inlined where they are called, as onnx's own
 * inliner (onnx/inliner) and onnxruntime do: a node whose (domain, op_type, overload) names a
 * function becomes a copy of the function's nodes, in which
 * - the formal inputs are the call's inputs (an input the call leaves out is absent: ''), the
 *   formal outputs the call's outputs, and every other name of the function (in its nodes and in
 *   every body graph inside them) a fresh name no other value of the model has;
 * - an attribute that refers to one of the function's (`ref_attr_name`) takes the call's value of
 *   it, else the function's default (attribute_proto), else is left out — in body graphs too;
 * - each node keeps the opset the function imports for its domain (`opsetOf`);
 * - node names are the call's, then the function node's (`Call/Mul`), so diagnostics point into it;
 * - a function output that is one of its inputs becomes an Identity.
 * Calls inside the copies are inlined in turn (body graphs when the decoder opens them); a function
 * that calls itself, directly or through others, is an error (ONNX_FUNCTION_RECURSIVE), as is a
 * call with more inputs or outputs than the function declares (ONNX_FUNCTION_CALL).
 */
export class FunctionInliner {
  private readonly functions = new Map<string, FunctionProto>();
  /**
   * Where each copied node (or body graph) comes from: the opsets of its function, and the
   * functions being inlined there (recursion is a cycle in that chain).
   */
  private readonly origin = new WeakMap<object, Origin>();
  private readonly taken: Set<string>;
  private calls = 0;
  /** Nodes made by inlining so far. */
  private made = 0;

  /**
   * `taken`: every name of the model (modelNames), which fresh names avoid; it grows with them.
   * `maxNodes`: at most this many nodes made by inlining (a file of a few calls nested deep could
   * otherwise ask for 2^40).
   */
  constructor(functions: readonly FunctionProto[], taken: Set<string>, private readonly diags: Diagnostics, private readonly maxNodes = MAX_INLINED_NODES) {
    for (const f of functions) this.functions.set(key(str(f, 'domain'), str(f, 'name'), str(f, 'overload')), f);
    this.taken = taken;
  }

  /** The function a node calls, if any. */
  private callee(np: NodeProto): FunctionProto | undefined {
    return this.functions.get(key(str(np, 'domain'), str(np, 'op_type'), str(np, 'overload')));
  }

  /** The opset a node copied from a function uses for `domain` (undefined: the model's). */
  opsetOf(np: NodeProto, domain: string): number | undefined {
    const o = this.origin.get(np)?.opsets;
    return o === undefined ? undefined : o.get(domain) ?? (domain === 'ai.onnx' ? o.get('') : undefined);
  }

  /**
   * A graph's nodes with every call to a model-local function inlined (in place, in order); the
   * list itself when it calls none. `graph`: the graph the nodes belong to (a body graph copied
   * from a function carries that function's chain); `path`: where diagnostics point.
   */
  expand(nodes: NodeList, graph: GraphProto, path: string): NodeList {
    let inlined = false;
    const graphChain = this.origin.get(graph)?.chain ?? [];
    const out: NodeProto[] = [];
    const stack: { list: NodeList; i: number }[] = [{ list: nodes, i: 0 }];
    while (stack.length) {
      const top = stack[stack.length - 1]!;
      if (top.i >= top.list.length) {
        stack.pop();
        continue;
      }
      const np = top.list.at(top.i++)!;
      const fn = this.callee(np);
      const body = fn ? this.inline(np, fn, this.origin.get(np)?.chain ?? graphChain, path) : null;
      if (body) {
        inlined = true;
        stack.push({ list: body, i: 0 });
      } else out.push(np);
    }
    return inlined ? out : nodes;
  }

  /** The copy of `fn`'s nodes for one call (null, with a diagnostic, when it cannot be inlined). */
  private inline(call: NodeProto, fn: FunctionProto, chain: readonly string[], path: string): NodeProto[] | null {
    const fnKey = key(str(fn, 'domain'), str(fn, 'name'), str(fn, 'overload'));
    const label = str(call, 'name') || `${str(call, 'op_type')}_${this.calls}`;
    const where = `${path}/${label}`;
    this.calls++;
    if (chain.includes(fnKey)) {
      this.diags.add('ONNX_FUNCTION_RECURSIVE', where, { fn: describe(fn), chain: [...chain, fnKey].map((k) => k.split('\0')[1]).join(' → ') });
      return null;
    }
    const formalIn = list<string>(fn, 'input');
    const formalOut = list<string>(fn, 'output');
    const actualIn = list<string>(call, 'input');
    const actualOut = list<string>(call, 'output');
    if (actualIn.length > formalIn.length || actualOut.length > formalOut.length) {
      this.diags.add('ONNX_FUNCTION_CALL', where, {
        fn: describe(fn),
        detail: `the call has ${actualIn.length} inputs and ${actualOut.length} outputs, the function declares ${formalIn.length} and ${formalOut.length}`,
      });
      return null;
    }
    if (this.made > this.maxNodes) return null; // said once, below
    this.made += list(fn, 'node').length;
    if (this.made > this.maxNodes) {
      this.diags.add('ONNX_FUNCTION_CALL', where, { fn: describe(fn), detail: `inlining the model's functions makes more than ${this.maxNodes} nodes` });
      return null;
    }
    const names = new Map<string, string>();
    formalIn.forEach((n, i) => { if (n) names.set(n, actualIn[i] ?? ''); });
    const passThrough: [string, string][] = [];
    formalOut.forEach((n, i) => {
      const actual = actualOut[i] ?? '';
      if (!n) return;
      if (names.has(n)) {
        if (actual) passThrough.push([names.get(n)!, actual]); // an output that is an input
      } else names.set(n, actual || this.fresh(label, n));
    });
    const rename = (n: string): string => {
      if (n === '') return '';
      let r = names.get(n);
      if (r === undefined) names.set(n, (r = this.fresh(label, n)));
      return r;
    };
    const callAttrs = new Map<string, AttributeProto>();
    for (const a of list<AttributeProto>(call, 'attribute')) callAttrs.set(str(a, 'name'), a);
    for (const a of list<AttributeProto>(fn, 'attribute_proto')) if (!callAttrs.has(str(a, 'name'))) callAttrs.set(str(a, 'name'), a);
    const opsets = new Map<string, number>();
    for (const o of list<object>(fn, 'opset_import')) opsets.set(str(o, 'domain'), Number(int64(o, 'version')));
    const from: Origin = { opsets, chain: [...chain, fnKey] };
    const copy = new Copier(rename, callAttrs, label, (o) => { this.origin.set(o, from); });
    const body = list<NodeProto>(fn, 'node').map((n) => copy.node(n));
    for (const [input, output] of passThrough) {
      const id: NodeProto = { op_type: 'Identity', domain: '', input: [input], output: [output], name: `${label}/Identity` };
      this.origin.set(id, from);
      body.push(id);
    }
    return body;
  }

  /** The next suffix to try for each name asked for twice (no probing from 1 each time: sibling calls share labels). */
  private readonly suffix = new Map<string, number>();

  private fresh(label: string, name: string): string {
    const base = `${label}/${name}`;
    if (!this.taken.has(base)) {
      this.taken.add(base);
      return base;
    }
    let k = this.suffix.get(base) ?? 1;
    while (this.taken.has(`${base}_${k}`)) k++;
    this.suffix.set(base, k + 1);
    const n = `${base}_${k}`;
    this.taken.add(n);
    return n;
  }
}

/** Copies a function's nodes and body graphs with its names renamed and its attribute references resolved. */
class Copier {
  constructor(
    private readonly rename: (n: string) => string,
    private readonly callAttrs: ReadonlyMap<string, AttributeProto>,
    private readonly label: string,
    private readonly mark: (o: object) => void,
  ) {}

  node(n: NodeProto): NodeProto {
    const out: NodeProto = {
      ...n,
      name: `${this.label}/${str(n, 'name') || str(n, 'op_type')}`,
      input: list<string>(n, 'input').map(this.rename),
      output: list<string>(n, 'output').map(this.rename),
      attribute: list<AttributeProto>(n, 'attribute').flatMap((a) => this.attribute(a)),
    };
    this.mark(out);
    return out;
  }

  private attribute(a: AttributeProto): AttributeProto[] {
    const ref = str(a, 'ref_attr_name');
    if (ref) {
      const given = this.callAttrs.get(ref);
      // the call's value (or the function's default) under the node's attribute name; none: left out
      return given ? [{ ...given, name: str(a, 'name') }] : [];
    }
    const g = (a as { g?: GraphProto | null }).g;
    const gs = list<GraphProto>(a, 'graphs');
    if (!g && !gs.length) return [a];
    const out: AttributeProto = { ...a };
    if (g) (out as { g?: GraphProto }).g = this.graph(g);
    if (gs.length) (out as { graphs?: GraphProto[] }).graphs = gs.map((x) => this.graph(x));
    return [out];
  }

  private graph(g: GraphProto): GraphProto {
    const vi = (v: ValueInfoProto): ValueInfoProto => ({ ...v, name: this.rename(str(v, 'name')) });
    const out: GraphProto = {
      name: str(g, 'name'),
      node: list<NodeProto>(g, 'node').map((n) => this.node(n)),
      input: list<ValueInfoProto>(g, 'input').map(vi),
      output: list<ValueInfoProto>(g, 'output').map(vi),
      value_info: list<ValueInfoProto>(g, 'value_info').map(vi),
      initializer: list<TensorProto>(g, 'initializer').map((t) => ({ ...t, name: this.rename(str(t, 'name')) })),
      sparse_initializer: list<SparseTensorProto>(g, 'sparse_initializer').map((sp) => ({
        ...sp,
        values: { ...sp.values, name: this.rename(str(sp.values, 'name')) },
        ...(sp.indices ? { indices: { ...sp.indices, name: this.rename(str(sp.indices, 'name')) } } : {}),
      })),
      quantization_annotation: list<TensorAnnotation>(g, 'quantization_annotation').map((q) => ({ ...q, tensor_name: this.rename(str(q, 'tensor_name')) })),
      metadata_props: list<StringStringEntryProto>(g, 'metadata_props'),
    };
    if (str(g, 'doc_string')) out.doc_string = str(g, 'doc_string');
    this.mark(out);
    return out;
  }
}

interface Origin { readonly opsets: ReadonlyMap<string, number>; readonly chain: readonly string[] }

/** By default, at most this many nodes made by inlining, per model (DecodeOptions.maxInlinedNodes). */
export const MAX_INLINED_NODES = 1_000_000;

const key = (domain: string, name: string, overload: string): string => `${domain === 'ai.onnx' ? '' : domain}\0${name}\0${overload}`;
const describe = (fn: FunctionProto): string => `${str(fn, 'domain') ? `${str(fn, 'domain')}.` : ''}${str(fn, 'name')}${str(fn, 'overload') ? ` (overload ${str(fn, 'overload')})` : ''}`;

/** Every name of the model's graphs (inputs, outputs, initializers, value_info, node inputs and outputs, bodies included). */
export function modelNames(root: GraphProto): Set<string> {
  const names = new Set<string>();
  const graphs: GraphProto[] = [root];
  while (graphs.length) {
    const g = graphs.pop()!;
    for (const f of ['input', 'output', 'value_info']) for (const v of list<ValueInfoProto>(g, f)) names.add(str(v, 'name'));
    for (const t of list<TensorProto>(g, 'initializer')) names.add(str(t, 'name'));
    for (const n of list<NodeProto>(g, 'node')) {
      for (const x of list<string>(n, 'input')) names.add(x);
      for (const x of list<string>(n, 'output')) names.add(x);
      for (const a of list<AttributeProto>(n, 'attribute')) {
        const sub = (a as { g?: GraphProto | null }).g;
        if (sub) graphs.push(sub);
        for (const s of list<GraphProto>(a, 'graphs')) graphs.push(s);
      }
    }
  }
  return names;
}
