import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { readIr } from '../../src/ir/read.js';
import { encodeOnnx } from '../../src/onnx/encode.js';
import type { OracleTensor } from '../helpers/oracle.js';
import { runOrt } from '../helpers/ort.js';
import { blobOf } from '../ir/blob-helpers.js';
import { bodyXml, netXml, type LayerSpec } from '../ir/build.js';

/**
 * OpenVINO's Loop-5: an output without `axis` is the last iteration's value of its Result. A Result
 * with no back edge (OpenVINO's TensorFlow frontend writes a tf.while_loop value the body computes
 * but never reads so) has no value before the first iteration; where the loop runs none, OpenVINO
 * gives zeros of the Result's shape (measured: OpenVINO 2026.4 CPU). IR → ONNX: a Loop scan output,
 * whose last slice is taken after a slice of zeros.
 */
function lastValueLoop(): { xml: string; bin: Uint8Array } {
  const { bin, at } = blobOf({ one: new Float32Array([1]), yes: new Uint8Array([1]) });
  const body = bodyXml([
    { id: 11, name: 'x_in', type: 'Parameter', data: { shape: '2', element_type: 'f32' }, outputs: [{ precision: 'FP32', dims: [2] }] },
    { id: 12, name: 'one', type: 'Const', data: { element_type: 'f32', shape: '1', offset: String(at.one), size: '4' }, outputs: [{ precision: 'FP32', dims: [1] }] },
    { id: 13, name: 'add', type: 'Add', data: { auto_broadcast: 'numpy' }, inputs: [{ precision: 'FP32', dims: [2] }, { precision: 'FP32', dims: [1] }], outputs: [{ precision: 'FP32', dims: [2] }] },
    { id: 14, name: 'yes', type: 'Const', data: { element_type: 'boolean', shape: '', offset: String(at.yes), size: '1' }, outputs: [{ precision: 'BOOL' }] },
    { id: 20, name: 'cond_out', type: 'Result', inputs: [{ precision: 'BOOL' }] },
    { id: 21, name: 'z_res', type: 'Result', inputs: [{ precision: 'FP32', dims: [2] }] },
  ], [[11, 0, 13, 0], [12, 0, 13, 1], [14, 0, 20, 0], [13, 2, 21, 0]]);
  const loop: LayerSpec = {
    id: 3, name: 'loop', type: 'Loop', version: 'opset5',
    inputs: [{ precision: 'I64' }, { precision: 'BOOL' }, { precision: 'FP32', dims: [2] }],
    outputs: [{ precision: 'FP32', names: 'z', dims: [2] }],
    // x_in is read by every iteration (no back edge); z_res leaves the loop without going back
    inner: `<port_map>
      <input external_port_id="2" internal_layer_id="11"/>
      <output external_port_id="3" internal_layer_id="21"/>
      <output external_port_id="-1" internal_layer_id="20" purpose="execution_condition"/>
    </port_map><back_edges></back_edges><body>${body}</body>`,
  };
  const xml = netXml([
    { id: 0, name: 'trip', type: 'Parameter', data: { shape: '', element_type: 'i64' }, outputs: [{ precision: 'I64' }] },
    { id: 1, name: 'cond', type: 'Parameter', data: { shape: '', element_type: 'boolean' }, outputs: [{ precision: 'BOOL' }] },
    { id: 2, name: 'x', type: 'Parameter', data: { shape: '2', element_type: 'f32' }, outputs: [{ precision: 'FP32', dims: [2] }] },
    loop,
    { id: 5, name: 'r_z', type: 'Result', inputs: [{ precision: 'FP32', dims: [2] }] },
  ], [[0, 0, 3, 0], [1, 0, 3, 1], [2, 0, 3, 2], [3, 3, 5, 0]]);
  return { xml, bin };
}

const run = async (trip: number): Promise<number[]> => {
  const { xml, bin } = lastValueLoop();
  const onnx = encodeOnnx(convertModel(readIr(xml, bin), { to: 'onnx' })).bytes;
  const feeds: Record<string, OracleTensor> = {
    trip: { dtype: 'i64', shape: [], data: new Uint8Array(new BigInt64Array([BigInt(trip)]).buffer) },
    cond: { dtype: 'boolean', shape: [], data: new Uint8Array([1]) },
    x: { dtype: 'f32', shape: [2], data: new Uint8Array(new Float32Array([3, -5]).buffer) },
  };
  const out = Object.values(await runOrt(onnx, feeds))[0]!;
  return [...new Float32Array(out.data.buffer.slice(out.data.byteOffset, out.data.byteOffset + out.data.byteLength))];
};

describe('Loop-5 → ONNX: the last iteration\'s value of a Result without a back edge', () => {
  it('after iterations: the last one\'s value', async () => {
    expect(await run(3)).toEqual([4, -4]);
  });

  it('no iteration: zeros of the Result\'s shape, as OpenVINO gives', async () => {
    expect(await run(0)).toEqual([0, 0]);
  });
});
