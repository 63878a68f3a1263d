import { elementType, type ElementTypeName } from '../../src/graph/element-type.js';
import type { Value } from '../../src/graph/value.js';
import { irBuilder } from '../nn/ir-build.js';
import type { ConvertContext } from '../spec.js';

/**
 * The activations onnxruntime fuses into com.microsoft FusedConv and FusedGemm (its MLAS
 * activation kinds), each as IR ops on `y` of element type `elem`. `params` are the activation's
 * parameters in onnxruntime's order (FusedConv: activation_params; FusedGemm: activation_alpha,
 * activation_beta, activation_gamma); null when onnxruntime requires one that is absent (it refuses
 * the node then too). Returns null after a diagnostic.
 *   Relu, Tanh, Sigmoid                 as the IR ops
 *   LeakyRelu(alpha)                    PRelu with a scalar slope
 *   Clip(min, max)                      Clamp
 *   HardSigmoid(alpha, beta)            HardSigmoid-1
 *   Elu(alpha), Selu(alpha, gamma)      Elu-1, Selu-1
 *   ThresholdedRelu(alpha)              Select(y > alpha, y, 0)
 *   Softsign, Softplus                  SoftSign-9, SoftPlus-4
 *   ScaledTanh(alpha, beta)             alpha · tanh(beta · y)
 *   ParametricSoftplus(alpha, beta)     alpha · softplus(beta · y)
 */
export interface ActivationSpec {
  /** The attribute that names the activation (for the diagnostic). */
  readonly attr: string;
  /** The activation kinds this op accepts. */
  readonly kinds: readonly string[];
  /** The parameters (by index) as given, undefined where absent. */
  readonly params: readonly (number | undefined)[];
  /** Where the parameters come from, for the diagnostic ('activation_params', …). */
  readonly paramNames: readonly string[];
}

/** The parameters each kind reads (indices into ActivationSpec.params). */
const PARAMS: Record<string, readonly number[]> = {
  LeakyRelu: [0], Elu: [0], ThresholdedRelu: [0],
  Clip: [0, 1], HardSigmoid: [0, 1], ScaledTanh: [0, 1], ParametricSoftplus: [0, 1], Selu: [0, 2],
};

export function applyActivation(c: ConvertContext, y: Value, elem: ElementTypeName, kind: string, spec: ActivationSpec): Value | null {
  if (!spec.kinds.includes(kind)) { c.unsupportedAttr(spec.attr, kind, `onnxruntime's ${c.node.op} takes ${spec.kinds.join(', ')}`); return null; }
  const info = elementType(elem);
  if (info.kind !== 'float') { c.error(`${c.node.op} of ${elem} values: the activation is computed on float types only`); return null; }
  for (const i of PARAMS[kind] ?? []) {
    if (spec.params[i] === undefined) { c.error(`${spec.attr} ${kind} needs ${spec.paramNames[i] ?? `parameter ${i}`} (onnxruntime refuses the node without it)`); return null; }
  }
  const p = (i: number): number => spec.params[i]!;
  const b = irBuilder(c);
  const one = (op: string, ins: readonly Value[], attrs: Record<string, string> = {}, version = 'opset1'): Value => c.emit(op, ins, attrs, 1, version)[0]!;
  switch (kind) {
    case 'Relu': return one('Relu', [y]);
    case 'Tanh': return one('Tanh', [y]);
    case 'Sigmoid': return one('Sigmoid', [y]);
    case 'Softsign': return one('SoftSign', [y], {}, 'opset9');
    case 'Softplus': return one('SoftPlus', [y], {}, 'opset4');
    case 'LeakyRelu': return one('PRelu', [y, b.scalar(elem, p(0))]);
    case 'Elu': return one('Elu', [y], { alpha: String(p(0)) });
    case 'ThresholdedRelu': return b.select(one('Greater', [y, b.scalar(elem, p(0))], { auto_broadcast: 'numpy' }), y, b.scalar(elem, 0));
    case 'Clip': return one('Clamp', [y], { min: String(p(0)), max: String(p(1)) });
    case 'HardSigmoid': return one('HardSigmoid', [y, b.scalar(elem, p(0)), b.scalar(elem, p(1))]);
    case 'Selu': return one('Selu', [y, b.scalar(elem, p(0)), b.scalar(elem, p(2))]);
    case 'ScaledTanh': return b.mul(b.scalar(elem, p(0)), one('Tanh', [b.mul(y, b.scalar(elem, p(1)))]));
    case 'ParametricSoftplus': return b.mul(b.scalar(elem, p(0)), one('SoftPlus', [b.mul(y, b.scalar(elem, p(1)))], {}, 'opset4'));
    default: c.unsupportedAttr(spec.attr, kind); return null;
  }
}

/** The IR ops applyActivation writes (for `decomposes`). */
export const ACTIVATION_IR_OPS: readonly string[] = ['Relu', 'Tanh', 'Sigmoid', 'SoftSign', 'SoftPlus', 'PRelu', 'Elu', 'Greater', 'Select',
  'Clamp', 'HardSigmoid', 'Selu', 'Multiply'];
