import { readFloats, readIntegers, type Tensor } from '../graph/tensor.js';
import type { Model } from '../graph/model.js';
import type { ElementTypeName } from '../graph/element-type.js';
import type { ValueType } from '../graph/types.js';
import type { Value } from '../graph/value.js';
import { ValueTable } from '../graph/id-table.js';
import type { Diagnostic } from '../diag/diagnostic.js';
import { contradictions, shapeOnly } from '../shape/check.js';
import { inferTypes } from '../shape/infer.js';
import { constantValue } from './fold.js';

/**
 * At most this many nodes are folded to find a value's constant data (constantValue's bound): the
 * small constant subgraphs writers put before an operand, such as OpenVINO's compressed constants
 * (a f16 Const and its decompression Convert, which ovc writes for every f32 constant by default).
 * Bounded, so asking for every operand of a long run-time chain stays linear.
 */
const FOLD_NODES = 8;

/**
 * What the converter knows about the source model's values: declared types, completed by shape
 * inference where nothing (or less) is declared, and constant data (initializers, ONNX Constant
 * nodes, and integer data inference propagated, such as Shape → Gather chains).
 */
export class SourceInfo {
  /** Inference's own maps, read as they are (a copy would be a second entry per value of the model). */
  private inferred: ReadonlyMap<Value, ValueType> = new Map();
  private partial: ReadonlyMap<Value, readonly unknown[]> = new Map();
  /** The source's declarations that inference contradicts (errors, or hint warnings; see InferOptions.strict). */
  readonly declared: Diagnostic[] = [];
  /** The other errors inference found in the source (an op's rule refusing its operands or attributes). */
  readonly invalid: Diagnostic[] = [];

  /** The main graph's inputs and the outputs whose declaration is kept even where inference contradicts it. */
  private readonly interface: ReadonlySet<Value>;

  constructor(private readonly model: Model, strict = false) {
    this.folded = new ValueTable(model.graph);
    // an ONNX output's declared shape is a hint unless strict (SHAPE_OUTPUT_DECLARED_HINT): its type is then inference's
    const outputsKept = strict || model.dialect !== 'onnx';
    this.interface = new Set([...model.graph.inputs, ...(outputsKept ? model.graph.outputs : [])]);
    try {
      const r = inferTypes(model, { strict });
      this.inferred = r.types;
      this.partial = r.values;
      for (const d of r.diagnostics) {
        if (d.code === 'SHAPE_DECLARED_CONTRADICTS' || d.code === 'SHAPE_DECLARED_HINT' || d.code === 'SHAPE_OUTPUT_DECLARED_HINT') this.declared.push(d);
        else if (d.severity === 'error') this.invalid.push(d);
      }
    } catch {
      // Inference is a help here, not a requirement: declared types still apply.
    }
  }

  /**
   * Declared, completed by inference; where inference contradicts the declaration of an
   * intermediate value or the shape of an ONNX main-graph output (hints), inference; a main-graph
   * input's declaration is kept, and an output's when its element type is contradicted (an error).
   */
  type(v: Value): ValueType | null {
    const d = v.type;
    const i = this.inferred.get(v) ?? null;
    if (!d || d.kind === 'unknown') return i && i.kind !== 'unknown' ? i : d;
    if (i && !this.interface.has(v) && contradictions(this.model.dialect, d, i).length && !this.outputElemContradicted(v, d, i)) return i;
    if (d.kind === 'tensor' && i?.kind === 'tensor') {
      // asked for every operand and output converted: a fully declared type is itself, no new object
      if (d.elem !== 'dynamic' && d.shape !== null) return d;
      const elem = d.elem === 'dynamic' ? i.elem : d.elem;
      const shape = d.shape ?? i.shape;
      return { kind: 'tensor', elem, shape };
    }
    return d;
  }

  /** Whether `v` is a main-graph output whose declared kind or element type inference contradicts (kept: an error reports it). */
  private outputElemContradicted(v: Value, d: ValueType, i: ValueType): boolean {
    return !shapeOnly(d, i) && this.model.graph.outputs.includes(v);
  }

  /**
   * A tensor value's element type as `type` gives it (the inferred one where inference knows it,
   * else the declared one), without making a type: what every node's input check asks.
   */
  elem(v: Value): ElementTypeName | null {
    const i = this.inferred.get(v);
    if (i?.kind === 'tensor' && i.elem !== 'dynamic') return i.elem;
    const d = v.type;
    return d?.kind === 'tensor' ? d.elem : i?.kind === 'tensor' ? i.elem : null;
  }

  private readonly folded: ValueTable<Tensor | null>;

  /**
   * The constant payload of a value: an initializer, the output of an ONNX Constant node, or what
   * a few ops compute from constants alone (FOLD_NODES; folded once per value).
   */
  tensor(v: Value): Tensor | null {
    if (v.constant) return v.constant;
    const p = v.producer;
    if (!p) return null;
    if (p.dialect === 'onnx' && p.is('Constant')) {
      const a = p.attrs.get('value');
      if (a?.type === 'tensor') return a.value;
    }
    let t = this.folded.get(v);
    if (t === undefined) this.folded.set(v, (t = constantValue(v, FOLD_NODES)));
    return t;
  }

  ints(v: Value): bigint[] | null {
    const t = this.tensor(v);
    if (t) {
      try { return readIntegers(t); } catch { return null; }
    }
    const p = v.producer;
    if (p && p.dialect === 'onnx' && p.is('Constant')) {
      const a = p.attrs.get('value_ints') ?? p.attrs.get('value_int');
      if (a?.type === 'ints') return [...a.value];
      if (a?.type === 'int') return [a.value];
    }
    const part = this.partial.get(v);
    // a partial value's ±Infinity is an integer past ±2^53 (toDimNumber): not known exactly, so not a constant here
    if (part && part.every((d) => Number.isSafeInteger(d))) return (part as number[]).map((d) => BigInt(d));
    return null;
  }

  numbers(v: Value): number[] | null {
    const t = this.tensor(v);
    if (t) {
      try { return readFloats(t); } catch { return null; }
    }
    const p = v.producer;
    if (p && p.dialect === 'onnx' && p.is('Constant')) {
      const a = p.attrs.get('value_float') ?? p.attrs.get('value_floats');
      if (a?.type === 'float') return [a.value];
      if (a?.type === 'floats') return [...a.value];
    }
    return this.ints(v)?.map(Number) ?? null;
  }
}
