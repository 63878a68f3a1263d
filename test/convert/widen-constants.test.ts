import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { widenConstant } from '../../src/convert/widen-constants.js';
import { OvirError, type Diagnostic } from '../../src/diag/diagnostic.js';
import { A, makeTensor, type ElementTypeName, type Model } from '../../src/graph/index.js';
import { encodeOnnx } from '../../src/onnx/encode.js';
import type { OracleTensor } from '../helpers/oracle.js';
import { runOrt } from '../helpers/ort.js';
import { Builder } from './builder.js';

/**
 * IR → ONNX of constants whose element type ONNX lacks (OpenVINO's packed u1, u3, u6 and nf4),
 * read only by Converts (the decompression form): stored in a wider type holding the same numbers.
 * The packed bytes below are what OpenVINO 2026.4 writes to the .bin for constants of known values
 * (saved with openvino's Python API), and the values what its CPU plugin's Convert gives.
 */
const hex = (s: string): Uint8Array => Uint8Array.from(s.match(/../g)!.map((h) => parseInt(h, 16)));
const codes = (elem: ElementTypeName, bytes: string, n: number): number[] => [...widenConstant(makeTensor(elem, [n], hex(bytes)), 'u8').data];

describe('OpenVINO packings, as OpenVINO writes them', () => {
  it('u1: element 0 in bit 7', () => {
    expect(codes('u1', '8061', 16)).toEqual([1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1]);
  });
  it('u3: 8 elements in 3 bytes (low 2 bits of 0–3, of 4–7, then the high bits)', () => {
    expect(codes('u3', '6c6c1ef051c1', 16)).toEqual([1, 2, 3, 4, 5, 6, 7, 0, 7, 7, 0, 0, 1, 1, 0, 5]);
  });
  it('u6: 4 elements in 3 bytes (low nibbles of 0–1, of 2–3, then the high 2 bits)', () => {
    expect(codes('u6', '123f03810990', 8)).toEqual([1, 2, 3, 63, 40, 17, 0, 9]);
  });
  it('nf4: codes with element 0 in the low nibble, each one of the 16 NF4 values (f32, and f16 as OpenVINO rounds them)', () => {
    const f32 = new Float32Array(widenConstant(makeTensor('nf4', [8], hex('708f6d9e')), 'f32').data.buffer);
    expect([...f32]).toEqual([-1, 0, 1, 0.07958029955625534, 0.5626170039176941, -0.09105003625154495, 0.7229568362236023, 0.16093020141124725]);
    // every code 0..15, in order: the f16 bits OpenVINO's Convert nf4 → f16 gives (measured)
    const all = makeTensor('nf4', [16], hex('1032547698badcfe'));
    expect([...new Uint16Array(widenConstant(all, 'f16').data.buffer)]).toEqual([
      48128, 47506, 47155, 46674, 46221, 45546, 44500, 0, 11544, 12582, 13280, 13672, 14093, 14464, 14793, 15360,
    ]);
  });
});

/** An IR: y = Convert(c, to) + x, with c a constant of `elem` holding `bytes`. */
function decompress(elem: ElementTypeName, bytes: string, n: number, to: 'f32' | 'f16', extra?: (b: Builder, c: ReturnType<Builder['init']>) => void): Model {
  const b = new Builder('ov');
  const x = b.input('x', to, [n]);
  const c = b.init('weights', makeTensor(elem, [n], hex(bytes)));
  const w = b.op(b.graph, 'Convert', [c], 'decompressed', { destination_type: A.string(to) }, { version: 'opset1' });
  b.output(b.op(b.graph, 'Add', [w, x], 'y', { auto_broadcast: A.string('numpy') }, { version: 'opset1' }));
  extra?.(b, c);
  return b.model;
}

async function run(m: Model, n: number, elem: 'f32' | 'f16'): Promise<number[]> {
  const warnings: Diagnostic[] = [];
  const onnx = convertModel(m, { to: 'onnx', onWarning: (d) => warnings.push(d) });
  expect(warnings.map((d) => d.code)).toEqual(['CONVERT_CONSTANT_WIDENED']);
  const zeros: OracleTensor = { dtype: elem, shape: [n], data: new Uint8Array(n * (elem === 'f32' ? 4 : 2)) };
  const y = (await runOrt(encodeOnnx(onnx).bytes, { x: zeros }))['y']!;
  return elem === 'f32' ? [...new Float32Array(y.data.buffer, y.data.byteOffset, n)] : [...new Uint16Array(y.data.buffer, y.data.byteOffset, n)];
}

describe('IR → ONNX: a packed constant read by Converts is stored wider, with the same numbers (onnxruntime)', () => {
  it('u3 → u8, Convert to f32', async () => {
    expect(await run(decompress('u3', '6c6c1ef051c1', 16, 'f32'), 16, 'f32')).toEqual([1, 2, 3, 4, 5, 6, 7, 0, 7, 7, 0, 0, 1, 1, 0, 5]);
  });

  it('nf4 → f16 when every Convert makes f16: the f16 bits OpenVINO computes', async () => {
    expect(await run(decompress('nf4', '1032547698badcfe', 16, 'f16'), 16, 'f16')).toEqual([
      48128, 47506, 47155, 46674, 46221, 45546, 44500, 0, 11544, 12582, 13280, 13672, 14093, 14464, 14793, 15360,
    ]);
  });

  it('a packed constant that another op reads (or that is a graph output) is still refused: ONNX cannot hold its type', () => {
    const m = decompress('u1', '8061', 16, 'f32', (b, c) => b.output(c));
    let errors: string[] = [];
    try { convertModel(m, { to: 'onnx' }); } catch (e) { if (e instanceof OvirError) errors = e.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code); else throw e; }
    expect(errors).toContain('CONVERT_UNSUPPORTED_TYPE');
  });
});
