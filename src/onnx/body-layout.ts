/**
 * How a body's formal inputs and outputs line up with its node's inputs and outputs, per op (data,
 * not code). Formal body input i is bound to node input `inputOffset + i` (when that input is
 * present); body output `outputOffset + j` becomes node output j. Captures (outer values a body
 * reads) come after: appended node inputs, appended body inputs.
 *
 * If: no formal inputs; branch output j → node output j.
 * Loop: body (iter_num, cond, v…) ← node (M, cond, v_initial…); body outputs (cond, v…, scan…) →
 *       node outputs (v_final…, scan…), so the body's first output (cond) feeds no node output.
 * Scan (opset 8 has sequence_lens first): body (state…, scan_in…) ← node (state…, scan_in…).
 */
export interface BodyLayout { readonly inputOffset: number; readonly outputOffset: number; readonly formalInputs: boolean }

const DEFAULT: BodyLayout = { inputOffset: 0, outputOffset: 0, formalInputs: true };
const LAYOUTS: Record<string, (version: number) => BodyLayout> = {
  If: () => ({ inputOffset: 0, outputOffset: 0, formalInputs: false }),
  Loop: () => ({ inputOffset: 0, outputOffset: 1, formalInputs: true }),
  Scan: (v) => ({ inputOffset: v === 8 ? 1 : 0, outputOffset: 0, formalInputs: true }),
};

export function bodyLayout(op: string, domain: string, version: number): BodyLayout {
  if (domain !== '' && domain !== 'ai.onnx') return DEFAULT;
  return LAYOUTS[op]?.(version) ?? DEFAULT;
}
