import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { checkModels } from '../../src/equiv/check-models.js';
import { readIr } from '../../src/ir/read.js';
import { decodeOnnx } from '../../src/onnx/decode.js';
import { encodeOnnx } from '../../src/onnx/encode.js';
import { blobOf } from '../ir/blob-helpers.js';
import { bodyXml, netXml, type LayerSpec } from '../ir/build.js';

/**
 * A Loop-5 as OpenVINO's TensorFlow frontend writes tf.while_loop / tf.scan: no current_iteration
 * Parameter, no Parameter bound to the execution condition, TensorFlow's own i32 counter carried
 * (back edge), an invariant input between carried ones and fed to two ports (ONNX captures it
 * once), outer values without port names. The ONNX
 * Loop takes M, cond, the carried values, then the invariant one: its inputs and body parameters are
 * in another order, so nothing may pair by position (it paired the counter with cond_in, the
 * invariant input with a carried value: contradictions on a right conversion).
 */
function tfLoop(): { xml: string; bin: Uint8Array } {
  const { bin, at } = blobOf({ zero: new Int32Array([0]), one: new Int32Array([1]), five: new Int32Array([5]), trip: new BigInt64Array([10n]), yes: new Uint8Array([1]) });
  const c = (id: number, name: string, elem: string, key: keyof typeof at, size: number, precision: string): LayerSpec =>
    ({ id, name, type: 'Const', data: { element_type: elem, shape: '', offset: String(at[key]), size: String(size) }, outputs: [{ precision }] });
  const f3 = { precision: 'FP32', dims: [3] };
  const body = bodyXml([
    { id: 0, name: 'loop_counter', type: 'Parameter', data: { shape: '', element_type: 'i32' }, outputs: [{ precision: 'I32' }] },
    { id: 1, name: 'inv_in', type: 'Parameter', data: { shape: '3', element_type: 'f32' }, outputs: [f3] },
    { id: 2, name: 'acc_in', type: 'Parameter', data: { shape: '3', element_type: 'f32' }, outputs: [f3] },
    { id: 11, name: 'inv_again', type: 'Parameter', data: { shape: '3', element_type: 'f32' }, outputs: [f3] },
    { id: 12, name: 'acc_plus', type: 'Add', data: { auto_broadcast: 'numpy' }, inputs: [f3, f3], outputs: [f3] },
    c(3, 'one', 'i32', 'one', 4, 'I32'),
    { id: 4, name: 'next', type: 'Add', data: { auto_broadcast: 'numpy' }, inputs: [{ precision: 'I32' }, { precision: 'I32' }], outputs: [{ precision: 'I32' }] },
    { id: 5, name: 'acc', type: 'Multiply', data: { auto_broadcast: 'numpy' }, inputs: [f3, f3], outputs: [f3] },
    c(6, 'five', 'i32', 'five', 4, 'I32'),
    { id: 7, name: 'more', type: 'Less', data: { auto_broadcast: 'numpy' }, inputs: [{ precision: 'I32' }, { precision: 'I32' }], outputs: [{ precision: 'BOOL' }] },
    { id: 8, name: 'next_res', type: 'Result', inputs: [{ precision: 'I32' }] },
    { id: 9, name: 'acc_res', type: 'Result', inputs: [f3] },
    { id: 10, name: 'cond_res', type: 'Result', inputs: [{ precision: 'BOOL' }] },
  ], [[0, 0, 4, 0], [3, 0, 4, 1], [2, 0, 5, 0], [1, 0, 5, 1], [4, 2, 7, 0], [6, 0, 7, 1], [4, 2, 8, 0], [5, 2, 12, 0], [11, 0, 12, 1], [12, 2, 9, 0], [7, 2, 10, 0]]);
  const loop: LayerSpec = {
    id: 5, name: 'while', type: 'Loop', version: 'opset5',
    inputs: [{ precision: 'I64' }, { precision: 'BOOL' }, { precision: 'I32' }, f3, f3, f3],
    outputs: [{ precision: 'I32' }, { ...f3, names: 'y' }],
    inner: `<port_map>
      <input external_port_id="2" internal_layer_id="0"/>
      <input external_port_id="3" internal_layer_id="1"/>
      <input external_port_id="4" internal_layer_id="2"/>
      <input external_port_id="5" internal_layer_id="11"/>
      <output external_port_id="6" internal_layer_id="8"/>
      <output external_port_id="7" internal_layer_id="9"/>
      <output external_port_id="-1" internal_layer_id="10" purpose="execution_condition"/>
    </port_map><back_edges><edge from-layer="8" to-layer="0"/><edge from-layer="9" to-layer="2"/></back_edges><body>${body}</body>`,
  };
  const xml = netXml([
    { id: 0, name: 'x', type: 'Parameter', data: { shape: '3', element_type: 'f32' }, outputs: [{ ...f3, names: 'x' }] },
    { id: 1, name: 'inv', type: 'Relu', inputs: [f3], outputs: [f3] },
    { id: 2, name: 'acc0', type: 'Sigmoid', inputs: [f3], outputs: [f3] },
    c(3, 'trip', 'i64', 'trip', 8, 'I64'),
    c(4, 'counter0', 'i32', 'zero', 4, 'I32'),
    c(6, 'yes', 'boolean', 'yes', 1, 'BOOL'),
    loop,
    { id: 7, name: 'out', type: 'Result', inputs: [f3] },
  ], [[0, 0, 1, 0], [0, 0, 2, 0], [3, 0, 5, 0], [6, 0, 5, 1], [4, 0, 5, 2], [1, 1, 5, 3], [2, 1, 5, 4], [1, 1, 5, 5], [5, 7, 7, 0]]);
  return { xml, bin };
}

describe('ovir check of a Loop-5 in TensorFlow-frontend form against its ONNX Loop', () => {
  it('pairs nothing by position across the reordered inputs: no contradiction, in memory and through the ONNX file', () => {
    const { xml, bin } = tfLoop();
    const ir = readIr(xml, bin);
    const onnx = convertModel(readIr(xml, bin));
    for (const b of [onnx, decodeOnnx(encodeOnnx(onnx).bytes)]) {
      const r = checkModels(ir, b);
      expect(r.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.code}: ${d.message}`)).toEqual([]);
      expect(r.entries.filter((e) => e.status === 'contradiction')).toEqual([]);
      expect(r.ok).toBe(true);
    }
  });
});
