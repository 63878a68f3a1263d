import { irHas, onnxHas } from '../../src/graph/element-type.js';
import { describeType, showType, type ValueType } from '../../src/graph/types.js';

/**
 * What a tensor-only target cannot hold of a value crossing a body boundary (sequences, optionals,
 * maps, element types it lacks), described for a diagnostic; null when it can (or the type is not
 * known). Shared by the If and Loop mappings.
 */
export function typeProblem(t: ValueType | null, target: 'ov' | 'onnx'): string | null {
  if (t === null || t.kind === 'unknown') return null;
  if (t.kind !== 'tensor') return describeType(t);
  if (t.elem === 'dynamic') return null;
  return (target === 'ov' ? irHas(t.elem) : onnxHas(t.elem)) ? null : describeType(t);
}

/**
 * The type of a value that must hold exactly one element (an If condition, a Loop's trip count
 * and condition) when its shape says it holds another number; null otherwise (unknown dims pass).
 * onnxruntime fails on such a value ('condition input must have exactly one element', 'M should
 * be a scalar tensor'); OpenVINO 2026.4 refuses a constant one when it reads the IR and any one
 * when it compiles a Loop (measured).
 */
export function notOneElement(t: ValueType | null): string | null {
  if (t === null || t.kind !== 'tensor' || t.shape === null) return null;
  return t.shape.some((d) => typeof d === 'number' && d !== 1) ? showType(t) : null;
}
