import { irHas, onnxHas } from '../../src/graph/element-type.js';
import { describeType, type ValueType } from '../../src/graph/types.js';

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
