import { A } from '../src/graph/attr.js';
import type { ElementTypeName } from '../src/graph/element-type.js';
import type { Graph } from '../src/graph/graph.js';
import { tensorFromInt64 } from '../src/graph/tensor.js';
import type { TensorType } from '../src/graph/types.js';
import type { Value } from '../src/graph/value.js';
import { typedScalar } from './typed-consts.js';

/**
 * Building IR nodes inside a body graph a decomposition lays out itself (a Loop-5 body: Det's
 * elimination steps, LSTM's peephole cell): `ConvertContext.emit` writes into the graph being
 * converted, these into `g`. Nodes are named `<prefix>/<op>_<n>`.
 */
export interface BodyOps {
  /** A one-output node. */
  op(op: string, inputs: readonly Value[], version?: string, attrs?: Record<string, string>): Value;
  /** A node with `outputs` outputs. */
  node(op: string, inputs: readonly Value[], version: string, attrs: Record<string, string>, outputs: number): Value[];
  /** An i64 scalar constant. */
  i64(v: bigint): Value;
  /** An i64 1-D constant. */
  i64s(v: readonly bigint[]): Value;
  /** A scalar of element type `elem` (an f32 constant converted where typedScalar builds none, e.g. bf16). */
  scalar(elem: ElementTypeName, v: number): Value;
}

/** A value entering a loop body (ONNX Loop, IR Loop-5): its outer value and the body parameter's name and type. */
export interface LoopOperand { readonly value: Value; readonly name: string; readonly type: TensorType }

export function bodyOps(g: Graph, prefix: string): BodyOps {
  let made = 0;
  const node = (op: string, inputs: readonly Value[], version: string, attrs: Record<string, string>, outputs: number): Value[] => {
    const n = g.addNode({ dialect: 'ov', op, version, name: `${prefix}/${op}_${made++}` });
    for (const v of inputs) n.addInput(v);
    for (const [k, v] of Object.entries(attrs)) n.attrs.set(k, A.raw(v));
    return Array.from({ length: outputs }, () => n.addOutput(null));
  };
  const ops: BodyOps = {
    node,
    op: (op, inputs, version = 'opset1', attrs = {}) => node(op, inputs, version, attrs, 1)[0]!,
    i64: (v) => g.addInitializer(tensorFromInt64([v], [])),
    i64s: (v) => g.addInitializer(tensorFromInt64(v)),
    scalar: (elem, v) => {
      const own = typedScalar(elem, v);
      return own ? g.addInitializer(own) : ops.op('Convert', [g.addInitializer(typedScalar('f32', v)!)], 'opset1', { destination_type: elem });
    },
  };
  return ops;
}
