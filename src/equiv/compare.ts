import { diag, type Diagnostic } from '../diag/diagnostic.js';
import type { Graph } from '../graph/graph.js';
import type { ValueType } from '../graph/types.js';
import type { Value } from '../graph/value.js';
import type { PartialValue } from '../shape/rule.js';
import { compareType, typeSummary } from './compare-type.js';
import { correspond } from './correspond.js';
import type { StateNames } from './interface.js';
import { decide } from './decide.js';
import { sameIntegerNumbers } from './integer-width.js';
import { Paths } from './paths.js';
import { comparePayloads, payloadOf, type Payload } from './payload.js';
import type { EquivEntry, EquivReport } from './report.js';
import { SymbolBindings } from './symbols.js';

/** The inferred types of one form, and what inference said about it. */
export interface InferredSide {
  graph: Graph;
  types: ReadonlyMap<Value, ValueType>;
  diagnostics: readonly Diagnostic[];
  /** Label for messages and `Diagnostic.file` (a file path, `A`). */
  label?: string;
  /** ONNX: the graph inputs and outputs ovir made of OpenVINO state variables (interface.ts). */
  states?: StateNames;
  /** Known data of small integer tensors (shapes, axes), as inference propagated it. */
  values?: ReadonlyMap<Value, PartialValue>;
}

/**
 * How names inside the graphs count. `decide`: both forms come from one conversion by ovir (one
 * file checked in memory, a batch output against its input), which keeps names, so every
 * same-named pair decides. `hint`: two independently produced files; only the interface and the
 * pairs reached from it through bindings and one-to-one ops (decide.ts) decide, and a same-named
 * value that contradicts is a warning (EQUIV_NAME_HINT).
 */
export type NamePolicy = 'decide' | 'hint';

export interface CompareOptions { names?: NamePolicy }

/**
 * Compares two forms given their inferred types: pairs tensors (correspond.ts), decides which
 * pairs count and checks the wiring (decide.ts), then compares each pair's types
 * (compare-type.ts) with one symbol binding across the whole model, and corresponding constants'
 * payloads (payload.ts). A value whose producer failed shape inference (an error at its node:
 * the rule rejected its inputs) on one side only is a contradiction: that side's form is not valid
 * there. Errors about a file's declared types (SHAPE_DECLARED_CONTRADICTS) do not count:
 * declarations are not what is compared.
 */
export function compareInferred(a: InferredSide, b: InferredSide, opts: CompareOptions = {}): EquivReport {
  const paths = new Paths();
  const corr = correspond(a.graph, b.graph, paths, { ...(a.states ? { a: a.states } : {}), ...(b.states ? { b: b.states } : {}) });
  const trustNames = (opts.names ?? 'decide') === 'decide';
  // Seeds: what the interface and the bindings pair, and body parameters/results paired by name
  // (a same-named parameter or result is checked against its binding: a name pair whose wiring
  // disagrees is how a swapped port map shows when the types cannot tell).
  // (Parameters left over on both sides pair by position, `via: position`: a guess, which in two-file
  // mode only hints; a swap it would show is then the computation comparison's to name.)
  const seeds = corr.pairs.filter((p) => trustNames || p.interface || p.via === 'binding' || p.via === 'result' ||
    (isBodyParam(p.a) && isBodyParam(p.b)) || (isBodyResult(p.a) && isBodyResult(p.b)));
  const elemOf = (v: Value) => {
    const t = a.types.get(v) ?? b.types.get(v);
    return t?.kind === 'tensor' ? t.elem : undefined;
  };
  const decision = decide(seeds, paths, elemOf);
  const seen = new Set(corr.pairs.map((p) => `${p.a.id}:${p.b.id}`));
  const allPairs = [...corr.pairs, ...decision.pairs.filter((p) => !seen.has(`${p.a.id}:${p.b.id}`))];
  const symbols = new SymbolBindings();
  const failedA = errorsByPath(a.diagnostics);
  const failedB = errorsByPath(b.diagnostics);
  const entries: EquivEntry[] = [];
  const label = (d: Diagnostic): Diagnostic => ({ ...d, file: d.file === 'B' ? b.label ?? 'B' : a.label ?? 'A' });
  const diagnostics: Diagnostic[] = [
    ...a.diagnostics.map((d) => ({ ...d, file: d.file ?? a.label ?? 'A' })),
    ...b.diagnostics.map((d) => ({ ...d, file: d.file ?? b.label ?? 'B' })),
  ];
  const contradictions: Diagnostic[] = [...corr.problems.map(label), ...decision.problems.map(label)];
  const hints: Diagnostic[] = [];
  // Deciding pairs first, so that symbols are bound by what decides; a hint is compared alone.
  const ordered = [...allPairs.filter((p) => decision.decides(p)), ...allPairs.filter((p) => !decision.decides(p))];
  const order = new Map(allPairs.map((p, i) => [p, i]));

  const made: [EquivEntry, number][] = [];
  // per model, not per pair: a chain of nested bodies' parameters walked once (else quadratic in the depth)
  const outer = new Map<Value, Value | null>();
  const relaxed = new Map<Graph, boolean>();
  const inRelaxedBranch = (v: Value): boolean => within(v.graph, relaxed, relaxedBranch);
  const batched = new Map<Graph, boolean>();
  const inScan8Body = (v: Value): boolean => within(v.graph, batched, scan8Body);
  for (const p of ordered) {
    // A body value bound with slicing (an IR port map entry with `axis`: TensorIterator/Loop
    // inputs cut into parts, outputs concatenated) has a per-iteration type each form spells its
    // own way (ONNX Scan drops the axis, TensorIterator keeps it as 1): its type is a hint.
    // A value inside an If branch the conversion typed with relaxed captures (SHAPE_BRANCH_RELAXED,
    // reported apart) is typed as for any input on that side: its type is a hint too.
    const decides = decision.decides(p) && !(sliced(p.a) || sliced(p.b) || inRelaxedBranch(p.a) || inRelaxedBranch(p.b));
    // Two constants reached through the data flow are judged by their payloads, which allow
    // dims of 1 to differ (`[]` vs `[1,1,1]`, as an elementwise op broadcasts them).
    // A same-named constant that is only a hint but holds the same numbers (ovc's f16 storage of
    // an f32 weight) is judged the same way: its type differs in storage only.
    const payloads = bothPayloads(p.a, p.b, outer);
    const payloadDiff = payloads ? comparePayloads(payloads[0], payloads[1]) : undefined;
    const byPayload = payloadDiff !== undefined && (decides ? p.via === 'dataflow' || p.via === 'feeder' : payloadDiff === null);
    const ta = a.types.get(p.a) ?? null;
    const tb = b.types.get(p.b) ?? null;
    const pathA = paths.value(p.a);
    const pathB = paths.value(p.b);
    const name = p.a.name || p.b.name || paths.valueLabel(p.a);
    const v = compareType(ta, tb, decides ? symbols : new SymbolBindings(), pathA);
    const entry: EquivEntry = {
      name, scope: p.scope, pathA, pathB, status: v.status, a: typeSummary(ta), b: typeSummary(tb), via: p.via,
    };
    if (!decides) entry.hint = true;
    if (v.moreSpecific) entry.moreSpecific = v.moreSpecific;
    const fa = failure(p.a, failedA, paths);
    const fb = failure(p.b, failedB, paths);
    const failA = fa && !fb ? fa : undefined;
    const failB = fb && !fa ? fb : undefined;
    if (failA || failB) {
      entry.status = 'contradiction';
      delete entry.moreSpecific;
      entry.detail = failA ? `shape inference failed in A: ${failA.message}` : `shape inference failed in B: ${failB!.message}`;
    } else if (v.details.length) {
      entry.detail = v.details.join('; ');
    }
    if (byPayload && entry.status === 'contradiction' && !failA && !failB) {
      entry.status = 'compatible';
      entry.detail = `${entry.detail ?? ''} (constants: judged by their numbers, which agree; dims of 1 and storage precision aside)`;
    }
    // Integer data (shapes, axes) both inferences know in full, inside the graphs: judged by its
    // numbers too, when the integer width is all that differs (integer-width.ts). The interface's
    // element types are the model's contract: never.
    if (entry.status === 'contradiction' && !p.interface && !failA && !failB && widthOnly(ta, tb)
      && sameIntegerNumbers(elemOf(p.a), elemOf(p.b), a.values?.get(p.a), b.values?.get(p.b))) {
      entry.status = 'compatible';
      entry.detail = `${entry.detail ?? ''} (integer data: judged by its numbers, which agree, ${a.values!.get(p.a)!.join(',')}; the width aside)`;
    }
    // A value of an ONNX Scan-8 body holds one batch element where the other form's loop body holds
    // the batch axis too: two types one leading dim apart agree but for that axis.
    const scan8A = inScan8Body(p.a);
    if (entry.status === 'contradiction' && !failA && !failB && scan8A !== inScan8Body(p.b) && batchAxisApart(scan8A ? ta : tb, scan8A ? tb : ta)) {
      entry.status = 'compatible';
      entry.detail = `${entry.detail ?? ''} (one dim apart: the batch axis an ONNX Scan-8 body does not hold)`;
    }
    if (entry.status === 'contradiction') {
      if (decides) {
        const d = diag('EQUIV_CONTRADICTION', pathA, { name, detail: entry.detail ?? '', pathB });
        d.file = a.label ?? 'A';
        contradictions.push(d);
      } else {
        const d = diag('EQUIV_NAME_HINT', pathA, { name, detail: entry.detail ?? '', pathB, ...(p.via === 'position' ? { how: 'the parameter paired by position with' } : {}) });
        d.file = a.label ?? 'A';
        hints.push(d);
      }
    }
    // Constant payloads, for pairs that decide.
    if (decides) {
      const diff = payloadDiff;
      if (diff) {
        const d = diag('EQUIV_CONST_PAYLOAD', pathA, { name, pathB, detail: diff });
        d.file = a.label ?? 'A';
        contradictions.push(d);
        entry.status = 'contradiction';
        delete entry.moreSpecific;
        entry.detail = entry.detail ? `${entry.detail}; ${diff}` : diff;
      }
    }
    made.push([entry, order.get(p)!]);
  }
  made.sort((x, y) => x[1] - y[1]);
  for (const [e] of made) entries.push(e);
  const counts = (e: EquivEntry) => e.status === 'contradiction' && !e.hint;
  const sorted = [...entries.filter(counts), ...entries.filter((e) => !counts(e))];
  const report: EquivReport = {
    ok: contradictions.length === 0,
    entries: sorted,
    unmatched: corr.unmatched,
    diagnostics: [
      ...contradictions,
      ...hints,
      ...corr.diagnostics.map(label),
      ...diagnostics,
    ],
  };
  if (a.label) report.a = a.label;
  if (b.label) report.b = b.label;
  return report;
}

/** `batched` is `one` with a leading dim (the batch axis) more, and otherwise agrees with it. */
function batchAxisApart(one: ValueType | null, batched: ValueType | null): boolean {
  if (one?.kind !== 'tensor' || batched?.kind !== 'tensor' || one.shape === null || batched.shape === null) return false;
  if (batched.shape.length !== one.shape.length + 1) return false;
  return compareType(one, { ...batched, shape: batched.shape.slice(1) }, new SymbolBindings(), '').status !== 'contradiction';
}

/** Two tensor types that differ in element type only: the same with A's element type in B. */
function widthOnly(ta: ValueType | null, tb: ValueType | null): boolean {
  if (ta?.kind !== 'tensor' || tb?.kind !== 'tensor' || ta.elem === tb.elem) return false;
  return compareType(ta, { ...tb, elem: ta.elem }, new SymbolBindings(), '').status !== 'contradiction';
}

function bothPayloads(a: Value, b: Value, outer: Map<Value, Value | null>): [Payload, Payload] | undefined {
  const pa = payloadOf(a, outer);
  const pb = pa ? payloadOf(b, outer) : undefined;
  return pa && pb ? [pa, pb] : undefined;
}

/** Whether graph `g` is, or is nested in, a graph `is` holds for (at any depth); `memo` per graph. */
function within(g: Graph, memo: Map<Graph, boolean>, is: (x: Graph) => boolean): boolean {
  const walked: Graph[] = [];
  let found = false;
  for (let x: Graph | undefined = g; x; x = x.owner?.node.graph) {
    const known = memo.get(x);
    if (known !== undefined) { found = known; break; }
    walked.push(x);
    if (is(x)) { found = true; break; }
  }
  for (const w of walked) memo.set(w, found);
  return found;
}

/** A body marked `relaxedBranch`. */
const relaxedBranch = (x: Graph): boolean => x.meta.relaxedBranch === true;

/**
 * The body of an ONNX Scan-8, whose values hold one element of its batch axis (the body runs once
 * per batch element and step), where the other form's loop body (a TensorIterator, a later Scan)
 * holds the batch axis too: the same value, one dim apart.
 */
const scan8Body = (x: Graph): boolean => {
  const n = x.owner?.node;
  return n !== undefined && n.dialect === 'onnx' && n.op === 'Scan' && n.version === '8';
};

/** A body parameter or result whose binding slices or concatenates (`axis` in the port map). */

function sliced(v: Value): boolean {
  const owner = v.graph.owner;
  const body = owner?.node.bodies.get(owner.key);
  if (!body) return false;
  if (body.inputs.some((b) => b.param === v && b.extra?.['axis'] !== undefined)) return true;
  return body.outputs.some((o) => v.graph.outputs[o.result] === v && o.extra?.['axis'] !== undefined);
}

/** A body's output (then its bindings are checked, decide.ts). */
function isBodyResult(v: Value): boolean {
  return v.graph.owner !== null && v.graph.outputs.includes(v);
}

function isBodyParam(v: Value): boolean {
  return v.graph.owner !== null && v.producer === null && !v.constant && v.graph.inputs.includes(v);
}

function errorsByPath(ds: readonly Diagnostic[]): Map<string, Diagnostic> {
  const m = new Map<string, Diagnostic>();
  for (const d of ds) {
    if (d.severity === 'error' && d.where && !d.code.includes('DECLARED') && !m.has(d.where)) m.set(d.where, d);
  }
  return m;
}

function failure(v: Value, failed: Map<string, Diagnostic>, paths: Paths): Diagnostic | undefined {
  return v.producer && failed.size ? failed.get(paths.node(v.producer)) : undefined;
}
