import type { ValueType } from '../../../graph/types.js';
import { out, type InferFn, type Rule } from '../../rule.js';

/**
 * ONNX optional ops, typed as onnx's shape inference types them: Optional wraps its input's type
 * (or its `type` attribute without input); OptionalGetElement unwraps it (a tensor or sequence
 * input, opset 18, is itself); OptionalHasElement is a boolean scalar.
 */
const optional: InferFn = (c) => {
  const a = c.node.attrs.get('type');
  const elem: ValueType | null = c.has(0) ? c.type(0) : a?.type === 'type' ? a.value : null;
  return [{ type: { kind: 'optional', elem } }];
};
const getElement: InferFn = (c) => {
  const t = c.type(0);
  return [{ type: t?.kind === 'optional' ? t.elem : t }];
};

export const onnxOptionalRules: Rule[] = [
  { dialect: 'onnx', op: 'Optional', since: 15, infer: optional },
  { dialect: 'onnx', op: 'OptionalHasElement', since: 15, infer: () => [out('boolean', [])] },
  { dialect: 'onnx', op: 'OptionalGetElement', since: 15, infer: getElement },
];
