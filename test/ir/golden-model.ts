import { A, Model, tensorFromFloat32, tensorFromInt64, tensorType, type Dim, type Node, type Value, type ValueType } from '../../src/graph/index.js';

/**
 * The model of the golden file: built in code to be the same model as one made with OpenVINO's
 * Python API and saved with `ov.save_model(model, 'm.xml', compress_to_fp16=False)` (openvino
 * 2026.4.1), so that the golden file can be compared with what the serializer writes:
 *
 *   x = parameter([1,-1,Dimension(2,8)], f32, name='x'), tensor names {x, 'a,b'}; y, cond, z, w
 *   c = c2 = constant([[1,2,3],[4,5,6]], f32)             (identical blobs: stored once)
 *   elu(convert(squeeze(softmax(clamp(relu(add(x, c)), 0.1, 6.25), 1), [0]), f16), 0.3333333333)
 *   max_pool(y, strides [1,1], dilations [1,1], pads 0, kernel [2,2], auto_pad same_upper)
 *   multiply(c2, c); results: elu, maxpool:0, cond, z, w, multiply
 */
export function goldenModel(): Model {
  const m = new Model('ov');
  m.ir = { name: 'mynet', version: 11, rtInfo: null };
  const g = m.graph;
  const f32 = (...dims: Dim[]): ValueType => tensorType('f32', dims);
  const input = (name: string, t: ValueType, names = [name]): Value => {
    const v = g.addInput(t, names);
    v.meta['layerName'] = name;
    return v;
  };
  const x = input('x', f32(1, null, { min: 2, max: 8 }), ['a,b', 'x']);
  const y = input('y', f32(1, 3, 8, 8));
  const cond = input('cond', tensorType('boolean', []));
  const z = input('z', tensorType('i64', null));
  const w = input('w', tensorType('u1', [{ min: 0, max: 5 }, { min: 3, max: Infinity }, null]));
  const konst = (name: string, v: Value): Value => { v.meta['layerName'] = name; return v; };
  const c3 = konst('Constant_3', g.addInitializer(tensorFromFloat32([1, 2, 3, 4, 5, 6], [2, 3])));
  const c5 = konst('Constant_5', g.addInitializer(tensorFromFloat32([1, 2, 3, 4, 5, 6], [2, 3])));
  const c11 = konst('Constant_11', g.addInitializer(tensorFromInt64([0])));
  const op = (name: string, type: string, version: string, inputs: Value[], outs: [ValueType, string[]][], attrs: [string, ReturnType<typeof A.int>][] = []): Node => {
    const n = g.addNode({ dialect: 'ov', op: type, version, name });
    inputs.forEach((v) => n.addInput(v));
    for (const [t, names] of outs) n.addOutput(t, names);
    for (const [k, a] of attrs) n.attrs.set(k, a);
    return n;
  };
  const numpy: [string, ReturnType<typeof A.int>] = ['auto_broadcast', A.string('numpy')];
  const mul = op('Multiply_20', 'Multiply', 'opset1', [c5, c3], [[f32(2, 3), ['Result_26']]], [numpy]);
  const pool = op('MaxPool_16', 'MaxPool', 'opset8', [y], [[f32(1, 3, 8, 8), ['Result_22']], [tensorType('i64', [1, 3, 8, 8]), []]], [
    ['strides', A.ints([1, 1])], ['dilations', A.ints([1, 1])], ['pads_begin', A.ints([0, 0])], ['pads_end', A.ints([0, 0])],
    ['kernel', A.ints([2, 2])], ['rounding_type', A.string('floor')], ['auto_pad', A.string('same_upper')],
    ['index_element_type', A.string('i64')], ['axis', A.int(0)],
  ]);
  const add = op('Add_6', 'Add', 'opset1', [x, c3], [[f32(1, 2, 3), []]], [numpy]);
  const relu = op('Relu_7', 'Relu', 'opset1', [add.outputs[0]!], [[f32(1, 2, 3), []]]);
  const clamp = op('Clamp_8', 'Clamp', 'opset1', [relu.outputs[0]!], [[f32(1, 2, 3), []]], [['min', A.float(0.1)], ['max', A.float(6.25)]]);
  const softmax = op('Softmax_9', 'Softmax', 'opset8', [clamp.outputs[0]!], [[f32(1, 2, 3), []]], [['axis', A.int(1)]]);
  const squeeze = op('Squeeze_12', 'Squeeze', 'opset1', [softmax.outputs[0]!, c11], [[f32(2, 3), []]]);
  const convert = op('Convert_13', 'Convert', 'opset1', [squeeze.outputs[0]!], [[tensorType('f16', [2, 3]), []]], [['destination_type', A.string('f16')]]);
  const elu = op('Elu_14', 'Elu', 'opset1', [convert.outputs[0]!], [[tensorType('f16', [2, 3]), ['Result_21']]], [['alpha', A.float(0.3333333333)]]);
  g.outputs.push(elu.outputs[0]!, pool.outputs[0]!, cond, z, w, mul.outputs[0]!);
  g.meta['resultNames'] = ['Result_21', 'Result_22', 'Result_23', 'Result_24', 'Result_25', 'Result_26'];
  return m;
}
