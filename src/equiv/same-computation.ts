import { convertModel } from '../convert/index.js';
import { OvirError } from '../diag/diagnostic.js';
import { stateNamesOf } from '../graph/state-metadata.js';
import type { Model } from '../graph/model.js';
import type { Value } from '../graph/value.js';
import { compareComputation, type FormDifference } from './computation.js';
import { pairInterface } from './interface.js';
import { Paths } from './paths.js';

/**
 * Do two independently produced files compute the same thing? Types cannot say (a Relu and a
 * Sigmoid have the same type), so the two forms are brought to one dialect by ovir's own
 * conversion — whose every mapping the engines judge (docs/conformance.md) — and compared op for
 * op (computation.ts):
 * - A and B of one dialect: as they are, then both converted to the other dialect;
 * - A and B of two dialects: A converted to B's dialect against B, then A against B converted to
 *   A's (IR → ONNX at the ONNX side's opset).
 * The computation is proven when one of these comparisons finds no difference: a file ovir wrote
 * is the same, op for op, as ovir's conversion of its source, in whichever direction it was
 * written. Otherwise the differences of the comparison that found fewest are reported (an op
 * against another, an attribute, a constant), and nothing is proven about the computation: two
 * converters may write one computation in two forms (ovc folds, fuses and decomposes otherwise
 * than ovir), so a difference is no contradiction either.
 */
export interface ComputationCheck {
  proven: boolean;
  /** The comparison that proved it, or the one whose differences are reported. */
  compared: string;
  differences: FormDifference[];
  /** How many places differ in all (differences lists the first few). */
  count: number;
  /** Comparisons that could not be made (a form ovir does not convert), with the reason. */
  notes: string[];
}

const other = (d: 'onnx' | 'ov'): 'onnx' | 'ov' => (d === 'onnx' ? 'ov' : 'onnx');
const dialectName = (d: 'onnx' | 'ov'): string => (d === 'onnx' ? 'ONNX' : 'IR');

export function sameComputation(a: Model, b: Model): ComputationCheck {
  const notes: string[] = [];
  const convert = (m: Model, side: 'A' | 'B', peer: Model): Model | null => {
    const to = other(m.dialect);
    const opset = to === 'onnx' ? peer.onnx?.opsetImports.get('') : undefined;
    try {
      return convertModel(m, { to, ...(opset !== undefined ? { opset } : {}) });
    } catch (e) {
      // (an internal error of the converter is reported as such, not thrown: the types were compared)
      const first = e instanceof OvirError ? e.diagnostics.find((d) => d.severity === 'error')?.message : `internal error of ovir's converter (please report): ${String(e)}`;
      notes.push(`${side} does not convert to ${dialectName(to)}${first ? `: ${first}` : ''}`);
      return null;
    }
  };
  const tries: { what: string; x: () => Model | null; y: () => Model | null }[] = a.dialect === b.dialect
    ? [
      { what: `A against B (${dialectName(a.dialect)})`, x: () => a, y: () => b },
      { what: `both converted to ${dialectName(other(a.dialect))} by ovir`, x: () => convert(a, 'A', b), y: () => convert(b, 'B', a) },
    ]
    : [
      { what: `A converted to ${dialectName(b.dialect)} by ovir, against B`, x: () => convert(a, 'A', b), y: () => b },
      { what: `A against B converted to ${dialectName(a.dialect)} by ovir`, x: () => a, y: () => convert(b, 'B', a) },
    ];
  let best: ComputationCheck | null = null;
  for (const t of tries) {
    const x = t.x();
    const y = x ? t.y() : null;
    if (!x || !y) continue;
    const r = compareModels(x, y);
    if (!r) { notes.push(`${t.what}: the interfaces do not pair`); continue; }
    const check: ComputationCheck = { proven: r.count === 0, compared: t.what, differences: r.differences, count: r.count, notes };
    if (check.proven) return check;
    if (!best || r.count < best.count) best = check;
  }
  return best ?? { proven: false, compared: 'nothing', differences: [], count: 0, notes };
}

/** The interface pairs of two models of one dialect, then their computations compared; null when the interface does not pair. */
function compareModels(x: Model, y: Model): { differences: FormDifference[]; count: number } | null {
  const paths = new Paths();
  const states = { a: stateNamesOf(x.onnx?.metadataProps), b: stateNamesOf(y.onnx?.metadataProps) };
  const pairs: [Value, Value][] = [];
  const problems = pairInterface(x.graph, y.graph, 'main', (a, b) => { pairs.push([a, b]); }, paths, {
    ...(states.a ? { a: states.a } : {}), ...(states.b ? { b: states.b } : {}),
  });
  if (problems.length) return null;
  const inputs = new Map<Value, Value>();
  const outputs: [Value, Value][] = [];
  const mainInputs = new Set(x.graph.inputs);
  for (const [a, b] of pairs) {
    // graph inputs pair as the interface says; every other interface value (an output, a state
    // variable's value read or written) is a computation to compare
    if (mainInputs.has(a)) inputs.set(a, b);
    else outputs.push([a, b]);
  }
  return compareComputation(inputs, outputs, paths);
}
