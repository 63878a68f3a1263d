import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { checkModels } from '../../src/equiv/check-models.js';
import type { Diagnostic } from '../../src/diag/diagnostic.js';
import { A, tensorType, type ElementTypeName, type Model } from '../../src/graph/index.js';
import { encodeOnnx } from '../../src/onnx/encode.js';
import type { OracleTensor } from '../helpers/oracle.js';
import { runOrt } from '../helpers/ort.js';
import { Builder } from './builder.js';

/**
 * An IR version 10 file runs in OpenVINO with its old API's interface types, whatever it declares
 * (OpenVINO 2026.4's read_model, measured on one Parameter and output of each type): an f16 input
 * is f32 (converted inside), every output is f32 but i32, i64, u32 and u64, which are i32. IR → ONNX
 * of such a file gives the ONNX model that interface; an IR version 11 file keeps its own.
 */
function model(version: 10 | 11, types: ElementTypeName[]): Model {
  const b = new Builder('ov');
  types.forEach((t, k) => {
    const x = b.input(`x${k}_${t}`, t, [2]);
    const y = b.op(b.graph, 'Concat', [x, x], `y${k}_${t}`, { axis: A.int(0) }, { version: 'opset1' });
    y.type = tensorType(t, [4]); // as an IR file declares every port
    b.output(y);
  });
  b.model.ir = { name: 'legacy', version, rtInfo: null };
  return b.model;
}

const interfaceOf = (m: Model): string[] => [
  ...m.graph.inputs.map((v) => `in ${v.name}: ${v.type?.kind === 'tensor' ? v.type.elem : '?'}`),
  ...m.graph.outputs.map((v) => `out ${v.name}: ${v.type?.kind === 'tensor' ? v.type.elem : '?'}`),
];

describe('IR v10 → ONNX: the interface OpenVINO gives the file', () => {
  const types: ElementTypeName[] = ['f16', 'f32', 'f64', 'i8', 'u8', 'i32', 'i64', 'u32', 'u64', 'boolean'];

  it('f16 inputs are f32; outputs are f32, or i32 for i32/i64/u32/u64; a warning names each change', () => {
    const warnings: Diagnostic[] = [];
    const onnx = convertModel(model(10, types), { to: 'onnx', onWarning: (d) => warnings.push(d) });
    expect(interfaceOf(onnx)).toEqual([
      'in x0_f16: f32', 'in x1_f32: f32', 'in x2_f64: f64', 'in x3_i8: i8', 'in x4_u8: u8', 'in x5_i32: i32', 'in x6_i64: i64', 'in x7_u32: u32', 'in x8_u64: u64', 'in x9_boolean: boolean',
      'out y0_f16: f32', 'out y1_f32: f32', 'out y2_f64: f32', 'out y3_i8: f32', 'out y4_u8: f32', 'out y5_i32: i32', 'out y6_i64: i32', 'out y7_u32: i32', 'out y8_u64: i32', 'out y9_boolean: f32',
    ]);
    expect(warnings.filter((d) => d.code === 'CONVERT_IR_V10_INTERFACE').map((d) => d.message)[0]).toContain("input 'x0_f16' f16 → f32, output 'y0_f16' f16 → f32, output 'y2_f64' f64 → f32");
  });

  it('an IR v11 file keeps the types it declares', () => {
    const onnx = convertModel(model(11, ['f16', 'i64']), { to: 'onnx' });
    expect(interfaceOf(onnx)).toEqual(['in x0_f16: f16', 'in x1_i64: i64', 'out y0_f16: f16', 'out y1_i64: i64']);
  });

  it('onnxruntime runs the result: f32 in, the f16 values inside, f32 out; i64 out as i32', async () => {
    const onnx = convertModel(model(10, ['f16', 'i64']), { to: 'onnx' });
    const x0: OracleTensor = { dtype: 'f32', shape: [2], data: new Uint8Array(new Float32Array([1.5, 0.1]).buffer) };
    const x1: OracleTensor = { dtype: 'i64', shape: [2], data: new Uint8Array(new BigInt64Array([7n, -3n]).buffer) };
    const out = await runOrt(encodeOnnx(onnx).bytes, { x0_f16: x0, x1_i64: x1 });
    const y0 = out['y0_f16']!;
    const y1 = out['y1_i64']!;
    expect([y0.dtype, y1.dtype]).toEqual(['f32', 'i32']);
    // 0.1 through f16 is 0.0999755859375
    expect([...new Float32Array(y0.data.buffer, y0.data.byteOffset, 4)]).toEqual([1.5, 0.0999755859375, 1.5, 0.0999755859375]);
    expect([...new Int32Array(y1.data.buffer, y1.data.byteOffset, 4)]).toEqual([7, -3, 7, -3]);
  });

  it('ovir check compares the file as OpenVINO runs it: equivalent to its conversion, not to an ONNX model keeping the declared f16/i64 interface', () => {
    const onnx = convertModel(model(10, ['f16', 'i64']), { to: 'onnx' });
    expect(checkModels(model(10, ['f16', 'i64']), onnx).ok).toBe(true);
    const declared = convertModel(model(11, ['f16', 'i64']), { to: 'onnx' });
    expect(checkModels(model(10, ['f16', 'i64']), declared).ok).toBe(false);
  });

  it('ovir check gives the models back as they were (the interface is applied for the comparison only)', () => {
    const legacy = model(10, ['f16', 'i64']);
    const before = { nodes: legacy.graph.nodes.map((n) => n.op), io: interfaceOf(legacy), uses: legacy.graph.inputs.map((v) => v.uses.length) };
    expect(checkModels(legacy, convertModel(legacy, { to: 'onnx' })).ok).toBe(true);
    expect({ nodes: legacy.graph.nodes.map((n) => n.op), io: interfaceOf(legacy), uses: legacy.graph.inputs.map((v) => v.uses.length) }).toEqual(before);
    expect(legacy.graph.inputs[0]!.uses.every((u) => legacy.graph.nodes.includes(u.node))).toBe(true);
    // and checking it again gives the same verdict
    expect(checkModels(legacy, convertModel(model(11, ['f16', 'i64']), { to: 'onnx' })).ok).toBe(false);
  });
});
