import { onnxIrVersionFor } from '../../src/convert/index.js';
import {
  defaultOnnxInfo, Graph, Model, tensorType, type Attr, type Dialect, type ElementTypeName, type Node, type Shape, type Tensor, type Value, type ValueType,
} from '../../src/graph/index.js';

/**
 * Builds models in either dialect the way the decoders do (docs/architecture.md): an outer value
 * read inside a body becomes a capture input of the owning node plus a bound body parameter, at
 * every level between the use and the definition. `inBody(body).use(v)` does exactly that, so a
 * fixture can write bodies as if they read outer values by name.
 */
export class Builder {
  readonly model: Model;
  private readonly captures = new Map<Graph, Map<Value, Value>>();

  constructor(readonly dialect: Dialect, readonly opset = 17) {
    this.model = new Model(dialect);
    if (dialect === 'ov') this.model.ir = { name: 'model', version: 11, rtInfo: null };
    else this.model.onnx = { ...defaultOnnxInfo(opset), irVersion: onnxIrVersionFor(opset) };
  }

  get graph(): Graph { return this.model.graph; }

  input(name: string, elem: ElementTypeName, shape: Shape, g: Graph = this.graph): Value {
    const v = g.addInput(tensorType(elem, shape), [name]);
    if (this.dialect === 'ov') v.meta['layerName'] = name;
    return v;
  }

  init(name: string, t: Tensor, g: Graph = this.graph): Value {
    const v = g.addInitializer(t, name ? [name] : []);
    if (this.dialect === 'ov') v.meta['layerName'] = name || 'Const';
    return v;
  }

  /** A node in graph `g` reading `inputs` (outer values are captured automatically). */
  node(g: Graph, op: string, inputs: (Value | null)[], outputs: string[] | number = 1, attrs: Record<string, Attr> = {}, opts: { name?: string; version?: string } = {}): Node {
    const n = g.addNode({
      dialect: this.dialect, op, name: opts.name ?? '',
      version: opts.version ?? (this.dialect === 'ov' ? 'opset1' : String(this.opset)),
    });
    for (const v of inputs) n.addInput(v ? this.use(g, v) : null);
    for (const [k, a] of Object.entries(attrs)) n.attrs.set(k, a);
    const names = typeof outputs === 'number' ? Array.from({ length: outputs }, () => '') : outputs;
    for (const s of names) n.addOutput(null, s ? [s] : []);
    return n;
  }

  /** One-output node: its output. */
  op(g: Graph, op: string, inputs: (Value | null)[], name = '', attrs: Record<string, Attr> = {}, opts: { version?: string } = {}): Value {
    return this.node(g, op, inputs, [name], attrs, opts).outputs[0]!;
  }

  /** An If node; fill its bodies with `body(ifNode, key)`. Outputs are typed later by inference. */
  ifNode(g: Graph, cond: Value, outputs: string[], name = 'If'): Node {
    return this.node(g, 'If', [cond], outputs, {}, { name, version: this.dialect === 'ov' ? 'opset8' : String(this.opset) });
  }

  body(ifNode: Node, key: string): Graph {
    return ifNode.graph.addBody(ifNode, key).graph;
  }

  /** Sets body outputs (in node output order). */
  results(g: Graph, values: Value[]): void {
    const owner = g.owner!;
    const body = owner.node.bodies.get(owner.key)!;
    values.forEach((v, k) => {
      g.outputs.push(this.use(g, v));
      body.outputs.push({ result: k, to: k });
    });
  }

  /** `v` as seen from graph `g`: itself, or a parameter bound (level by level) to it. */
  use(g: Graph, v: Value): Value {
    if (v.graph === g) return v;
    const chain: Graph[] = [];
    for (let h: Graph | null = g; h && h !== v.graph; h = h.owner?.node.graph ?? null) chain.push(h);
    if (chain[chain.length - 1]?.owner?.node.graph !== v.graph) throw new Error(`value ${v.label} is not visible from ${g.path}`);
    let cur = v;
    for (let i = chain.length - 1; i >= 0; i--) {
      const h = chain[i]!;
      const seen = this.captures.get(h) ?? new Map<Value, Value>();
      this.captures.set(h, seen);
      let p = seen.get(cur);
      if (!p) {
        const owner = h.owner!;
        const from = owner.node.addInput(cur);
        p = h.addInput(cur.type as ValueType | null, this.dialect === 'onnx' ? [...cur.names] : [...cur.names]);
        if (this.dialect === 'ov') p.meta['layerName'] = cur.name || `param_${from}`;
        else p.meta['onnxCapture'] = true; // as the ONNX decoder marks a body parameter standing for an outer value
        owner.node.bodies.get(owner.key)!.inputs.push({ param: p, from });
        seen.set(cur, p);
      }
      cur = p;
    }
    return cur;
  }

  output(v: Value, g: Graph = this.graph): void {
    g.outputs.push(v);
  }
}
