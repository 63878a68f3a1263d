/**
 * ONNX backend test cases: model.onnx plus test_data_set_K/{input_N,output_N}.pb, from
 *  - `libonnx`: Debian's libonnx-testdata, /usr/share/libonnx-testdata/data/{node,simple,pytorch-converted,pytorch-operator}
 *    (override the root with OVIR_ONNX_TESTDATA);
 *  - `onnx`: the oracle venv's onnx wheel, onnx/backend/test/data/{node,simple,pytorch-converted,pytorch-operator},
 *    and its node cases (newest opsets) written by scripts/gen-onnx-node-data.py to .venv/onnx-backend-data/node.
 * A case of the `onnx` source whose model and data are byte-identical to a `libonnx` case is left out.
 * Tensors are decoded with our own TensorProto decoder (src/onnx).
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { decodeTensorProto } from '../../src/onnx/tensor-proto.js';
import { VENV_DIR, type OracleTensor } from './oracle.js';

export const LIBONNX_DATA = process.env.OVIR_ONNX_TESTDATA ?? '/usr/share/libonnx-testdata/data';
export const BACKEND_SETS = ['node', 'simple', 'pytorch-converted', 'pytorch-operator'] as const;
export type BackendSet = (typeof BACKEND_SETS)[number];

export interface BackendCase {
  /** `libonnx/node/test_add`, `onnx/node/test_if` */
  name: string;
  source: 'libonnx' | 'onnx';
  set: BackendSet;
  dir: string;
  model: string;
  /** test_data_set_* directories, sorted. */
  dataSets: string[];
}

export interface NamedTensor {
  /** The TensorProto's name ('' when the file has none). */
  name: string;
  tensor: OracleTensor;
}

export interface TestDataSet {
  dir: string;
  inputs: NamedTensor[];
  outputs: NamedTensor[];
}

function onnxWheelData(): string | null {
  const lib = join(VENV_DIR, 'lib');
  if (!existsSync(lib)) return null;
  for (const py of readdirSync(lib).filter((d) => d.startsWith('python')).sort()) {
    const d = join(lib, py, 'site-packages', 'onnx', 'backend', 'test', 'data');
    if (existsSync(d)) return d;
  }
  return null;
}

/** Directories holding `<set>/<case>/model.onnx`, per source. */
export function backendRoots(): { source: BackendCase['source']; root: string }[] {
  const roots: { source: BackendCase['source']; root: string }[] = [];
  if (existsSync(LIBONNX_DATA)) roots.push({ source: 'libonnx', root: LIBONNX_DATA });
  const wheel = onnxWheelData();
  if (wheel) roots.push({ source: 'onnx', root: wheel });
  const generated = join(VENV_DIR, 'onnx-backend-data');
  if (existsSync(generated)) roots.push({ source: 'onnx', root: generated });
  return roots;
}

function caseHash(dir: string, model: string, dataSets: string[]): string {
  const h = createHash('sha256');
  h.update(readFileSync(model));
  for (const ds of dataSets) {
    for (const f of readdirSync(ds).sort()) h.update(f).update(readFileSync(join(ds, f)));
  }
  return h.digest('hex');
}

/** Every backend test case, sorted by name; `sets` narrows the sets, `filter` the names (substring or RegExp). */
export function backendCases(opts: { sets?: readonly BackendSet[]; filter?: string | RegExp } = {}): BackendCase[] {
  const sets = opts.sets ?? BACKEND_SETS;
  const byName = new Map<string, BackendCase>();
  const libonnxHashes = new Map<string, string>();
  const envFilter = process.env.OVIR_CONFORMANCE_FILTER;
  const filter = opts.filter ?? (envFilter ? new RegExp(envFilter) : undefined);
  for (const { source, root } of backendRoots()) {
    for (const set of sets) {
      const setDir = join(root, set);
      if (!existsSync(setDir)) continue;
      for (const c of readdirSync(setDir).sort()) {
        const dir = join(setDir, c);
        const model = join(dir, 'model.onnx');
        if (!existsSync(model)) continue;
        const name = `${source}/${set}/${c}`;
        if (filter && !(typeof filter === 'string' ? name.includes(filter) : filter.test(name))) continue;
        const dataSets = readdirSync(dir).filter((d) => d.startsWith('test_data_set_')).sort().map((d) => join(dir, d));
        const kase: BackendCase = { name, source, set, dir, model, dataSets };
        const key = `${set}/${c}`;
        if (source === 'libonnx') {
          libonnxHashes.set(key, caseHash(dir, model, dataSets));
        } else {
          const twin = libonnxHashes.get(key);
          if (twin !== undefined && twin === caseHash(dir, model, dataSets)) continue;
        }
        if (!byName.has(name)) byName.set(name, kase);
      }
    }
  }
  return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Decodes one TensorProto file with our decoder; throws with the decoder's message if it cannot. */
export function loadTensorPb(path: string): NamedTensor {
  let decoded: ReturnType<typeof decodeTensorProto>;
  try {
    decoded = decodeTensorProto(new Uint8Array(readFileSync(path)));
  } catch (e) {
    throw new Error(`${path}: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
  }
  const t = decoded.tensor;
  const tensor: OracleTensor = { dtype: t.elem, shape: [...t.dims], data: t.data };
  if (t.strings) tensor.strings = [...t.strings];
  return { name: decoded.name, tensor };
}

function pbFiles(dir: string, prefix: 'input' | 'output'): string[] {
  const re = new RegExp(`^${prefix}_(\\d+)\\.pb$`);
  return readdirSync(dir)
    .map((f) => ({ f, m: re.exec(f) }))
    .filter((x) => x.m)
    .sort((a, b) => Number(a.m![1]) - Number(b.m![1]))
    .map((x) => join(dir, x.f));
}

/** The inputs and expected outputs of one test_data_set directory, in index order. */
export function loadDataSet(dir: string): TestDataSet {
  return {
    dir,
    inputs: pbFiles(dir, 'input').map(loadTensorPb),
    outputs: pbFiles(dir, 'output').map(loadTensorPb),
  };
}

/** Inputs keyed by their names, falling back to `#<index>` for unnamed ones. */
export function inputRecord(ds: TestDataSet): Record<string, OracleTensor> {
  const rec: Record<string, OracleTensor> = {};
  ds.inputs.forEach(({ name, tensor }, i) => { rec[name || `#${i}`] = tensor; });
  return rec;
}

/** Every .onnx file under `dir` (recursively) of at most `maxBytes`, sorted. */
export function onnxFiles(dir: string, maxBytes: number): string[] {
  const out: string[] = [];
  const stack = [dir];
  while (stack.length) {
    const d = stack.pop()!;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) stack.push(p);
      else if (e.name.endsWith('.onnx') && statSync(p).size <= maxBytes) out.push(p);
    }
  }
  return out.sort();
}
