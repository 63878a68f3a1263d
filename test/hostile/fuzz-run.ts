/**
 * The hostile-input fuzz driver, run ad hoc (`node scripts/fuzz.mjs --rounds 2000 --seed 7`):
 * models from the samples, ONNX backend test cases, the real models under .oracle/, IR that ovir
 * writes from those and ovc's IR in the conformance cache, mutated structure-aware
 * (test/hostile/fuzz-mutate.ts) or byte by byte, each through the library in a worker thread
 * (fuzz-check.ts: only OvirErrors without INTERNAL, no partial output, what is written reads back)
 * and every `--cli-every`th through the real CLI (convert, check, shapes: exit 1 with coded
 * messages, no "internal error", no stack, no output left on failure). A case that runs past
 * `--timeout` or runs the worker out of memory is a finding too; the worker is replaced.
 * Seeded: case i of seed s is the same case on every run (`--replay i` writes it to --keep and runs it alone).
 * Findings go to `--out` (JSON lines), a summary to stdout.
 */
import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { convertModel } from '../../src/convert/index.js';
import { loadModel } from '../../src/io/load.js';
import { writeIr } from '../../src/ir/write.js';
import { runCase, type CaseFiles, type CaseResult } from './fuzz-check.js';
import { generator, int, mutateBytes, mutateIr, mutateOnnx, pick, type Rnd } from './fuzz-mutate.js';

interface Source { kind: 'onnx' | 'ir'; group: string; path: string }
interface Options { pairs: boolean; seed: number; rounds: number; start: number; cliEvery: number; timeoutMs: number; out: string; root: string; keep: string | null; jobs: number; memMb: number; only: string | null; groups: string[] | null }

function findRoot(): string {
  let d = resolve(fileURLToPath(new URL('.', import.meta.url)));
  while (!existsSync(join(d, 'package.json')) || !existsSync(join(d, 'samples'))) d = resolve(d, '..');
  return d;
}

function walk(dir: string, match: (name: string) => boolean, out: string[], depth = 0): string[] {
  if (depth > 6 || !existsSync(dir)) return out;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, match, out, depth + 1);
    else if (match(e.name)) out.push(p);
  }
  return out;
}

/** Every input the campaign draws from, grouped. */
export function listSources(root: string): Source[] {
  const out: Source[] = [];
  for (const s of readdirSync(join(root, 'samples'), { withFileTypes: true }).filter((d) => d.isDirectory())) {
    out.push({ kind: 'onnx', group: 'samples-onnx', path: join(root, 'samples', s.name, 'model.onnx') });
    out.push({ kind: 'ir', group: 'samples-ir', path: join(root, 'samples', s.name, 'model.xml') });
    out.push({ kind: 'ir', group: 'ovir-ir', path: join(root, 'samples', s.name, 'model.onnx') });
  }
  const backend = [
    ...walk('/usr/share/libonnx-testdata/data', (n) => n === 'model.onnx', []),
    ...walk(join(root, '.venv/onnx-backend-data/node'), (n) => n === 'model.onnx', []),
  ];
  for (const p of backend) {
    out.push({ kind: 'onnx', group: 'backend-onnx', path: p });
    out.push({ kind: 'ir', group: 'ovir-ir', path: p });
  }
  const seen = new Set<number>();
  for (const p of walk(join(root, '.oracle'), (n) => n.endsWith('.onnx'), []).filter((p) => /npm-models|pypi-models/.test(p))) {
    const size = statSync(p).size;
    if (size > 25e6 || seen.has(size)) continue;
    seen.add(size);
    out.push({ kind: 'onnx', group: 'real-onnx', path: p });
    out.push({ kind: 'ir', group: 'ovir-ir-real', path: p });
  }
  const cache = join(root, '.oracle/cache');
  if (existsSync(cache)) for (const d of readdirSync(cache)) {
    const x = join(cache, d, 'model.xml');
    if (existsSync(x) && statSync(x).size < 5e6) out.push({ kind: 'ir', group: 'ovc-ir', path: x });
  }
  return out;
}

const GROUP_WEIGHTS: Record<string, number> = { 'samples-onnx': 1, 'samples-ir': 1, 'backend-onnx': 3, 'real-onnx': 1, 'ovir-ir': 2, 'ovir-ir-real': 0.5, 'ovc-ir': 2 };

/** The unmutated files of a source (the IR of an ONNX source is ovir's own conversion; null when it does not convert). */
const originals = new Map<string, CaseFiles | null>();
function original(s: Source): CaseFiles | null {
  const key = `${s.group}:${s.path}`;
  if (originals.has(key)) return originals.get(key)!;
  let c: CaseFiles | null = null;
  try {
    if (s.kind === 'onnx') c = { main: 'model.onnx', files: new Map([['model.onnx', readFileSync(s.path)]]) };
    else if (s.path.endsWith('.xml')) {
      const bin = s.path.replace(/\.xml$/, '.bin');
      c = { main: 'model.xml', files: new Map([['model.xml', readFileSync(s.path)], ...(existsSync(bin) ? [['model.bin', readFileSync(bin)] as [string, Uint8Array]] : [])]) };
    } else {
      const { xml, bin } = writeIr(convertModel(loadModel(s.path), { to: 'ov' }));
      c = { main: 'model.xml', files: new Map([['model.xml', Buffer.from(xml)], ['model.bin', Buffer.concat(bin)]]) };
    }
  } catch { c = null; }
  // a small cache: real models' IR are tens of MB each
  if (originals.size > 40) originals.delete(originals.keys().next().value!);
  if (!c || [...c.files.values()].reduce((a, b) => a + b.byteLength, 0) < 2e6) originals.set(key, c);
  return c;
}

export interface FuzzCase { index: number; source: Source; what: string[]; files: CaseFiles }

/** Case `index` of `seed`: the same on every run. */
export function makeCase(sources: Source[], seed: number, index: number, only: string | null): FuzzCase | null {
  try { return makeCaseOf(sources, seed, index, only); } catch { return null; }
}
function makeCaseOf(sources: Source[], seed: number, index: number, only: string | null): FuzzCase | null {
  const rnd: Rnd = generator((seed * 1000003) ^ (index * 2654435761));
  const groups = [...new Set(sources.map((s) => s.group))];
  const total = groups.reduce((a, g) => a + (GROUP_WEIGHTS[g] ?? 1), 0);
  let r = rnd() * total;
  let group = groups[0]!;
  for (const g of groups) { r -= GROUP_WEIGHTS[g] ?? 1; if (r <= 0) { group = g; break; } }
  const source = pick(rnd, sources.filter((s) => s.group === group));
  const orig = original(source);
  if (!orig) return null;
  const files = new Map(orig.files);
  let what: string[];
  if (orig.main === 'model.onnx') {
    if (rnd() < 0.12 && !only) { files.set('model.onnx', mutateBytes(orig.files.get('model.onnx')!, rnd, false)); what = ['bytes']; }
    else {
      const m = mutateOnnx(orig.files.get('model.onnx')!, rnd, only ?? undefined);
      files.set('model.onnx', m.bytes);
      for (const [k, v] of m.files) files.set(k, v);
      what = m.what;
    }
  } else {
    if (rnd() < 0.08 && !only && files.has('model.bin')) { files.set('model.bin', mutateBytes(files.get('model.bin')!, rnd, false)); what = ['bin-bytes']; }
    else {
      const m = mutateIr(orig.files.get('model.xml')!, orig.files.get('model.bin') ?? null, rnd, only ?? undefined);
      files.set('model.xml', m.xml);
      if (m.bin) files.set('model.bin', m.bin); else files.delete('model.bin');
      what = m.what;
    }
  }
  void int;
  return { index, source, what, files: { main: orig.main, files } };
}

interface CliFinding { cmd: string; kind: string; message: string }

/** The case through the real CLI: convert, check, shapes. */
function runCli(root: string, dir: string, c: CaseFiles): { findings: CliFinding[]; ms: number } {
  const findings: CliFinding[] = [];
  const inPath = join(dir, 'in', c.main);
  const outDir = join(dir, 'cli-out');
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const out = join(outDir, c.main.endsWith('.onnx') ? 'out.xml' : 'out.onnx');
  const t0 = performance.now();
  for (const args of [['convert', inPath, '-o', out], ['check', inPath], ['shapes', inPath]]) {
    const r = spawnSync(process.execPath, [join(root, 'bin/ovir.js'), ...args], { encoding: 'utf8', timeout: 120_000, maxBuffer: 64 << 20 });
    const cmd = args[0]!;
    const text = `${r.stdout}\n${r.stderr}`;
    if (r.error || r.signal) findings.push({ cmd, kind: 'cli-killed', message: String(r.error ?? r.signal) });
    else if (r.status !== 0 && r.status !== 1) findings.push({ cmd, kind: 'cli-exit', message: `exit ${r.status}: ${r.stderr.slice(0, 400)}` });
    if (/internal error/i.test(text)) findings.push({ cmd, kind: 'cli-internal', message: text.split('\n').filter((l) => /internal error/i.test(l)).slice(0, 3).join('\n') });
    if (/\n\s+at .+\(.*:\d+:\d+\)/.test(text)) findings.push({ cmd, kind: 'cli-stack', message: r.stderr.slice(0, 600) });
    if (r.status === 1 && cmd !== 'shapes' && !/\[[A-Z][A-Z0-9_]+\]/.test(r.stderr) && !/NOT proven|contradiction/.test(text)) findings.push({ cmd, kind: 'cli-uncoded', message: r.stderr.slice(0, 400) });
    if (cmd === 'convert' && r.status !== 0) {
      const left = readdirSync(outDir);
      if (left.length) findings.push({ cmd, kind: 'cli-partial-output', message: left.join(', ') });
    }
  }
  return { findings, ms: performance.now() - t0 };
}

// ── worker ─────────────────────────────────────────────────────────────────────

interface Job { index: number }
interface Reply { ready?: never; index: number; source?: string; group?: string; what?: string[]; result?: CaseResult; cli?: CliFinding[]; skipped?: boolean; rss: number }

function workerMain(): void {
  const { opts, dir } = JSON.parse(process.env['OVIR_FUZZ_WORKER']!) as { opts: Options; dir: string };
  let sources = listSources(opts.root);
  if (opts.groups) sources = sources.filter((s) => opts.groups!.includes(s.group));
  const reply = (r: Reply) => process.send!(r);
  process.on('message', (job: Job) => {
    const c = makeCase(sources, opts.seed, job.index, opts.only);
    if (!c) { reply({ index: job.index, skipped: true, rss: process.memoryUsage().rss }); return; }
    // written before the case runs, synchronously: a case that takes the process down is named
    writeFileSync(`${dir}.current`, `${job.index} ${c.source.group} ${c.source.path} [${c.what.join(',')}]\n`);
    const result = runCase(dir, c.files, { check: true, ...(opts.pairs ? { pairWith: c.source.path } : {}) });
    const cli = opts.cliEvery > 0 && job.index % opts.cliEvery === 0 ? runCli(opts.root, dir, c.files).findings : undefined;
    reply({ index: job.index, source: c.source.path, group: c.source.group, what: c.what, result, ...(cli ? { cli } : {}), rss: process.memoryUsage().rss });
  });
  process.send!({ ready: true });
}

// ── main ───────────────────────────────────────────────────────────────────────

function parseArgs(argv: string[], root: string): Options & { replay: number | null } {
  const o: Options & { replay: number | null } = { pairs: false, seed: 1, rounds: 200, start: 0, cliEvery: 20, timeoutMs: 60_000, out: join(root, '.fuzz-findings.jsonl'), root, keep: null, jobs: 1, memMb: 3072, only: null, groups: null, replay: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!; const v = argv[i + 1];
    if (a === '--seed') { o.seed = Number(v); i++; } else if (a === '--rounds') { o.rounds = Number(v); i++; } else if (a === '--start') { o.start = Number(v); i++; }
    else if (a === '--cli-every') { o.cliEvery = Number(v); i++; } else if (a === '--timeout') { o.timeoutMs = Number(v) * 1000; i++; } else if (a === '--out') { o.out = resolve(v!); i++; }
    else if (a === '--jobs') { o.jobs = Number(v); i++; } else if (a === '--mem') { o.memMb = Number(v); i++; } else if (a === '--only') { o.only = v!; i++; }
    else if (a === '--pairs') o.pairs = true;
    else if (a === '--groups') { o.groups = v!.split(','); i++; } else if (a === '--replay') { o.replay = Number(v); i++; } else if (a === '--keep') { o.keep = resolve(v!); i++; }
    else throw new Error(`unknown option ${a}`);
  }
  return o;
}

async function main(): Promise<void> {
  const root = findRoot();
  const opts = parseArgs(process.argv.slice(2), root);
  let sources = listSources(root);
  if (opts.groups) sources = sources.filter((s) => opts.groups!.includes(s.group));
  const counts: Record<string, number> = {};
  for (const s of sources) counts[s.group] = (counts[s.group] ?? 0) + 1;
  console.log(`sources: ${JSON.stringify(counts)}`);
  if (opts.replay !== null) {
    const c = makeCase(sources, opts.seed, opts.replay, opts.only);
    if (!c) { console.log('no case (the source does not convert)'); return; }
    const dir = opts.keep ?? join(tmpdir(), `ovir-fuzz-replay-${process.pid}`);
    console.log(`case ${opts.replay}: ${c.source.group} ${c.source.path} [${c.what.join(', ')}] in ${dir}`);
    const r = runCase(dir, c.files);
    console.log(JSON.stringify(r, null, 2));
    if (opts.cliEvery >= 0) console.log(JSON.stringify(runCli(root, dir, c.files), null, 2));
    return;
  }
  const stats = { cases: 0, skipped: 0, converted: 0, findings: 0, hangs: 0, oom: 0, cliCases: 0, byGroup: {} as Record<string, number>, byWhat: {} as Record<string, number>, codes: {} as Record<string, number>, maxMs: { ms: 0, index: -1 } };
  const signatures = new Map<string, { count: number; first: number }>();
  const record = (index: number, rec: Record<string, unknown>, sig: string) => {
    stats.findings++;
    const s = signatures.get(sig);
    if (s) s.count++; else { signatures.set(sig, { count: 1, first: index }); console.log(`FINDING case ${index}: ${sig}`); }
    appendFileSync(opts.out, JSON.stringify({ seed: opts.seed, index, sig, ...rec }) + '\n');
  };
  let next = opts.start;
  const end = opts.start + opts.rounds;
  const t0 = Date.now();
  const runWorker = (slot: number): Promise<void> => new Promise((done) => {
    const dir = join(tmpdir(), `ovir-fuzz-${process.pid}-${slot}`);
    // a process, not a thread: a case that runs out of memory ends its process, not the driver
    const w: ChildProcess = fork(fileURLToPath(import.meta.url), [], { execArgv: [`--max-old-space-size=${opts.memMb}`], env: { ...process.env, OVIR_FUZZ_WORKER: JSON.stringify({ opts, dir }) }, stdio: ['ignore', 'inherit', 'pipe', 'ipc'] });
    let stderr = '';
    w.stderr!.on('data', (d: Buffer) => { stderr = (stderr + d.toString()).slice(-4000); });
    let current = -1;
    let timer: NodeJS.Timeout | null = null;
    let finished = false;
    const finish = (restart: boolean) => {
      if (finished) return;
      finished = true;
      if (timer) clearTimeout(timer);
      w.kill('SIGKILL');
      if (restart && next < end) void runWorker(slot).then(done); else done();
    };
    const send = () => {
      if (next >= end) { finish(false); return; }
      current = next++;
      w.send({ index: current } satisfies Job);
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        stats.hangs++;
        const c = makeCase(sources, opts.seed, current, opts.only);
        record(current, { kind: 'timeout', source: c?.source.path, what: c?.what }, `timeout > ${opts.timeoutMs / 1000} s (${c?.source.group} [${c?.what.join(',')}])`);
        finish(true);
      }, opts.timeoutMs);
    };
    w.on('message', (r: Reply | { ready: true }) => {
      if ('ready' in r) { send(); return; }
      if (r.skipped) stats.skipped++;
      else {
        stats.cases++;
        stats.byGroup[r.group!] = (stats.byGroup[r.group!] ?? 0) + 1;
        for (const m of r.what!) stats.byWhat[m] = (stats.byWhat[m] ?? 0) + 1;
        if (r.result!.converted) stats.converted++;
        for (const c of r.result!.codes) stats.codes[c] = (stats.codes[c] ?? 0) + 1;
        const total = Object.values(r.result!.ms).reduce((a, b) => a + b, 0);
        if (total > stats.maxMs.ms) stats.maxMs = { ms: total, index: r.index };
        for (const f of r.result!.findings) {
          const first = f.message.split('\n')[0]!.replace(/'[^']*'/g, "'…'").replace(/\d+/g, 'N').slice(0, 160);
          const at = f.kind === 'exception' ? (f.message.split('\n').find((l) => /\/src\/|\/mappings\//.test(l)) ?? '').trim().replace(/:\d+:\d+\)?$/, '') : '';
          record(r.index, { kind: f.kind, step: f.step, group: r.group, source: r.source, what: r.what, message: f.message }, `${f.step}/${f.kind}: ${first} ${at}`);
        }
        if (r.cli) {
          stats.cliCases++;
          for (const f of r.cli) record(r.index, { kind: f.kind, step: `cli-${f.cmd}`, group: r.group, source: r.source, what: r.what, message: f.message }, `cli-${f.cmd}/${f.kind}: ${f.message.split('\n')[0]!.replace(/\d+/g, 'N').slice(0, 120)}`);
        }
      }
      if ((stats.cases + stats.skipped) % 100 === 0) console.log(`… ${stats.cases + stats.skipped} cases, ${signatures.size} distinct findings, ${((Date.now() - t0) / 1000).toFixed(0)} s`);
      send();
    });
    w.on('exit', (code, signal) => {
      if (finished) return;
      const e = `exit ${code} ${signal ?? ''}: ${stderr.split('\n').filter((l) => /FATAL|Error/.test(l)).slice(0, 3).join(' | ')}`;
      const oom = /heap out of memory|heap limit/.test(stderr);
      if (oom) stats.oom++;
      const c = makeCase(sources, opts.seed, current, opts.only);
      record(current, { kind: oom ? 'oom' : 'worker-error', source: c?.source.path, what: c?.what, message: String(e) }, `${oom ? 'out of memory' : `worker error ${String(e).slice(0, 80)}`} (${c?.source.group} [${c?.what.join(',')}])`);
      finish(true);
    });
  });
  await Promise.all(Array.from({ length: opts.jobs }, (_, k) => runWorker(k)));
  console.log(JSON.stringify({ seed: opts.seed, range: [opts.start, end], seconds: (Date.now() - t0) / 1000, ...stats }, null, 1));
  console.log('distinct findings:');
  for (const [sig, s] of signatures) console.log(`  ${s.count}× (first case ${s.first}) ${sig}`);
  writeFileSync(opts.out + '.summary.json', JSON.stringify({ stats, signatures: [...signatures] }, null, 1));
}

if (process.env['OVIR_FUZZ_WORKER']) workerMain(); else void main();
