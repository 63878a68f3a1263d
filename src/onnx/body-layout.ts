import { onnxBodyKind, type BodyLayout } from '../graph/body-kinds.js';

export type { BodyLayout } from '../graph/body-kinds.js';

/**
 * How a body's formal inputs and outputs line up with its node's inputs and outputs, per op: the
 * layouts of the body-kind table (src/graph/body-kinds.ts). Captures (outer values a body reads)
 * come after: appended node inputs, appended body inputs. Ops not in the table (other domains,
 * custom ops): formal inputs in order, outputs in order.
 */
const DEFAULT: BodyLayout = { inputOffset: 0, outputOffset: 0, formalInputs: true };

export function bodyLayout(op: string, domain: string, version: number): BodyLayout {
  return onnxBodyKind(op, domain)?.layout(version) ?? DEFAULT;
}
