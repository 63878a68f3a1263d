import type { Diagnostics } from '../diag/diagnostic.js';
import { showType, tensorType, type ValueType } from '../graph/types.js';
import type { Value } from '../graph/value.js';
import { contradictions } from '../shape/check.js';

/**
 * An ONNX graph input with an initializer (its default) becomes an IR Const holding that
 * initializer, so the converted model has the initializer's type, not the declared one. Where the
 * two contradict (an initializer f32[0] for an input declared f32[2], or float data for an input
 * declared i64), onnx.checker refuses the source and the IR would compute with other shapes than
 * the source declares: the declaration is an error (SHAPE_DECLARED_CONTRADICTS) at graph `where`.
 */
export function checkInitializerDefault(v: Value, where: string, diags: Diagnostics): void {
  const t = v.constant;
  const declared = v.type;
  if (!t || !declared || declared.kind === 'unknown') return;
  const held: ValueType = tensorType(t.elem, t.dims);
  const problems = contradictions('onnx', declared, held);
  if (!problems.length) return;
  diags.add('SHAPE_DECLARED_CONTRADICTS', where, {
    value: v.label, declared: showType(declared), inferred: `${showType(held)} (its initializer)`, detail: problems.join('; '),
  });
}
