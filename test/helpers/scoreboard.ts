/**
 * The conformance scoreboard: every suite records one status per case (with a reason), and
 * `writeScoreboard()` persists each suite whose run was complete as docs/conformance/<suite>.json
 * and regenerates docs/conformance.md from the suite files — so suites running in separate test
 * files (or separate runs) merge, and a suite not run this time keeps its last result.
 *
 * Statuses (the legend of the markdown says the same):
 *  - pass: the engine computed the expected numbers;
 *  - fail: wrong numbers, or a crash / internal error of ours, or output an engine cannot load;
 *  - refused: ovir declined with a clean, coded diagnostic — counts against us;
 *  - skip: only what the reference engine itself cannot do, on the same model, failing the same way;
 *  - unjudged: a limit of this harness (never of an engine), reason given.
 * A case may also be marked `gap`: the reference engine passes it and ovir does not (the
 * "OpenVINO / onnxruntime passes, ovir does not" column of the conversion suites).
 *
 * Integrity: each suite is stamped with its own run (date, engine versions, filter). A run is
 * published only when it is complete: unfiltered (no OVIR_ZOO_FILTER / OVIR_CONFORMANCE_FILTER, no
 * `filter` given) and finished (`finishSuite` called after every case was recorded). A partial
 * run never overwrites a suite's file; the markdown shows each suite's own run date.
 *
 * Output is deterministic (cases sorted, no timings).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './oracle.js';

export const STATUSES = ['pass', 'fail', 'refused', 'skip', 'unjudged'] as const;
export type CaseStatus = (typeof STATUSES)[number];

/** How each status is shown in the markdown. */
export const STATUS_LABEL: Readonly<Record<CaseStatus, string>> = {
  pass: 'pass', fail: 'fail', refused: 'refused', skip: 'skip', unjudged: 'unjudged (harness)',
};

const SECTION_TITLE: Readonly<Record<Exclude<CaseStatus, 'pass'>, string>> = {
  fail: 'Failures', refused: 'Refused by ovir', skip: 'Skips (reference engine cannot)', unjudged: 'Unjudged (harness limits)',
};

export interface CaseResult {
  name: string;
  status: CaseStatus;
  reason?: string;
  /** The suite's reference engine passes this case and ovir does not. */
  gap?: boolean;
}

/** The run a suite's result comes from. */
export interface SuiteRun {
  /** YYYY-MM-DD (UTC) of the run. */
  date: string;
  /** The case filter of the run; null for a full run (only full runs are published). */
  filter: string | null;
  /** Whether every case of the run was recorded (the suite reached its end). */
  complete: boolean;
}

export interface SuiteResult {
  suite: string;
  description?: string;
  engines?: Record<string, string>;
  /** What the gap column compares with, e.g. "OpenVINO on ovc's IR". Conversion suites only. */
  reference?: string;
  run?: SuiteRun;
  counts: Record<CaseStatus, number>;
  /** Cases the reference engine passes and ovir does not (conversion suites). */
  gap?: number;
  /** Every case that does not pass (passes are counted). */
  cases: CaseResult[];
}

const DOCS_DIR = process.env.OVIR_SCOREBOARD_DIR ?? join(REPO_ROOT, 'docs');
const SUITE_DIR = join(DOCS_DIR, 'conformance');
const MARKDOWN = join(DOCS_DIR, 'conformance.md');

/** The case filter this process runs with (env), or null. */
export function envFilter(): string | null {
  return process.env.OVIR_ZOO_FILTER || process.env.OVIR_CONFORMANCE_FILTER || null;
}

interface SuiteState {
  description?: string;
  engines?: Record<string, string>;
  reference?: string;
  filter: string | null;
  complete: boolean;
  date: string;
  cases: Map<string, CaseResult>;
}

const suites = new Map<string, SuiteState>();

function suiteEntry(suite: string): SuiteState {
  let s = suites.get(suite);
  if (!s) {
    s = { cases: new Map(), filter: envFilter(), complete: false, date: new Date().toISOString().slice(0, 10) };
    suites.set(suite, s);
  }
  return s;
}

/** Records one case; recording the same case again replaces it. `gap`: the reference passes, ovir does not. */
export function record(suite: string, caseName: string, status: CaseStatus, reason?: string, opts: { gap?: boolean } = {}): void {
  const r: CaseResult = { name: caseName, status };
  // paths under the repository as the repository names them: the published board says the same on every machine
  if (reason !== undefined && reason !== '') r.reason = oneLine(reason).split(`${REPO_ROOT}/`).join('');
  if (opts.gap && status !== 'pass') r.gap = true;
  suiteEntry(suite).cases.set(caseName, r);
}

/**
 * Starts (or re-describes) a suite's run: a one-line description printed under its heading, the
 * engine versions, the reference of its gap column, and the case filter (a run with a filter is
 * never published; without `filter` here, the environment's OVIR_ZOO_FILTER / OVIR_CONFORMANCE_FILTER
 * counts; `filter: null` says the suite takes no filter).
 */
export function describeSuite(
  suite: string, description: string, engines?: Record<string, string>,
  opts: { reference?: string; filter?: string | RegExp | null } = {},
): void {
  const s = suiteEntry(suite);
  s.description = description;
  if (engines) s.engines = engines;
  if (opts.reference) s.reference = opts.reference;
  if ('filter' in opts) s.filter = opts.filter ? String(opts.filter) : null; // given: overrides the environment's
}

/** Marks a suite's run complete: every case it meant to judge is recorded. Only complete runs are published. */
export function finishSuite(suite: string): void {
  suiteEntry(suite).complete = true;
}

/** This run's result of one suite (counts and non-passing cases, sorted). */
export function suiteResult(suite: string): SuiteResult {
  const s = suiteEntry(suite);
  const counts = emptyCounts();
  const cases: CaseResult[] = [];
  let gap = 0;
  for (const c of s.cases.values()) {
    counts[c.status]++;
    if (c.gap) gap++;
    if (c.status !== 'pass') cases.push(c);
  }
  const rank = (st: CaseStatus): number => STATUSES.indexOf(st);
  cases.sort((a, b) => (a.status === b.status ? cmp(a.name, b.name) : rank(a.status) - rank(b.status)));
  const out: SuiteResult = { suite, counts, cases };
  if (s.description) out.description = s.description;
  if (s.engines) out.engines = s.engines;
  if (s.reference) { out.reference = s.reference; out.gap = gap; }
  out.run = { date: s.date, filter: s.filter, complete: s.complete };
  return out;
}

/** `suite: N pass, N fail, …` for each suite recorded in this run. */
export function summaryLines(): string[] {
  return [...suites.keys()].sort(cmp).map((name) => {
    const r = suiteResult(name);
    const parts = STATUSES.map((st) => `${r.counts[st]} ${STATUS_LABEL[st]}`);
    if (r.gap !== undefined) parts.push(`${r.gap} where ${r.reference} passes and ovir does not`);
    return `${name}: ${parts.join(', ')}`;
  });
}

/** Whether a suite's run may be published: unfiltered and complete. */
export function publishable(r: SuiteResult): boolean {
  return !!r.run && r.run.complete && r.run.filter === null;
}

/**
 * Persists this run's complete, unfiltered suites and regenerates docs/conformance.md from every
 * suite file. A partial run (filtered, or a suite that did not reach its end) is reported on stdout
 * and written nowhere; when no suite of this run is publishable, nothing is written at all.
 */
export function writeScoreboard(): void {
  const mine = [...suites.keys()].map(suiteResult);
  const ready = mine.filter(publishable);
  for (const r of mine.filter((x) => !publishable(x))) {
    const why = r.run?.filter !== null ? `filtered (${r.run?.filter})` : 'incomplete (the run did not reach its end)';
    process.stdout.write(`scoreboard: ${r.suite} not published: the run was ${why}\n`);
  }
  if (!ready.length) return;
  mkdirSync(SUITE_DIR, { recursive: true });
  for (const r of ready) atomicWrite(join(SUITE_DIR, `${fileName(r.suite)}.json`), `${JSON.stringify(r, null, 1)}\n`);
  const all: SuiteResult[] = [];
  for (const f of readdirSync(SUITE_DIR).filter((f) => f.endsWith('.json')).sort(cmp)) {
    try {
      all.push(normalise(JSON.parse(readFileSync(join(SUITE_DIR, f), 'utf8')) as SuiteResult));
    } catch {
      // a damaged suite file is left out; the next full run of that suite rewrites it
    }
  }
  all.sort((a, b) => cmp(a.suite, b.suite));
  atomicWrite(MARKDOWN, renderMarkdown(all));
}

function emptyCounts(): Record<CaseStatus, number> {
  return { pass: 0, fail: 0, refused: 0, skip: 0, unjudged: 0 };
}

/** A suite file of any age as a SuiteResult (files written before a status existed lack its count). */
function normalise(r: SuiteResult): SuiteResult {
  return { ...r, counts: { ...emptyCounts(), ...r.counts } };
}

const total = (c: Record<CaseStatus, number>): number => STATUSES.reduce((n, st) => n + (c[st] ?? 0), 0);

export const GAP_COLUMN = 'OpenVINO / onnxruntime passes, ovir does not';

/** The markdown page; `generated` is the date of the page itself (each suite shows its own run). */
export function renderMarkdown(input: readonly SuiteResult[], generated = new Date().toISOString().slice(0, 10)): string {
  const all = input.map(normalise);
  const L: string[] = [];
  L.push('# Conformance scoreboard');
  L.push('');
  L.push('<!-- generated by `npm run test:conformance` (test/helpers/scoreboard.ts); do not edit by hand -->');
  L.push(`Generated ${generated} from each suite's last complete, unfiltered run (its date in the table). Each suite runs real engines on real data.`);
  L.push('');
  L.push('- **pass**: the engine computed the expected numbers (f32 rtol 1e-4).');
  L.push('- **fail**: a wrong answer of ours: wrong numbers, a crash or internal error of ovir, or output an engine cannot load or run.');
  L.push('- **refused**: ovir declined with a clean, coded diagnostic (reason given). Counts against us: a case ovir declines is `refused`, never `skip`.');
  L.push('- **skip**: only what the reference engine itself cannot do, on the same model, failing the same way (reason given).');
  L.push('- **unjudged (harness)**: a limit of this test harness, never of an engine (reason given).');
  L.push(`- **${GAP_COLUMN}** (conversion suites): cases the suite's reference engine passes while ovir's conversion is refused or fails.`);
  L.push('');
  L.push('Per-suite data: `docs/conformance/*.json`.');
  L.push('');
  L.push(`| suite | ${STATUSES.map((st) => STATUS_LABEL[st]).join(' | ')} | total | ${GAP_COLUMN} | run |`);
  L.push(`|---|${STATUSES.map(() => '---:').join('|')}|---:|---:|---|`);
  for (const s of all) {
    const c = s.counts;
    const gap = s.gap === undefined ? '' : String(s.gap);
    L.push(`| [${s.suite}](#${anchor(s.suite)}) | ${STATUSES.map((st) => c[st]).join(' | ')} | ${total(c)} | ${gap} | ${s.run?.date ?? 'unstamped'} |`);
  }
  for (const s of all) {
    L.push('');
    L.push(`## ${s.suite}`);
    L.push('');
    if (s.description) { L.push(s.description); L.push(''); }
    const stamp: string[] = [];
    if (s.run) stamp.push(`Run ${s.run.date}`);
    if (s.engines) stamp.push(`engines: ${Object.entries(s.engines).sort(([a], [b]) => cmp(a, b)).map(([k, v]) => `${k} ${v}`).join(', ')}`);
    if (stamp.length) { L.push(`${stamp.join('; ')}.`); L.push(''); }
    const c = s.counts;
    L.push(`**${STATUSES.map((st) => `${c[st]} ${STATUS_LABEL[st]}`).join(', ')}.**`);
    if (s.gap !== undefined && s.reference) {
      L.push('');
      L.push(`**${s.gap} case${s.gap === 1 ? '' : 's'} where ${s.reference} passes and ovir does not** (marked ✗ below).`);
    }
    for (const status of STATUSES) {
      if (status === 'pass') continue;
      const rows = s.cases.filter((x) => x.status === status);
      if (!rows.length) continue;
      L.push('');
      L.push(`### ${SECTION_TITLE[status]} (${rows.length})`);
      L.push('');
      L.push('| case | reason |');
      L.push('|---|---|');
      for (const r of rows) L.push(`| ${cell(r.name)}${r.gap ? ' ✗' : ''} | ${cell(r.reason ?? '')} |`);
    }
  }
  L.push('');
  return L.join('\n');
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function oneLine(s: string): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > 300 ? `${t.slice(0, 297)}...` : t;
}

function cell(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/\n/g, ' ');
}

function anchor(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9 _-]/g, '').replace(/ /g, '-');
}

function fileName(suite: string): string {
  return suite.replace(/[^A-Za-z0-9_.-]/g, '_');
}

function atomicWrite(path: string, text: string): void {
  if (existsSync(path) && readFileSync(path, 'utf8') === text) return;
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

/** An error as a scoreboard reason: its first line, with how many more lines there were. */
export function reasonOf(e: unknown): string {
  const text = (e instanceof Error ? e.message : String(e)).trim();
  const lines = text.split('\n').filter((l) => l.trim());
  const first = lines[0] ?? 'unknown error';
  return lines.length > 1 ? `${first} (+${lines.length - 1} more)` : first;
}
