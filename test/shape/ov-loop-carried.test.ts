import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { shapeToJson } from '../../src/graph/shape.js';
import { readIr } from '../../src/ir/read.js';
import { inferTypes } from '../../src/shape/index.js';
import { blobOf } from '../ir/blob-helpers.js';
import { bodyXml, netXml, type LayerSpec } from '../ir/build.js';

/**
 * Loop-5 loop-carried Parameters as OpenVINO's Loop::validate_and_infer_types types them: from the
 * initial value (not the declaration), then, for a back edge whose Result is also a last-iteration
 * output, relaxed where the Result's dims cannot be the Parameter's and the body inferred again; a
 * last-iteration output is the Result's type. Shaped after Keras LSTM bodies from OpenVINO's
 * TensorFlow frontend, which declare [1,?,?] and [?,?] for what OpenVINO infers [1,2,8] and [2,8].
 * Expected types measured with openvino 2026.4 (read_model of this IR).
 */
function net(): { xml: string; bin: Uint8Array } {
  const { bin, at } = blobOf({
    grid: new BigInt64Array([1n, 2n, 8n]), one: new Float32Array([1]), trip: new BigInt64Array([3n]), yes: new Uint8Array([1]),
    init3: new Float32Array([0]), init2: new Float32Array(16), init1: new Float32Array([1]),
  });
  const f = (dims: number[]) => ({ precision: 'FP32', dims });
  const body = bodyXml([
    // declared relaxed, as the frontend writes them
    { id: 0, name: 'list_in', type: 'Parameter', data: { shape: '1,?,?', element_type: 'f32' }, outputs: [f([1, -1, -1])] },
    { id: 1, name: 'h_in', type: 'Parameter', data: { shape: '?,?', element_type: 'f32' }, outputs: [f([-1, -1])] },
    { id: 2, name: 'grow_in', type: 'Parameter', data: { shape: '?', element_type: 'f32' }, outputs: [f([-1])] },
    { id: 3, name: 'grid', type: 'Const', data: { element_type: 'i64', shape: '3', offset: String(at.grid), size: '24' }, outputs: [{ precision: 'I64', dims: [3] }] },
    { id: 4, name: 'one', type: 'Const', data: { element_type: 'f32', shape: '', offset: String(at.one), size: '4' }, outputs: [{ precision: 'FP32' }] },
    { id: 5, name: 'list', type: 'Broadcast', data: { mode: 'numpy' }, inputs: [{ precision: 'FP32' }, { precision: 'I64', dims: [3] }], outputs: [f([1, 2, 8])] },
    { id: 6, name: 'h', type: 'Tanh', inputs: [f([-1, -1])], outputs: [f([-1, -1])] },
    { id: 7, name: 'grow', type: 'Concat', data: { axis: '0' }, inputs: [f([-1]), f([-1])], outputs: [f([-1])] },
    { id: 8, name: 'yes', type: 'Const', data: { element_type: 'boolean', shape: '', offset: String(at.yes), size: '1' }, outputs: [{ precision: 'BOOL' }] },
    { id: 20, name: 'list_res', type: 'Result', inputs: [f([1, 2, 8])] },
    { id: 21, name: 'h_res', type: 'Result', inputs: [f([-1, -1])] },
    { id: 22, name: 'grow_res', type: 'Result', inputs: [f([-1])] },
    { id: 23, name: 'cond_res', type: 'Result', inputs: [{ precision: 'BOOL' }] },
  ], [[4, 0, 5, 0], [3, 0, 5, 1], [5, 2, 20, 0], [1, 0, 6, 0], [6, 1, 21, 0], [2, 0, 7, 0], [2, 0, 7, 1], [7, 2, 22, 0], [8, 0, 23, 0]]);
  const loop: LayerSpec = {
    id: 10, name: 'while', type: 'Loop', version: 'opset5',
    inputs: [{ precision: 'I64' }, { precision: 'BOOL' }, f([1, 1, 1]), f([2, 8]), f([1])],
    outputs: [{ ...f([1, -1, -1]), names: 'list' }, { ...f([-1, -1]), names: 'h' }, { ...f([-1]), names: 'grow' }],
    inner: `<port_map>
      <input external_port_id="2" internal_layer_id="0"/>
      <input external_port_id="3" internal_layer_id="1"/>
      <input external_port_id="4" internal_layer_id="2"/>
      <output external_port_id="5" internal_layer_id="20"/>
      <output external_port_id="6" internal_layer_id="21"/>
      <output external_port_id="7" internal_layer_id="22"/>
      <output external_port_id="-1" internal_layer_id="23" purpose="execution_condition"/>
    </port_map><back_edges><edge from-layer="20" to-layer="0"/><edge from-layer="21" to-layer="1"/><edge from-layer="22" to-layer="2"/></back_edges><body>${body}</body>`,
  };
  const c = (id: number, name: string, elem: string, key: keyof typeof at, shape: string, size: number, out: { precision: string; dims?: number[] }): LayerSpec =>
    ({ id, name, type: 'Const', data: { element_type: elem, shape, offset: String(at[key]), size: String(size) }, outputs: [out] });
  const xml = netXml([
    c(0, 'trip', 'i64', 'trip', '', 8, { precision: 'I64' }),
    c(1, 'yes', 'boolean', 'yes', '', 1, { precision: 'BOOL' }),
    c(2, 'list0', 'f32', 'init3', '1,1,1', 4, f([1, 1, 1])),
    c(3, 'h0', 'f32', 'init2', '2,8', 64, f([2, 8])),
    c(4, 'grow0', 'f32', 'init1', '1', 4, f([1])),
    loop,
    { id: 11, name: 'r_list', type: 'Result', inputs: [f([1, -1, -1])] },
    { id: 12, name: 'r_h', type: 'Result', inputs: [f([-1, -1])] },
    { id: 13, name: 'r_grow', type: 'Result', inputs: [f([-1])] },
  ], [[0, 0, 10, 0], [1, 0, 10, 1], [2, 0, 10, 2], [3, 0, 10, 3], [4, 0, 10, 4], [10, 5, 11, 0], [10, 6, 12, 0], [10, 7, 13, 0]]);
  return { xml, bin };
}

describe('Loop-5 loop-carried types (shape inference, openvino policy)', () => {
  it('a Parameter starts from its initial value; one the body changes is relaxed; a last-iteration output is the Result\'s type', () => {
    const { xml, bin } = net();
    if (process.env['OVIR_DUMP_IR']) { writeFileSync(`${process.env['OVIR_DUMP_IR']}.xml`, xml); writeFileSync(`${process.env['OVIR_DUMP_IR']}.bin`, bin); }
    const m = readIr(xml, bin);
    const r = inferTypes(m, { ifMerge: 'openvino' });
    expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const shape = (v: (typeof m.graph.inputs)[number]) => { const t = r.types.get(v); return t?.kind === 'tensor' ? shapeToJson(t.shape) : '?'; };
    const body = m.graph.nodes[0]!.bodies.get('body')!.graph;
    // list: [1,1,1] → Broadcast [1,2,8]: relaxed to [1,?,?]; the output is [1,2,8]
    // h: [2,8] kept by Tanh: [2,8] (declared [?,?]); grow: [1] → Concat [2]: relaxed to [?]
    expect(body.inputs.map(shape)).toEqual([[1, null, null], [2, 8], [null]]);
    expect(m.graph.outputs.map(shape)).toEqual([[1, 2, 8], [2, 8], [null]]);
  });
});
