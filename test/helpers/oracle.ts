/**
 * The oracle: real engines (OpenVINO with ovc, onnx, python onnxruntime) in the project's .venv,
 * reached through ONE long-running bridge process (scripts/oracle.py) that speaks JSON lines.
 *
 *   const oracle = await Oracle.start();
 *   await oracle.ovc('m.onnx', 'out/m.xml');
 *   const outs = await oracle.runIr('out/m.xml', { x: { dtype: 'f32', shape: [2], data } });
 *   await oracle.close();
 *
 * Requests are answered in order; a request that fails rejects its promise with the engine's
 * message and leaves the bridge running. If the bridge itself dies (an engine crash) or a request
 * exceeds its time limit, the pending request rejects and the next request starts a fresh bridge.
 * `npm run oracle:setup` creates the venv; `oracleAvailable()` says whether it is there.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';

/**
 * A model's bytes into a hash: a file's (a Paddle .pdmodel's with its .pdiparams), or for a
 * directory (a TensorFlow SavedModel) every file under it with its path relative to the directory,
 * in sorted order.
 */
function hashModel(h: ReturnType<typeof createHash>, path: string): void {
  if (!statSync(path).isDirectory()) {
    h.update(readFileSync(path));
    const params = path.replace(/\.pdmodel$/, '.pdiparams');
    if (params !== path && existsSync(params)) h.update('\0pdiparams\0').update(readFileSync(params));
    return;
  }
  const walk = (d: string, rel: string): void => {
    for (const e of readdirSync(d).sort()) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) { walk(p, `${rel}${e}/`); continue; }
      h.update(`\0file ${rel}${e}\0`).update(readFileSync(p));
    }
  };
  walk(path, '');
}

/** A tensor as the engines see it: OpenVINO element type name, dims, raw little-endian bytes. */
export interface OracleTensor {
  dtype: string;
  shape: number[];
  data: Uint8Array;
  /** dtype 'string' only: each element's UTF-8 bytes (then `data` is empty). */
  strings?: Uint8Array[];
}

/** A dim as OpenVINO reports it: static size, interval `"a..b"` (`"a.."` unbounded), or null (any). */
export type OracleDim = number | string | null;

export interface OraclePort {
  names: string[];
  dtype: string;
  /** null: dynamic rank. */
  shape: OracleDim[] | null;
}

/** One output port of one op, as OpenVINO reads an IR. */
export interface OracleOpPort {
  /** The enclosing bodies: '' in the main graph, else `<layer name>/<then_body|else_body|body>/` per level. */
  path: string;
  /** The op's friendly name (the IR layer name). */
  node: string;
  /** The op type (Add, If…). */
  type: string;
  port: number;
  dtype: string;
  shape: OracleDim[] | null;
}

export interface OraclePartialShapes {
  inputs: OraclePort[];
  outputs: OraclePort[];
}

export interface OnnxInferredValue {
  name: string;
  kind: 'input' | 'value_info' | 'output';
  /** OpenVINO element type name (f32, i64, boolean…); for non-tensor types the ONNX kind (sequence_type…). */
  dtype: string;
  /** dims: number (dim_value), string (dim_param), null (unknown); null for unknown rank. */
  shape: (number | string | null)[] | null;
  /** Same as `shape`. */
  dims: (number | string | null)[] | null;
}

/** How ovc saves its IR. */
export interface OvcOptions {
  /** save_model's compress_to_fp16 (ovc's default is true); false when absent. */
  compressToFp16?: boolean;
}

export interface OracleVersions {
  openvino: string;
  onnx: string;
  onnxruntime: string;
  numpy: string;
  python: string;
  /** ai-edge-litert (TensorFlow Lite's runtime), or null where the venv has none. */
  litert: string | null;
}

export const REPO_ROOT = resolve(fileURLToPath(new URL('../../', import.meta.url)));
export const VENV_DIR = process.env.OVIR_ORACLE_VENV ?? join(REPO_ROOT, '.venv');
export const VENV_PYTHON = join(VENV_DIR, 'bin', 'python');
export const BRIDGE_SCRIPT = join(REPO_ROOT, 'scripts', 'oracle.py');
/** Where ovc's IR is cached (gitignored; OVIR_ORACLE_CACHE moves it), keyed by model hash + OpenVINO version. */
export const ORACLE_CACHE_DIR = process.env.OVIR_ORACLE_CACHE ?? join(REPO_ROOT, '.oracle', 'cache');

/** Whether the oracle venv (npm run oracle:setup) and the bridge script are in place. */
export function oracleAvailable(): boolean {
  const ok = existsSync(VENV_PYTHON) && existsSync(join(VENV_DIR, '.ovir-oracle-stamp')) && existsSync(BRIDGE_SCRIPT);
  // A developer's machine may lack the venv (engine checks in unit files skip); CI never: there a
  // missing engine fails loudly instead of skipping every check that needs it.
  if (!ok && process.env['CI']) throw new Error(`CI: the oracle venv (${VENV_DIR}) is missing: run scripts/setup-oracle.sh (.ci/run does)`);
  return ok;
}

/**
 * A limit of this harness (the bridge or onnxruntime-node cannot hand a tensor to an engine, an
 * input cannot be matched to a port): never an engine's verdict. Suites record it as `unjudged`.
 */
export class HarnessLimit extends Error {
  constructor(message: string) {
    super(message.startsWith('HarnessLimit: ') ? message : `HarnessLimit: ${message}`);
    this.name = 'HarnessLimit';
  }
}

/** An answer of an engine behind the bridge (it raised): a real verdict, unlike a bridge crash or timeout. */
export class EngineError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EngineError';
  }
}

/** Whether an error is a harness limit (from this process or reported by the bridge). */
export function isHarnessLimit(e: unknown): boolean {
  return e instanceof HarnessLimit || (e instanceof Error && /^HarnessLimit: /.test(e.message));
}

interface WireTensor {
  dtype: string;
  shape: number[];
  b64?: string;
  strings_b64?: string[];
}

interface WireOutput {
  index: number;
  names: string[];
  tensor: WireTensor;
}

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
  proc: ChildProcessWithoutNullStreams;
}

const DEFAULT_TIMEOUT_MS = 300_000;

function toWire(t: OracleTensor): WireTensor {
  if (t.dtype === 'string') {
    return { dtype: t.dtype, shape: [...t.shape], strings_b64: (t.strings ?? []).map((s) => Buffer.from(s).toString('base64')) };
  }
  return { dtype: t.dtype, shape: [...t.shape], b64: Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength).toString('base64') };
}

/** Request tensors by name (or `#<index>`), as the bridge reads them. */
function wireInputs(inputs: Record<string, OracleTensor>): Record<string, WireTensor> {
  const wire: Record<string, WireTensor> = {};
  for (const [k, v] of Object.entries(inputs)) wire[k] = toWire(v);
  return wire;
}

function fromWire(w: WireTensor): OracleTensor {
  if (w.dtype === 'string') {
    return { dtype: 'string', shape: w.shape, data: new Uint8Array(0), strings: (w.strings_b64 ?? []).map((s) => new Uint8Array(Buffer.from(s, 'base64'))) };
  }
  return { dtype: w.dtype, shape: w.shape, data: new Uint8Array(Buffer.from(w.b64 ?? '', 'base64')) };
}

/** Outputs keyed by every tensor name of each output port, and by `#<index>`. */
function outputsRecord(outs: WireOutput[]): Record<string, OracleTensor> {
  const rec: Record<string, OracleTensor> = {};
  for (const o of outs) {
    const t = fromWire(o.tensor);
    rec[`#${o.index}`] = t;
    for (const n of o.names) rec[n] = t;
  }
  return rec;
}

export class Oracle {
  private proc: ChildProcessWithoutNullStreams | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private stderrTail: string[] = [];
  private closing = false;
  /** Engine versions reported by the bridge at start. */
  versions!: OracleVersions;

  private constructor(private readonly timeoutMs: number) {}

  /** Starts the bridge and waits until the engines are importable. */
  static async start(opts: { timeoutMs?: number } = {}): Promise<Oracle> {
    if (!oracleAvailable()) {
      throw new Error(`oracle venv missing at ${VENV_DIR}: run \`npm run oracle:setup\``);
    }
    const o = new Oracle(opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    o.versions = (await o.request('hello', {})) as OracleVersions;
    return o;
  }

  /** Runs IR on OpenVINO CPU (f32, accuracy mode). Inputs by tensor name, `#<index>`, else by position (one tensor per input). */
  async runIr(xmlPath: string, inputs: Record<string, OracleTensor>): Promise<Record<string, OracleTensor>> {
    const wire = wireInputs(inputs);
    const r = (await this.request('run_ir', { xml: resolve(xmlPath), inputs: wire })) as { outputs: WireOutput[] };
    return outputsRecord(r.outputs);
  }

  /**
   * openvino.convert_model + save_model: writes outXml and its .bin; `inputShapes` fixes inputs as
   * `ovc --input` does. compress_to_fp16=False unless `opts.compressToFp16` (ovc's own default: every
   * f32 constant an f16 Const and a Convert with rt_info `decompression`).
   */
  async ovc(onnxPath: string, outXml: string, inputShapes?: Record<string, number[]>, opts: OvcOptions = {}): Promise<void> {
    await this.request('ovc', {
      onnx: resolve(onnxPath), out_xml: resolve(outXml), ...(inputShapes ? { input_shapes: inputShapes } : {}),
      ...(opts.compressToFp16 ? { compress_to_fp16: true } : {}),
    });
  }

  /** Element types and partial shapes of an IR's inputs and outputs as OpenVINO reads them. */
  async partialShapes(xmlPath: string): Promise<OraclePartialShapes> {
    return (await this.request('partial_shapes', { xml: resolve(xmlPath) })) as OraclePartialShapes;
  }

  /** Element type and partial shape of every output port of every op as OpenVINO reads the IR, bodies included (path `If_3/then_body/`). */
  async portShapes(xmlPath: string): Promise<{ ports: OracleOpPort[] }> {
    return (await this.request('port_shapes', { xml: resolve(xmlPath) })) as { ports: OracleOpPort[] };
  }

  /** onnx.shape_inference.infer_shapes(data_prop=True): graph inputs, value_info and outputs. */
  async onnxInferShapes(onnxPath: string): Promise<{ values: OnnxInferredValue[] }> {
    return (await this.request('onnx_infer_shapes', { onnx: resolve(onnxPath) })) as { values: OnnxInferredValue[] };
  }

  /** onnx.checker.check_model(full_check=True). Never rejects for a checker verdict. */
  async onnxCheck(onnxPath: string): Promise<{ ok: boolean; error?: string }> {
    return (await this.request('onnx_check', { onnx: resolve(onnxPath) })) as { ok: boolean; error?: string };
  }

  /** Python onnxruntime (CPU), a second opinion to onnxruntime-node. Inputs by name, `#<index>`, else by position. */
  async runOrt(onnxPath: string, inputs: Record<string, OracleTensor>): Promise<Record<string, OracleTensor>> {
    const wire = wireInputs(inputs);
    const r = (await this.request('run_ort', { onnx: resolve(onnxPath), inputs: wire })) as { outputs: WireOutput[] };
    return outputsRecord(r.outputs);
  }

  /**
   * onnx's reference evaluator (onnx.reference): expected values independent of both engines. With
   * `f64`, the model's f32/f16 arithmetic evaluated in f64 (outputs in their declared types).
   */
  async runOnnxReference(onnxPath: string, inputs: Record<string, OracleTensor>, opts: { f64?: boolean } = {}): Promise<Record<string, OracleTensor>> {
    const wire = wireInputs(inputs);
    const r = (await this.request('run_onnx_reference', { onnx: resolve(onnxPath), inputs: wire, ...(opts.f64 ? { f64: true } : {}) })) as { outputs: WireOutput[] };
    return outputsRecord(r.outputs);
  }

  /** LiteRT (TensorFlow Lite's runtime) on a .tflite model: outputs by tensor name and `#<index>`. */
  async runTflite(tflitePath: string, inputs: Record<string, OracleTensor>): Promise<Record<string, OracleTensor>> {
    const wire = wireInputs(inputs);
    const r = (await this.request('run_tflite', { tflite: resolve(tflitePath), inputs: wire })) as { outputs: WireOutput[] };
    return outputsRecord(r.outputs);
  }

  /**
   * ovc through a cache (.oracle/cache/<sha256 of model + OpenVINO version>/model.xml): returns the
   * cached IR path, or rejects with ovc's message. Only real verdicts of ovc are cached (an IR, or
   * ovc's own clean failure); a bridge crash, a timeout or a harness limit is not, so the next run
   * asks ovc again.
   */
  async ovcCached(onnxPath: string, inputShapes?: Record<string, number[]>, opts: OvcOptions = {}): Promise<string> {
    const h = createHash('sha256');
    hashModel(h, onnxPath);
    h.update(`\0openvino ${this.versions.openvino}`);
    if (inputShapes) h.update(`\0input ${JSON.stringify(Object.entries(inputShapes).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))}`);
    if (opts.compressToFp16) h.update('\0compress_to_fp16'); // absent for f32 IRs: their cache keys stay as they were
    const dir = join(ORACLE_CACHE_DIR, h.digest('hex').slice(0, 32));
    const xml = join(dir, 'model.xml');
    const failed = join(dir, 'ovc-error.txt');
    if (existsSync(join(dir, 'done'))) {
      if (existsSync(failed)) throw new EngineError(readFileSync(failed, 'utf8'));
      return xml;
    }
    const tmp = `${dir}.tmp-${process.pid}-${this.nextId}`;
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(tmp, { recursive: true });
    let error: string | null = null;
    try {
      await this.ovc(onnxPath, join(tmp, 'model.xml'), inputShapes, opts);
    } catch (e) {
      if (!(e instanceof EngineError)) { rmSync(tmp, { recursive: true, force: true }); throw e; }
      error = e.message;
      writeFileSync(join(tmp, 'ovc-error.txt'), error);
    }
    writeFileSync(join(tmp, 'done'), '');
    mkdirSync(dirname(dir), { recursive: true });
    try {
      renameSync(tmp, dir);
    } catch {
      rmSync(tmp, { recursive: true, force: true }); // another process cached it first
    }
    if (error !== null) throw new EngineError(error);
    return xml;
  }

  /** Ends the bridge; pending requests reject. */
  async close(): Promise<void> {
    this.closing = true;
    const p = this.proc;
    this.proc = null;
    if (!p || p.exitCode !== null) return;
    await new Promise<void>((res) => {
      p.once('exit', () => res());
      p.stdin.end();
      setTimeout(() => { if (p.exitCode === null) p.kill('SIGKILL'); }, 5_000).unref();
    });
  }

  private ensure(): ChildProcessWithoutNullStreams {
    if (this.proc && this.proc.exitCode === null) return this.proc;
    const p = spawn(VENV_PYTHON, [BRIDGE_SCRIPT], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, PYTHONUNBUFFERED: '1', OPENVINO_LOG_LEVEL: process.env.OPENVINO_LOG_LEVEL ?? '1' },
    });
    this.proc = p;
    this.stderrTail = [];
    createInterface({ input: p.stdout }).on('line', (line) => this.onLine(line));
    createInterface({ input: p.stderr }).on('line', (line) => {
      if (process.env.OVIR_ORACLE_DEBUG) process.stderr.write(`[oracle] ${line}\n`);
      this.stderrTail.push(line);
      if (this.stderrTail.length > 20) this.stderrTail.shift();
    });
    p.on('exit', (code, signal) => {
      if (this.proc === p) this.proc = null;
      const why = `oracle bridge exited (${signal ?? `code ${code}`})${this.stderrTail.length ? `: ${this.stderrTail.slice(-5).join(' | ')}` : ''}`;
      this.failAll(p, why);
    });
    p.on('error', (e) => this.failAll(p, `oracle bridge failed to start: ${e.message}`));
    return p;
  }

  private failAll(p: ChildProcessWithoutNullStreams, why: string): void {
    for (const [id, pend] of this.pending) {
      if (pend.proc !== p) continue;
      clearTimeout(pend.timer);
      this.pending.delete(id);
      pend.reject(new Error(why));
    }
  }

  private onLine(line: string): void {
    let msg: { id: number; result?: unknown; error?: string };
    try {
      msg = JSON.parse(line);
    } catch {
      this.stderrTail.push(`(stdout) ${line}`);
      return;
    }
    const pend = this.pending.get(msg.id);
    if (!pend) return;
    this.pending.delete(msg.id);
    clearTimeout(pend.timer);
    if (msg.error !== undefined) pend.reject(/^HarnessLimit: /.test(msg.error) ? new HarnessLimit(msg.error) : new EngineError(msg.error));
    else pend.resolve(msg.result);
  }

  private request(op: string, body: Record<string, unknown>): Promise<unknown> {
    if (this.closing) return Promise.reject(new Error('oracle request after close()'));
    const p = this.ensure();
    const id = this.nextId++;
    return new Promise((resolveP, rejectP) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        rejectP(new Error(`oracle request ${op} timed out after ${this.timeoutMs} ms`));
        // The bridge is stuck in an engine: end it; the next request starts a fresh one.
        if (this.proc === p) this.proc = null;
        p.kill('SIGKILL');
      }, this.timeoutMs);
      this.pending.set(id, { resolve: resolveP, reject: rejectP, timer, proc: p });
      p.stdin.write(`${JSON.stringify({ id, op, ...body })}\n`);
    });
  }
}

/** A reproducible f32 tensor of `shape`, values in [-2, 2) from a linear congruential generator seeded by `seed`. */
export function seededF32(shape: number[], seed: number): OracleTensor {
  let s = seed * 2654435761 >>> 0;
  const n = shape.reduce((a, b) => a * b, 1);
  const data = new Uint8Array(n * 4);
  const dv = new DataView(data.buffer);
  for (let i = 0; i < n; i++) { s = (s * 1103515245 + 12345) >>> 0; dv.setFloat32(i * 4, (s / 2 ** 32) * 4 - 2, true); }
  return { dtype: 'f32', shape, data };
}

/**
 * The engines and a temp folder for one test file: the oracle started and the folder made (named
 * `prefix…` under the system temp folder) before the file's tests, closed and removed after.
 * Read `oracle` and `tmp` inside tests (they exist only once beforeAll ran).
 */
export function useOracle(prefix: string): { readonly oracle: Oracle; readonly tmp: string } {
  let oracle: Oracle | undefined;
  let tmp = '';
  beforeAll(async () => {
    oracle = await Oracle.start();
    tmp = mkdtempSync(join(tmpdir(), prefix));
  });
  afterAll(async () => {
    await oracle?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });
  return {
    get oracle(): Oracle {
      if (!oracle) throw new Error('the oracle is started by beforeAll: read it inside a test');
      return oracle;
    },
    get tmp(): string {
      if (!tmp) throw new Error('the temp folder is made by beforeAll: read it inside a test');
      return tmp;
    },
  };
}
