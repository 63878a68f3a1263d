import { Graph, Model, tensorType, type Dialect, type Node, type Shape, type Value, type ValueType } from '../../src/graph/index.js';
import type { InferredSide } from '../../src/equiv/compare.js';

/**
 * Hand-built If models in either dialect, and a stand-in for shape inference that does what the
 * real one does for these graphs: body parameters take the type of the node input they are bound
 * to, unary ops pass their input type through, If outputs take the then-branch's type when both
 * branches agree and are left untyped otherwise. Everything else keeps its declared type.
 */
export const f32 = (shape: Shape): ValueType => tensorType('f32', shape);
const BOOL = tensorType('boolean', []);

export interface IfSpec {
  dialect: Dialect;
  /** Outer inputs other than cond: name → shape. */
  inputs: Record<string, Shape>;
  /** Which outer inputs each branch reads (in binding order), and the If output name. */
  then: string[];
  else: string[];
  output?: string;
  /** Name body parameters (ONNX: the outer name; IR: tensor names and layer names). */
  nameParams?: boolean;
}

export function ifModel(spec: IfSpec): { model: Model; ifNode: Node } {
  const { dialect } = spec;
  const model = new Model(dialect);
  const g = model.graph;
  const cond = g.addInput(BOOL, ['cond']);
  if (dialect === 'ov') cond.meta['layerName'] = 'cond';
  const outer = new Map<string, Value>();
  for (const [name, shape] of Object.entries(spec.inputs)) {
    const v = g.addInput(f32(shape), [name]);
    if (dialect === 'ov') v.meta['layerName'] = name;
    outer.set(name, v);
  }
  const ifNode = g.addNode({ dialect, op: 'If', version: dialect === 'ov' ? 'opset8' : '13', name: 'If_0' });
  ifNode.addInput(cond);
  for (const v of outer.values()) ifNode.addInput(v);
  const out = spec.output ?? 'y';
  ifNode.addOutput(null, [out]);
  const keys = dialect === 'ov' ? ['then_body', 'else_body'] : ['then_branch', 'else_branch'];
  const reads = [spec.then, spec.else];
  keys.forEach((key, bi) => {
    const body = g.addBody(ifNode, key);
    let last: Value | undefined;
    for (const name of reads[bi]!) {
      const p = body.graph.addInput(null, spec.nameParams === false ? [] : [name]);
      if (dialect === 'ov' && spec.nameParams !== false) p.meta['layerName'] = name;
      body.inputs.push({ param: p, from: [...outer.keys()].indexOf(name) + 1 });
      const neg = body.graph.addNode({ dialect, op: dialect === 'ov' ? 'Negative' : 'Neg', version: dialect === 'ov' ? 'opset1' : '13', name: `Neg_${name}` });
      neg.addInput(p);
      last = neg.addOutput(null, [`${bi === 0 ? 'then' : 'else'}_${name}_neg`]);
    }
    body.graph.outputs.push(last!);
    body.outputs.push({ result: 0, to: 0 });
  });
  g.outputs.push(ifNode.outputs[0]!);
  return { model, ifNode };
}

/** The stand-in inference described above (recursive over bodies: fixtures are shallow). */
export function inferStandIn(model: Model, label?: string): InferredSide {
  const types = new Map<Value, ValueType>();
  inferGraph(model.graph, types);
  return label ? { graph: model.graph, types, diagnostics: [], label } : { graph: model.graph, types, diagnostics: [] };
}

function inferGraph(g: Graph, types: Map<Value, ValueType>): void {
  for (const v of [...g.inputs, ...g.initializers]) if (v.type && !types.has(v)) types.set(v, v.type);
  for (const n of g.nodes) {
    if (n.bodies.size === 0) {
      const t = n.inputs[0] ? types.get(n.inputs[0]) : undefined;
      n.outputs.forEach((o) => { const ty = o.type ?? t; if (ty) types.set(o, ty); });
      continue;
    }
    const results: (ValueType | undefined)[][] = [];
    for (const body of n.bodies.values()) {
      for (const b of body.inputs) {
        const t = n.inputs[b.from] ? types.get(n.inputs[b.from]!) : undefined;
        if (t) types.set(b.param, t);
      }
      inferGraph(body.graph, types);
      results.push(n.outputs.map((_, k) => {
        const ob = body.outputs.find((o) => o.to === k);
        return ob ? types.get(body.graph.outputs[ob.result]!) : undefined;
      }));
    }
    n.outputs.forEach((o, k) => {
      const ts = results.map((r) => r[k]);
      if (o.type) types.set(o, o.type);
      else if (ts.every((t) => t && JSON.stringify(t) === JSON.stringify(ts[0]))) types.set(o, ts[0]!);
    });
  }
}
