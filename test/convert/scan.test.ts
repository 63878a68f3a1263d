import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import { allGraphs, tensorType, verifyGraph, type Model, type Node } from '../../src/graph/index.js';
import { backEdgeIndices } from '../../src/graph/body.js';
import { readIr } from '../../src/ir/read.js';
import { writeIr } from '../../src/ir/write.js';
import { decodeOnnx } from '../../src/onnx/decode.js';
import { encodeOnnx } from '../../src/onnx/encode.js';
import { checkModels } from '../../src/equiv/index.js';
import { inferTypes } from '../../src/shape/index.js';
import * as ob from '../helpers/onnx-builder.js';

/**
 * ONNX Scan ⇄ OpenVINO TensorIterator-1 (mappings/controlflow/scan.ts), read against the two specs:
 * Scan's state variables are TensorIterator back edges, its scan inputs sliced port-map inputs of
 * part_size 1 (the body Parameter keeps the axis as 1: a Squeeze in the body), its scan outputs
 * concatenated port-map outputs (an Unsqueeze in the body), direction 1 a stride of -1.
 * Real engines judge the same conversions in test/conformance (convert-zoo: test_scan*, samples/scan).
 */

const f32 = (name: string, shape: ob.DimSpec[] | null = null) => ob.valueInfo(name, 'f32', shape);

/** Scan running sum: state s (shape [2]) += each row of x; every partial sum is stacked. */
function scanSum(opts: { opset?: number; xShape?: ob.DimSpec[]; attrs?: Record<string, ob.AttrValue>; stateShape?: ob.DimSpec[]; inputs?: string[]; bodyNodes?: ob.NodeProto[] } = {}): Model {
  const opset = opts.opset ?? 17;
  const v8 = opset < 9;
  const body = ob.graph({
    name: 'body',
    inputs: [f32('s', [2]), f32('x', [2])],
    outputs: [f32('s_next', [2]), f32('y', [2])],
    nodes: opts.bodyNodes ?? [ob.node('Add', ['s', 'x'], ['s_next']), ob.node('Identity', ['s_next'], ['y'])],
  });
  const xs = opts.xShape ?? (v8 ? [1, 3, 2] : [3, 2]);
  const s0 = opts.stateShape ?? (v8 ? [1, 2] : [2]);
  return decodeOnnx(ob.encodeModelProto(ob.model({
    opset,
    graph: ob.graph({
      name: 'main',
      inputs: [f32('s0', s0), f32('xs', xs), f32('w', [2])],
      outputs: [f32('sN'), f32('ys')],
      nodes: [ob.node('Scan', opts.inputs ?? (v8 ? ['', 's0', 'xs'] : ['s0', 'xs']), ['sN', 'ys'], { body, num_scan_inputs: 1, ...opts.attrs }, { name: 'scan' })],
    }),
  })));
}

const tiOf = (m: Model): Node => [...allGraphs(m.graph)].flatMap((g) => g.nodes).find((n) => n.op === 'TensorIterator')!;
const scanOf = (m: Model): Node => [...allGraphs(m.graph)].flatMap((g) => g.nodes).find((n) => n.op === 'Scan')!;
const extras = (n: Node) => {
  const b = n.bodies.get('body')!;
  return {
    inputs: b.inputs.map((x) => ({ param: b.graph.inputs.indexOf(x.param), from: x.from, ...x.extra })),
    outputs: b.outputs.map((o) => ({ result: o.result, to: o.to, ...o.extra })),
    backEdges: backEdgeIndices(b),
  };
};
/** Through IR text and back, as OpenVINO would read it. */
const viaXml = (m: Model): Model => { const { xml, bin } = writeIr(m); return readIr(xml, bin.length ? concat(bin) : null); };
const concat = (parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) { out.set(p, o); o += p.length; }
  return out;
};
function errorsOf(f: () => unknown): string[] {
  try { f(); } catch (e) {
    if (e instanceof OvirError) return e.diagnostics.map((d) => `${d.where}: ${d.message}`);
    throw e;
  }
  throw new Error('expected an OvirError');
}

describe('ONNX Scan → IR TensorIterator-1', () => {
  it('a state variable is a merged input (initial value + back edge); a scan input is sliced, part_size 1, over the full range', () => {
    const ir = viaXml(convertModel(scanSum()));
    const ti = tiOf(ir);
    expect(ti.version).toBe('opset1');
    expect(ti.inputs.map((v) => v?.name)).toEqual(['s0', 'xs']);
    expect(extras(ti)).toEqual({
      inputs: [
        { param: 0, from: 0 },
        { param: 1, from: 1, axis: '0', start: '0', end: '-1', stride: '1', part_size: '1' },
      ],
      outputs: [
        { result: 0, to: 0 },
        { result: 1, to: 1, axis: '0', start: '0', end: '-1', stride: '1', part_size: '1' },
      ],
      backEdges: [{ result: 0, param: 0 }],
    });
    // The part keeps its axis as 1 and is squeezed; the per-iteration output is unsqueezed.
    const body = ti.bodies.get('body')!.graph;
    expect(body.inputs.map((p) => p.type)).toEqual([
      { kind: 'tensor', elem: 'f32', shape: [2] },
      { kind: 'tensor', elem: 'f32', shape: [1, 2] },
    ]);
    expect(body.nodes.map((n) => n.op)).toEqual(['Squeeze', 'Add', 'Identity', 'Unsqueeze']);
    expect(ti.outputs.map((v) => [v.names[0], v.type])).toEqual([
      ['sN', { kind: 'tensor', elem: 'f32', shape: [2] }],
      ['ys', { kind: 'tensor', elem: 'f32', shape: [3, 2] }],
    ]);
    expect(verifyGraph(ir.graph)).toEqual([]);
  });

  it('scan_input_directions 1 runs backwards (start -1, end 0, stride -1); axes count from the end (opset 11)', () => {
    const ir = convertModel(scanSum({
      opset: 11, xShape: [2, 4],
      attrs: { scan_input_axes: [-1], scan_input_directions: [1], scan_output_axes: [-1], scan_output_directions: [1] },
    }));
    const e = extras(tiOf(ir));
    expect(e.inputs[1]).toEqual({ param: 1, from: 1, axis: '1', start: '-1', end: '0', stride: '-1', part_size: '1' });
    expect(e.outputs[1]).toEqual({ result: 1, to: 1, axis: '1', start: '-1', end: '0', stride: '-1', part_size: '1' });
    expect(tiOf(ir).outputs[1]!.type).toEqual({ kind: 'tensor', elem: 'f32', shape: [2, 4] });
  });

  it.each([9, 11, 16, 19, 21, 23, 24, 25])('Scan-%i converts', (opset) => {
    expect(tiOf(convertModel(scanSum({ opset }))).op).toBe('TensorIterator');
  });

  it('an outer value the body reads is an invariant input (no axis, no back edge)', () => {
    const ir = convertModel(scanSum({ bodyNodes: [ob.node('Add', ['s', 'x'], ['t']), ob.node('Mul', ['t', 'w'], ['s_next']), ob.node('Identity', ['s_next'], ['y'])] }));
    const ti = tiOf(ir);
    expect(ti.inputs.map((v) => v?.name)).toEqual(['s0', 'xs', 'w']);
    expect(extras(ti).inputs[2]).toEqual({ param: 2, from: 2 });
    expect(verifyGraph(ir.graph)).toEqual([]);
  });

  it('Scan-8 with batch 1: states lose the batch axis around the loop, scan inputs keep it in the part and scan axis 1', () => {
    const ir = viaXml(convertModel(scanSum({ opset: 8 })));
    const ti = tiOf(ir);
    expect(ti.inputs.map((v) => v?.producer?.op ?? v?.name)).toEqual(['Squeeze', 'xs']);
    expect(extras(ti).inputs[1]).toMatchObject({ axis: '1', stride: '1' });
    expect(ti.bodies.get('body')!.graph.inputs.map((p) => p.type)).toEqual([
      { kind: 'tensor', elem: 'f32', shape: [2] },
      { kind: 'tensor', elem: 'f32', shape: [1, 1, 2] },
    ]);
    expect(ti.outputs.map((v) => v.type)).toEqual([
      { kind: 'tensor', elem: 'f32', shape: [2] },
      { kind: 'tensor', elem: 'f32', shape: [1, 3, 2] },
    ]);
    expect(ti.outputs[0]!.uses.map((u) => u.node.op)).toEqual(['Unsqueeze']);
  });

  it('Scan-8 with a batch other than 1, or a sequence_lens shorter than the sequence, is refused naming the node', () => {
    expect(errorsOf(() => convertModel(scanSum({ opset: 8, xShape: [2, 3, 2], stateShape: [2, 2] }))))
      .toEqual([expect.stringMatching(/^main\/scan: .*batch size 2: only batch 1 converts exactly/)]);
    const m = decodeOnnx(ob.encodeModelProto(ob.model({
      opset: 8,
      graph: ob.graph({
        name: 'main',
        inputs: [f32('s0', [1, 2]), f32('xs', [1, 3, 2])],
        initializers: [ob.tensor('lens', 'i64', [1], { int64_data: [2n] })],
        outputs: [f32('sN'), f32('ys')],
        nodes: [ob.node('Scan', ['lens', 's0', 'xs'], ['sN', 'ys'], {
          num_scan_inputs: 1,
          body: ob.graph({ name: 'body', inputs: [f32('s', [2]), f32('x', [2])], outputs: [f32('a', [2]), f32('b', [2])], nodes: [ob.node('Add', ['s', 'x'], ['a']), ob.node('Identity', ['a'], ['b'])] }),
        }, { name: 'scan' })],
      }),
    })));
    expect(errorsOf(() => convertModel(m))).toEqual([expect.stringMatching(/^main\/scan: .*sequence_lens must be absent or a constant equal to the sequence length/)]);
  });

  it('directions that are neither 0 nor 1 are refused', () => {
    expect(errorsOf(() => convertModel(scanSum({ attrs: { scan_input_directions: [2] } }))))
      .toEqual([expect.stringMatching(/scan_input_directions must hold 0 \(forward\) or 1 \(reverse\)/)]);
  });
});

describe('IR TensorIterator → ONNX Scan', () => {
  it('the layout ovc writes for Scan goes back to a Scan with the same attributes, the Squeeze/Unsqueeze pair absorbed by an Unsqueeze/Squeeze', () => {
    const src = scanSum({ opset: 11, xShape: [2, 4], attrs: { scan_input_axes: [1], scan_output_directions: [1] } });
    const back = convertModel(viaXml(convertModel(src)), { opset: 17 });
    const scan = scanOf(back);
    expect(scan.attrs.get('num_scan_inputs')).toEqual({ type: 'int', value: 1n });
    expect(scan.attrs.get('scan_input_axes')).toEqual({ type: 'ints', value: [1n] });
    expect(scan.attrs.get('scan_output_directions')).toEqual({ type: 'ints', value: [1n] });
    expect(scan.attrs.has('scan_input_directions')).toBe(false);
    expect(scan.inputs.map((v) => v?.name)).toEqual(['s0', 'xs']);
    // Encoded and decoded again: a valid Scan whose outputs infer as the source's.
    const again = decodeOnnx(encodeOnnx(back).bytes);
    const types = inferTypes(again).types;
    // 4 slices of [2] along axis 1, stacked along output axis 0
    expect(scanOf(again).outputs.map((v) => types.get(v))).toEqual([
      { kind: 'tensor', elem: 'f32', shape: [2] },
      { kind: 'tensor', elem: 'f32', shape: [4, 2] },
    ]);
  });

  it('invariant inputs become captures of the Scan body', () => {
    const src = scanSum({ bodyNodes: [ob.node('Add', ['s', 'x'], ['t']), ob.node('Mul', ['t', 'w'], ['s_next']), ob.node('Identity', ['s_next'], ['y'])] });
    const back = convertModel(viaXml(convertModel(src)));
    const scan = scanOf(back);
    expect(scan.meta['onnxInputCount']).toBe(2);
    expect(scan.inputs.map((v) => v?.name)).toEqual(['s0', 'xs', 'w']);
    const again = decodeOnnx(encodeOnnx(back).bytes);
    expect(scanOf(again).inputs.map((v) => v?.name)).toEqual(['s0', 'xs', 'w']);
    expect(verifyGraph(again.graph)).toEqual([]);
  });

  it('a Scan before opset 9 (batch axis) is not written: it needs --opset 9 or later', () => {
    const ir = viaXml(convertModel(scanSum()));
    expect(errorsOf(() => convertModel(ir, { opset: 8 }))).toEqual([expect.stringMatching(/a Scan before opset 9 has a batch axis/)]);
  });

  // What Scan cannot say is written as an ONNX Loop (test/convert/tensor-iterator-loop.test.ts);
  // what OpenVINO itself refuses to run stays refused, naming the port-map entry.
  const loopOf = (m: Model): Node | undefined => [...allGraphs(m.graph)].flatMap((g) => g.nodes).find((n) => n.op === 'Loop');

  it('what Scan cannot say becomes a Loop: a partial range', () => {
    const ir = viaXml(convertModel(scanSum()));
    const b = tiOf(ir).bodies.get('body')!;
    b.inputs[1] = { ...b.inputs[1]!, extra: { axis: '0', start: '0', end: '-2', stride: '1', part_size: '1' } };
    expect(loopOf(convertModel(ir))).toBeDefined();
  });

  it('a part_size other than |stride| is refused, naming the port map entry (OpenVINO refuses to run it)', () => {
    const ir = viaXml(convertModel(scanSum()));
    const b = tiOf(ir).bodies.get('body')!;
    b.inputs[1] = { ...b.inputs[1]!, extra: { ...b.inputs[1]!.extra, part_size: '2' } };
    expect(errorsOf(() => convertModel(ir))).toEqual([expect.stringMatching(/^main\/scan.*sliced input 'x': part_size 2 with stride 1 \(OpenVINO's CPU plugin moves parts of \|stride\| elements/)]);
  });

  it('a concatenated output whose Result is more than one element along the axis is no Scan; negative axes are normalized', () => {
    const ir = viaXml(convertModel(scanSum()));
    const b = tiOf(ir).bodies.get('body')!;
    b.inputs[1] = { ...b.inputs[1]!, extra: { ...b.inputs[1]!.extra, axis: '-2' } };
    b.outputs[1] = { ...b.outputs[1]!, extra: { ...b.outputs[1]!.extra, axis: '-2' } };
    expect(scanOf(convertModel(ir)).attrs.has('scan_input_axes')).toBe(false); // -2 of rank 2 is axis 0
    b.outputs[1] = { ...b.outputs[1]!, extra: { ...b.outputs[1]!.extra, axis: '1' } };
    expect(errorsOf(() => convertModel(ir))).toEqual([expect.stringMatching(/concatenated output 1: the body Result has 2 elements along axis 1 per iteration, the port map joins parts of 1 \(OpenVINO refuses it\)/)]);
  });

  it('a last-iteration output of a value that is not loop-carried is a Loop scan output\'s last slice', () => {
    const ir = viaXml(convertModel(scanSum()));
    const b = tiOf(ir).bodies.get('body')!;
    b.backEdges = [];
    const onnx = convertModel(ir);
    expect(loopOf(onnx)).toBeDefined();
    expect(onnx.graph.nodes.map((n) => n.op)).toContain('Gather');
  });
});

describe('nesting', () => {
  const ifIn = (name: string, x: string, out: string) => ob.ifNode('c', [out], 
    ob.graph({ name: `${name}_then`, outputs: [f32(`${name}_t`)], nodes: [ob.node('Neg', [x], [`${name}_t`])] }),
    ob.graph({ name: `${name}_else`, outputs: [f32(`${name}_e`)], nodes: [ob.node('Abs', [x], [`${name}_e`])] }), { name });

  it('an If inside a Scan body reads the scan slice and an outer cond, both ways', () => {
    const body = ob.graph({
      name: 'body',
      inputs: [f32('s', [2]), f32('x', [2])],
      outputs: [f32('s_next', [2]), f32('y', [2])],
      nodes: [ifIn('inner', 'x', 'fx'), ob.node('Add', ['s', 'fx'], ['s_next']), ob.node('Identity', ['s_next'], ['y'])],
    });
    const m = decodeOnnx(ob.encodeModelProto(ob.model({
      opset: 17,
      graph: ob.graph({
        name: 'main',
        inputs: [ob.valueInfo('c', 'boolean', []), f32('s0', [2]), f32('xs', [3, 2])],
        outputs: [f32('sN'), f32('ys')],
        nodes: [ob.node('Scan', ['s0', 'xs'], ['sN', 'ys'], { body, num_scan_inputs: 1 }, { name: 'scan' })],
      }),
    })));
    const ir = viaXml(convertModel(m));
    const ti = tiOf(ir);
    expect(ti.inputs.map((v) => v?.name)).toEqual(['s0', 'xs', 'c']);
    const inner = ti.bodies.get('body')!.graph.nodes.find((n) => n.op === 'If')!;
    expect(inner.version).toBe('opset8');
    expect(verifyGraph(ir.graph)).toEqual([]);
    const back = convertModel(ir);
    const again = decodeOnnx(encodeOnnx(back).bytes);
    expect(scanOf(again).bodies.get('body')!.graph.nodes.map((n) => n.op)).toContain('If');
    expect(verifyGraph(again.graph)).toEqual([]);
  });

  it('a Scan inside an If branch, both ways', () => {
    const body = ob.graph({
      name: 'body',
      inputs: [f32('s', [2]), f32('x', [2])],
      outputs: [f32('s_next', [2]), f32('y', [2])],
      nodes: [ob.node('Add', ['s', 'x'], ['s_next']), ob.node('Identity', ['s_next'], ['y'])],
    });
    const m = decodeOnnx(ob.encodeModelProto(ob.model({
      opset: 17,
      graph: ob.graph({
        name: 'main',
        inputs: [ob.valueInfo('c', 'boolean', []), f32('s0', [2]), f32('xs', [3, 2])],
        outputs: [f32('r')],
        nodes: [ob.ifNode('c', ['r'],
          ob.graph({ name: 'then', outputs: [f32('t_ys')], nodes: [ob.node('Scan', ['s0', 'xs'], ['t_sN', 't_ys'], { body, num_scan_inputs: 1 }, { name: 'scan' })] }),
          ob.graph({ name: 'else', outputs: [f32('e')], nodes: [ob.node('Neg', ['xs'], ['e'])] }), { name: 'if' })],
      }),
    })));
    const ir = viaXml(convertModel(m));
    const ti = tiOf(ir);
    expect(ti.graph.depth).toBe(1);
    expect(ti.outputs[1]!.type).toEqual({ kind: 'tensor', elem: 'f32', shape: [3, 2] });
    expect(verifyGraph(ir.graph)).toEqual([]);
    const again = decodeOnnx(encodeOnnx(convertModel(ir)).bytes);
    expect(scanOf(again).graph.depth).toBe(1);
    expect(verifyGraph(again.graph)).toEqual([]);
  });
});

describe('ovir check pairs Scan and TensorIterator bodies through the port maps', () => {
  it.each([8, 9, 11])('Scan-%i against its TensorIterator: equivalent; the states pair exactly, the parts (axis kept as 1 in IR) are hints', (opset) => {
    const onnx = scanSum({ opset });
    const ir = viaXml(convertModel(onnx));
    const r = checkModels(onnx, ir);
    expect(r.entries.filter((e) => e.status === 'contradiction' && !e.hint)).toEqual([]);
    expect(r.entries.filter((e) => e.hint).map((e) => e.name)).toEqual(['x', 'y']);
    expect(r.ok).toBe(true);
    const s = r.entries.find((e) => e.name === 's')!;
    expect(s).toMatchObject({ status: 'equal', a: { shape: [2] }, b: { shape: [2] } });
  });

  it('a TensorIterator whose back edge feeds the wrong Parameter is a contradiction', () => {
    const onnx = scanSum({ bodyNodes: [ob.node('Add', ['s', 'x'], ['t']), ob.node('Mul', ['t', 'w'], ['s_next']), ob.node('Identity', ['s_next'], ['y'])] });
    const ir = viaXml(convertModel(onnx));
    const b = tiOf(ir).bodies.get('body')!;
    // the result feeds node output 1 instead of 0
    b.outputs = b.outputs.map((o) => ({ ...o, to: 1 - o.to }));
    expect(checkModels(onnx, ir).ok).toBe(false);
  });
});

/**
 * IR TensorIterator → ONNX Loop (mappings/controlflow/tensor-iterator-loop.ts), read against
 * TensorIterator-1 as OpenVINO runs it: a sliced input of length n gives parts of |stride| elements,
 * start/end count from n + 1 when negative, the iterations are (hi − lo) / |stride| over [lo, hi)
 * ([start, end) for a positive stride, [end, start) for a negative one). Engines judge the same
 * conversions in test/conformance/tensor-iterator-loop.test.ts.
 */
describe('IR TensorIterator → ONNX Loop (what Scan cannot say)', () => {
  const loopOf = (m: Model): Node => [...allGraphs(m.graph)].flatMap((g) => g.nodes).find((n) => n.op === 'Loop')!;
  /** scanSum's TensorIterator (xs [3, 2] sliced along 0) with the sliced input's port map replaced. */
  const withSlice = (extra: Record<string, string>): Model => {
    const ir = viaXml(convertModel(scanSum()));
    const b = tiOf(ir).bodies.get('body')!;
    b.inputs[1] = { ...b.inputs[1]!, extra: { axis: '0', ...extra } };
    return ir;
  };
  /** The op producing v and, recursively, its first input's: the trip count's expression. */
  const chain = (v: { producer: Node | null } | null | undefined): string[] => {
    const out: string[] = [];
    for (let p = v?.producer ?? null; p; p = p.inputs[0]?.producer ?? null) out.push(p.op);
    return out;
  };

  it('a partial range: M = (n + 1 + end − start) / |stride| from the sliced input\'s run-time length n', () => {
    const onnx = convertModel(withSlice({ start: '0', end: '-2', stride: '1', part_size: '1' }));
    const loop = loopOf(onnx);
    expect(chain(loop.inputs[0])).toEqual(['Add', 'Gather', 'Shape']);
    const add = loop.inputs[0]!.producer!;
    expect(add.inputs[1]!.constant?.dims).toEqual([]);
    expect(Number(new BigInt64Array(add.inputs[1]!.constant!.data.slice().buffer)[0])).toBe(-1);
    expect(loop.inputs[0]!.producer!.inputs[0]!.producer!.inputs[0]!.producer!.inputs[0]!.name).toBe('xs');
  });

  it('the body cuts each part with a Slice at iteration_num along the axis; the whole input is captured', () => {
    const onnx = convertModel(withSlice({ start: '0', end: '-2', stride: '1', part_size: '1' }));
    const body = loopOf(onnx).bodies.get('body')!;
    const slice = body.graph.nodes.find((n) => n.op === 'Slice')!;
    expect(body.graph.inputs[0]!.name).toBe('iteration_num');
    expect(slice.inputs[0]!.meta['onnxCapture']).toBe(true);
    expect(chain(slice.inputs[1])).toEqual(['Reshape']); // [i]
    expect(chain(slice.inputs[2])).toEqual(['Add', 'Reshape']); // [i + 1]
  });

  it('a negative stride reads the parts from the last whole part ⌊n / |stride|⌋ · |stride| downwards', () => {
    const onnx = convertModel(withSlice({ start: '-1', end: '1', stride: '-1', part_size: '1' }));
    const loop = loopOf(onnx);
    expect(chain(loop.inputs[0])).toEqual(['Add', 'Gather', 'Shape']); // [end, start) = [1, n + 1 − 1): n − 1 parts
    const slice = loop.bodies.get('body')!.graph.nodes.find((n) => n.op === 'Slice')!;
    expect(chain(slice.inputs[1])).toEqual(['Sub', 'Reshape']); // [top] − ([i] + 1)
  });

  it('what OpenVINO refuses to run stays refused, naming the entry: stride 0, a range with no part, part_size ≠ |stride|', () => {
    expect(errorsOf(() => convertModel(withSlice({ start: '0', end: '-1', stride: '0', part_size: '1' }))))
      .toEqual([expect.stringMatching(/sliced input 'x': stride 0/)]);
    expect(errorsOf(() => convertModel(withSlice({ start: '2', end: '1', stride: '1', part_size: '1' }))))
      .toEqual([expect.stringMatching(/sliced input 'x': start 2, end 1, stride 1 cover no part/)]);
    expect(errorsOf(() => convertModel(withSlice({ start: '0', end: '-1', stride: '2', part_size: '1' }))))
      .toEqual([expect.stringMatching(/sliced input 'x': part_size 1 with stride 2/)]);
  });

  it('before opset 11 the Loop form is not written: it needs --opset 11', () => {
    expect(errorsOf(() => convertModel(withSlice({ start: '0', end: '-2', stride: '1', part_size: '1' }), { opset: 10 })))
      .toEqual([expect.stringMatching(/convert with --opset 11 or later/)]);
  });

  it('a TensorIterator written as Loop inside an If branch, and an If inside it, convert (nesting)', () => {
    const body = ob.graph({
      name: 'body',
      inputs: [f32('s', [2]), f32('x', [2])],
      outputs: [f32('s_next', [2]), f32('y', [2])],
      nodes: [ob.ifNode('c', ['fx'], ob.graph({ name: 'then', outputs: [f32('t')], nodes: [ob.node('Neg', ['x'], ['t'])] }),
        ob.graph({ name: 'else', outputs: [f32('e')], nodes: [ob.node('Abs', ['x'], ['e'])] }), { name: 'inner' }),
      ob.node('Add', ['s', 'fx'], ['s_next']), ob.node('Identity', ['s_next'], ['y'])],
    });
    const m = decodeOnnx(ob.encodeModelProto(ob.model({
      opset: 17,
      graph: ob.graph({
        name: 'main',
        inputs: [ob.valueInfo('c', 'boolean', []), f32('s0', [2]), f32('xs', [3, 2])],
        outputs: [f32('r')],
        nodes: [ob.ifNode('c', ['r'],
          ob.graph({ name: 'outer_then', outputs: [f32('sN')], nodes: [ob.node('Scan', ['s0', 'xs'], ['sN'], { body, num_scan_inputs: 1 }, { name: 'scan' })] }),
          ob.graph({ name: 'outer_else', outputs: [f32('z')], nodes: [ob.node('Identity', ['s0'], ['z'])] }), { name: 'outer' })],
      }),
    })));
    const ir = viaXml(convertModel(m));
    const b = tiOf(ir).bodies.get('body')!;
    const xi = b.inputs.findIndex((x) => x.extra?.['axis'] !== undefined);
    b.inputs[xi] = { ...b.inputs[xi]!, extra: { ...b.inputs[xi]!.extra, end: '-2' } };
    const back = convertModel(ir);
    const loop = loopOf(back);
    expect(loop.graph.path).toMatch(/^main\/outer\/then/);
    expect(loop.bodies.get('body')!.graph.nodes.map((n) => n.op)).toContain('If');
    const again = decodeOnnx(encodeOnnx(back).bytes);
    expect(verifyGraph(again.graph)).toEqual([]);
    expect(loopOf(again)).toBeDefined();
  });

  it('`ovir check` of the TensorIterator against its Loop: the carried state pairs exactly, no contradiction', () => {
    const ir = withSlice({ start: '0', end: '-2', stride: '1', part_size: '1' });
    // the fixture's output was written for the full range: 2 parts of the 3 now
    const ys = ir.graph.outputs.find((v) => v.names.includes('ys'))!;
    ys.type = tensorType('f32', [2, 2]);
    const onnx = convertModel(ir);
    const r = checkModels(ir, onnx);
    expect(r.entries.filter((e) => e.status === 'contradiction' && !e.hint)).toEqual([]);
    expect(r.entries.find((e) => e.name === 's')).toMatchObject({ status: 'equal' });
    expect(r.ok).toBe(true);
    // the same Loop against a TensorIterator whose results feed each other's outputs: not equivalent
    const swapped = withSlice({ start: '0', end: '-2', stride: '1', part_size: '1' });
    const b = tiOf(swapped).bodies.get('body')!;
    b.outputs = b.outputs.map((o) => ({ ...o, result: 1 - o.result }));
    expect(checkModels(swapped, onnx).ok).toBe(false);
  });
});
