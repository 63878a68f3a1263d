/**
 * A case's verdict from how ovir's conversion and the reference engine came out on it, as the
 * scoreboard's legend defines the statuses: `refused` for a clean refusal, `unjudged` for a harness
 * limit, `skip` only when the reference fails the same way on the same model (same kind of failure,
 * and the same message with names aside, or wrong numbers on every output ours gets wrong), else
 * `fail`; `gap`
 * when the reference passes and ovir does not.
 */
import type { CaseStatus } from './scoreboard.js';

export type Verdict = { status: CaseStatus; reason?: string; gap?: boolean };

/** How one side (ours or the reference) came out on a case. */
export type Outcome =
  | { kind: 'pass' }
  | { kind: 'refused' | 'internal' | 'convert' | 'run' | 'differs' | 'harness'; text: string };

/** A failure message with the names that differ between two models of the same case taken out. */
export function essence(text: string): string {
  return text
    .replace(/\b(?:node|layer|name|parameter|with name)\s*[:=]?\s*(?:'[^']*'|"[^"]*"|\([^)]*\)|\S+)/gi, '$NAME')
    .replace(/'[^']*'|"[^"]*"/g, '$Q')
    .replace(/\/\S+/g, '$PATH')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/** Whether the reference failed in the same way as ours: same kind of failure, same message (names aside). */
export function sameFailure(ours: Outcome, ref: Outcome): boolean {
  if (ours.kind === 'pass' || ref.kind === 'pass' || ours.kind !== ref.kind) return false;
  // texts read "<whose> differs from the expected: …" / "<engine> cannot run <whose>: …"
  const detail = (t: string): string => t.slice(t.indexOf(': ') + 2);
  // wrong numbers only on outputs the reference also gets wrong: the engine cannot compute those
  // right on this model, so it cannot judge ours there (an output ours gets wrong and the reference
  // right is judged: a fail)
  const wrongOutputs = (t: string): string[] => [...detail(t).matchAll(/(?:^|; )output (\S+):/g)].map((m) => m[1]!);
  if (ours.kind === 'differs') {
    const theirs = new Set(wrongOutputs(ref.text));
    const mine = wrongOutputs(ours.text);
    return mine.length > 0 && mine.every((o) => theirs.has(o));
  }
  return ours.kind === 'run' && essence(detail(ours.text)) === essence(detail(ref.text));
}

/**
 * The verdict of a case from how ours and the reference came out: refused / fail / skip (only when
 * the reference fails the same way) / unjudged; `gap` when the reference passes and ours does not.
 */
export function verdict(ours: Outcome, ref: Outcome, refName: string): Verdict {
  if (ours.kind === 'pass') return { status: 'pass' };
  const gap = ref.kind === 'pass';
  if (ours.kind === 'refused') return { status: 'refused', reason: ours.text, gap };
  if (ours.kind === 'harness') return { status: 'unjudged', reason: `harness: ${ours.text}` };
  if (ours.kind !== 'internal' && sameFailure(ours, ref)) {
    return { status: 'skip', reason: `reference engine cannot: ${refName} fails the same way; ours: ${ours.text}` };
  }
  if (ref.kind === 'pass') return { status: 'fail', reason: ours.text, gap };
  return { status: 'fail', reason: `${ours.text} (${refName} fails too, differently: ${ref.text})`, gap };
}

/** The verdict of a case without a reference engine run on the same model: nothing is excused. */
export function unreferenced(ours: Outcome): Verdict {
  if (ours.kind === 'pass') return { status: 'pass' };
  if (ours.kind === 'refused') return { status: 'refused', reason: ours.text };
  if (ours.kind === 'harness') return { status: 'unjudged', reason: `harness: ${ours.text}` };
  return { status: 'fail', reason: ours.text };
}
