import { irSideOf, type BodyOptions, type ConvertContext, type OpMapping, type OperandMove, type SequenceElement, type StateInitial } from '../../mappings/spec.js';
import { cutBeforeHint } from './cut-hint.js';
import { A, type Attr } from '../graph/attr.js';
import { attrFloat, attrFloats, attrInts, attrReader, AttrTypeError, type AttrReader } from '../graph/attr-read.js';
import type { Body } from '../graph/body.js';
import { irHas, onnxHas, type ElementTypeName } from '../graph/element-type.js';
import type { Graph } from '../graph/graph.js';
import type { Model } from '../graph/model.js';
import { nodeVersion, type Node } from '../graph/node.js';
import { makeTensor, readFloats, readIntegers, scalarTensor, tensorFromFloat32, tensorFromInt64, type Tensor } from '../graph/tensor.js';
import { describeType, tensorType, type TensorType, type ValueType } from '../graph/types.js';
import { append, Value } from '../graph/value.js';
import { ValueTable } from '../graph/id-table.js';
import type { Diagnostics } from '../diag/diagnostic.js';
import { attrsToIr, attrsToOnnx, unknownAttrs, type AttrProblem } from './attrs.js';
import { constantValue } from './fold.js';
import { checkInitializerDefault } from './initializer-default.js';
import { onnxWidening, widenConstant } from './widen-constants.js';
import { arityProblems, attributeProblems, inputTypeProblems } from '../onnx/validate.js';
import { denseOfSparse } from '../onnx/sparse-dense.js';
import { assignState, reportStates, restorableStates, restoreStateInputs, type StateRestore, type StateVariable } from './state-variables.js';
import type { ConvertRegistry } from './registry.js';
import type { SourceInfo } from './source-types.js';

export type Target = 'ov' | 'onnx';

const TARGET_NAME: Record<Target, string> = { ov: 'OpenVINO IR', onnx: 'ONNX' };

interface WorkItem {
  readonly src: Graph;
  readonly dst: Graph;
  /** dst output k = src output order[k] (bodies: sorted by the node output they feed). */
  readonly order: readonly number[] | null;
  /** Rewrites dst output k once the body is converted (BodyOptions.result). */
  readonly wrap?: (k: number, v: Value, g: Graph) => Value;
  /** dst output k for a src output that is a resolved sequence (BodyOptions.sequenceResult). */
  readonly wrapSequence?: (k: number, elems: readonly SequenceElement[], g: Graph) => Value;
}

/**
 * Rewrites every graph of a model into the other dialect, node by node through the mapping
 * tables. Graphs are processed from an explicit queue (a body is queued when its node is
 * converted), so nesting depth never touches the JS stack. Every problem becomes a diagnostic;
 * a node that fails to convert gets placeholder outputs so that the rest is still checked.
 */
export class Engine {
  /** Each source value's target value (a table over the source model's values, made by run). */
  map = new ValueTable<Value>(null);
  /**
   * ONNX → IR: source sequence and optional values resolved at conversion time, as the target
   * tensors they hold (mappings/sequence/, mappings/optional/: an optional holds at most one). They
   * have no target value of their own: they are never in `map`.
   */
  readonly sequences = new Map<Value, readonly SequenceElement[]>();
  /** Source nodes that did not convert (their outputs are placeholders; their problem is reported). */
  readonly failedNodes = new Set<Node>();
  private readonly queue: WorkItem[] = [];
  /**
   * IR → ONNX: OpenVINO state variables by variable_id, as main graph values (mappings/state/):
   * the input a ReadValue reads, the value an Assign writes (a graph output at the end), and where.
   */
  readonly states = new Map<string, StateVariable>();
  /** ONNX → IR: the graph inputs and outputs an earlier IR → ONNX made of state variables, to make variables again. */
  private restore: StateRestore | null = null;

  constructor(
    readonly target: Target,
    /** Target ONNX opset (IR → ONNX). */
    readonly onnxOpset: number,
    readonly registry: ConvertRegistry,
    readonly source: SourceInfo,
    readonly diags: Diagnostics,
  ) {}

  /** A source value's element type (one function for every node's checks, not a closure per node). */
  private readonly sourceElem = (v: Value): ElementTypeName | null => this.source.elem(v);

  run(src: Model, dst: Model): void {
    this.map = new ValueTable(src.graph);
    if (this.target === 'ov') this.restore = restorableStates(src, this.diags);
    this.queue.push({ src: src.graph, dst: dst.graph, order: null });
    for (let i = 0; i < this.queue.length; i++) this.convertGraph(this.queue[i]!);
  }

  /** The record of state variable `id` (made on first use, at `path`). */
  state(id: string, path: string): StateVariable {
    let s = this.states.get(id);
    if (!s) this.states.set(id, (s = { input: null, initial: null, output: null, result: null, path, assignedAt: '' }));
    return s;
  }

  /** After the ONNX names are final: the state variables' warnings, initial values and metadata (state-variables.ts). */
  reportStates(dst: Model): void {
    reportStates(this.states, dst, this.diags);
  }

  /** Checks a source type against what the target can hold; returns it, or null after a diagnostic. */
  targetType(t: ValueType | null, what: string, v: Value, where: string | Node | Graph): ValueType | null {
    if (t === null || t.kind === 'unknown') return null;
    const ok = t.kind === 'tensor' && (t.elem === 'dynamic' || (this.target === 'ov' ? irHas(t.elem) : onnxHas(t.elem)));
    if (ok) return t;
    this.diags.add('CONVERT_UNSUPPORTED_TYPE', typeof where === 'string' ? where : where.path, { what, value: v.label, type: describeType(t), target: TARGET_NAME[this.target] });
    return null;
  }

  private convertGraph(item: WorkItem): void {
    const { src, dst } = item;
    if (!src.owner) {
      for (const v of src.inputs) {
        // An ONNX graph input that also has an initializer (IR version < 4 style) is a weight with an
        // overridable default. IR has no such thing: like ovc, we make it a Const holding the default.
        if (this.target === 'ov' && v.constant && v.metaView['onnxInitializerDefault']) {
          checkInitializerDefault(v, src.path, this.diags);
          const q = dst.addInitializer(v.constant, [...v.names]);
          this.carryMeta(v, q);
          this.map.set(v, q);
          continue;
        }
        // A sparse initializer is a constant too: IR has no sparse tensors, so it is its dense form (as ovc makes it).
        const sparse = this.target === 'ov' ? v.metaView['onnxSparseInitializer'] : undefined;
        if (sparse) {
          const dense = denseOfSparse(sparse, this.diags, src.path);
          const q = dense ? dst.addInitializer(dense, [...v.names]) : new Value(dst, null);
          this.carryMeta(v, q);
          this.map.set(v, q);
          continue;
        }
        if (this.restore?.inputs.has(v)) continue; // a ReadValue, made once the initializers are converted
        const t = this.targetType(this.source.type(v), 'input', v, src);
        const q = dst.addInput(t, [...v.names]);
        this.carryMeta(v, q);
        this.map.set(v, q);
      }
    }
    for (const v of src.initializers) {
      let t = v.constant!;
      const wider = this.target === 'onnx' ? onnxWidening(v) : null;
      if (wider) {
        // a packed IR type ONNX lacks, read only by Converts: the same numbers in a wider type
        const from = t;
        t = widenConstant(from, wider);
        this.diags.add('CONVERT_CONSTANT_WIDENED', src.path, { value: typeof v.metaView['layerName'] === 'string' ? v.metaView['layerName'] : v.label, from: from.elem, to: wider, bytes: `${from.data.byteLength} → ${t.data.byteLength} bytes` });
      }
      if (this.target === 'ov' ? !irHas(t.elem) : !onnxHas(t.elem)) {
        this.diags.add('CONVERT_UNSUPPORTED_TYPE', src.path, { what: 'initializer', value: v.label, type: `tensor(${t.elem})`, target: TARGET_NAME[this.target] });
      }
      const q = dst.addInitializer(t, [...v.names]);
      this.carryMeta(v, q);
      this.map.set(v, q);
    }
    if (!src.owner && this.restore) {
      restoreStateInputs(this.restore, dst, this.map, (v) => this.targetType(this.source.type(v), 'input', v, src));
    }
    for (const n of src.nodes) this.convertNode(n, dst);
    const order = item.order ?? src.outputs.map((_, i) => i);
    for (const k of order) {
      const v = src.outputs[k];
      const elems = v ? this.sequences.get(v) : undefined;
      if (elems && item.wrapSequence) { dst.outputs.push(item.wrapSequence(dst.outputs.length, elems, dst)); continue; }
      if (v && elems) {
        this.diags.add('CONVERT_SEQUENCE_NOT_STATIC', src.path, { kind: this.kindOf(v), value: v.label, detail: `is output ${k} of graph ${src.path}` });
      }
      let out = (v && this.map.get(v)) ?? new Value(dst, null);
      const assigned = !src.owner && v ? this.restore?.outputs.get(v) : undefined;
      if (assigned !== undefined) { assignState(dst, assigned, out); continue; }
      if (item.wrap) out = item.wrap(dst.outputs.length, out, dst);
      if (this.target === 'onnx' && this.needsOwnValue(dst, out)) out = this.identity(dst, out);
      dst.outputs.push(out);
    }
    if (!src.owner) {
      // the assigned state variables, after the model's own outputs, each through an Identity of its
      // own name (the value may be an output, an input or named otherwise already)
      for (const [id, s] of this.states) {
        if (!s.output) continue;
        const n = dst.addNode({ dialect: 'onnx', op: 'Identity', version: String(this.onnxOpset), name: `${id}/Assign` });
        n.addInput(s.output);
        dst.outputs.push((s.result = n.addOutput(s.output.type, [`${id}.next`])));
      }
    }
    if (this.target === 'ov') {
      dst.meta['resultNames'] = dst.outputs.map((v) => `${v.name || v.label}/sink_port_0`);
    }
  }

  /**
   * ONNX wants each graph output defined in its own graph (the checker rejects a branch output
   * that names an outer value) and listed once: such outputs get an Identity of their own.
   */
  private needsOwnValue(g: Graph, v: Value): boolean {
    return (g.owner !== null && g.inputs.includes(v)) || g.outputs.includes(v);
  }

  private identity(g: Graph, v: Value): Value {
    const n = g.addNode({ dialect: 'onnx', op: 'Identity', version: String(this.onnxOpset), name: `${v.name || 'output'}/Identity` });
    n.addInput(v);
    const o = n.addOutput(v.type, v.names.length ? [`${v.names[0]}_out`] : []);
    return o;
  }

  private carryMeta(from: Value, to: Value): void {
    const layer = from.metaView['layerName'];
    if (this.target === 'ov') to.meta['layerName'] = layer ?? from.name;
    // IR → ONNX: of a port's several names, the one that is also the layer's name is how the
    // model is fed (`…_function_XU,X` on Parameter `X`): make it the primary name.
    else if (layer && to.names.includes(layer)) to.names = [layer, ...to.names.filter((s) => s !== layer)];
    // IR → ONNX: a Const or body Parameter layer whose port has no tensor name (OpenVINO's
    // TensorFlow frontend writes many) is named after its layer (assignOnnxNames prefers that to
    // const_k / input_k): what the IR calls it, in a viewer and for `ovir check`'s pairing by name.
    // The main graph's inputs keep the names they have or get (the model's interface).
    else if (layer && !to.names.length && (to.constant !== null || to.graph.owner !== null)) to.meta['layerName'] = layer;
  }

  private convertNode(n: Node, dst: Graph): void {
    const wrongDialect = (this.target === 'ov') !== (n.dialect === 'onnx');
    const opset = this.target === 'ov' ? nodeVersion(n) : this.onnxOpset;
    let entry: OpMapping | undefined;
    try {
      entry = wrongDialect ? undefined
        : this.target === 'ov' ? this.registry.forOnnx(n, opset) : this.registry.forIr(n.op, n.version, opset);
    } catch (e) {
      // A `when` predicate read a mistyped attribute.
      if (!(e instanceof AttrTypeError)) throw e;
      this.diags.add('CONVERT_UNSUPPORTED_ATTR', n.path, { op: n.op, attr: e.attr, value: e.got, detail: `should be ${e.expected}` });
      this.placeholders(n, dst);
      return;
    }
    if (!entry) {
      const detail = wrongDialect ? `the node is already ${TARGET_NAME[this.target]}`
        : this.target === 'onnx' ? this.registry.irSupport(n.op, n.version) : cutBeforeHint(n);
      const later = !wrongDialect && this.target === 'onnx'
        ? this.registry.entries.filter((e) => e.ir?.op.toLowerCase() === n.op.toLowerCase() && e.onnx.since > opset).map((e) => e.onnx.since) : [];
      this.diags.add('CONVERT_UNSUPPORTED_OP', n.path, {
        op: n.op + (n.domain && n.domain !== 'ai.onnx' ? ` (domain ${n.domain})` : ''), dialect: n.dialect === 'ov' ? 'IR' : 'ONNX',
        version: n.version, target: TARGET_NAME[this.target], detail, ...(later.length ? { needsOpset: Math.min(...later) } : {}),
      });
      this.placeholders(n, dst);
      return;
    }
    // an op with bodies still converts: its own checks name what its bodies cannot hold (Loop: a
    // sequence-typed carried value), and the refusal above stands
    if (!entry.sequences && !this.tensorsOnly(n, entry.sequenceInputs?.(n)) && !n.bodies.size) { this.placeholders(n, dst); return; }
    if (this.target === 'ov') {
      // an attribute of the wrong kind, or a required one absent (ai.onnx ops: validate.ts): not valid ONNX, never read as a default
      const bad = attributeProblems(n, opset);
      for (const p of bad) {
        if (p.value === null) this.diags.add('CONVERT_OP', n.path, { op: n.op, detail: p.detail });
        else this.diags.add('CONVERT_UNSUPPORTED_ATTR', n.path, { op: n.op, attr: p.attr, value: p.value, detail: p.detail });
      }
      // inputs or outputs the schema does not have, or a required one empty: never an op with other ports
      const arity = arityProblems(n, opset);
      for (const detail of arity) this.diags.add('ONNX_NODE_ARITY', n.path, { op: n.op, detail });
      // an input of an element type the schema does not take (Reshape's shape as strings, a Loop
      // trip count of f32): onnx.checker (full_check) and onnxruntime refuse the node, and what it
      // would become OpenVINO cannot read or compile
      const types = inputTypeProblems(n, opset, this.sourceElem);
      for (const detail of types) this.diags.add('SHAPE_RULE', n.path, { op: n.op, detail });
      if (bad.length || arity.length || types.length) { this.placeholders(n, dst); return; }
    }
    const side = this.target === 'ov' ? 'onnx' : 'ir';
    const unknown = unknownAttrs(entry, n, side, opset);
    for (const attr of unknown) this.diags.add('CONVERT_UNKNOWN_ATTR', n.path, { op: n.op, attr, target: TARGET_NAME[this.target] });
    if (unknown.length) { this.placeholders(n, dst); return; }
    const ctx = new Context(this, n, dst, entry, opset);
    try {
      const hatch = this.target === 'ov' ? entry.toIr : entry.toOnnx;
      if (ctx.checkRequired()) {
        const folded = this.target === 'onnx' ? entry.foldOnnx?.(ctx) ?? null : null;
        if (folded) ctx.output(0, folded);
        else if (hatch) hatch(ctx);
        else ctx.direct();
      }
    } catch (e) {
      if (e instanceof AttrTypeError) ctx.unsupportedAttr(e.attr, e.got, `should be ${e.expected}`);
      else {
        // A mapping that trips over a node its source's own inference refuses (a Conv whose weights
        // have rank 1) fails because of that node: the refusal is the error, not ovir's fault.
        const refused = this.source.invalid.filter((d) => d.where === n.path);
        if (refused.length) this.diags.push(...refused);
        else this.diags.add('INTERNAL', n.path, { detail: `converting ${n.op}: ${e instanceof Error ? e.message : String(e)}` });
      }
      ctx.failed = true;
    }
    if (ctx.failed) { this.placeholders(n, dst); return; }
    for (let i = 0; i < n.outputs.length; i++) {
      const o = n.outputs[i]!;
      if (!this.map.has(o) && !this.sequences.has(o)) {
        this.diags.add('INTERNAL', n.path, { detail: `the ${n.op} mapping left output ${i} unconverted` });
        this.map.set(o, new Value(dst, null));
      }
    }
  }

  /** A node of a tensor op reads no resolved sequence (an If or Loop capturing one included); false after diagnostics. */
  private tensorsOnly(n: Node, taken?: readonly number[]): boolean {
    if (!this.sequences.size) return true;
    let ok = true;
    for (let i = 0; i < n.inputs.length; i++) {
      const s = n.inputs[i];
      if (!s || !this.sequences.has(s) || taken?.includes(i)) continue;
      const kind = this.kindOf(s);
      const why = n.bodies.size ? `, and a ${kind} cannot cross a body boundary` : ', which takes tensors';
      this.diags.add('CONVERT_SEQUENCE_NOT_STATIC', n.path, { kind, value: s.label, detail: `is input ${i} of ${n.op}${why}` });
      ok = false;
    }
    return ok;
  }

  /** 'optional' or 'sequence', for messages: what a non-tensor source value is. */
  kindOf(v: Value): 'optional' | 'sequence' {
    return this.source.type(v)?.kind === 'optional' ? 'optional' : 'sequence';
  }

  private placeholders(n: Node, dst: Graph): void {
    this.failedNodes.add(n);
    for (const o of n.outputs) if (!this.map.has(o)) this.map.set(o, new Value(dst, null));
  }

  /** Queues source body `srcKey` of `n` for conversion as body `dstKey` of `target`. */
  body(n: Node, target: Node, srcKey: string, dstKey: string, from: (i: number) => number, opts: BodyOptions = {}): Body {
    const sb = n.bodies.get(srcKey)!;
    const db = target.graph.addBody(target, dstKey);
    // the node input each parameter is bound to (the last binding of a parameter bound twice)
    const bound = new Map<Value, number>();
    for (const b of sb.inputs) bound.set(b.param, b.from);
    const params = opts.inputs ?? sb.graph.inputs.map((_, i) => i);
    const sourceParams = sb.graph.inputs;
    for (const i of params) {
      const p = sourceParams[i]!;
      const at = bound.get(p);
      const outer = at !== undefined ? n.inputs[at] : null;
      const st = this.source.type(p) ?? (outer ? this.source.type(outer) : null);
      const q = db.graph.addInput(this.targetType(st, 'body parameter', p, sb.graph), [...p.names]);
      this.carryMeta(p, q);
      this.map.set(p, opts.param ? opts.param(i, q, db.graph) : q);
    }
    for (const i of opts.emptySequences ?? []) this.sequences.set(sourceParams[i]!, []);
    // each binding to the body input at the place its parameter (where first listed) has in
    // `params` (the input at that place: a `param` hook may have added inputs before it)
    const firstAt = new Map<Value, number>();
    sourceParams.forEach((p, i) => { if (!firstAt.has(p)) firstAt.set(p, i); });
    const placeOf = new Map<number, number>();
    params.forEach((i, k) => { if (!placeOf.has(i)) placeOf.set(i, k); });
    for (const b of sb.inputs) {
      const i = firstAt.get(b.param);
      const k = i === undefined ? undefined : placeOf.get(i);
      const q = k === undefined ? undefined : db.graph.inputs[k];
      if (q) db.inputs.push({ param: q, from: from(b.from), ...(b.extra ? { extra: b.extra } : {}) });
    }
    const order = opts.results ?? [...sb.outputs].sort((a, b) => a.to - b.to).map((o) => o.result);
    order.forEach((_, k) => db.outputs.push({ result: k, to: k }));
    this.queue.push({ src: sb.graph, dst: db.graph, order, ...(opts.result ? { wrap: opts.result } : {}), ...(opts.sequenceResult ? { wrapSequence: opts.sequenceResult } : {}) });
    return db;
  }
}

/** No nodes or values yet (shared: `append` copies, never writes into it). */
const NONE: readonly never[] = Object.freeze([]);

/** The ConvertContext one mapping sees for one node. */
const NO_MOVES: readonly OperandMove[] = [];

class Context implements ConvertContext {
  failed = false;
  lastNode: Node | null = null;
  /**
   * Target nodes emitted for this node, and the values they (and its constants) made: a few, so
   * arrays, grown by `append` (exact sizes: a pushed-to empty array takes 17 slots, per node converted).
   */
  private emitted: readonly Node[] = NONE;
  private fresh: readonly Value[] = NONE;
  private consts = 0;
  /** ONNX → IR: operands given as attributes (old form), as the constants they are. */
  private movedInputs: Map<number, Value | null> | null = null;
  private attrForm_: readonly OperandMove[] | null = null;
  private attr_: AttrReader | null = null;

  constructor(
    private readonly engine: Engine,
    readonly node: Node,
    private readonly dst: Graph,
    readonly entry: OpMapping,
    readonly opset: number,
  ) {}

  /** Typed reads of the node's attributes (made when a mapping first reads one). */
  get attr(): AttrReader {
    return (this.attr_ ??= attrReader(this.node));
  }

  get path(): string { return this.node.path; }
  /** What target nodes and constants are named after: the node's name, else its first output's. */
  private get base(): string { return this.node.name || this.node.outputs[0]?.name || this.node.label; }
  get numInputs(): number {
    let n = this.node.inputs.length;
    for (const m of this.attrForm()) if (m.input >= n && this.movedInput(m) !== null) n = m.input + 1;
    return n;
  }

  /** ONNX → IR: the moves whose operand this node gives as an attribute (opset before `since`). */
  private attrForm(): readonly OperandMove[] {
    if (this.engine.target !== 'ov' || !this.entry.moves) return NO_MOVES;
    return (this.attrForm_ ??= this.entry.moves.filter((m) => this.opset < m.since));
  }
  private moveAt(i: number): OperandMove | undefined {
    const form = this.attrForm();
    return form.length ? form.find((m) => m.input === i) : undefined;
  }

  /** The attribute of move `m` as a constant of the target graph (null when absent). */
  private movedInput(m: OperandMove): Value | null {
    const moved = (this.movedInputs ??= new Map());
    if (moved.has(m.input)) return moved.get(m.input)!;
    const t = this.movedTensor(m);
    const v = t === null ? null : this.constant(t);
    moved.set(m.input, v);
    return v;
  }

  private movedTensor(m: OperandMove): Tensor | null {
    const n = this.node;
    switch (m.as) {
      case 'i64s': { const v = attrInts(n, m.attr); return v === undefined ? null : tensorFromInt64(v); }
      case 'f32s': { const v = attrFloats(n, m.attr); return v === undefined ? null : tensorFromFloat32(v); }
      case 'scalar': {
        const v = attrFloat(n, m.attr) ?? (m.fill ? m.default : undefined);
        if (v === undefined) return null;
        const elem = this.elem(0);
        const t = elem === null ? null : scalarTensor(elem, v);
        if (t === null) this.error(`attribute '${m.attr}' becomes a scalar of the data's type ${elem ?? '(unknown)'}, which is not built (float and integer types only, integers in range)`);
        return t;
      }
    }
  }

  /** A required moved operand that is absent, in either form, is a diagnostic; false then. */
  checkRequired(): boolean {
    if (this.engine.target !== 'ov') return true;
    for (const m of this.entry.moves ?? []) {
      if (!m.required) continue;
      if (this.opset < m.since ? !this.node.attrs.has(m.attr) : !this.node.inputs[m.input]) {
        this.error(this.opset < m.since ? `attribute '${m.attr}' is required` : `input ${m.input} (${m.attr}) is required`);
      }
    }
    return !this.failed;
  }

  private src(i: number): Value | null { return this.node.inputs[i] ?? null; }
  input(i: number): Value | null {
    const m = this.moveAt(i);
    if (m) return this.movedInput(m);
    const v = this.src(i);
    return v ? this.engine.map.get(v) ?? null : null;
  }
  type(i: number): ValueType | null {
    const m = this.moveAt(i);
    if (m) { const t = this.movedInput(m)?.constant; return t ? tensorType(t.elem, t.dims) : null; }
    const v = this.src(i);
    return v ? this.engine.source.type(v) : null;
  }
  typeOf(v: Value): ValueType | null { return this.engine.source.type(v); }
  intsOf(v: Value): bigint[] | null { return this.engine.source.ints(v); }
  converted(v: Value | null): Value | null { return v ? this.engine.map.get(v) ?? null : null; }
  elem(i: number): ElementTypeName | null {
    const t = this.type(i);
    return t?.kind === 'tensor' && t.elem !== 'dynamic' ? t.elem : null;
  }
  rank(i: number): number | null {
    const t = this.type(i);
    return t?.kind === 'tensor' && t.shape !== null ? t.shape.length : null;
  }
  constInts(i: number): bigint[] | null {
    const m = this.moveAt(i);
    if (m) { const t = this.movedInput(m)?.constant; return t ? readIntegers(t) : null; }
    const v = this.src(i);
    return v ? this.engine.source.ints(v) : null;
  }
  constNumbers(i: number): number[] | null {
    const m = this.moveAt(i);
    if (m) { const t = this.movedInput(m)?.constant; return t ? readFloats(t) : null; }
    const v = this.src(i);
    return v ? this.engine.source.numbers(v) : null;
  }

  attrs(): Map<string, Attr> {
    const problems: AttrProblem[] = [];
    const out = this.engine.target === 'ov' ? attrsToIr(this.entry, this.node, problems) : attrsToOnnx(this.entry, this.node, problems);
    for (const p of problems) this.unsupportedAttr(p.attr, p.value ?? '', p.detail);
    return out;
  }

  emitOwn(inputs: readonly (Value | null)[], attrs: Map<string, Attr> | Record<string, string | Attr> = {}, outputs = 1): Value[] {
    return this.emitOwnNode(inputs, attrs, outputs, false);
  }

  /** emitOwn; with `adopt`, a Map of attributes made for this node becomes the node's own (no copy). */
  private emitOwnNode(inputs: readonly (Value | null)[], attrs: Map<string, Attr> | Record<string, string | Attr>, outputs: number, adopt: boolean): Value[] {
    if (this.engine.target === 'onnx') return this.emitNode(this.entry.onnx.op, inputs, attrs, outputs, undefined, adopt);
    const ir = irSideOf(this.entry);
    if (!ir) throw new Error(`the ${this.entry.onnx.op} entry decomposes: it has no IR op of its own to emit`);
    return this.emitNode(ir.op, inputs, attrs, outputs, ir.version, adopt);
  }

  emit(op: string, inputs: readonly (Value | null)[], attrs: Map<string, Attr> | Record<string, string | Attr> = {}, outputs = 1, version?: string): Value[] {
    return this.emitNode(op, inputs, attrs, outputs, version, false);
  }

  private emitNode(op: string, inputs: readonly (Value | null)[], attrs: Map<string, Attr> | Record<string, string | Attr>, outputs: number, version: string | undefined, adopt: boolean): Value[] {
    const ov = this.engine.target === 'ov';
    if (!ov && op === this.entry.onnx.op && this.entry.moves) {
      const map = attrs instanceof Map ? new Map(attrs) : new Map(Object.entries(attrs).map(([k, v]) => [k, typeof v === 'string' ? A.raw(v) : v]));
      inputs = this.onnxForm(inputs, map);
      attrs = map;
      adopt = true;
    }
    const n = this.dst.addNode({
      dialect: ov ? 'ov' : 'onnx',
      op,
      version: version ?? (ov ? this.engine.registry.irVersion(op) : String(this.engine.onnxOpset)),
      name: `${this.base}/${op}`,
    });
    // forEach / for-in: no [key, value] array per attribute of every node emitted
    if (attrs instanceof Map) {
      if (attrs.size && adopt) n.attrs = attrs;
      else if (attrs.size) { const own = n.attrs; attrs.forEach((v, k) => own.set(k, v)); }
    } else {
      for (const k in attrs) {
        const v = attrs[k]!;
        n.attrs.set(k, typeof v === 'string' ? A.raw(v) : v);
      }
    }
    for (const v of inputs) n.addInput(v);
    const outs = new Array<Value>(outputs);
    for (let i = 0; i < outputs; i++) { const o = n.addOutput(null); this.fresh = append(this.fresh as Value[], o); outs[i] = o; }
    this.emitted = append(this.emitted as Node[], n);
    this.lastNode = n;
    return outs;
  }

  /**
   * IR → ONNX: the entry's ONNX op at the target opset. A moved operand before its `since` becomes
   * its attribute (it must be a constant; an attribute equal to the ONNX default is left out); from
   * `since` on an ints operand is made the 1-D int64 tensor ONNX wants (IR allows any integer type
   * and scalars).
   */
  private onnxForm(inputs: readonly (Value | null)[], attrs: Map<string, Attr>): (Value | null)[] {
    const drop = new Set<number>();
    const out = [...inputs];
    for (const m of this.entry.moves ?? []) {
      const v = out[m.input];
      if (!v) continue;
      if (this.opset < m.since) {
        drop.add(m.input);
        const known = m.as === 'i64s' ? this.knownInts(v) : this.knownNumbers(v);
        if (known === null) {
          this.needsConstant(m.input, Number.isFinite(m.since) ? `${m.attr} (an ONNX attribute before opset ${m.since}: convert with --opset ${m.since} or later)` : `${m.attr} (an ONNX attribute)`, Number.isFinite(m.since) ? m.since : undefined);
          continue;
        }
        if (m.as === 'i64s') attrs.set(m.attr, A.ints(known as bigint[]));
        else if (m.as === 'f32s') attrs.set(m.attr, A.floats((known as number[]).map(Math.fround)));
        else {
          const x = known as number[];
          if (x.length !== 1) { this.error(`${m.attr} must be one value (an ONNX attribute), got ${x.length}`); continue; }
          const f = Math.fround(x[0]!);
          if (m.default === undefined || f !== Math.fround(m.default)) attrs.set(m.attr, A.float(f));
        }
      } else if (this.sourceOf(v) === null) {
        // Built by the escape hatch in ONNX's terms already: left as it is.
      } else if (m.as === 'i64s') {
        out[m.input] = this.i64Vector(v);
      } else if (m.as === 'scalar') {
        out[m.input] = this.scalar(v);
      }
    }
    const kept = out.filter((_, i) => !drop.has(i));
    while (kept.length && kept[kept.length - 1] === null) kept.pop();
    return kept;
  }

  /**
   * The data of target operand `v` when known: a constant of the target graph, or a source input
   * whose data the source model determines (initializers, ONNX Constant nodes, propagated shapes).
   */
  private knownInts(v: Value): bigint[] | null {
    if (v.constant) {
      try { return readIntegers(v.constant); } catch { return null; }
    }
    const s = this.sourceOf(v);
    return s ? this.engine.source.ints(s) : null;
  }
  private knownNumbers(v: Value): number[] | null {
    if (v.constant) return readFloats(v.constant);
    const s = this.sourceOf(v);
    return s ? this.engine.source.numbers(s) : null;
  }
  private sourceOf(v: Value): Value | null {
    return this.node.inputs.find((s) => s !== null && this.engine.map.get(s) === v) ?? null;
  }

  /** A target integer operand as a 1-D int64 tensor (constants rewritten; run-time values Cast/Reshape). */
  private i64Vector(v: Value): Value {
    if (v.constant?.elem === 'i64' && v.constant.dims.length === 1) return v;
    const known = this.knownInts(v);
    if (known !== null) return this.constant(tensorFromInt64(known));
    const t = this.operandType(v);
    const elem = t?.elem ?? 'dynamic';
    const rank = t?.shape?.length ?? null;
    const asI64 = elem === 'i64' ? v : this.emit('Cast', [v], { to: A.int(7) })[0]!;
    return rank === 1 ? asI64 : this.emit('Reshape', [asI64, this.constant(tensorFromInt64([-1n]))])[0]!;
  }

  /** A one-element target operand as a scalar (ONNX wants rank 0 where IR also takes shape [1]). */
  private scalar(v: Value): Value {
    const t = v.constant;
    if (t) return t.dims.length === 0 ? v : this.constant(makeTensor(t.elem, [], t.data));
    const rank = this.operandType(v)?.shape?.length ?? null;
    return rank === 0 ? v : this.emit('Reshape', [v, this.constant(tensorFromInt64([]))])[0]!;
  }

  /** The type of a converted operand: its source value's (declared or inferred), else its own. */
  private operandType(v: Value): TensorType | null {
    const s = this.sourceOf(v);
    const t = s ? this.engine.source.type(s) : v.type;
    return t?.kind === 'tensor' ? t : null;
  }

  /** The default conversion: one target node, inputs in order, declarative attributes. */
  direct(): void {
    const count = this.numInputs;
    const inputs: (Value | null)[] = [];
    for (let i = 0; i < count; i++) inputs.push(this.input(i));
    while (inputs.length && inputs[inputs.length - 1] === null) inputs.pop();
    const attrs = this.attrs();
    if (this.failed) return;
    const outs = this.emitOwnNode(inputs, attrs, this.node.outputs.length, true);
    for (let i = 0; i < outs.length; i++) this.output(i, outs[i]!);
  }

  constant(t: Tensor): Value {
    const v = this.dst.addInitializer(t, []);
    if (this.engine.target === 'ov') v.meta['layerName'] = `${this.base}/Const_${this.consts++}`;
    this.fresh = append(this.fresh as Value[], v);
    return v;
  }

  output(i: number, v: Value): void {
    const so = this.node.outputs[i];
    if (!so) { this.error(`mapping bound output ${i}, which the node does not have`); return; }
    if (this.engine.target === 'onnx' && !this.fresh.includes(v)) {
      // ONNX values have one name: an aliased output gets its own Identity.
      v = this.emit('Identity', [v])[0]!;
    }
    if (this.fresh.includes(v)) {
      v.names = so.names.filter((s) => s !== '');
      if (v.producer && this.emitted.includes(v.producer)) v.producer.name = this.node.name || so.name || v.producer.name;
      if (v.constant && this.engine.target === 'ov') v.meta['layerName'] = so.name || v.meta['layerName'];
    } else {
      for (const s of so.names) if (s && !v.names.includes(s)) v.names = [...v.names, s].sort();
    }
    v.type ??= this.engine.targetType(this.engine.source.type(so), 'value', so, this.node);
    this.engine.map.set(so, v);
  }

  sequence(i: number, accept?: 'stacked'): readonly SequenceElement[] | null {
    const s = this.src(i);
    if (!s) { this.error(`input ${i} (a sequence) is required`); return null; }
    const elems = this.engine.sequences.get(s);
    if (elems && accept !== 'stacked' && elems.some((e) => e.stacked)) {
      const detail = `is appended to in every iteration of ${s.producer?.path ?? 'a Loop'}: only a ConcatFromSequence reads it (as the iterations' concatenation)`;
      this.engine.diags.add('CONVERT_SEQUENCE_NOT_STATIC', this.path, { kind: 'sequence', value: s.label, detail });
      this.failed = true;
      return null;
    }
    if (elems) return elems;
    const p = s.producer;
    // a sequence op (or a Loop appending to one) that failed has said why: its readers fail without repeating it
    const maker = p && this.engine.failedNodes.has(p) ? this.engine.registry.forOnnx(p, nodeVersion(p)) : undefined;
    if (maker && (maker.sequences || maker.sequenceInputs)) { this.failed = true; return null; }
    const kind = this.engine.kindOf(s);
    const why = p ? `is made by ${p.op} (${p.path}), which is not resolved at conversion time`
      : s.graph.owner ? `enters body ${s.graph.path} from outside (a ${kind} cannot cross a body boundary)`
        : s.constant ? 'is an initializer' : 'is a graph input';
    this.engine.diags.add('CONVERT_SEQUENCE_NOT_STATIC', this.path, { kind, value: s.label, detail: why });
    this.failed = true;
    return null;
  }

  outputSequence(i: number, elems: readonly SequenceElement[]): void {
    const so = this.node.outputs[i];
    if (!so) { this.error(`mapping bound output ${i}, which the node does not have`); return; }
    this.engine.sequences.set(so, elems);
  }

  unused(i: number): void {
    const so = this.node.outputs[i];
    if (!so) return;
    if (so.uses.length > 0 || so.graph.outputs.includes(so)) {
      this.error(`output ${i} ('${so.label}') is used but has no counterpart in ${this.engine.target === 'ov' ? 'OpenVINO IR' : 'ONNX'}`);
      return;
    }
    this.engine.map.set(so, new Value(this.dst, null));
  }

  body(target: Node, srcKey: string, dstKey: string, from: (i: number) => number, opts?: BodyOptions): Body {
    return this.engine.body(this.node, target, srcKey, dstKey, from, opts);
  }

  warn(detail: string): void {
    this.engine.diags.add('CONVERT_SEMANTICS_CHOICE', this.path, { op: this.node.op, detail });
  }

  error(detail: string): void {
    this.engine.diags.add('CONVERT_OP', this.path, { op: this.node.op, detail });
    this.failed = true;
  }

  unsupportedAttr(attr: string, value: string, detail?: string, needsOpset?: number): void {
    this.engine.diags.add('CONVERT_UNSUPPORTED_ATTR', this.path, { op: this.node.op, attr, value, detail, needsOpset });
    this.failed = true;
  }

  needsConstant(index: number, what: string, needsOpset?: number): void {
    this.engine.diags.add('CONVERT_NEEDS_CONSTANT', this.path, { op: this.node.op, index, what, target: this.engine.target === 'ov' ? 'OpenVINO IR' : 'ONNX', needsOpset });
    this.failed = true;
  }

  folded(i: number): Tensor | null {
    const s = this.node.inputs[i];
    return s ? constantValue(s) : null;
  }

  stateInput(variableId: string, type: ValueType | null, initial: StateInitial): Value | null {
    if (this.dst.owner) { this.stateInBody(variableId); return null; }
    const s = this.engine.state(variableId, this.path);
    if (!s.input) {
      s.input = this.dst.addInput(type, [variableId]);
      s.initial = initial;
    }
    return s.input;
  }

  stateOutput(variableId: string, v: Value): void {
    if (this.dst.owner) { this.stateInBody(variableId); return; }
    const s = this.engine.state(variableId, this.path);
    if (s.output) { this.error(`variable '${variableId}' is assigned twice (also by ${s.assignedAt})`); return; }
    s.output = v;
    s.assignedAt = this.path;
  }

  private stateInBody(variableId: string): void {
    this.error(`variable '${variableId}' is used inside a body: ONNX has no state, and only the main graph's variables become graph inputs and outputs`);
  }
}
