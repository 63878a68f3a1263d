import { A, type Attr } from '../../src/graph/attr.js';
import type { ElementTypeName } from '../../src/graph/element-type.js';
import type { Graph } from '../../src/graph/graph.js';
import { Model } from '../../src/graph/model.js';
import type { Dialect, Node } from '../../src/graph/node.js';
import type { Dim, Shape } from '../../src/graph/shape.js';
import { tensorFromBool, tensorFromInt64, tensorFromFloat32 } from '../../src/graph/tensor.js';
import { tensorType, type ValueType } from '../../src/graph/types.js';
import type { Value } from '../../src/graph/value.js';
import { inferTypes, type InferenceResult } from '../../src/shape/index.js';
import type { IfMergePolicy } from '../../src/shape/rule.js';

/** Small graph builder for shape tests: graphs made directly with src/graph. */
export class B {
  readonly model: Model;
  constructor(readonly dialect: Dialect, readonly version = dialect === 'onnx' ? '17' : 'opset1', graph?: Graph) {
    this.model = new Model(dialect);
    if (graph) this.model.graph = graph;
  }
  get g(): Graph { return this.model.graph; }

  input(name: string, elem: ElementTypeName, shape: Shape, g = this.g): Value {
    return g.addInput(tensorType(elem, shape), [name]);
  }
  i64(values: readonly number[], dims: readonly number[] = [values.length], g = this.g): Value {
    return g.addInitializer(tensorFromInt64(values, dims), [`c${g.initializers.length}`]);
  }
  f32(values: readonly number[], dims: readonly number[] = [values.length], g = this.g): Value {
    return g.addInitializer(tensorFromFloat32(values, dims), [`f${g.initializers.length}`]);
  }
  bool(v: boolean, dims: readonly number[] = [], g = this.g): Value {
    return g.addInitializer(tensorFromBool([v], dims), [`b${g.initializers.length}`]);
  }
  node(op: string, inputs: (Value | null)[], attrs: Record<string, Attr> = {}, opts: { outputs?: number; version?: string; g?: Graph; name?: string; declared?: (ValueType | null)[] } = {}): Node {
    const g = opts.g ?? this.g;
    const n = g.addNode({ dialect: this.dialect, op, version: opts.version ?? this.version, name: opts.name ?? `${op}_${g.nodes.length}` });
    for (const v of inputs) n.addInput(v);
    for (const [k, a] of Object.entries(attrs)) n.attrs.set(k, a);
    for (let i = 0; i < (opts.outputs ?? 1); i++) n.addOutput(opts.declared?.[i] ?? null, [`${n.name}_out${i}`]);
    return n;
  }
  /** One node, inferred: its output types. */
  infer(policy?: IfMergePolicy): InferenceResult {
    return inferTypes(this.model, policy ? { ifMerge: policy } : {});
  }
}

export { A };

/** The inferred shape of a value (undefined if not a tensor). */
export function shapeOf(r: InferenceResult, v: Value): Shape | undefined {
  const t = r.types.get(v);
  return t && t.kind === 'tensor' ? t.shape : undefined;
}
export function elemOf(r: InferenceResult, v: Value): ElementTypeName | undefined {
  const t = r.types.get(v);
  return t && t.kind === 'tensor' ? t.elem : undefined;
}
export const iv = (min: number, max: number): Dim => ({ min, max });
export const s = (name: string): Dim => ({ sym: name });
export const codes = (r: InferenceResult): string[] => r.diagnostics.map((d) => d.code);
export const errors = (r: InferenceResult) => r.diagnostics.filter((d) => d.severity === 'error');
