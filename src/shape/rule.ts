import type { DiagCode, DiagParams } from '../diag/codes.js';
import type { ElementTypeName } from '../graph/element-type.js';
import type { Dialect, Node } from '../graph/node.js';
import type { Dim, Shape } from '../graph/shape.js';
import type { Tensor } from '../graph/tensor.js';
import type { TensorType, ValueType } from '../graph/types.js';

export type IfMergePolicy = 'onnx' | 'symbolic' | 'openvino';
export const IF_MERGE_POLICIES: readonly IfMergePolicy[] = ['onnx', 'symbolic', 'openvino'];

/**
 * The data of a small integer (or boolean) tensor as far as it is known, flattened row-major: one
 * Dim per element (a number when known, a symbol or interval when only that is known, null when
 * unknown). This is what onnx's data propagation and OpenVINO's bound evaluation carry: it lets
 * Shape → Gather → Concat → Reshape chains give static shapes.
 */
export type PartialValue = readonly Dim[];

/** What a rule says about one output. */
export interface OutputInfo {
  readonly type: ValueType | null;
  readonly value?: PartialValue | null;
}

/** The types flowing out of one body, by node output index. */
export interface BodyResults {
  readonly key: string;
  readonly types: readonly (ValueType | null)[];
  readonly values: readonly (PartialValue | null)[];
}

/** What a rule sees of its node: inferred input types and data, attributes, body results. */
export interface RuleContext {
  readonly node: Node;
  /** ONNX opset for the node's domain, or N of IR's `opsetN`. */
  readonly version: number;
  readonly policy: IfMergePolicy;
  readonly numInputs: number;
  /** Whether input i is present (ONNX optional inputs may be empty). */
  has(i: number): boolean;
  type(i: number): ValueType | null;
  /** The tensor type of input i, or null when absent or not known to be a tensor. */
  tensor(i: number): TensorType | null;
  /** Shape of input i (null: unknown rank or absent). */
  shape(i: number): Shape;
  /** Element type of input i ('dynamic' when unknown). */
  elem(i: number): ElementTypeName;
  /** The known data of input i (small integer/boolean tensors only). */
  value(i: number): PartialValue | null;
  /** The data of input i when it is a constant with every element static, as numbers. */
  ints(i: number): number[] | null;
  /** The constant payload of input i, when it has one. */
  constant(i: number): Tensor | null;
  /** Body results in node output order (If). */
  body(key: string): BodyResults | undefined;
  /** The inferred type of result `index` of body `key` (every result, bound or not: Loop back edges). */
  bodyResult(key: string, index: number): ValueType | null;
  /** Records a shape-rule error for this node (inference goes on). */
  error(detail: string): void;
  warn(detail: string): void;
  info(detail: string): void;
  /** Records a diagnostic with a specific code at this node. */
  report(code: DiagCode, params: DiagParams): void;
}

export type InferFn = (c: RuleContext) => readonly (OutputInfo | null)[];

/** One rule: (dialect, domain, op, version range) → inference function. */
export interface Rule {
  readonly dialect: Dialect;
  /** ONNX domain ('' = ai.onnx); '' for OpenVINO. */
  readonly domain?: string;
  readonly op: string;
  /** First version the rule applies to (ONNX opset / IR opsetN). */
  readonly since: number;
  /** Last version it applies to (inclusive); open-ended when absent. */
  readonly until?: number;
  readonly infer: InferFn;
  /**
   * For ops with bodies whose formal inputs are not simply the bound values (ONNX Loop, Scan): the
   * type body input `formal` starts from, given the bound node input's inferred type and the
   * declared one. Absent: declared, else the bound element type with an unknown shape.
   */
  readonly bodyParam?: (node: Node, formal: number, bound: ValueType | null, declared: ValueType | null) => ValueType | null;
  /**
   * The op's bodies see exactly what their bound node inputs hold (If branches): body parameters
   * take the bound value's inferred type and data. (Without it, and without `bodyParam`, a
   * parameter takes its declared type or the bound element type with an unknown shape.)
   */
  readonly bodyInputsAreBound?: boolean;
}

export const tensor = (elem: ElementTypeName, shape: Shape): TensorType => ({ kind: 'tensor', elem, shape });
export const out = (elem: ElementTypeName, shape: Shape, value?: PartialValue | null): OutputInfo => ({ type: tensor(elem, shape), value: value ?? null });
