/**
 * onnxruntime-node (in-process, CPU): run a model file or its bytes on OracleTensors.
 * Element types travel under OpenVINO names (f32, i64, boolean…) as everywhere in the harness.
 */
import ort from 'onnxruntime-node';
import { HarnessLimit, type OracleTensor } from './oracle.js';

type OrtType = ort.Tensor.Type;

// Engine failures are reported to the caller (a skip with ORT's reason), not logged by ORT itself.
ort.env.logLevel = 'fatal';

const TO_ORT: Record<string, OrtType> = {
  f32: 'float32', f64: 'float64', f16: 'float16', i8: 'int8', i16: 'int16', i32: 'int32', i64: 'int64',
  u8: 'uint8', u16: 'uint16', u32: 'uint32', u64: 'uint64', boolean: 'bool', string: 'string', u4: 'uint4', i4: 'int4',
};
const FROM_ORT: Record<string, string> = Object.fromEntries(Object.entries(TO_ORT).map(([k, v]) => [v, k]));

/** OpenVINO element type name of an ORT tensor type ('float32' → 'f32'); undefined if none. */
export function fromOrtType(t: string): string | undefined {
  return FROM_ORT[t];
}

/** ORT tensor type of an OpenVINO element type name ('f32' → 'float32'); undefined if ORT has none. */
export function toOrtType(dtype: string): OrtType | undefined {
  return TO_ORT[dtype];
}

function aligned(data: Uint8Array): ArrayBuffer {
  const copy = new Uint8Array(data.byteLength);
  copy.set(data);
  return copy.buffer;
}

export function toOrtTensor(t: OracleTensor): ort.Tensor {
  const type = TO_ORT[t.dtype];
  if (!type) throw new HarnessLimit(`onnxruntime-node has no tensor type for ${t.dtype}`);
  const dims = [...t.shape];
  if (type === 'string') {
    const dec = new TextDecoder();
    return new ort.Tensor('string', (t.strings ?? []).map((s) => dec.decode(s)), dims);
  }
  const b = aligned(t.data);
  switch (type) {
    case 'float32': return new ort.Tensor(type, new Float32Array(b), dims);
    case 'float64': return new ort.Tensor(type, new Float64Array(b), dims);
    case 'float16': return new ort.Tensor(type, new Uint16Array(b), dims);
    case 'int8': return new ort.Tensor(type, new Int8Array(b), dims);
    case 'int16': return new ort.Tensor(type, new Int16Array(b), dims);
    case 'int32': return new ort.Tensor(type, new Int32Array(b), dims);
    case 'int64': return new ort.Tensor(type, new BigInt64Array(b), dims);
    case 'uint16': return new ort.Tensor(type, new Uint16Array(b), dims);
    case 'uint32': return new ort.Tensor(type, new Uint32Array(b), dims);
    case 'uint64': return new ort.Tensor(type, new BigUint64Array(b), dims);
    case 'int4': return new ort.Tensor(type, new Int8Array(b), dims);
    default: return new ort.Tensor(type, new Uint8Array(b), dims); // uint8, bool, uint4
  }
}

export function fromOrtTensor(t: ort.Tensor): OracleTensor {
  const dtype = FROM_ORT[t.type];
  if (!dtype) throw new HarnessLimit(`onnxruntime-node output type ${t.type} has no element type name`);
  const shape = t.dims.map(Number);
  if (t.type === 'string') {
    const enc = new TextEncoder();
    return { dtype, shape, data: new Uint8Array(0), strings: (t.data as string[]).map((s) => enc.encode(s)) };
  }
  const v = t.data as ArrayBufferView;
  return { dtype, shape, data: new Uint8Array(v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength) as ArrayBuffer) };
}

export interface OrtRunOptions {
  /** Files the model's external data refers to, by location relative to the model. */
  externalData?: { path: string; data: Uint8Array }[];
}

/** One session per call: run `model` (file path or bytes) on inputs keyed by name or `#<index>`. */
export async function runOrt(
  model: string | Uint8Array, inputs: Record<string, OracleTensor>, opts: OrtRunOptions = {},
): Promise<Record<string, OracleTensor>> {
  const sessionOptions: ort.InferenceSession.SessionOptions = {
    executionProviders: ['cpu'],
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    logSeverityLevel: 4,
  };
  if (opts.externalData) sessionOptions.externalData = opts.externalData;
  const session = typeof model === 'string'
    ? await ort.InferenceSession.create(model, sessionOptions)
    : await ort.InferenceSession.create(model, sessionOptions);
  try {
    const feeds: Record<string, ort.Tensor> = {};
    const given = Object.values(inputs);
    session.inputNames.forEach((name, i) => {
      // by name, by `#i`, else by position when there is one tensor per input (names may differ)
      const t = inputs[name] ?? inputs[`#${i}`] ?? (given.length === session.inputNames.length ? given[i] : undefined);
      if (!t) throw new HarnessLimit(`no input given for ${name}: ${given.length} tensors for ${session.inputNames.length} inputs`);
      feeds[name] = toOrtTensor(t);
    });
    const results = await session.run(feeds);
    const out: Record<string, OracleTensor> = {};
    session.outputNames.forEach((name, i) => {
      const r = results[name];
      if (!r) return;
      const t = fromOrtTensor(r);
      out[name] = t;
      out[`#${i}`] = t;
    });
    return out;
  } finally {
    await session.release();
  }
}

/** ORT's error message without file paths, source locations and C++ signatures. */
export function cleanOrtMessage(message: string): string {
  return message
    .replace(/\x1b\[[0-9;]*m/g, '')
    .replace(/Load model from \S+ failed:\s*/g, 'load failed: ')
    .replace(/\/onnxruntime_src\/\S+:\d+\s*/g, '')
    .replace(/(?:[\w<>~]+::)+[\w<>~]+\((?:[^()]|\([^()]*\))*\)\s*(?:\[with [^\]]*\]\s*)?/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}
