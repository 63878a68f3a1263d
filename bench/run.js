// ovir phase benchmarks: `npm run bench:phases` (builds first; runs the compiled library from dist/).
//
// 1. A big synthetic model (default 50,000 nodes, ~300 MB of f32 weights), each phase in its own
//    process so that peak RSS is that phase's: ONNX decode, ONNX encode, ONNX → IR conversion,
//    IR encode, IR decode. Decoders must keep weights as views into the file buffer, so decoding
//    costs about the file size in memory, not twice that.
// 2. Batch throughput: `convertBatch` over the ONNX backend test models (node + simple +
//    pytorch-converted + pytorch-operator) with one worker per core.
// Results go to bench/PHASES.md (with the machine facts) and bench/phases.json.
//
// Options: --nodes N (50000), --weights-mb M (300), --only synthetic|batch (keeps the other part
// of the previous results), --roundtrip (also the round-trip testing mode over the suite), --keep.
// `--phase ir-write --nodes N --weights-mb M` times writeIr alone in one process (bench/RESULTS.md).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, freemem, platform, release, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..');
const dist = join(repo, 'dist/src');
const args = process.argv.slice(2);
const opt = (name, def) => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : def; };
const MB = 1024 * 1024;

/** Imports the compiled library. */
async function lib() {
  if (!existsSync(join(dist, 'index.js'))) throw new Error('dist/ is missing: run `npm run build` first');
  return import(join(dist, 'index.js'));
}

/**
 * The synthetic model: x f32 [rows, 1024]; blocks of Add(h, W_k) → Relu → Mul(h, s) until
 * `nodes` nodes, where each of the first weights-mb/ (rows·4 KiB) Adds gets its own [rows, 1024]
 * weight and the rest share one, so the file holds ~weights-mb of weights and `nodes` nodes.
 */
function buildSynthetic(ovir, nodes, weightsMb) {
  const rows = 64;
  const width = 1024;
  const bytesPer = rows * width * 4;
  const bigWeights = Math.max(1, Math.floor((weightsMb * MB) / bytesPer));
  const m = new ovir.Model('onnx');
  m.onnx = ovir.defaultOnnxInfo(17);
  const g = m.graph;
  const t = ovir.tensorType('f32', [rows, width]);
  let h = g.addInput(t, ['x']);
  const fill = (seed) => { const a = new Float32Array(rows * width); for (let i = 0; i < a.length; i++) a[i] = ((i * 2654435761 + seed) % 1000) / 1e6; return new Uint8Array(a.buffer); };
  const shared = g.addInitializer(ovir.makeTensor('f32', [rows, width], fill(7)), ['w_shared']);
  const s = g.addInitializer(ovir.tensorFromFloat32([0.999], [1]), ['s']);
  let made = 0;
  let k = 0;
  while (made < nodes) {
    const w = k < bigWeights ? g.addInitializer(ovir.makeTensor('f32', [rows, width], fill(k)), [`w${k}`]) : shared;
    const ops = [['Add', w], ['Relu', null], ['Mul', s]];
    for (const [op, operand] of ops) {
      if (made >= nodes) break;
      const n = g.addNode({ dialect: 'onnx', op, version: '17', name: `${op}_${made}` });
      n.addInput(h);
      if (operand) n.addInput(operand);
      h = n.addOutput(t, [`h${made}`]);
      made++;
    }
    k++;
  }
  g.outputs.push(h);
  return m;
}

function memory() {
  const m = process.memoryUsage();
  return { rssMb: m.rss / MB, heapMb: m.heapUsed / MB, arrayBuffersMb: m.arrayBuffers / MB };
}

/** One phase, in this (child) process: prints a JSON line. */
async function phase(name, dir) {
  const ovir = await lib();
  const onnx = join(dir, 'synthetic.onnx');
  const xml = join(dir, 'synthetic.xml');
  global.gc?.();
  const before = memory();
  const t0 = performance.now();
  let extra = {};
  if (name === 'ir-write') {
    // writeIr alone (XML text + .bin chunks, no file I/O) on the synthetic chain built in this
    // process: `node bench/run.js --phase ir-write --nodes 100000 --weights-mb 1`.
    const ir = ovir.convertModel(buildSynthetic(ovir, Number(opt('nodes', 50000)), Number(opt('weights-mb', 300))), { to: 'ov' });
    global.gc?.();
    const rssBeforeMb = process.memoryUsage().rss / MB;
    const t1 = performance.now();
    const { xml: text } = ovir.writeIr(ir);
    extra = { nodes: ir.graph.nodes.length, ms: performance.now() - t1, xmlMb: Buffer.byteLength(text) / MB, rssBeforeMb };
  } else if (name === 'build') {
    const m = buildSynthetic(ovir, Number(opt('nodes', 50000)), Number(opt('weights-mb', 300)));
    ovir.saveModel(m, onnx);
    extra = { nodes: m.graph.nodes.length, fileMb: statSync(onnx).size / MB };
  } else if (name === 'onnx-decode' || name === 'ir-decode') {
    const file = name === 'onnx-decode' ? onnx : xml;
    const m = ovir.loadModel(file);
    const ms = performance.now() - t0;
    // Weights are views: how many distinct buffers back the initializers, and how big are they?
    const buffers = new Set();
    let weightBytes = 0;
    for (const v of m.graph.initializers) { buffers.add(v.constant.data.buffer); weightBytes += v.constant.data.byteLength; }
    let backing = 0;
    for (const b of buffers) backing += b.byteLength;
    const fileBytes = name === 'onnx-decode' ? statSync(onnx).size : statSync(xml).size + statSync(xml.replace(/\.xml$/, '.bin')).size;
    extra = { ms, nodes: m.graph.nodes.length, weightMb: weightBytes / MB, distinctBuffers: buffers.size, backingMb: backing / MB, fileMb: fileBytes / MB };
    globalThis.keep = m;
  } else if (name === 'onnx-encode' || name === 'convert' || name === 'ir-encode') {
    const m = ovir.loadModel(onnx);
    const t1 = performance.now();
    if (name === 'onnx-encode') ovir.saveModel(m, join(dir, 'again.onnx'));
    else {
      const ir = ovir.convertModel(m, { to: 'ov' });
      const t2 = performance.now();
      if (name === 'ir-encode') { ovir.saveModel(ir, xml); extra = { convertMs: t2 - t1, ms: performance.now() - t2 }; }
      else { extra = { ms: t2 - t1 }; globalThis.keep = ir; }
    }
    if (name === 'onnx-encode') extra = { ms: performance.now() - t1 };
    extra.loadMs = t1 - t0;
  }
  const after = memory();
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(JSON.stringify({ phase: name, ...extra, before, after, peakRssMb }) + '\n');
}

async function batchBench() {
  const ovir = await lib();
  const base = '/usr/share/libonnx-testdata/data';
  if (!existsSync(base)) return { skipped: `${base} not found (apt-get install libonnx-testdata)` };
  const out = mkdtempSync(join(tmpdir(), 'ovir-bench-batch-'));
  const jobs = availableParallelism();
  const t0 = performance.now();
  const report = await ovir.convertBatch([`${base}/{node,simple,pytorch-converted,pytorch-operator}/*/model.onnx`], { outDir: out, jobs, timeoutMs: 120_000 });
  const s = (performance.now() - t0) / 1000;
  const reasons = new Map();
  for (const m of report.models) {
    if (m.status !== 'failed') continue;
    const code = /\[([A-Z_]+)\]/.exec(m.error ?? '')?.[1] ?? (m.error ?? '').slice(0, 40);
    reasons.set(code, (reasons.get(code) ?? 0) + 1);
  }
  const back = mkdtempSync(join(tmpdir(), 'ovir-bench-back-'));
  const t1 = performance.now();
  const report2 = await ovir.convertBatch([out], { outDir: back, jobs, timeoutMs: 120_000 });
  const s2 = (performance.now() - t1) / 1000;
  if (!args.includes('--keep')) { rmSync(out, { recursive: true, force: true }); rmSync(back, { recursive: true, force: true }); }
  let roundtrip;
  if (args.includes('--roundtrip')) {
    // The round-trip testing mode: ONNX → IR → ONNX, equivalence-checked both ways, run in onnxruntime.
    const rt = mkdtempSync(join(tmpdir(), 'ovir-bench-rt-'));
    const t2 = performance.now();
    const r3 = await ovir.convertBatch([`${base}/{node,simple,pytorch-converted,pytorch-operator}/*/model.onnx`], { outDir: rt, jobs, timeoutMs: 120_000, check: true, roundtrip: true, run: true });
    const s3 = (performance.now() - t2) / 1000;
    rmSync(rt, { recursive: true, force: true });
    const checked = r3.models.filter((m) => m.check);
    const runs = checked.filter((m) => m.check.run);
    roundtrip = {
      total: r3.total, converted: r3.converted, failed: r3.failed, seconds: s3, modelsPerSecond: r3.total / s3,
      checked: checked.length,
      conversionContradictions: checked.filter((m) => m.check.conversion && !m.check.conversion.ok).length,
      roundtripContradictions: checked.filter((m) => m.check.roundtrip && !m.check.roundtrip.ok).length,
      runEqual: runs.filter((m) => m.check.run.ok && !m.check.run.skipped).length,
      runSkipped: runs.filter((m) => m.check.run.skipped).length,
      runDifferent: runs.filter((m) => !m.check.run.ok).map((m) => m.input.split('/').slice(-3, -1).join('/')),
    };
  }
  return {
    roundtrip,
    jobs,
    toIr: { total: report.total, converted: report.converted, failed: report.failed, seconds: s, modelsPerSecond: report.total / s, failureCodes: Object.fromEntries([...reasons].sort((a, b) => b[1] - a[1]).slice(0, 8)) },
    backToOnnx: { total: report2.total, converted: report2.converted, failed: report2.failed, seconds: s2, modelsPerSecond: report2.total / s2 },
  };
}

function runPhase(name, dir) {
  const r = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), '--phase', name, '--dir', dir, ...args], { encoding: 'utf8', maxBuffer: 16 * MB });
  const line = r.stdout.trim().split('\n').pop();
  if (r.status !== 0 || !line) return { phase: name, error: (r.stderr || r.stdout).trim().split('\n').slice(0, 3).join(' ') };
  return JSON.parse(line);
}

const f1 = (x) => (x === undefined ? '–' : x.toFixed(1));

function markdown(res) {
  const L = [];
  L.push('# ovir benchmarks', '', `Run: ${res.date} with \`npm run bench\` (compiled dist/, \`node --expose-gc\`).`, '');
  L.push('## Machine', '', `- ${res.machine.cpu} × ${res.machine.cores} (available parallelism ${res.machine.parallelism})`,
    `- ${f1(res.machine.memGb)} GB RAM, ${res.machine.os}`, `- Node ${res.machine.node}`, '');
  L.push('## Targets', '',
    '- **Weights are views**: decoding keeps every initializer/Const as a view into one file buffer — distinct backing buffers = 1 (ONNX) / 1 (.bin), backing bytes ≈ file size.',
    '- **Memory**: peak RSS of a decode ≤ file size + 400 MB (the graph of 50k nodes and the runtime), i.e. no second copy of the weights.',
    '- **Speed**: decode and encode of the 50k-node / 300 MB model each under 10 s; conversion under 20 s.',
    '- **Batch**: the whole backend test suite (≈1,100 models) converted ONNX → IR in under 3 minutes on 2 cores, and every failure reported with a code.', '');
  const syn = res.synthetic;
  if (syn) {
    L.push(`## Synthetic model (${syn.build?.nodes ?? '?'} nodes, ${f1(syn.build?.fileMb)} MB .onnx)`, '');
    L.push('| phase | time (ms) | peak RSS (MB) | RSS after (MB) | array buffers after (MB) | notes |', '|---|---:|---:|---:|---:|---|');
    for (const p of syn.phases) {
      if (p.error) { L.push(`| ${p.phase} | – | – | – | – | failed: ${p.error.replace(/\|/g, '\\|').slice(0, 200)} |`); continue; }
      const notes = [];
      if (p.distinctBuffers !== undefined) notes.push(`weights ${f1(p.weightMb)} MB in ${p.distinctBuffers} buffer(s) of ${f1(p.backingMb)} MB; files ${f1(p.fileMb)} MB`);
      if (p.loadMs !== undefined) notes.push(`after a ${f1(p.loadMs)} ms load`);
      if (p.convertMs !== undefined) notes.push(`conversion ${f1(p.convertMs)} ms`);
      L.push(`| ${p.phase} | ${f1(p.ms)} | ${f1(p.peakRssMb)} | ${f1(p.after?.rssMb)} | ${f1(p.after?.arrayBuffersMb)} | ${notes.join('; ')} |`);
    }
    L.push('');
  }
  const b = res.batch;
  if (b) {
    L.push('## Batch: ONNX backend test models', '');
    if (b.skipped) L.push(`skipped: ${b.skipped}`, '');
    else if (b.error) L.push(`failed: ${b.error}`, '');
    else {
      L.push(`${b.jobs} workers, \`convertBatch\` over /usr/share/libonnx-testdata/data/{node,simple,pytorch-converted,pytorch-operator}/*/model.onnx.`, '');
      L.push('| run | models | converted | failed | seconds | models/s |', '|---|---:|---:|---:|---:|---:|');
      L.push(`| ONNX → IR | ${b.toIr.total} | ${b.toIr.converted} | ${b.toIr.failed} | ${f1(b.toIr.seconds)} | ${f1(b.toIr.modelsPerSecond)} |`);
      L.push(`| those IRs → ONNX | ${b.backToOnnx.total} | ${b.backToOnnx.converted} | ${b.backToOnnx.failed} | ${f1(b.backToOnnx.seconds)} | ${f1(b.backToOnnx.modelsPerSecond)} |`, '');
      if (b.roundtrip) {
        const r = b.roundtrip;
        L.push(`| ONNX → IR → ONNX with \`--check --roundtrip --run\` | ${r.total} | ${r.converted} | ${r.failed} | ${f1(r.seconds)} | ${f1(r.modelsPerSecond)} |`, '');
        L.push(`Round-trip mode: ${r.checked} models converted and checked; ${r.conversionContradictions} with a contradiction in the conversion check, ${r.roundtripContradictions} in the round-trip check; onnxruntime: ${r.runEqual} equal outputs, ${r.runSkipped} not runnable on random inputs (skipped), ${r.runDifferent.length} different${r.runDifferent.length ? ` (${r.runDifferent.slice(0, 12).join(', ')}${r.runDifferent.length > 12 ? ', …' : ''})` : ''}. (Models counted as failed here include those.)`, '');
      }
      L.push('Most frequent failure codes (ONNX → IR): ' + Object.entries(b.toIr.failureCodes).map(([c, n]) => `${c} ${n}`).join(', '), '');
    }
  }
  return L.join('\n');
}

async function mainBench() {
  const only = opt('only', '');
  let previous = {};
  try { previous = JSON.parse(readFileSync(join(here, 'phases.json'), 'utf8')); } catch { /* first run */ }
  const res = {
    ...(only === 'batch' && previous.synthetic ? { synthetic: previous.synthetic } : {}),
    ...(only === 'synthetic' && previous.batch ? { batch: previous.batch } : {}),
    date: new Date().toISOString(),
    machine: { cpu: cpus()[0]?.model ?? '?', cores: cpus().length, parallelism: availableParallelism(), memGb: totalmem() / 1024 ** 3, freeGb: freemem() / 1024 ** 3, os: `${platform()} ${release()}`, node: process.version },
  };
  if (only !== 'batch') {
    const dir = mkdtempSync(join(tmpdir(), 'ovir-bench-'));
    try {
      const build = runPhase('build', dir);
      const phases = build.error ? [build] : ['onnx-decode', 'onnx-encode', 'convert', 'ir-encode', 'ir-decode'].map((p) => { process.stderr.write(`bench: ${p}\n`); return runPhase(p, dir); });
      res.synthetic = { build, phases };
    } finally {
      if (!args.includes('--keep')) rmSync(dir, { recursive: true, force: true });
    }
  }
  if (only !== 'synthetic') {
    process.stderr.write('bench: batch\n');
    try { res.batch = await batchBench(); } catch (e) { res.batch = { error: e instanceof Error ? e.message : String(e) }; }
  }
  mkdirSync(here, { recursive: true });
  writeFileSync(join(here, 'phases.json'), JSON.stringify(res, null, 2) + '\n');
  writeFileSync(join(here, 'PHASES.md'), markdown(res) + '\n');
  process.stdout.write(markdown(res) + '\n');
}

if (args.includes('--phase')) await phase(opt('phase'), opt('dir'));
else await mainBench();
