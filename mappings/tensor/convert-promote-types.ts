import { cast, irOnly, never } from '../ir-only/onnx-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { promoteAttrs, promotedType } from '../../src/shape/rules/ov/frontend-ops.js';

const isStatic = (c: ConvertContext, i: number): boolean => { const t = c.type(i); return t?.kind === 'tensor' && t.shape !== null; };

/**
 * ConvertPromoteTypes-14 (PyTorch / TensorFlow frontends), which ONNX lacks: each input Cast to
 * the common type OpenVINO's promotion rules give, computed at conversion by the function its
 * shape rule uses (src/shape/rules/ov/frontend-ops.ts promotedType: promote_unsafe,
 * pytorch_scalar_promotion with a static scalar, u64_integer_promotion_target); an input already of
 * that type passes through. A pair the rules refuse is refused with OpenVINO's reason.
 */
function convertPromoteTypesToOnnx(c: ConvertContext): void {
  const [a, b] = [c.elem(0), c.elem(1)];
  if (a === null || b === null || a === 'dynamic' || b === 'dynamic') { c.error('ConvertPromoteTypes needs the element types of both inputs to be known'); return; }
  const p = promotedType(a, b, c.rank(0) === 0 && isStatic(c, 0), c.rank(1) === 0 && isStatic(c, 1), promoteAttrs(c.node));
  if ('why' in p) { c.error(p.why); return; }
  const elem = p.elem;
  for (const i of [0, 1]) {
    const v = c.input(i)!;
    c.output(i, c.elem(i) === elem ? v : cast(c, v, elem));
  }
}

export const CONVERT_PROMOTE_TYPES: readonly OpMapping[] = [
  {
    onnx: { op: 'Cast', since: 13 },
    ir: { op: 'ConvertPromoteTypes', version: 'opset14' },
    when: never,
    handles: { ir: ['promote_unsafe', 'pytorch_scalar_promotion', 'u64_integer_promotion_target'] },
    note: 'both inputs Cast to the common type of OpenVINO\'s promotion rules',
    toIr: irOnly,
    toOnnx: convertPromoteTypesToOnnx,
  },
];
