/**
 * What the hostile-input campaign (test/hostile/fuzz-run.ts) found, each as the smallest model
 * made by hand that shows it: a crash, a hang, an internal error or an output ovir cannot read back
 * turned into coded diagnostics naming the place.
 */
import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { readIr } from '../../src/ir/read.js';
import { boundOuterValue } from '../../src/graph/body.js';
import { checkModels } from '../../src/equiv/check-models.js';
import { decodeOnnx } from '../../src/onnx/decode.js';
import { inferTypes } from '../../src/shape/index.js';
import * as ob from '../helpers/onnx-builder.js';
import { diagnosticsOf } from '../helpers/diagnostics.js';
import { A, B, errors } from '../shape/build.js';
import { netXml, type LayerSpec } from '../ir/build.js';

const i64Bytes = (...v: bigint[]): Uint8Array => new Uint8Array(new BigInt64Array(v).buffer);

describe('hostile inputs found by the fuzz campaign', () => {
  it('a Scan whose num_scan_inputs does not fit its body is a shape error (2^62 looped without end)', () => {
    for (const n of [0n, 5n, 1n << 62n]) {
      const b = new B('onnx', '11');
      const s0 = b.input('s0', 'f32', [2]);
      const xs = b.input('xs', 'f32', [3, 2]);
      const node = b.g.addNode({ dialect: 'onnx', op: 'Scan', version: '11', name: 'Scan_1' });
      node.addInput(s0); node.addInput(xs);
      node.attrs.set('num_scan_inputs', A.int(n));
      node.addOutput(null, ['o0']); node.addOutput(null, ['o1']);
      const body = b.g.addBody(node, 'body');
      const [p0, p1] = [body.graph.addInput(null, ['p0']), body.graph.addInput(null, ['p1'])];
      body.inputs.push({ param: p0, from: 0 }, { param: p1, from: 1 });
      const add = b.node('Add', [p0, p1], {}, { g: body.graph, name: 'add' });
      body.graph.outputs.push(add.outputs[0]!, add.outputs[0]!);
      body.outputs.push({ result: 0, to: 0 }, { result: 1, to: 1 });
      const r = b.infer();
      expect(errors(r).map((d) => `${d.code} ${d.where}: ${d.message}`)).toEqual([
        `SHAPE_RULE main/Scan_1: Scan: num_scan_inputs = ${Number(n)} does not fit the node's 2 state and scan inputs (it must be 1 to 2)`,
      ]);
    }
  });

  it('IR → ONNX: a shape operand known past 2^53 only as a partial value is refused with shape errors, not an internal error', () => {
    // Reshape(x, Concat(Const [2^62], ShapeOf(x))): the Concat's partial value holds Infinity
    const layers: LayerSpec[] = [
      { id: 0, name: 'x', type: 'Parameter', data: { shape: '3', element_type: 'f32' }, outputs: [{ precision: 'FP32', names: 'x', dims: [3] }] },
      { id: 1, name: 'big', type: 'Const', data: { element_type: 'i64', shape: '1', offset: '0', size: '8' }, outputs: [{ precision: 'I64', dims: [1] }] },
      { id: 2, name: 'shape', type: 'ShapeOf', version: 'opset3', data: { output_type: 'i64' }, inputs: [{ precision: 'FP32', dims: [3] }], outputs: [{ precision: 'I64', dims: [1] }] },
      { id: 3, name: 'cat', type: 'Concat', data: { axis: '0' }, inputs: [{ precision: 'I64', dims: [1] }, { precision: 'I64', dims: [1] }], outputs: [{ precision: 'I64', dims: [2] }] },
      { id: 4, name: 'reshape', type: 'Reshape', data: { special_zero: 'false' }, inputs: [{ precision: 'FP32', dims: [3] }, { precision: 'I64', dims: [2] }], outputs: [{ precision: 'FP32', dims: [1, 3] }] },
      { id: 5, name: 'y', type: 'Result', inputs: [{ precision: 'FP32', dims: [1, 3] }] },
    ];
    const xml = netXml(layers, [[0, 0, 2, 0], [1, 0, 3, 0], [2, 1, 3, 1], [0, 0, 4, 0], [3, 2, 4, 1], [4, 2, 5, 0]]);
    const model = readIr(xml, i64Bytes(1n << 62n));
    const found = diagnosticsOf(() => convertModel(model, { to: 'onnx' }));
    expect(found.length).toBeGreaterThan(0);
    expect(found.filter((d) => d.startsWith('INTERNAL'))).toEqual([]);
    expect(found.some((d) => d.startsWith('SHAPE_RULE main/reshape: Reshape:'))).toBe(true);
  });

  it('a Scan or Loop with more inputs than its body takes is refused: the IR written had inputs no port map fed, which ovir could not read back', () => {
    const body = ob.graph({
      name: 'body', inputs: [ob.valueInfo('s', 'f32', [2]), ob.valueInfo('x', 'f32', [2])], outputs: [ob.valueInfo('s_next', 'f32'), ob.valueInfo('y', 'f32')],
      nodes: [ob.node('Add', ['s', 'x'], ['s_next']), ob.node('Neg', ['s_next'], ['y'])],
    });
    const scan = ob.model({
      opset: 17,
      graph: ob.graph({
        name: 'g', inputs: [ob.valueInfo('s0', 'f32', [2]), ob.valueInfo('xs', 'f32', [4, 2])], outputs: [ob.valueInfo('s_final', 'f32'), ob.valueInfo('ys', 'f32')],
        nodes: [ob.node('Scan', ['s0', 'xs', 's0'], ['s_final', 'ys'], { body, num_scan_inputs: 1 }, { name: 'Scan_0' })],
      }),
    });
    const m = decodeOnnx(ob.encodeModelProto(scan));
    expect(diagnosticsOf(() => convertModel(m, { to: 'ov' }))).toEqual(['SHAPE_RULE main/Scan_0: Scan: 3 input(s) but its body takes 2: each input is one body input, in order']);
    const loopBody = ob.graph({
      name: 'lb', inputs: [ob.valueInfo('i', 'i64', []), ob.valueInfo('c', 'boolean', []), ob.valueInfo('v', 'f32', [2])],
      outputs: [ob.valueInfo('c_out', 'boolean'), ob.valueInfo('v_out', 'f32')],
      nodes: [ob.node('Identity', ['c'], ['c_out']), ob.node('Neg', ['v'], ['v_out'])],
    });
    const loop = ob.model({
      opset: 17,
      graph: ob.graph({
        name: 'g', inputs: [ob.valueInfo('n', 'i64', []), ob.valueInfo('c0', 'boolean', []), ob.valueInfo('v0', 'f32', [2])], outputs: [ob.valueInfo('v_final', 'f32')],
        nodes: [ob.node('Loop', ['n', 'c0', 'v0', 'v0'], ['v_final'], { body: loopBody }, { name: 'Loop_0' })],
      }),
    });
    const l = decodeOnnx(ob.encodeModelProto(loop));
    // the converter refused such a Loop already; `ovir shapes` and `check` now say so too
    expect(inferTypes(l).diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.code} ${d.where}: ${d.message}`))
      .toEqual(['SHAPE_RULE main/Loop_0: Loop: 4 input(s) but its body takes 3: each input is one body input, in order']);
  });

  it('an IR Parameter shape with a dim past 2^53 is refused (the ONNX file written from it had a dim ovir could not read back)', () => {
    const net = (shape: string, dim: string) => netXml([
      { id: 0, name: 'x', type: 'Parameter', data: { shape, element_type: 'f32' }, outputs: [{ precision: 'FP32', names: 'x', dims: [2] }] },
      { id: 1, name: 'relu', type: 'ReLU', inputs: [{ precision: 'FP32', dims: [2] }], outputs: [{ precision: 'FP32', dims: [2] }] },
      { id: 2, name: 'y', type: 'Result', inputs: [{ precision: 'FP32', dims: [2] }] },
    ], [[0, 0, 1, 0], [1, 1, 2, 0]]).replace('<dim>2</dim></port></output></layer><layer id="2"', `<dim>${dim}</dim></port></output></layer><layer id="2"`);
    expect(diagnosticsOf(() => readIr(net('99999999999999999999', '2'), null))).toEqual([
      'IR_ATTR_BAD main/x: Parameter layer \'x\': attribute shape="99999999999999999999" has a dimension beyond 2^53, which cannot be represented exactly',
    ]);
    expect(diagnosticsOf(() => readIr(net('2..9007199254740993', '2'), null))).toHaveLength(1);
    // a port's dims OpenVINO reads up to 2^63 - 1, and so does ovir: inference gives the type (the declaration a hint)
    expect(diagnosticsOf(() => readIr(net('2', '1152921504606846976'), null))).toEqual([]);
    expect(diagnosticsOf(() => readIr(net('2', '2'), null))).toEqual([]);
  });

  it('a mapping that trips over a node its source inference refuses reports that refusal, not an internal error (Conv weights of rank 1)', () => {
    for (const attrs of [{ kernel_shape: [3, 1] }, {}] as Record<string, number[]>[]) {
      const m = decodeOnnx(ob.encodeModelProto(ob.model({
        opset: 17,
        graph: ob.graph({
          name: 'g', inputs: [ob.valueInfo('x', 'f32', [1, 1, 4, 4])], outputs: [ob.valueInfo('y', 'f32')],
          initializers: [ob.floatTensor('w', [3], [1, 2, 3])],
          nodes: [ob.node('Conv', ['x', 'w'], ['y'], attrs, { name: 'conv' })],
        }),
      })));
      const found = diagnosticsOf(() => convertModel(m, { to: 'ov' }));
      expect(found.length).toBeGreaterThan(0);
      expect(found.every((d) => d.startsWith('SHAPE_RULE main/conv: Conv:')), found.join('\n')).toBe(true);
    }
  });

  it('a Slice whose starts is declared 2^31 - 1 long is refused, not made into 2^31 steps (out of memory)', () => {
    const m = decodeOnnx(ob.encodeModelProto(ob.model({
      opset: 17,
      graph: ob.graph({
        name: 'g',
        inputs: [ob.valueInfo('x', 'f32', [20, 10, 5]), ob.valueInfo('starts', 'i64', [2147483647]), ob.valueInfo('ends', 'i64', [3]), ob.valueInfo('axes', 'i64', [3])],
        outputs: [ob.valueInfo('y', 'f32')],
        nodes: [ob.node('Slice', ['x', 'starts', 'ends', 'axes'], ['y'], {}, { name: 'slice' })],
      }),
    })));
    expect(inferTypes(m).diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.code} ${d.where}: ${d.message}`)).toEqual([
      'SHAPE_RULE main/slice: Slice: starts has 2147483647 elements; starts 2147483647, ends 3, axes 3, data of rank 3 (one per sliced axis, as many as each other)',
    ]);
    expect(diagnosticsOf(() => convertModel(m, { to: 'ov' }))).toEqual(['CONVERT_OP main/slice: Slice: starts has 2147483647 elements, more than the 3 axes of the data']);
  });

  it('the check walks a chain of nested bodies once: each parameter memoized (1,200 nested Ifs took 4.2 s, quadratic in the depth)', () => {
    // main: If(c) { If(c) { … Neg(x) … } }, x read at the innermost level: a capture at every level
    const depth = 400;
    let inner = ob.graph({ name: `b${depth}`, outputs: [ob.valueInfo('y0', 'f32')], nodes: [ob.node('Neg', ['x'], ['y0'])] });
    for (let k = depth - 1; k >= 1; k--) {
      inner = ob.graph({ name: `b${k}`, outputs: [ob.valueInfo(`y${depth - k}`, 'f32')], nodes: [ob.ifNode('c', [`y${depth - k}`], inner, ob.graph({ name: `e${k}`, outputs: [ob.valueInfo(`z${k}`, 'f32')], nodes: [ob.node('Neg', ['x'], [`z${k}`])] }))] });
    }
    const m = decodeOnnx(ob.encodeModelProto(ob.model({
      opset: 17,
      graph: ob.graph({
        name: 'g', inputs: [ob.valueInfo('c', 'boolean', []), ob.valueInfo('x', 'f32', [2])], outputs: [ob.valueInfo('y', 'f32')],
        nodes: [ob.ifNode('c', ['y'], inner, ob.graph({ name: 'e0', outputs: [ob.valueInfo('z0', 'f32')], nodes: [ob.node('Neg', ['x'], ['z0'])] }))],
      }),
    })));
    // the innermost capture of x: its chain walked once, every parameter on it remembered
    let g = m.graph;
    const params = [];
    while (g.nodes[0]?.bodies.size) { g = g.nodes[0].bodies.get('then_branch')!.graph; params.push(g.inputs.find((v) => v.name === 'x')!); }
    const memo = new Map();
    expect(boundOuterValue(params.at(-1)!, memo)).toBe(m.graph.inputs[1]);
    expect(memo.size).toBe(params.length);
    expect(params.every((p) => memo.get(p) === m.graph.inputs[1] && boundOuterValue(p) === m.graph.inputs[1])).toBe(true);
    expect(checkModels(m, convertModel(m, { to: 'ov' })).ok).toBe(true);
  });

  it('a Conv whose group does not divide its channels is refused, not reshaped by a fraction (group 2^32 - 1: an internal error)', () => {
    const conv = (group: number) => decodeOnnx(ob.encodeModelProto(ob.model({
      opset: 17,
      graph: ob.graph({
        name: 'g', inputs: [ob.valueInfo('x', 'f32', [1, 4, 5])], outputs: [ob.valueInfo('y', 'f32')],
        initializers: [ob.floatTensor('w', [4, 2, 3], new Array(24).fill(1))],
        nodes: [ob.node('Conv', ['x', 'w'], ['y'], { group }, { name: 'conv' })],
      }),
    })));
    expect(diagnosticsOf(() => convertModel(conv(2), { to: 'ov' }))).toEqual([]);
    for (const group of [3, 0, -2, 4294967295]) {
      const m = conv(group);
      const inferred = inferTypes(m).diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.code} ${d.where}`);
      expect(inferred, String(group)).toEqual(['SHAPE_RULE main/conv']);
      const found = diagnosticsOf(() => convertModel(m, { to: 'ov' }));
      expect(found.length, String(group)).toBeGreaterThan(0);
      expect(found.filter((d) => d.startsWith('INTERNAL')), String(group)).toEqual([]);
    }
  });

  it('a shape operand declared 2^32 long leaves the rank unknown instead of making 2^32 dims (a shape rule failed: Invalid array length)', () => {
    const layers: LayerSpec[] = [
      { id: 0, name: 'x', type: 'Parameter', data: { shape: '4294967296', element_type: 'i64' }, outputs: [{ precision: 'I64', names: 'x', dims: [4294967296] }] },
      { id: 1, name: 'one', type: 'Const', data: { element_type: 'i32', shape: '', offset: '0', size: '4' }, outputs: [{ precision: 'I32' }] },
      { id: 2, name: 'y', type: 'Broadcast', version: 'opset3', data: { mode: 'bidirectional' }, inputs: [{ precision: 'I32' }, { precision: 'I64', dims: [4294967296] }], outputs: [{ precision: 'I32', names: 'y', dims: [-1] }] },
      { id: 3, name: 'out', type: 'Result', inputs: [{ precision: 'I32', dims: [-1] }] },
    ];
    const m = readIr(netXml(layers, [[0, 0, 2, 1], [1, 0, 2, 0], [2, 2, 3, 0]]), new Uint8Array(4));
    expect(inferTypes(m).diagnostics.map((d) => d.code)).not.toContain('SHAPE_RULE_FAILED');
    expect(diagnosticsOf(() => convertModel(m, { to: 'onnx' }))).toEqual([]);
    const e = decodeOnnx(ob.encodeModelProto(ob.model({
      opset: 17,
      graph: ob.graph({
        name: 'g', inputs: [ob.valueInfo('x', 'f32', [1]), ob.valueInfo('shape', 'i64', [4294967296])], outputs: [ob.valueInfo('y', 'f32')],
        nodes: [ob.node('Expand', ['x', 'shape'], ['y'], {}, { name: 'expand' })],
      }),
    })));
    expect(inferTypes(e).diagnostics.map((d) => d.code)).not.toContain('SHAPE_RULE_FAILED');
  });

  it('an IR AdaptiveAvgPool whose output_shape is declared longer than the data\'s rank is a shape error (2^32: Invalid array length)', () => {
    const pool = (n: number) => readIr(netXml([
      { id: 0, name: 'x', type: 'Parameter', data: { shape: '1,2,8,8', element_type: 'f32' }, outputs: [{ precision: 'FP32', names: 'x', dims: [1, 2, 8, 8] }] },
      { id: 1, name: 'os', type: 'Parameter', data: { shape: String(n), element_type: 'i64' }, outputs: [{ precision: 'I64', names: 'os', dims: [n] }] },
      { id: 2, name: 'pool', type: 'AdaptiveAvgPool', version: 'opset8', inputs: [{ precision: 'FP32', dims: [1, 2, 8, 8] }, { precision: 'I64', dims: [n] }], outputs: [{ precision: 'FP32', dims: [1, 2, -1, -1] }] },
      { id: 3, name: 'r', type: 'Result', inputs: [{ precision: 'FP32', dims: [1, 2, -1, -1] }] },
    ], [[0, 0, 2, 0], [1, 0, 2, 1], [2, 2, 3, 0]]), null);
    const errs = (n: number) => inferTypes(pool(n)).diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.code} ${d.where}: ${d.message}`);
    expect(errs(2)).toEqual([]);
    expect(errs(4294967296)).toEqual(['SHAPE_RULE main/pool: AdaptiveAvgPool: output_shape has 4294967296 elements, more than the 4 axes of the data']);
  });

  it('RoiAlign mode max with output_width 2^40 is refused by name (its sample constant ended Node with a fatal invalid size error)', () => {
    const m = decodeOnnx(ob.encodeModelProto(ob.model({
      opset: 16,
      graph: ob.graph({
        name: 'g', inputs: [ob.valueInfo('X', 'f32', [1, 1, 10, 10]), ob.valueInfo('rois', 'f32', [3, 4]), ob.valueInfo('batch_indices', 'i64', [3])],
        outputs: [ob.valueInfo('Y', 'f32')],
        nodes: [ob.node('RoiAlign', ['X', 'rois', 'batch_indices'], ['Y'], { mode: 'max', output_height: 5, output_width: 2 ** 40, sampling_ratio: 2 }, { name: 'roi' })],
      }),
    })));
    expect(diagnosticsOf(() => convertModel(m, { to: 'ov' }))).toEqual([
      'CONVERT_OP main/roi: RoiAlign: output_height / output_width × sampling_ratio make 2199023255552 samples per ROI axis, more than the 16777216 ovir writes as a constant',
    ]);
  });

  it('a sparse initializer with float indices is ONNX_TENSOR_BAD, not an uncaught error (readIntegers threw)', () => {
    const g = ob.graph({
      name: 'g', inputs: [ob.valueInfo('x', 'f32', [4])], outputs: [ob.valueInfo('y', 'f32')],
      nodes: [ob.node('Add', ['x', 'sp'], ['y'], {}, { name: 'add' })],
    });
    g.sparse_initializer = [{ values: ob.floatTensor('sp', [2], [1, 2]), indices: ob.floatTensor('', [2], [0, 3]), dims: [4n] }];
    const m = decodeOnnx(ob.encodeModelProto(ob.model({ opset: 17, graph: g })));
    expect(diagnosticsOf(() => convertModel(m, { to: 'ov' }))).toEqual([
      "ONNX_TENSOR_BAD main: tensor 'sp': sparse initializer: indices must be integers (int64), got f32",
    ]);
  });
});
