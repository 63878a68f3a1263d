import { attrString } from '../../../graph/attr-read.js';
import { fromIrElementType } from '../../../graph/element-type.js';
import { parseShapeText } from '../../../ir/shape-text.js';
import { out, type InferFn, type Rule } from '../../rule.js';
import { family, sameAsInput } from '../common.js';

/**
 * OpenVINO's state variables (stateful models: ReadValue reads a variable, Assign writes it for the
 * next inference call).
 * - ReadValue-3: the variable is typed by its init input: the output is that input's type.
 * - ReadValue-6: the variable's declared `variable_type` / `variable_shape` (written by OpenVINO's
 *   serializer), where declared; else the init input's (when it has one).
 * - Assign-3/6: the value assigned (its output repeats its input).
 */
const readValue6: InferFn = (c) => {
  const typeText = attrString(c.node, 'variable_type')?.trim();
  const declared = typeText === undefined ? undefined : fromIrElementType(typeText);
  const shapeText = attrString(c.node, 'variable_shape');
  const shape = shapeText === undefined ? undefined : parseShapeText(shapeText);
  if (typeText !== undefined && !declared) c.error(`variable_type '${typeText}' is not an element type`);
  if (shapeText !== undefined && shape === undefined) c.error(`variable_shape '${shapeText}' is not a shape`);
  const init = c.has(0);
  const elem = declared && declared.name !== 'dynamic' ? declared.name : init ? c.elem(0) : 'dynamic';
  return [out(elem, shape !== undefined ? shape : init ? c.shape(0) : null)];
};

export const ovStateRules: Rule[] = [
  { dialect: 'ov', op: 'ReadValue', since: 3, until: 5, infer: sameAsInput },
  { dialect: 'ov', op: 'ReadValue', since: 6, infer: readValue6 },
  ...family('ov', ['Assign'], 3, sameAsInput),
];
