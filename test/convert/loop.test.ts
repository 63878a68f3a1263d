import type { Meta } from '../../src/graph/meta.js';
import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import { backEdgeIndices } from '../../src/graph/body.js';
import { allGraphs, verifyGraph, type Model, type Node } from '../../src/graph/index.js';
import { tensorType } from '../../src/graph/types.js';
import { readIntegers } from '../../src/graph/tensor.js';
import { readIr } from '../../src/ir/read.js';
import { writeIr } from '../../src/ir/write.js';
import { decodeOnnx } from '../../src/onnx/decode.js';
import { encodeOnnx } from '../../src/onnx/encode.js';
import { inferTypes } from '../../src/shape/index.js';
import * as ob from '../helpers/onnx-builder.js';
import { accumulate, ifInsideLoop, LOOP_VERSIONS, nestedLoops, sequenceCarried } from './loop-fixtures.js';

const loopOf = (m: Model): Node => m.graph.nodes.find((n) => n.op === 'Loop')!;
const layer = (v: { meta: Meta }) => v.meta['layerName'];
const toIr = (bytes: Uint8Array): Model => convertModel(decodeOnnx(bytes));
/** Writes and reads an IR back (what another tool reading ovir's file sees). */
const reread = (m: Model): Model => { const w = writeIr(m); return readIr(w.xml, new Uint8Array(Buffer.concat(w.bin))); };

function errorsOf(f: () => unknown): string[] {
  try { f(); } catch (e) {
    if (e instanceof OvirError) return e.diagnostics.map((d) => `${d.code} ${d.where}: ${d.message}`);
    throw e;
  }
  throw new Error('expected an OvirError');
}

describe('ONNX Loop → IR Loop-5 (as OpenVINO\'s ONNX frontend)', () => {
  it('M and cond are inputs 0 and 1, loop-carried values follow, outer values are invariant inputs', () => {
    const n = loopOf(toIr(accumulate()));
    expect(n.dialect).toBe('ov');
    expect(n.version).toBe('opset5');
    expect(n.inputs.map((v) => v!.name)).toEqual(['M', 'cond', 'y0', 'x']);
    const b = n.bodies.get('body')!;
    expect(b.inputs.map((x) => [layer(x.param), x.from, x.extra ?? {}])).toEqual([
      ['i', -1, { purpose: 'current_iteration' }], ['c', 1, {}], ['y', 2, {}], ['x', 3, {}],
    ]);
  });

  it('the final value takes the last iteration; a scan output is each iteration unsqueezed at 0, concatenated along axis 0', () => {
    const n = loopOf(toIr(accumulate()));
    const b = n.bodies.get('body')!;
    expect(b.outputs).toEqual([
      { result: 1, to: 0 },
      { result: 2, to: 1, extra: { axis: '0', start: '0', end: '-1', stride: '1', part_size: '1' } },
      { result: 0, to: -1, extra: { purpose: 'execution_condition' } },
    ]);
    const scanItem = b.graph.outputs[2]!.producer!;
    expect(scanItem.op).toBe('Unsqueeze');
    expect(readIntegers(scanItem.inputs[1]!.constant!)).toEqual([0n]);
  });

  it('loop-carried values and cond are merged through back edges (body Result → body Parameter)', () => {
    const b = loopOf(toIr(accumulate({ condOut: 'computed' }))).bodies.get('body')!;
    expect(backEdgeIndices(b).map((e) => [e!.result, layer(b.graph.inputs[e!.param]!)])).toEqual([[0, 'c'], [1, 'y']]);
    expect(b.graph.outputs[0]!.producer!.op).toBe('Less');
  });

  it('a cond passed through unchanged becomes a constant true condition Result (OpenVINO then knows the count)', () => {
    const b = loopOf(toIr(accumulate({ condOut: 'through' }))).bodies.get('body')!;
    expect(b.graph.outputs[0]!.constant && readIntegers(b.graph.outputs[0]!.constant)).toEqual([1n]);
  });

  it('an empty M is trip count -1 and an empty cond is true', () => {
    const n = loopOf(toIr(accumulate({ trip: 'empty', cond: 'empty' })));
    expect(readIntegers(n.inputs[0]!.constant!)).toEqual([-1n]);
    expect(readIntegers(n.inputs[1]!.constant!)).toEqual([1n]);
  });

  it('is written as the serializer does and reads back the same', () => {
    const ir = toIr(accumulate());
    const xml = writeIr(ir).xml;
    const portMap = xml.slice(xml.indexOf('<port_map>'), xml.indexOf('</back_edges>')).split('\n').map((l) => l.trim()).filter((l) => /^<(input|output|edge)/.test(l));
    expect(portMap.map((l) => l.replace(/internal_layer_id="\d+"|(from|to)-layer="\d+"/g, ''))).toEqual([
      '<input external_port_id="1"  />', '<input external_port_id="2"  />', '<input external_port_id="3"  />',
      '<output external_port_id="4"  />', '<output axis="0" external_port_id="5"  start="0" end="-1" stride="1" part_size="1" />',
      '<input external_port_id="-1"  purpose="current_iteration" />', '<output external_port_id="-1"  purpose="execution_condition" />',
      '<edge   />', '<edge   />',
    ]);
    const back = loopOf(reread(ir)).bodies.get('body')!;
    expect(backEdgeIndices(back).map((e) => [e!.result, layer(back.graph.inputs[e!.param]!)])).toEqual([[0, 'c'], [1, 'y']]);
  });

  it.each(LOOP_VERSIONS)('Loop-$version (opset $opset) converts', ({ opset }) => {
    const ir = toIr(accumulate({ opset, condOut: 'computed' }));
    expect(loopOf(ir).op).toBe('Loop');
    expect(verifyGraph(ir.graph)).toEqual([]);
  });

  it('a sequence-typed loop-carried value that leaves the graph is refused, naming node and why (IR has tensors only)', () => {
    expect(errorsOf(() => toIr(sequenceCarried()))).toEqual([
      "CONVERT_OP main/seq_loop: Loop: loop-carried value 0 ('s0') is a sequence: it converts where the body only appends to it and only ConcatFromSequence (one axis) reads it after the loop (OpenVINO IR has tensors only); here 's_final' is a graph output",
    ]);
  });
});

describe('IR Loop-5 → ONNX Loop', () => {
  it('ONNX → IR → ONNX gives the source\'s Loop: (M, cond, y0) with x read by name, body (i, c, y) → (c_out, y_next, y_item)', () => {
    const back = convertModel(toIr(accumulate({ condOut: 'computed' })), { opset: 17 });
    const n = loopOf(back);
    expect(n.inputs.map((v) => v!.name)).toEqual(['M', 'cond', 'y0', 'x']);
    expect(n.meta['onnxInputCount']).toBe(3);
    const b = n.bodies.get('body')!;
    expect(b.graph.inputs.map((p) => p.name)).toEqual(['i', 'c', 'y', 'x']);
    expect(b.graph.inputs[3]!.meta['onnxCapture']).toBe(true);
    expect(b.graph.outputs).toHaveLength(3);
    // the IR's Unsqueeze at axis 0 is what ONNX's stacking does: no Unsqueeze, no Squeeze
    expect([...allGraphs(back.graph)].flatMap((g) => g.nodes.map((x) => x.op))).not.toContain('Squeeze');
    expect(b.graph.nodes.map((x) => x.op)).not.toContain('Unsqueeze');
    expect(verifyGraph(back.graph)).toEqual([]);
    const again = decodeOnnx(encodeOnnx(back).bytes);
    expect(loopOf(again).bodies.get('body')!.graph.inputs.filter((p) => !p.meta['onnxCapture']).map((p) => p.name)).toEqual(['i', 'c', 'y']);
  });

  it('a trip count of -1 is an empty M', () => {
    const back = convertModel(toIr(accumulate({ trip: 'empty', cond: 'empty' })), { opset: 17 });
    expect(loopOf(back).inputs[0]).toBeNull();
  });

  it('a Parameter taking slices of its input (axis in the port map: TensorIterator\'s form, which Loop-5 takes) reads a Slice of the whole input at iteration_num', () => {
    const w = writeIr(toIr(accumulate({ condOut: 'through' })));
    // x (invariant, [2]) becomes parts of 1 along axis 0
    const xml = w.xml.replace('<input external_port_id="3" ', '<input axis="0" external_port_id="3" ');
    const ir = readIr(xml, new Uint8Array(Buffer.concat(w.bin)));
    const body = loopOf(ir).bodies.get('body')!;
    body.inputs.find((b) => b.extra?.['axis'] !== undefined)!.param.type = tensorType('f32', [1]);
    const back = convertModel(ir, { opset: 17 });
    const g = loopOf(back).bodies.get('body')!.graph;
    const slice = g.nodes.find((n) => n.op === 'Slice')!;
    expect(slice.inputs[0]!.meta['onnxCapture']).toBe(true);
    expect(slice.inputs[1]!.producer!.op).toBe('Reshape');
    expect(slice.inputs[1]!.producer!.inputs[0]).toBe(g.inputs[0]); // iteration_num
    expect(errorsOf(() => convertModel(readIr(xml.replace('<input axis="0" external_port_id="3" ', '<input axis="0" stride="2" external_port_id="3" '), new Uint8Array(Buffer.concat(w.bin))), { opset: 17 })))
      .toContainEqual(expect.stringMatching(/sliced input 'x': part_size 1 with stride 2/));
  });

  it('a current_iteration Parameter of i32 or shape [1] (OpenVINO takes both) reads a Cast / Reshape of the i64 scalar iteration_num', () => {
    const ir = toIr(accumulate({ condOut: 'through' }));
    const body = loopOf(ir).bodies.get('body')!;
    const it = body.inputs.find((b) => b.extra?.['purpose'] === 'current_iteration')!.param;
    it.type = tensorType('i32', [1]);
    const back = convertModel(reread(ir), { opset: 17 });
    const g = loopOf(back).bodies.get('body')!.graph;
    expect(g.inputs[0]!.type).toEqual(tensorType('i64', []));
    const reader = g.inputs[0]!.uses.map((u) => u.node);
    expect(reader.map((n) => [n.op, n.attrs.get('to')?.value])).toEqual([['Cast', 6n]]);
    expect(reader[0]!.outputs[0]!.uses.map((u) => u.node.op)).toEqual(['Reshape']);
    it.type = tensorType('f32', []);
    expect(errorsOf(() => convertModel(reread(ir), { opset: 17 }))).toContainEqual(expect.stringMatching(/current_iteration Parameter 'i' is tensor\(f32\); OpenVINO counts iterations in an i32 or i64 scalar or \[1\]/));
  });

  it('an execution_condition Result that is not one boolean is refused (OpenVINO\'s CPU plugin refuses it; onnxruntime fails on such a cond)', () => {
    const w = writeIr(toIr(accumulate({ condOut: 'computed' })));
    const carried = /<output external_port_id="\d+" internal_layer_id="(\d+)" \/>/.exec(w.xml)![1]!;
    const xml = w.xml.replace(/internal_layer_id="\d+" purpose="execution_condition"/, `internal_layer_id="${carried}" purpose="execution_condition"`);
    const ir = readIr(xml, new Uint8Array(Buffer.concat(w.bin)));
    expect(errorsOf(() => convertModel(ir, { opset: 17 }))).toContainEqual(expect.stringMatching(/the execution_condition Result is tensor\(f32\); the condition is one boolean/));
  });

  it('concatenation with a stride other than 1 is refused', () => {
    const w = writeIr(toIr(accumulate()));
    const xml = w.xml.replace('stride="1"', 'stride="-1"');
    const ir = readIr(xml, new Uint8Array(Buffer.concat(w.bin)));
    expect(errorsOf(() => convertModel(ir, { opset: 17 }))).toContainEqual(expect.stringMatching(/concatenates with stride=-1; ONNX Loop stacks every iteration in order/));
  });
});

describe('OpenVINO Loop-5 shape inference', () => {
  const scanType = (m: Model) => {
    const r = inferTypes(m);
    return r.types.get(loopOf(m).outputs[1]!);
  };

  it('a concatenated output grows along the axis by the trip count when the count is known', () => {
    const bytes = ob.encodeModelProto(ob.model({
      graph: ob.graph({
        inputs: [ob.valueInfo('y0', 'f32', [2]), ob.valueInfo('x', 'f32', [2])],
        outputs: [ob.valueInfo('y_final', 'f32', [2]), ob.valueInfo('y_scan', 'f32', null)],
        initializers: [ob.int64Tensor('M', [], [3]), ob.boolTensor('cond', [], [true])],
        nodes: [ob.node('Loop', ['M', 'cond', 'y0'], ['y_final', 'y_scan'], {
          body: ob.attr.graph(ob.graph({
            inputs: [ob.valueInfo('i', 'i64', []), ob.valueInfo('c', 'boolean', []), ob.valueInfo('y', 'f32', [2])],
            outputs: [ob.valueInfo('c_out', 'boolean', []), ob.valueInfo('y_next', 'f32', [2]), ob.valueInfo('y_item', 'f32', [2])],
            nodes: [ob.node('Add', ['y', 'x'], ['y_next']), ob.node('Identity', ['y_next'], ['y_item']), ob.node('Identity', ['c'], ['c_out'])],
          })),
        }, { name: 'loop' })],
      }),
    }));
    expect(scanType(toIr(bytes))).toEqual({ kind: 'tensor', elem: 'f32', shape: [3, 2] });
  });

  it('is unknown along the axis when the trip count is a run-time input', () => {
    expect(scanType(toIr(accumulate()))).toEqual({ kind: 'tensor', elem: 'f32', shape: [null, 2] });
  });

  it('is unknown along the axis when the body computes the condition', () => {
    expect(scanType(toIr(accumulate({ condOut: 'computed' })))).toEqual({ kind: 'tensor', elem: 'f32', shape: [null, 2] });
  });

  it('a loop-carried Parameter whose shape the body changes is relaxed; the output is the body Result\'s type (OpenVINO 2026.4: [4], Parameter [?])', () => {
    const ir = toIr(accumulate());
    const loop = loopOf(ir);
    const b = loop.bodies.get('body')!;
    const grow = b.graph.addNode({ dialect: 'ov', op: 'Concat', version: 'opset1', name: 'grow' });
    grow.attrs.set('axis', { type: 'raw', value: '0' });
    grow.addInput(b.graph.outputs[1]!);
    grow.addInput(b.graph.outputs[1]!);
    b.graph.outputs[1] = grow.addOutput(null);
    const y = b.inputs.find((x) => x.from === 2)!.param;
    y.type = { kind: 'tensor', elem: 'f32', shape: [2] };
    const r = inferTypes(ir);
    expect(r.types.get(y)).toEqual({ kind: 'tensor', elem: 'f32', shape: [null] });
    expect(r.types.get(loop.outputs[0]!)).toEqual({ kind: 'tensor', elem: 'f32', shape: [4] });
  });

  it('a back edge that changes the element type is SHAPE_LOOP_BACK_EDGE', () => {
    const ir = toIr(accumulate());
    const b = loopOf(ir).bodies.get('body')!;
    const cv = b.graph.addNode({ dialect: 'ov', op: 'Convert', version: 'opset1', name: 'to_i32' });
    cv.attrs.set('destination_type', { type: 'raw', value: 'i32' });
    cv.addInput(b.graph.outputs[1]!);
    b.graph.outputs[1] = cv.addOutput(null);
    const codes = inferTypes(ir).diagnostics.map((d) => `${d.code}: ${d.message}`);
    expect(codes).toContainEqual(expect.stringMatching(/^SHAPE_LOOP_BACK_EDGE: Loop body: back edge from Result 1 to Parameter 'y' changes the element type \(f32 → i32\)/));
  });
});

describe('nesting', () => {
  it('If inside Loop: the If reads the body\'s y and the main graph\'s x through the Loop\'s port map', () => {
    const ir = toIr(ifInsideLoop());
    const b = loopOf(ir).bodies.get('body')!;
    const inner = b.graph.nodes.find((n) => n.op === 'If')!;
    expect(inner.version).toBe('opset8');
    expect(inner.inputs.slice(1).map((v) => layer(v!))).toEqual(['y', 'x']);
    const back = convertModel(ir, { opset: 17 });
    expect(verifyGraph(back.graph)).toEqual([]);
    expect(loopOf(back).bodies.get('body')!.graph.nodes.map((n) => n.op)).toContain('If');
  });

  it('Loop in Loop in If with an If in the inner Loop: x passes through a Parameter at each level', () => {
    const ir = toIr(nestedLoops());
    expect(verifyGraph(ir.graph)).toEqual([]);
    expect(Math.max(...[...allGraphs(ir.graph)].map((g) => g.depth))).toBe(4);
    const back = convertModel(ir, { opset: 17 });
    expect(verifyGraph(back.graph)).toEqual([]);
    expect([...allGraphs(back.graph)].flatMap((g) => g.nodes.map((n) => n.op)).sort()).toEqual(['Add', 'Greater', 'Identity', 'If', 'If', 'Loop', 'Loop', 'Mul', 'Neg'].sort());
  });

  it('Loops nested 64 deep convert both ways without recursion', () => {
    // names unique per level: ONNX forbids shadowing an outer name
    let body = ob.graph({
      name: 'b64',
      inputs: [ob.valueInfo('i64', 'i64', []), ob.valueInfo('c64', 'boolean', []), ob.valueInfo('y64', 'f32', [2])],
      outputs: [ob.valueInfo('c64_out', 'boolean', []), ob.valueInfo('y64_out', 'f32', [2])],
      nodes: [ob.node('Add', ['y64', 'x'], ['y64_out']), ob.node('Identity', ['c64'], ['c64_out'])],
    });
    for (let d = 63; d >= 1; d--) {
      body = ob.graph({
        name: `b${d}`,
        inputs: [ob.valueInfo(`i${d}`, 'i64', []), ob.valueInfo(`c${d}`, 'boolean', []), ob.valueInfo(`y${d}`, 'f32', [2])],
        outputs: [ob.valueInfo(`c${d}_out`, 'boolean', []), ob.valueInfo(`y${d}_out`, 'f32', [2])],
        nodes: [ob.node('Loop', ['one', '', `y${d}`], [`y${d}_out`], { body: ob.attr.graph(body) }), ob.node('Identity', [`c${d}`], [`c${d}_out`])],
      });
    }
    const bytes = ob.encodeModelProto(ob.model({
      graph: ob.graph({
        inputs: [ob.valueInfo('x', 'f32', [2])],
        outputs: [ob.valueInfo('y', 'f32', [2])],
        initializers: [ob.int64Tensor('one', [], [1])],
        nodes: [ob.node('Loop', ['one', '', 'x'], ['y'], { body: ob.attr.graph(body) })],
      }),
    }));
    const ir = toIr(bytes);
    expect(Math.max(...[...allGraphs(ir.graph)].map((g) => g.depth))).toBe(64);
    expect(verifyGraph(ir.graph)).toEqual([]);
    const back = convertModel(reread(ir), { opset: 17 });
    expect(Math.max(...[...allGraphs(back.graph)].map((g) => g.depth))).toBe(64);
    expect(verifyGraph(back.graph)).toEqual([]);
  });
});
