/**
 * Whether an Einsum equation is well formed, as the engines validate it when they read a model:
 * at most one `->`; every subscript made of letters with at most one `...` (OpenVINO's
 * is_subscript_correct: "must consist of either only alphabetic letters or alphabetic letters
 * with one ellipsis"); with an explicit output, each of its letters names a dim of some input
 * (onnx: "Equation output contains a label missing from the inputs"; OpenVINO's
 * einsum_shape_inference). ONNX allows spaces (onnx and onnxruntime drop them; ovir's IR mapping
 * removes them), OpenVINO does not. Returns what is wrong, or null.
 */
const SUBSCRIPT = /^[A-Za-z]*(\.\.\.)?[A-Za-z]*$/;

export function einsumEquationProblem(equation: string, spaces: boolean): string | null {
  if (!spaces && /\s/.test(equation)) return `equation '${equation}' has spaces`;
  const eq = spaces ? equation.replace(/\s+/g, '') : equation;
  const sides = eq.split('->');
  if (sides.length > 2) return `equation '${equation}' has more than one '->'`;
  const inputs = sides[0]!.split(',');
  for (const term of [...inputs, ...(sides.length === 2 ? [sides[1]!] : [])]) {
    if (!SUBSCRIPT.test(term)) return `subscript '${term}' of equation '${equation}' is not letters with at most one '...'`;
  }
  if (sides.length === 2) {
    const used = inputs.join('');
    for (const ch of sides[1]!.replace('...', '')) {
      if (!used.includes(ch)) return `output subscript '${sides[1]}' names '${ch}', which no input subscript of equation '${equation}' has`;
    }
  }
  return null;
}
