import type { Attr } from '../src/graph/attr.js';
import type { AttrReader } from '../src/graph/attr-read.js';
import type { Body } from '../src/graph/body.js';
import type { Graph } from '../src/graph/graph.js';
import type { ElementTypeName } from '../src/graph/element-type.js';
import type { Node } from '../src/graph/node.js';
import type { Tensor } from '../src/graph/tensor.js';
import type { ValueType } from '../src/graph/types.js';
import type { Value } from '../src/graph/value.js';

/**
 * The shape of a mapping table entry: one relation between an ONNX op (over a range of opsets) and
 * an OpenVINO op version, serving both directions. Attributes are declarative (`attrs`); where the
 * two ops differ in more than attribute spelling, `toIr` / `toOnnx` build the small subgraph that
 * makes them agree, through the context the converter hands them.
 */
export interface OpMapping {
  readonly onnx: { readonly op: string; readonly domain?: string; readonly since: number; readonly until?: number };
  /**
   * The IR op this entry relates to, or null for an entry that only decomposes the ONNX op into
   * other IR ops (those convert back one by one through their own entries; IR lookup skips it).
   */
  readonly ir: IrSide | null;
  /** For `ir: null`: the IR ops the ONNX op is written as (for docs/ops.md and messages). */
  readonly decomposes?: readonly string[];
  /** Declarative attribute relations, applied in both directions (see AttrRule). */
  readonly attrs?: readonly AttrRule[];
  /**
   * Operands that are an ONNX attribute before some opset and an input from then on (or an ONNX
   * attribute that is always an IR input), one line each (see `attrToInput`). The converter shows
   * escape hatches the newest form (the operand as input `input`, a constant made from the
   * attribute) and writes ONNX in the form of the target opset.
   */
  readonly moves?: readonly OperandMove[];
  /**
   * ONNX → IR: when several entries cover the same ONNX op and opset, the one whose `when` holds
   * (an entry without `when` is the fallback).
   */
  readonly when?: (node: Node) => boolean;
  /** ONNX → IR escape hatch. Without it: one IR node, inputs in order, attrs by `attrs`. */
  readonly toIr?: (c: ConvertContext) => void;
  /** IR → ONNX escape hatch. Without it: one ONNX node, inputs in order, attrs by `attrs`. */
  readonly toOnnx?: (c: ConvertContext) => void;
  /**
   * IR → ONNX: a pattern this node completes with its producers, written as one ONNX op (an Add
   * of a per-channel constant onto a convolution is the ONNX Conv's bias). Returns the node's
   * converted output, or null when the pattern does not hold and the entry converts as usual.
   * Unlike an escape hatch, it leaves the entry a one-to-one pair for `ovir check` (families.ts).
   */
  readonly foldOnnx?: (c: ConvertContext) => Value | null;
  /** Attributes the escape hatches read themselves (all others must be covered by `attrs`). */
  readonly handles?: { readonly onnx?: readonly string[]; readonly ir?: readonly string[] };
  /** A note for docs/tests on what differs between the two ops. */
  readonly note?: string;
  /**
   * ONNX → IR: the entry reads or makes ONNX sequences or optionals, resolved at conversion time as
   * lists of tensors (`c.sequence`, `c.outputSequence`; mappings/sequence/, mappings/optional/: an
   * optional holds at most one). Any other entry reading one is refused (CONVERT_SEQUENCE_NOT_STATIC):
   * IR has tensors only.
   */
  readonly sequences?: boolean;
  /**
   * ONNX → IR: inputs of this node the entry itself takes as resolved sequences or refuses, saying
   * why (the engine's tensors-only check skips them): a Loop's loop-carried values, of which the
   * appended sequences convert (mappings/controlflow/loop-append.ts).
   */
  readonly sequenceInputs?: (n: Node) => readonly number[];
}

/**
 * The IR side of an entry, keyed by op version: `version` is written (and read); `reads` lists the
 * other versions of the op the entry reads (an IR layer whose version no entry declares is refused).
 */
export interface IrSide {
  readonly op: string;
  readonly version: string;
  readonly reads?: readonly string[];
}

/** The IR side of an entry, or null for a decomposition (`ir: null`; legacy `version: 'decomposed'`). */
export const irSideOf = (e: OpMapping): IrSide | null => (e.ir === null || e.ir.version === 'decomposed' ? null : e.ir);
/** Every IR version an entry reads (its written version first). */
export const irVersionsOf = (e: OpMapping): readonly string[] => {
  const ir = irSideOf(e);
  return ir ? [ir.version, ...(ir.reads ?? [])] : [];
};

/**
 * One operand that moved between attribute and input (onnx's version converter calls this kind
 * of adapter `AxesAttributeToInput`): ONNX attribute `attr` before opset `since`, input `input`
 * from `since` on (`since: Infinity`: ONNX only has the attribute; the IR op takes the input).
 * `as` says what constant the attribute is: a 1-D i64 tensor, a 1-D f32 tensor, or a scalar of
 * input 0's element type.
 */
export interface OperandMove {
  readonly attr: string;
  readonly input: number;
  readonly since: number;
  readonly as: 'i64s' | 'f32s' | 'scalar';
  /** The ONNX default: an attribute equal to it is not written; with `fill`, an absent one is this input. */
  readonly default?: number;
  /** An absent attribute still gives the input (of value `default`): the IR op requires it. */
  readonly fill?: boolean;
  /** The operand is required (in both forms): a diagnostic when absent. */
  readonly required?: boolean;
}

/** ONNX ints attribute `attr` became input `input` (1-D int64) at opset `since`. */
export const attrToInput = (attr: string, input: number, since: number, opts: { required?: boolean } = {}): OperandMove =>
  ({ attr, input, since, as: 'i64s', ...opts });
/** ONNX float attribute `attr` (default `dflt`) became a scalar input `input` at opset `since`. */
export const floatAttrToInput = (attr: string, input: number, since: number, dflt?: number): OperandMove =>
  ({ attr, input, since, as: 'scalar', ...(dflt !== undefined ? { default: dflt } : {}) });
/** ONNX floats attribute `attr` became input `input` (1-D float32) at opset `since`. */
export const floatsAttrToInput = (attr: string, input: number, since: number, opts: { required?: boolean } = {}): OperandMove =>
  ({ attr, input, since, as: 'f32s', ...opts });
/** ONNX float attribute `attr` (default `dflt`) is always IR scalar input `input`. */
export const floatAttrIsIrInput = (attr: string, input: number, dflt: number): OperandMove =>
  ({ attr, input, since: Infinity, as: 'scalar', default: dflt, fill: true });

export type { AttrReader };

/** An attribute value in its ONNX form (ints are bigint). */
export type OnnxAttrValue = bigint | number | string | readonly bigint[] | readonly number[];

/**
 * One attribute relation. `onnx` / `ir` name the attribute on each side (one may be absent: an
 * ONNX attribute with no IR counterpart must then take one of `only` values; an IR-only attribute
 * is written as `irValues[0]` and accepts any of `irValues` when read). `values` maps ONNX values
 * to IR spellings (default: the value itself, lists joined with ',').
 */
export interface AttrRule {
  readonly onnx?: string;
  readonly ir?: string;
  readonly kind: 'int' | 'ints' | 'float' | 'floats' | 'string';
  /** ONNX default when absent (also: not written back when equal). */
  readonly onnxDefault?: OnnxAttrValue;
  /** IR default when absent from `<data>`. */
  readonly irDefault?: string;
  readonly values?: ReadonlyArray<readonly [OnnxAttrValue, string]>;
  /** ONNX values supported; others are a diagnostic. */
  readonly only?: readonly OnnxAttrValue[];
  /** IR-only attribute: values accepted when reading, the first one is written. */
  readonly irValues?: readonly string[];
  /** With irValues: an attribute accepted when read (with one of them) and never written. */
  readonly irReadOnly?: boolean;
}

/**
 * How a body converts when its parameters or results are not one to one (Scan ⇄ TensorIterator:
 * a slice keeps its axis in IR and drops it in ONNX). Hooks build target nodes in the body graph `g`.
 */
export interface BodyOptions {
  /** Source body inputs (indices) in the target's order (default: all, as in the source). */
  readonly inputs?: readonly number[];
  /** Source body results (indices) the target keeps, in order (default: the bound ones, by the node output they feed). */
  readonly results?: readonly number[];
  /** What the body reads for source parameter `i`, given its target parameter `q` (default: `q`). */
  readonly param?: (i: number, q: Value, g: Graph) => Value;
  /** Target result `k` as written, given the converted value `v` (default: `v`). */
  readonly result?: (k: number, v: Value, g: Graph) => Value;
  /**
   * ONNX → IR: source parameters (indices) that are an empty sequence in every iteration's view
   * (no target parameter): the body appends to it (Loop: mappings/controlflow/loop-append.ts).
   */
  readonly emptySequences?: readonly number[];
  /** ONNX → IR: target result `k` for a source result that is a sequence resolved in the body (default: refused). */
  readonly sequenceResult?: (k: number, elems: readonly SequenceElement[], g: Graph) => Value;
}

/** One tensor of a sequence resolved at conversion time: its target value and its source-side type. */
export interface SequenceElement {
  readonly value: Value;
  readonly type: ValueType | null;
  /**
   * The tensors a Loop appended, one part per iteration, already concatenated as ConcatFromSequence
   * with these attributes concatenates them (the sequence's only element then; only
   * ConcatFromSequence with the same attributes reads it: `c.sequence(i, 'stacked')`).
   */
  readonly stacked?: { readonly axis: bigint; readonly newAxis: boolean };
}

/** What a mapping's `toIr` / `toOnnx` sees: the source node and a builder for the target graph. */
/**
 * What a state variable holds before the first inference call (IR → ONNX: what the caller feeds the
 * first time): zeros, the IR's constant init (`detail`: its values when few), or a value the IR
 * computes from other values (`detail` says from what).
 */
export interface StateInitial {
  readonly kind: 'zeros' | 'constant' | 'computed';
  readonly detail: string;
  /** The value, when constants compute it (written as an initializer `<variable_id>.initial`). */
  readonly tensor: Tensor | null;
}

export interface ConvertContext {
  readonly node: Node;
  /** The ONNX opset (source opset for ONNX → IR, target opset for IR → ONNX). */
  readonly opset: number;
  readonly path: string;
  readonly entry: OpMapping;
  /** Converted value of source input i (null when absent). */
  input(i: number): Value | null;
  /** Number of source inputs (trailing absent ones included). */
  readonly numInputs: number;
  /** Type of source input i, as declared or inferred (null when unknown). */
  type(i: number): ValueType | null;
  elem(i: number): ElementTypeName | null;
  rank(i: number): number | null;
  /** Integer data of source input i when it is a constant. */
  constInts(i: number): bigint[] | null;
  /** Numeric data of source input i when it is a constant (float or integer types). */
  constNumbers(i: number): number[] | null;
  /**
   * The data of source input i when constants compute it: a constant, or small ops over constants
   * folded as the constant folder does (src/convert/fold.ts constantValue); null otherwise.
   */
  folded(i: number): Tensor | null;
  /** Type of any source value (declared or inferred). */
  typeOf(v: Value): ValueType | null;
  /**
   * The source node's attributes, typed: absent → undefined (or the default given); present but
   * of another type → the conversion fails with a diagnostic naming node and attribute.
   */
  readonly attr: AttrReader;
  /** Integer data of any source value when it is known (a constant, or folded by inference). */
  intsOf(v: Value): bigint[] | null;
  /** The target value a source value converted to (null when not converted yet or absent). */
  converted(v: Value | null): Value | null;
  /** Attributes of the target node from the declarative rules (IR: raw strings; ONNX: typed). */
  attrs(): Map<string, Attr>;
  /** Emits a target node; returns its outputs. Attribute values: Attr (ONNX) or string (IR raw). */
  emit(op: string, inputs: readonly (Value | null)[], attrs?: Map<string, Attr> | Record<string, string | Attr>, outputs?: number, version?: string): Value[];
  /** Emits the entry's own op on the target side (IR: at the entry's version); returns its outputs. */
  emitOwn(inputs: readonly (Value | null)[], attrs?: Map<string, Attr> | Record<string, string | Attr>, outputs?: number): Value[];
  /** The node last emitted (to attach bodies). */
  readonly lastNode: Node | null;
  /** A constant in the target graph. */
  constant(t: Tensor): Value;
  /** Source output i is target value v (names and types carried over). */
  output(i: number, v: Value): void;
  /**
   * ONNX → IR: the tensors of sequence input i, in order, when the sequence is known at conversion
   * time (entries with `sequences`); null after a CONVERT_SEQUENCE_NOT_STATIC diagnostic otherwise.
   */
  sequence(i: number, accept?: 'stacked'): readonly SequenceElement[] | null;
  /** ONNX → IR: source output i is the sequence of these tensors (it has no value of its own). */
  outputSequence(i: number, elems: readonly SequenceElement[]): void;
  /** Source output i is read by nothing: it has no counterpart (an error if something reads it). */
  unused(i: number): void;
  /** Converts source body `srcKey` into body `dstKey` of target node `target`; `from` maps source node input index → target node input index. */
  body(target: Node, srcKey: string, dstKey: string, from: (srcIndex: number) => number, opts?: BodyOptions): Body;
  /** Records a warning (CONVERT_SEMANTICS_CHOICE): a conversion that chose between readings the sources disagree on. */
  warn(detail: string): void;
  /** Records a problem (conversion fails at the end with all of them). */
  error(detail: string): void;
  /** `needsOpset`: the ONNX opset from which the form exists (IR → ONNX), for the message and the default-opset retry. */
  unsupportedAttr(attr: string, value: string, detail?: string, needsOpset?: number): void;
  needsConstant(index: number, what: string, needsOpset?: number): void;
  /**
   * IR → ONNX of OpenVINO's state variables (ReadValue / Assign), which ONNX has no form for: the
   * main graph's input that holds variable `variableId` (one per variable, made on first use; the
   * caller gives it on every call, the first call `initial`). Null after a diagnostic (a variable
   * inside a body).
   */
  stateInput(variableId: string, type: ValueType | null, initial: StateInitial): Value | null;
  /** The main graph's output that returns the value assigned to variable `variableId` (one Assign per variable). */
  stateOutput(variableId: string, v: Value): void;
}

// ── attribute rule builders ────────────────────────────────────────────────────────────────────

class RuleBuilder implements AttrRule {
  onnx?: string;
  ir?: string;
  kind: AttrRule['kind'];
  onnxDefault?: OnnxAttrValue;
  irDefault?: string;
  values?: ReadonlyArray<readonly [OnnxAttrValue, string]>;
  only?: readonly OnnxAttrValue[];
  irValues?: readonly string[];
  irReadOnly?: boolean;

  constructor(kind: AttrRule['kind'], onnx: string | undefined) {
    this.kind = kind;
    if (onnx !== undefined) { this.onnx = onnx; this.ir = onnx; }
  }

  /** IR name (default: same as ONNX). */
  as(ir: string): this { this.ir = ir; return this; }
  default(v: OnnxAttrValue): this { this.onnxDefault = v; return this; }
  irDefaultTo(v: string): this { this.irDefault = v; return this; }
  map(values: ReadonlyArray<readonly [OnnxAttrValue, string]>): this { this.values = values; return this; }
  /** Supported ONNX values only; with no IR counterpart the attribute is not written. */
  onlyValues(...v: OnnxAttrValue[]): this { this.only = v; return this; }
  onnxOnly(): this { delete this.ir; return this; }
}

export const int = (name: string): RuleBuilder => new RuleBuilder('int', name);
export const ints = (name: string): RuleBuilder => new RuleBuilder('ints', name);
export const float = (name: string): RuleBuilder => new RuleBuilder('float', name);
export const floats = (name: string): RuleBuilder => new RuleBuilder('floats', name);
export const string = (name: string): RuleBuilder => new RuleBuilder('string', name);
/** An ONNX 0/1 int attribute that is an IR `true`/`false`. */
export const boolInt = (name: string): RuleBuilder => new RuleBuilder('int', name).map([[0n, 'false'], [1n, 'true']]);
/** An IR-only attribute: written as `values[0]`, any of `values` accepted when read. */
export function irOnly(name: string, ...values: string[]): AttrRule {
  const r = new RuleBuilder('string', undefined);
  r.ir = name;
  r.irValues = values;
  return r;
}
/** An IR-only attribute accepted when read with one of `values`, never written. */
export function irReadOnly(name: string, ...values: string[]): AttrRule {
  const r = new RuleBuilder('string', undefined);
  r.ir = name;
  r.irValues = values;
  r.irReadOnly = true;
  return r;
}
/**
 * IR binary elementwise ops carry auto_broadcast; ONNX (opset 7+) broadcasts numpy-style. pdpd
 * (OpenVINO's PaddlePaddle frontend writes it) aligns the other operands with the first from
 * auto_broadcast_axis on, and its result has the first's shape: from axis -1 (its default) that
 * is aligning trailing dims, numpy's broadcast on every IR OpenVINO accepts (an operand that does
 * not fit is an error there). Other axes are refused.
 */
export const NUMPY_BROADCAST: readonly AttrRule[] = [
  irOnly('auto_broadcast', 'numpy', 'none', 'pdpd'),
  irReadOnly('auto_broadcast.auto_broadcast_axis', '-1'),
];
