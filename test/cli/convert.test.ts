import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { allGraphs, allNodes, tensorFromFloat32, tensorType, type Model } from '../../src/graph/index.js';
import { loadModel, saveModel } from '../../src/io/load.js';
import { Builder } from '../convert/builder.js';
import { seedExample } from '../convert/fixtures.js';
import { runCli } from './run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'ovir-cli-convert-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const repo = join(import.meta.dirname, '../..');

/** The bundled sample ovc users would try first: inputs cond boolean[], x, z, w f32[2,4]; output y. */
function seed(name: string): string {
  const b = new Builder('onnx');
  seedExample(b);
  const p = join(dir, name);
  saveModel(b.model, p);
  return p;
}

/**
 * ONNX with two outputs and a weight each: a = Add(x, wa); m = Mul(x, wb); b = Relu(m).
 * x f32[2,3].
 */
function twoOutputs(name: string): string {
  const b = new Builder('onnx');
  const x = b.input('x', 'f32', [2, 3]);
  const wa = b.init('wa', tensorFromFloat32([1, 2, 3], [3]));
  const wb = b.init('wb', tensorFromFloat32([4, 5, 6], [3]));
  b.output(b.op(b.graph, 'Add', [x, wa], 'a'));
  const m = b.op(b.graph, 'Mul', [x, wb], 'm');
  b.output(b.op(b.graph, 'Relu', [m], 'b'));
  const p = join(dir, name);
  saveModel(b.model, p);
  return p;
}

/** Runs `fn` with the working directory set to `cwd` (ovc writes there by default). */
async function inDir<T>(cwd: string, fn: () => Promise<T>): Promise<T> {
  const old = process.cwd();
  process.chdir(cwd);
  try { return await fn(); } finally { process.chdir(old); }
}

const inputShapes = (m: Model) => Object.fromEntries(m.graph.inputs.map((v) => [v.name, v.type?.kind === 'tensor' ? v.type.shape : 'untyped']));

describe('ovir convert speaks ovc', () => {
  it('INPUT_MODEL alone writes ./<stem>.xml + .bin (./<stem>.onnx from IR) and prints the files as ovc does', async () => {
    const src = seed('first.onnx');
    const cwd = join(dir, 'cwd');
    mkdirSync(cwd);
    const r = await inDir(cwd, () => runCli('convert', src));
    expect(r.code).toBe(0);
    const xml = resolve(cwd, 'first.xml');
    expect(r.stdout).toBe(`[ SUCCESS ] XML file: ${xml}\n[ SUCCESS ] BIN file: ${resolve(cwd, 'first.bin')}\n`);
    expect(loadModel(xml).dialect).toBe('ov');
    const back = await inDir(cwd, () => runCli('convert', 'first.xml'));
    expect(back.code).toBe(0);
    expect(back.stdout).toBe(`[ SUCCESS ] ONNX file: ${resolve(cwd, 'first.onnx')}\n`);
    expect(loadModel(join(cwd, 'first.onnx')).dialect).toBe('onnx');
  });

  it('`ovir INPUT_MODEL …` is `ovir convert INPUT_MODEL …`, as ovc is called; a first argument that is no command and no model is a usage error', async () => {
    const src = seed('shorthand.onnx');
    const out = join(dir, 'shorthand-out.xml');
    const r = await runCli(src, '--output_model', out);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`[ SUCCESS ] XML file: ${out}\n[ SUCCESS ] BIN file: ${join(dir, 'shorthand-out.bin')}\n`);
    expect(loadModel(out).dialect).toBe('ov');
    const bad = await runCli(join(dir, 'notes.txt'));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("unknown command");
    // another framework's model: converted as ovc would be asked to, and refused saying what it is
    const tflite = await runCli(join(dir, 'model.tflite'));
    expect(tflite.code).toBe(1);
    expect(tflite.stderr).toContain('it is TensorFlow Lite; ovir reads ONNX and OpenVINO IR only (ovc reads it, or export it to ONNX first) [FILE_UNKNOWN_FORMAT]');
  });

  it('--verbose prints each step with its time, the nodes before and after, the files and the peak memory (stderr); stdout stays ovc\'s', async () => {
    const src = seed('verbose.onnx');
    const out = join(dir, 'verbose.xml');
    const r = await runCli('convert', src, '-o', out, '--verbose');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`[ SUCCESS ] XML file: ${out}\n[ SUCCESS ] BIN file: ${join(dir, 'verbose.bin')}\n`);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(new RegExp(`^ovir: read ${src.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: ONNX, \\d+ nodes in 3 graphs \\(the main graph and 2 bodies\\), in \\d+\\.\\d\\d s$`));
    expect(lines[1]).toMatch(/^ovir: converted to OpenVINO IR: \d+ layers in 3 graphs \(the main graph and 2 bodies\), in \d+\.\d\d s$/);
    expect(lines[2]).toMatch(/^ovir: wrote .*verbose\.xml \([\d.]+ KB\) and .*verbose\.bin \(\d+ B\) in \d+\.\d\d s$/);
    expect(lines[3]).toMatch(/^ovir: peak memory [\d.]+ MB$/);
    // without it, nothing on stderr
    expect((await runCli('convert', src, '-o', out)).stderr).toBe('');
  });

  it("ovc's --extension and --dynamo: a usage error (2) saying why they do not apply, nothing written", async () => {
    const src = seed('ext.onnx');
    const out = join(dir, 'ext.xml');
    const r = await runCli('convert', src, '-o', out, '--extension', 'libcustom.so', '--dynamo');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--extension libcustom.so: ovir has no frontend extensions');
    expect(r.stderr).toContain("--dynamo: ovc's option for PyTorch models");
    expect(existsSync(out)).toBe(false);
  });

  it('--output_model is a file or a directory, as ovc means it; -o and --output-model are the same option', async () => {
    const src = seed('m.onnx');
    const out = join(dir, 'outdir');
    mkdirSync(out);
    expect((await runCli('convert', src, '--output_model', out)).code).toBe(0);
    expect(existsSync(join(out, 'm.xml')) && existsSync(join(out, 'm.bin'))).toBe(true);
    expect((await runCli('convert', src, '--output_model', join(dir, 'fresh') + '/')).code).toBe(0); // a directory not made yet
    expect(existsSync(join(dir, 'fresh', 'm.xml'))).toBe(true);
    expect((await runCli('convert', src, '--output_model', join(dir, 'named'))).code).toBe(0); // no extension: .xml appended, as ovc
    expect(existsSync(join(dir, 'named.xml')) && existsSync(join(dir, 'named.bin'))).toBe(true);
    expect((await runCli('convert', src, '--output-model', join(dir, 'kebab.xml'))).code).toBe(0);
    expect((await runCli('convert', src, '-o', join(dir, 'short.onnx'))).code).toBe(2); // ONNX → ONNX: nothing to convert
    expect((await runCli('convert', join(dir, 'kebab.xml'), '-o', join(dir, 'k.onnx'))).code).toBe(0);
  });

  it('--input takes ovc\'s comma list: named, positional, ? and -1, ranges, scalars', async () => {
    const src = seed('shapes.onnx');
    const named = join(dir, 'named-in.xml');
    expect((await runCli('convert', src, '-o', named, '--input', 'x[2,?],w[2,1..10]')).code).toBe(0);
    expect(inputShapes(loadModel(named))).toMatchObject({ cond: [], x: [2, null], z: [2, 4], w: [2, { min: 1, max: 10 }] });
    const positional = join(dir, 'pos-in.xml');
    expect((await runCli('convert', src, '-o', positional, '--input', '[],[2 -1],[2,4],[..4,4]')).code).toBe(0);
    expect(inputShapes(loadModel(positional))).toMatchObject({ cond: [], x: [2, null], z: [2, 4], w: [{ min: 0, max: 4 }, 4] });
    // Named inputs come first, in the order given (ovc's rule); the others keep their order.
    const ordered = join(dir, 'ordered.onnx');
    expect((await runCli('convert', named, '-o', ordered, '--input', 'w,x[2,4]')).code).toBe(0);
    expect(loadModel(ordered).graph.inputs.map((v) => v.name)).toEqual(['w', 'x', 'cond', 'z']);
  });

  it('--input problems: malformed or mixed is a usage error (2); a dim past 2^53 too; an input the model lacks is a model problem (1) naming its inputs', async () => {
    const src = seed('bad-in.onnx');
    const out = join(dir, 'bad-in.xml');
    for (const bad of ['x[2,4', 'x[2,4]]', 'x[a-b]', 'x[2,4],[2,4]', 'x[1],x[2]', 'x[99999999999999999999,4]', 'x[2,1..9007199254740993]']) {
      const r = await runCli('convert', src, '-o', out, '--input', bad);
      expect(r.code, bad).toBe(2);
      expect(r.stderr, bad).toMatch(/^ovir: --input /);
    }
    const r = await runCli('convert', src, '-o', out, '--input', 'nope[1]');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/the model has no input named 'nope' \(its inputs: 'cond', 'x', 'z', 'w'\) \[CONVERT_BAD_OPTION\]/);
    expect((await runCli('convert', src, '-o', out, '--input', '[],[2,4],[2,4],[2,4],[1]')).code).toBe(1); // 5 items, 4 inputs
    expect(existsSync(out)).toBe(false);
  });

  it('an --input of another rank is one error, not a cascade of shape errors', async () => {
    const src = seed('rank.onnx');
    const r = await runCli('convert', src, '-o', join(dir, 'rank.xml'), '--input', 'x[1,2,4]');
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual([
      `error: ${src}: main: --input x[1,2,4]: input 'x' is declared [2,4] (rank 2), the override has rank 3; an override must keep the rank [CONVERT_BAD_OPTION]`,
    ]);
  });

  it('--output a,b keeps only those outputs, in that order, and removes what no longer feeds them', async () => {
    const src = twoOutputs('two.onnx');
    const onlyB = join(dir, 'only-b.xml');
    expect((await runCli('convert', src, '-o', onlyB, '--output', 'b')).code).toBe(0);
    const ir = loadModel(onlyB);
    expect(ir.graph.outputs.map((v) => v.names[0])).toEqual(['b']);
    expect(ir.graph.nodes.map((n) => n.op)).toEqual(['Multiply', 'Relu']);
    expect(ir.graph.initializers).toHaveLength(1); // wb; wa fed only a
    const swapped = join(dir, 'b-a.xml');
    expect((await runCli('convert', src, '-o', swapped, '--output', 'b,a')).code).toBe(0);
    expect(loadModel(swapped).graph.outputs.map((v) => v.names[0])).toEqual(['b', 'a']);
    const cut = join(dir, 'cut.onnx');
    expect((await runCli('convert', onlyB, '-o', cut, '--output', 'm')).code).toBe(0); // an inner tensor: the model is cut there
    const back = loadModel(cut);
    expect(back.graph.outputs.map((v) => v.name)).toEqual(['m']);
    expect(back.graph.nodes.map((n) => n.op)).toEqual(['Mul']);
    const r = await runCli('convert', src, '-o', join(dir, 'none.xml'), '--output', 'b,zz');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/--output zz: the model has no tensor named 'zz' \(its outputs: 'a', 'b'\) \[CONVERT_BAD_OPTION\]/);
  });

  it('--compress_to_fp16[=True|False] is accepted beside --compress-to-fp16', async () => {
    const src = twoOutputs('fp16.onnx');
    const elems = (p: string) => loadModel(p).graph.initializers.map((v) => v.constant?.elem);
    for (const [args, elem] of [[['--compress_to_fp16=True'], 'f16'], [['--compress_to_fp16'], 'f16'], [['--compress_to_fp16=False'], 'f32'], [['--compress-to-fp16'], 'f16']] as const) {
      const out = join(dir, `fp16-${args.join('')}.xml`);
      expect((await runCli('convert', src, '-o', out, ...args)).code, args.join(' ')).toBe(0);
      expect(new Set(elems(out)), args.join(' ')).toEqual(new Set([elem]));
    }
    expect((await runCli('convert', src, '-o', join(dir, 'x.xml'), '--compress_to_fp16=maybe')).code).toBe(2);
  });
});

describe('one exit-code contract: 0 ok, 1 model problem, 2 usage', () => {
  it('`ovir` alone prints usage and exits 2', async () => {
    const r = await runCli();
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^Usage: ovir /);
  });

  it('--compress-to-fp16 with an ONNX target, an unknown output extension, a malformed --input: 2, nothing written', async () => {
    const src = seed('codes.onnx');
    expect((await runCli('convert', src, '-o', join(dir, 'codes.xml'))).code).toBe(0);
    const onnx = join(dir, 'codes-back.onnx');
    const r = await runCli('convert', join(dir, 'codes.xml'), '-o', onnx, '--compress-to-fp16');
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toMatch(/--compress-to-fp16 applies to OpenVINO IR outputs only/);
    expect(existsSync(onnx)).toBe(false);
    expect((await runCli('convert', src, '-o', join(dir, 'codes.txt'))).code).toBe(2);
    expect((await runCli('convert', src, '-o', join(dir, 'codes2.xml'), '--input', 'x[2,4')).code).toBe(2);
    expect((await runCli('convert', join(dir, 'missing.onnx'), '-o', join(dir, 'm.xml'))).code).toBe(1);
    expect((await runCli('convert', src, '--no-such-option')).code).toBe(2);
  });
});

describe('diagnostics grouped, one line per cause; every one in --json', () => {
  it('an .xml without its .bin: IR_BIN_MISSING once with the count of Const layers', async () => {
    const src = twoOutputs('weights.onnx');
    const xml = join(dir, 'nobin.xml');
    expect((await runCli('convert', src, '-o', xml)).code).toBe(0);
    rmSync(join(dir, 'nobin.bin'));
    const r = await runCli('convert', xml, '-o', join(dir, 'nobin.onnx'));
    expect(r.code).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/needs weights, but there is no \.bin .* \[IR_BIN_MISSING\] … and 1 more Const layer$/);
    const j = await runCli('convert', xml, '-o', join(dir, 'nobin.onnx'), '--json');
    expect(j.code).toBe(1);
    const doc = JSON.parse(j.stdout) as { ok: boolean; diagnostics: { code: string; file: string }[] };
    expect(doc.ok).toBe(false);
    expect(doc.diagnostics.map((d) => d.code)).toEqual(['IR_BIN_MISSING', 'IR_BIN_MISSING']);
  });

  it('an unsupported op on many nodes: one line per op with the count of the rest', async () => {
    const b = new Builder('onnx');
    const x = b.input('x', 'f32', [2]);
    let v = x;
    for (let i = 0; i < 5; i++) v = b.op(b.graph, 'Frobnicate', [v], `f${i}`);
    b.output(b.op(b.graph, 'Gizmo', [v], 'y'));
    const src = join(dir, 'many.onnx');
    saveModel(b.model, src);
    const r = await runCli('convert', src, '-o', join(dir, 'many.xml'));
    expect(r.code).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/main\/Frobnicate#\d+: Frobnicate \(ONNX 17\) has no conversion to OpenVINO IR \[CONVERT_UNSUPPORTED_OP\] … and 4 more nodes of op Frobnicate$/);
    expect(lines[1]).toMatch(/Gizmo .*\[CONVERT_UNSUPPORTED_OP\]$/);
    const j = JSON.parse((await runCli('convert', src, '-o', join(dir, 'many.xml'), '--json')).stdout) as { diagnostics: unknown[] };
    expect(j.diagnostics).toHaveLength(6);
  });
});

describe('no noise in the ONNX ovir writes', () => {
  /** IR: y = Add(x, w), plus a Const nothing reads. */
  function irWithUnreadConst(): string {
    const b = new Builder('ov');
    const x = b.input('x', 'f32', [2]);
    const w = b.init('w', tensorFromFloat32([1, 2]));
    b.init('unread', tensorFromFloat32([7, 8, 9]));
    const y = b.op(b.graph, 'Add', [x, w], 'y');
    y.type = tensorType('f32', [2]);
    b.output(y);
    b.graph.meta['resultNames'] = ['y/sink_port_0'];
    const p = join(dir, 'unread.xml');
    saveModel(b.model, p);
    return p;
  }

  it('no initializer nothing reads, in any graph; onnxruntime loads the file without warnings', async () => {
    const xml = irWithUnreadConst();
    expect(loadModel(xml).graph.initializers).toHaveLength(2);
    const onnx = join(dir, 'unread.onnx');
    expect((await runCli('convert', xml, '-o', onnx)).code).toBe(0);
    const m = loadModel(onnx);
    for (const g of allGraphs(m.graph)) {
      for (const v of g.initializers) expect(v.uses.length > 0 || g.outputs.includes(v), v.name).toBe(true);
    }
    expect(m.graph.initializers.map((v) => v.name)).toEqual(['w']);
    // onnxruntime's default log level prints a warning per unused initializer at every load.
    const ort = spawnSync(process.execPath, ['-e', `
      const ort = require(${JSON.stringify(join(repo, 'node_modules/onnxruntime-node'))});
      ort.InferenceSession.create(${JSON.stringify(onnx)}).then(() => console.log('loaded'), (e) => { console.error(String(e)); process.exit(3); });
    `], { encoding: 'utf8' });
    expect(ort.stdout.trim()).toBe('loaded');
    expect(ort.stderr).toBe('');
  });

  it('--output leaves no value_info or initializer of what it removed', async () => {
    const src = twoOutputs('vi.onnx');
    const xml = join(dir, 'vi.xml');
    expect((await runCli('convert', src, '-o', xml)).code).toBe(0);
    const onnx = join(dir, 'vi-b.onnx');
    expect((await runCli('convert', xml, '-o', onnx, '--output', 'b')).code).toBe(0);
    const m = loadModel(onnx);
    expect([...allNodes(m.graph)].map((n) => n.op)).toEqual(['Mul', 'Relu']);
    expect(m.graph.initializers).toHaveLength(1);
    expect(m.graph.nodes.flatMap((n) => n.outputs).map((v) => v.name)).not.toContain('a');
  });
});

describe('install: plain npm ci needs no environment variable', () => {
  it('.npmrc sets onnxruntime-node\'s documented install switch, and npm reads it from the project', () => {
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(ONNXRUNTIME_NODE_INSTALL|npm_config_onnxruntime)/i.test(k)));
    const npm = spawnSync('npm', ['config', 'get', 'onnxruntime-node-install'], { cwd: repo, env, encoding: 'utf8' });
    expect(npm.stdout.trim()).toBe('skip');
    // The install script reads that config as npm passes it to scripts, and then downloads nothing.
    const flag = spawnSync(process.execPath, ['-e', `
      process.stdout.write(String(require(${JSON.stringify(join(repo, 'node_modules/onnxruntime-node/script/install-utils.js'))}).parseInstallFlag()));
    `], { env: { ...env, npm_config_onnxruntime_node_install: npm.stdout.trim() }, encoding: 'utf8' });
    expect(flag.stdout).toBe('false');
  });

  it('CI and the README do not need ONNXRUNTIME_NODE_INSTALL; LICENSE is the Apache-2.0 text package.json names', async () => {
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(join(repo, '.ci/run'), 'utf8')).not.toMatch(/ONNXRUNTIME_NODE_INSTALL/);
    expect(readFileSync(join(repo, 'README.md'), 'utf8')).not.toMatch(/ONNXRUNTIME_NODE_INSTALL/);
    expect(JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).license).toBe('Apache-2.0');
    const license = readFileSync(join(repo, 'LICENSE'), 'utf8');
    expect(license).toMatch(/Apache License\s+Version 2\.0, January 2004/);
    expect(license).toMatch(/END OF TERMS AND CONDITIONS/);
  });
});

