import type { ConvertContext, OpMapping } from '../../mappings/spec.js';
import { A, type Attr } from '../graph/attr.js';
import { AttrTypeError } from '../graph/attr-read.js';
import type { Body } from '../graph/body.js';
import { irHas, onnxHas, type ElementTypeName } from '../graph/element-type.js';
import type { Graph } from '../graph/graph.js';
import type { Model } from '../graph/model.js';
import type { Node } from '../graph/node.js';
import type { Tensor } from '../graph/tensor.js';
import { describeType, type ValueType } from '../graph/types.js';
import { Value } from '../graph/value.js';
import type { Diagnostics } from '../diag/diagnostic.js';
import { nodeVersion } from '../shape/registry.js';
import { attrsToIr, attrsToOnnx, unknownAttrs, type AttrProblem } from './attrs.js';
import type { ConvertRegistry } from './registry.js';
import type { SourceInfo } from './source-types.js';

export type Target = 'ov' | 'onnx';
const TARGET_NAME: Record<Target, string> = { ov: 'OpenVINO IR', onnx: 'ONNX' };

interface WorkItem {
  readonly src: Graph;
  readonly dst: Graph;
  /** dst output k = src output order[k] (bodies: sorted by the node output they feed). */
  readonly order: readonly number[] | null;
}

/**
 * Rewrites every graph of a model into the other dialect, node by node through the mapping
 * tables. Graphs are processed from an explicit queue (a body is queued when its node is
 * converted), so nesting depth never touches the JS stack. Every problem becomes a diagnostic;
 * a node that fails to convert gets placeholder outputs so that the rest is still checked.
 */
export class Engine {
  readonly map = new Map<Value, Value>();
  private readonly queue: WorkItem[] = [];

  constructor(
    readonly target: Target,
    /** Target ONNX opset (IR → ONNX). */
    readonly onnxOpset: number,
    readonly registry: ConvertRegistry,
    readonly source: SourceInfo,
    readonly diags: Diagnostics,
  ) {}

  run(src: Model, dst: Model): void {
    this.queue.push({ src: src.graph, dst: dst.graph, order: null });
    for (let i = 0; i < this.queue.length; i++) this.convertGraph(this.queue[i]!);
  }

  /** Checks a source type against what the target can hold; returns it, or null after a diagnostic. */
  targetType(t: ValueType | null, what: string, v: Value, where: string | (() => string)): ValueType | null {
    if (t === null || t.kind === 'unknown') return null;
    const ok = t.kind === 'tensor' && (t.elem === 'dynamic' || (this.target === 'ov' ? irHas(t.elem) : onnxHas(t.elem)));
    if (ok) return t;
    this.diags.add('CONVERT_UNSUPPORTED_TYPE', typeof where === 'string' ? where : where(), { what, value: v.label, type: describeType(t), target: TARGET_NAME[this.target] });
    return null;
  }

  private convertGraph(item: WorkItem): void {
    const { src, dst } = item;
    if (!src.owner) {
      for (const v of src.inputs) {
        // An ONNX graph input that also has an initializer (IR version < 4 style) is a weight with an
        // overridable default. IR has no such thing: like ovc, we make it a Const holding the default.
        if (this.target === 'ov' && v.constant && v.meta['onnxInitializerDefault']) {
          const q = dst.addInitializer(v.constant, [...v.names]);
          this.carryMeta(v, q);
          this.map.set(v, q);
          continue;
        }
        const t = this.targetType(this.source.type(v), 'input', v, () => src.path);
        const q = dst.addInput(t, [...v.names]);
        this.carryMeta(v, q);
        this.map.set(v, q);
      }
    }
    for (const v of src.initializers) {
      const t = v.constant!;
      if (this.target === 'ov' ? !irHas(t.elem) : !onnxHas(t.elem)) {
        this.diags.add('CONVERT_UNSUPPORTED_TYPE', src.path, { what: 'initializer', value: v.label, type: `tensor(${t.elem})`, target: TARGET_NAME[this.target] });
      }
      const q = dst.addInitializer(t, [...v.names]);
      this.carryMeta(v, q);
      this.map.set(v, q);
    }
    for (const n of src.nodes) this.convertNode(n, dst);
    const order = item.order ?? src.outputs.map((_, i) => i);
    for (const k of order) {
      const v = src.outputs[k];
      let out = (v && this.map.get(v)) ?? new Value(dst, null);
      if (this.target === 'onnx' && this.needsOwnValue(dst, out)) out = this.identity(dst, out);
      dst.outputs.push(out);
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
    const layer = from.meta['layerName'] as string | undefined;
    if (this.target === 'ov') to.meta['layerName'] = layer ?? from.name;
    // IR → ONNX: of a port's several names, the one that is also the layer's name is how the
    // model is fed (`…_function_XU,X` on Parameter `X`): make it the primary name.
    else if (layer && to.names.includes(layer)) to.names = [layer, ...to.names.filter((s) => s !== layer)];
  }

  private convertNode(n: Node, dst: Graph): void {
    const wrongDialect = (this.target === 'ov') !== (n.dialect === 'onnx');
    const opset = this.target === 'ov' ? nodeVersion(n) : this.onnxOpset;
    const entry = wrongDialect ? undefined
      : this.target === 'ov' ? this.registry.forOnnx(n, opset) : this.registry.forIr(n.op, opset);
    if (!entry) {
      const detail = wrongDialect ? `the node is already ${TARGET_NAME[this.target]}`
        : this.target === 'onnx' && this.registry.irOpsets(n.op) ? `only at ONNX opsets ${this.registry.irOpsets(n.op)}` : '';
      this.diags.add('CONVERT_UNSUPPORTED_OP', n.path, {
        op: n.op + (n.domain && n.domain !== 'ai.onnx' ? ` (domain ${n.domain})` : ''), dialect: n.dialect === 'ov' ? 'IR' : 'ONNX',
        version: n.version, target: TARGET_NAME[this.target], detail,
      });
      this.placeholders(n, dst);
      return;
    }
    const side = this.target === 'ov' ? 'onnx' : 'ir';
    const unknown = unknownAttrs(entry, n, side);
    for (const attr of unknown) this.diags.add('CONVERT_UNKNOWN_ATTR', n.path, { op: n.op, attr, target: TARGET_NAME[this.target] });
    if (unknown.length) { this.placeholders(n, dst); return; }
    const ctx = new Context(this, n, dst, entry, opset);
    try {
      const hatch = this.target === 'ov' ? entry.toIr : entry.toOnnx;
      if (hatch) hatch(ctx);
      else ctx.direct();
    } catch (e) {
      if (e instanceof AttrTypeError) ctx.unsupportedAttr(e.attr, e.got, `should be ${e.expected}`);
      else this.diags.add('INTERNAL', n.path, { detail: `converting ${n.op}: ${e instanceof Error ? e.message : String(e)}` });
      ctx.failed = true;
    }
    if (ctx.failed) { this.placeholders(n, dst); return; }
    n.outputs.forEach((o, i) => {
      if (!this.map.has(o)) {
        this.diags.add('INTERNAL', n.path, { detail: `the ${n.op} mapping left output ${i} unconverted` });
        this.map.set(o, new Value(dst, null));
      }
    });
  }

  private placeholders(n: Node, dst: Graph): void {
    for (const o of n.outputs) if (!this.map.has(o)) this.map.set(o, new Value(dst, null));
  }

  /** Queues source body `srcKey` of `n` for conversion as body `dstKey` of `target`. */
  body(n: Node, target: Node, srcKey: string, dstKey: string, from: (i: number) => number): Body {
    const sb = n.bodies.get(srcKey)!;
    const db = target.graph.addBody(target, dstKey);
    const bound = new Map(sb.inputs.map((b) => [b.param, b.from]));
    for (const p of sb.graph.inputs) {
      const outer = bound.has(p) ? n.inputs[bound.get(p)!] : null;
      const st = this.source.type(p) ?? (outer ? this.source.type(outer) : null);
      const q = db.graph.addInput(this.targetType(st, 'body parameter', p, () => sb.graph.path), [...p.names]);
      this.carryMeta(p, q);
      this.map.set(p, q);
    }
    for (const b of sb.inputs) db.inputs.push({ param: this.map.get(b.param)!, from: from(b.from), ...(b.extra ? { extra: b.extra } : {}) });
    const order = [...sb.outputs].sort((a, b) => a.to - b.to).map((o) => o.result);
    order.forEach((_, k) => db.outputs.push({ result: k, to: k }));
    this.queue.push({ src: sb.graph, dst: db.graph, order });
    return db;
  }
}

/** The ConvertContext one mapping sees for one node. */
class Context implements ConvertContext {
  failed = false;
  lastNode: Node | null = null;
  private readonly emitted = new Set<Node>();
  private readonly fresh = new Set<Value>();
  private consts = 0;

  constructor(
    private readonly engine: Engine,
    readonly node: Node,
    private readonly dst: Graph,
    readonly entry: OpMapping,
    readonly opset: number,
  ) {}

  get path(): string { return this.node.path; }
  /** What target nodes and constants are named after: the node's name, else its first output's. */
  private get base(): string { return this.node.name || this.node.outputs[0]?.name || this.node.label; }
  get numInputs(): number { return this.node.inputs.length; }

  private src(i: number): Value | null { return this.node.inputs[i] ?? null; }
  input(i: number): Value | null {
    const v = this.src(i);
    return v ? this.engine.map.get(v) ?? null : null;
  }
  type(i: number): ValueType | null { const v = this.src(i); return v ? this.engine.source.type(v) : null; }
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
  constInts(i: number): bigint[] | null { const v = this.src(i); return v ? this.engine.source.ints(v) : null; }
  constNumbers(i: number): number[] | null { const v = this.src(i); return v ? this.engine.source.numbers(v) : null; }

  attrs(): Map<string, Attr> {
    const problems: AttrProblem[] = [];
    const out = this.engine.target === 'ov' ? attrsToIr(this.entry, this.node, problems) : attrsToOnnx(this.entry, this.node, problems);
    for (const p of problems) this.unsupportedAttr(p.attr, p.value ?? '', p.detail);
    return out;
  }

  emit(op: string, inputs: readonly (Value | null)[], attrs: Map<string, Attr> | Record<string, string | Attr> = {}, outputs = 1, version?: string): Value[] {
    const ov = this.engine.target === 'ov';
    const n = this.dst.addNode({
      dialect: ov ? 'ov' : 'onnx',
      op,
      version: version ?? (ov ? this.engine.registry.irVersion(op) : String(this.engine.onnxOpset)),
      name: `${this.base}/${op}`,
    });
    const entries = attrs instanceof Map ? [...attrs] : Object.entries(attrs);
    for (const [k, v] of entries) n.attrs.set(k, typeof v === 'string' ? A.raw(v) : v);
    for (const v of inputs) n.addInput(v);
    const outs: Value[] = [];
    for (let i = 0; i < outputs; i++) { const o = n.addOutput(null); this.fresh.add(o); outs.push(o); }
    this.emitted.add(n);
    this.lastNode = n;
    return outs;
  }

  /** The default conversion: one target node, inputs in order, declarative attributes. */
  direct(): void {
    const inputs = [...this.node.inputs.map((_, i) => this.input(i))];
    while (inputs.length && inputs[inputs.length - 1] === null) inputs.pop();
    const op = this.engine.target === 'ov' ? this.entry.ir.op : this.entry.onnx.op;
    const version = this.engine.target === 'ov' ? this.entry.ir.version : undefined;
    const attrs = this.attrs();
    if (this.failed) return;
    const outs = this.emit(op, inputs, attrs, this.node.outputs.length, version);
    outs.forEach((v, i) => this.output(i, v));
  }

  constant(t: Tensor): Value {
    const v = this.dst.addInitializer(t, []);
    if (this.engine.target === 'ov') v.meta['layerName'] = `${this.base}/Const_${this.consts++}`;
    this.fresh.add(v);
    return v;
  }

  output(i: number, v: Value): void {
    const so = this.node.outputs[i];
    if (!so) { this.error(`mapping bound output ${i}, which the node does not have`); return; }
    if (this.engine.target === 'onnx' && !this.fresh.has(v)) {
      // ONNX values have one name: an aliased output gets its own Identity.
      v = this.emit('Identity', [v])[0]!;
    }
    if (this.fresh.has(v)) {
      v.names = [...so.names.filter((s) => s !== '')];
      if (v.producer && this.emitted.has(v.producer)) v.producer.name = this.node.name || so.name || v.producer.name;
      if (v.constant && this.engine.target === 'ov') v.meta['layerName'] = so.name || (v.meta['layerName'] as string);
    } else {
      for (const s of so.names) if (s && !v.names.includes(s)) v.names = [...v.names, s].sort();
    }
    v.type ??= this.engine.targetType(this.engine.source.type(so), 'value', so, () => this.path);
    this.engine.map.set(so, v);
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

  body(target: Node, srcKey: string, dstKey: string, from: (i: number) => number): Body {
    return this.engine.body(this.node, target, srcKey, dstKey, from);
  }

  error(detail: string): void {
    this.engine.diags.add('CONVERT_OP', this.path, { op: this.node.op, detail });
    this.failed = true;
  }

  unsupportedAttr(attr: string, value: string, detail?: string): void {
    this.engine.diags.add('CONVERT_UNSUPPORTED_ATTR', this.path, { op: this.node.op, attr, value, detail });
    this.failed = true;
  }

  needsConstant(index: number, what: string): void {
    this.engine.diags.add('CONVERT_NEEDS_CONSTANT', this.path, { op: this.node.op, index, what, target: this.engine.target === 'ov' ? 'OpenVINO IR' : 'ONNX' });
    this.failed = true;
  }
}
