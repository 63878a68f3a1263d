import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import { checkModels } from '../../src/equiv/index.js';
import { allNodes, readIntegers, verifyGraph, type Model } from '../../src/graph/index.js';
import { saveModel } from '../../src/io/load.js';
import { decodeOnnx } from '../../src/onnx/decode.js';
import { inferTypes } from '../../src/shape/index.js';
import { compareOutputs } from '../helpers/compare.js';
import * as ob from '../helpers/onnx-builder.js';
import { Oracle, oracleAvailable, type OracleTensor } from '../helpers/oracle.js';

/**
 * ONNX sequence ops → OpenVINO IR (mappings/sequence/), read against the ONNX spec of each op.
 * IR has no sequence type: a sequence whose tensors and positions are known at conversion time is
 * the list of those tensors (as OpenVINO's ONNX frontend keeps it), the ops that read it become
 * the tensors themselves, a constant length, a Concat; anything else is a coded refusal naming
 * the node. Real engines judge: OpenVINO runs ovir's IR, onnxruntime the ONNX source, on the same
 * inputs (below, and the backend test_sequence_model* cases in test/conformance/convert-zoo).
 */

const dir = mkdtempSync(join(tmpdir(), 'ovir-seq-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const f32 = (name: string, shape: ob.DimSpec[] | null = null) => ob.valueInfo(name, 'f32', shape);
const i64 = (name: string, v: number) => ob.int64Tensor(name, [], [v]);
const seqOf = (name: string): ob.ValueInfoProto => ({ name, type: { sequence_type: { elem_type: ob.tensorType('f32') } } });

interface Fixture {
  inputs?: ob.ValueInfoProto[];
  outputs?: ob.ValueInfoProto[];
  initializers?: ob.TensorProto[];
  nodes: ob.NodeProto[];
  opset?: number;
}
/** x, y, z: f32 [2, 3]; positions as int64 scalar initializers. */
function model(f: Fixture): Model {
  return decodeOnnx(encode(f));
}
function encode(f: Fixture): Uint8Array {
  return ob.encodeModelProto(ob.model({
    opset: f.opset ?? 12,
    graph: ob.graph({
      name: 'seq',
      inputs: f.inputs ?? [f32('x', [2, 3]), f32('y', [2, 3]), f32('z', [2, 3])],
      outputs: f.outputs ?? [f32('out')],
      initializers: f.initializers ?? [],
      nodes: f.nodes,
    }),
  }));
}
const toIr = (f: Fixture): Model => convertModel(model(f));
/** The names of the IR value graph output 'out' is, besides 'out': the source tensor it resolved to. */
const resolved = (m: Model): string[] => m.graph.outputs[0]!.names.filter((s) => s !== 'out');
const ops = (m: Model): string[] => [...allNodes(m.graph)].map((n) => n.op);

function errorsOf(f: () => unknown): string[] {
  try { f(); } catch (e) {
    if (e instanceof OvirError) return e.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.code} ${d.where}: ${d.message}`);
    throw e;
  }
  throw new Error('expected an OvirError');
}

const construct = ob.node('SequenceConstruct', ['x', 'y', 'z'], ['s']);

const f32Tensor = (shape: number[], seed: number): OracleTensor => {
  const n = shape.reduce((a, b) => a * b, 1);
  const a = Float32Array.from({ length: n }, (_, i) => Math.sin(seed * 7 + i * 0.61) * 3);
  return { dtype: 'f32', shape, data: new Uint8Array(a.buffer) };
};

describe('SequenceConstruct and SequenceAt: "the tensor at position in the sequence"', () => {
  it.each([[0, 'x'], [2, 'z'], [-1, 'z'], [-3, 'x']])('position %i is %s (negative counts from the back); no IR op is written', (p, want) => {
    const ir = toIr({ initializers: [i64('p', p)], nodes: [construct, ob.node('SequenceAt', ['s', 'p'], ['out'])] });
    expect(ops(ir)).toEqual([]);
    expect(resolved(ir)).toEqual([want]);
    expect(verifyGraph(ir.graph)).toEqual([]);
  });

  it('"accepted range in [-n, n - 1]": a position outside is refused, naming the node', () => {
    expect(errorsOf(() => toIr({ initializers: [i64('p', 3)], nodes: [construct, ob.node('SequenceAt', ['s', 'p'], ['out'], {}, { name: 'at' })] })))
      .toEqual(['CONVERT_OP main/at: SequenceAt: position 3 is out of range [-3, 2] for a sequence of 3 tensors']);
  });

  it('a position known only at run time is refused (IR has no sequence to index at run time)', () => {
    const errs = errorsOf(() => toIr({
      inputs: [f32('x', [2, 3]), f32('y', [2, 3]), f32('z', [2, 3]), ob.valueInfo('p', 'i64', [])],
      nodes: [construct, ob.node('SequenceAt', ['s', 'p'], ['out'], {}, { name: 'at' })],
    }));
    expect(errs).toEqual(['CONVERT_NEEDS_CONSTANT main/at: SequenceAt: input 1 (position: a sequence is resolved at conversion time) must be a constant to convert to OpenVINO IR']);
  });
});

describe('SequenceInsert: "inserts tensor into input_sequence at position"', () => {
  const at = (nodes: ob.NodeProto[], p: number) => resolved(toIr({ initializers: [i64('p', p)], nodes: [...nodes, ob.node('SequenceAt', ['t', 'p'], ['out'])] }))[0];
  it('"default is to insert to the back of the sequence"', () => {
    const nodes = [ob.node('SequenceConstruct', ['x', 'y'], ['s']), ob.node('SequenceInsert', ['s', 'z'], ['t'])];
    expect([0, 1, 2].map((p) => at(nodes, p))).toEqual(['x', 'y', 'z']);
  });
  it('at position 0 (the front), at -1 (before the last), at n (the back): "accepted range in [-n, n]"', () => {
    const order = (p: number) => [
      ob.node('Constant', [], ['q'], { value: i64('qv', p) }), ob.node('SequenceConstruct', ['x', 'y'], ['s']), ob.node('SequenceInsert', ['s', 'z', 'q'], ['t']),
    ];
    expect([0, 1, 2].map((k) => at(order(0), k))).toEqual(['z', 'x', 'y']);
    expect([0, 1, 2].map((k) => at(order(-1), k))).toEqual(['x', 'z', 'y']);
    expect([0, 1, 2].map((k) => at(order(2), k))).toEqual(['x', 'y', 'z']);
    expect(errorsOf(() => at(order(3), 0))).toEqual([expect.stringMatching(/SequenceInsert: position 3 is out of range \[-2, 2\] for a sequence of 2 tensors/)]);
  });
  it('SequenceEmpty then inserts: a sequence built one tensor at a time', () => {
    const nodes = [ob.node('SequenceEmpty', [], ['e'], { dtype: 1 }), ob.node('SequenceInsert', ['e', 'y'], ['s']), ob.node('SequenceInsert', ['s', 'x', 'zero'], ['t'])];
    const ir = toIr({ initializers: [i64('zero', 0), i64('p', -1)], nodes: [...nodes, ob.node('SequenceAt', ['t', 'p'], ['out'])] });
    expect(resolved(ir)).toEqual(['y']);
  });
});

describe('SequenceErase: "outputs a tensor sequence that removes the tensor at position"', () => {
  const after = (erase: ob.NodeProto, inits: ob.TensorProto[] = []) => [0, 1].map((k) => resolved(toIr({
    initializers: [...inits, i64('k', k)], nodes: [construct, erase, ob.node('SequenceAt', ['t', 'k'], ['out'])],
  }))[0]);
  it('"default is to erase the last tensor"', () => expect(after(ob.node('SequenceErase', ['s'], ['t']))).toEqual(['x', 'y']));
  it('position 0, and -2 (the second from the back)', () => {
    expect(after(ob.node('SequenceErase', ['s', 'p'], ['t']), [i64('p', 0)])).toEqual(['y', 'z']);
    expect(after(ob.node('SequenceErase', ['s', 'p'], ['t']), [i64('p', -2)])).toEqual(['x', 'z']);
  });
  it('erasing from an empty sequence is refused', () => {
    expect(errorsOf(() => toIr({ nodes: [ob.node('SequenceEmpty', [], ['e']), ob.node('SequenceErase', ['e'], ['t']), ob.node('SequenceLength', ['t'], ['out'])] })))
      .toEqual([expect.stringMatching(/SequenceErase: the sequence is empty: there is no tensor to erase/)]);
  });
});

describe('a sequence is a value: every reader sees it as it was made', () => {
  it('inserting into and erasing from one sequence leaves it unchanged for its other readers', () => {
    const ir = toIr({
      outputs: [f32('a'), f32('b'), ob.valueInfo('n', 'i64', [])],
      initializers: [i64('last', -1), i64('zero', 0)],
      nodes: [
        ob.node('SequenceConstruct', ['x', 'y'], ['s']),
        ob.node('SequenceInsert', ['s', 'z'], ['t']), ob.node('SequenceErase', ['s', 'zero'], ['u']),
        ob.node('SequenceAt', ['t', 'last'], ['a']), ob.node('SequenceAt', ['u', 'zero'], ['b']), ob.node('SequenceLength', ['s'], ['n']),
      ],
    });
    expect(ir.graph.outputs.map((v) => v.names.filter((n) => !['a', 'b', 'n'].includes(n)))).toEqual([['z'], ['y'], []]);
    expect(readIntegers(ir.graph.outputs[2]!.constant!)).toEqual([2n]);
  });
  it('a chain of 20000 inserts converts (each insert appends to its input\'s list in place: no copy per insert)', () => {
    const n = 20000;
    const nodes = [ob.node('SequenceEmpty', [], ['s0'])];
    for (let i = 0; i < n; i++) nodes.push(ob.node('SequenceInsert', [`s${i}`, i % 2 ? 'x' : 'y'], [`s${i + 1}`]));
    nodes.push(ob.node('SequenceLength', [`s${n}`], ['out']));
    const t = performance.now();
    const ir = toIr({ outputs: [ob.valueInfo('out', 'i64', [])], nodes });
    expect(readIntegers(ir.graph.outputs[0]!.constant!)).toEqual([BigInt(n)]);
    expect(performance.now() - t).toBeLessThan(15_000);
  });
});

describe('SequenceLength: "produces a scalar (tensor of empty shape) containing the number of tensors"', () => {
  it('an int64 scalar constant', () => {
    const ir = toIr({ outputs: [ob.valueInfo('out', 'i64', [])], nodes: [construct, ob.node('SequenceLength', ['s'], ['out'])] });
    const c = ir.graph.outputs[0]!.constant!;
    expect([c.elem, c.dims, readIntegers(c)]).toEqual(['i64', [], [3n]]);
  });
});

describe('SplitToSequence: "split a tensor into a sequence of tensors, along the specified axis"', () => {
  /** Outputs the sequence's length and its last tensor (which keeps the split in the IR). */
  const splitModel = (node: ob.NodeProto, inits: ob.TensorProto[] = [], inputs = [f32('x', [4, 5])]) => toIr({
    inputs, initializers: [...inits, i64('last', -1)], outputs: [ob.valueInfo('out', 'i64', []), f32('tail')],
    nodes: [node, ob.node('SequenceLength', ['s'], ['out']), ob.node('SequenceAt', ['s', 'last'], ['tail'])],
  });
  const len = (m: Model) => readIntegers(m.graph.outputs[0]!.constant!)[0];
  const splitOf = (m: Model) => [...allNodes(m.graph)].find((n) => n.op === 'Split' || n.op === 'VariadicSplit')!;

  it('"if split is not specified, the input is split into parts of size 1": Split with num_splits = the axis length', () => {
    const m = splitModel(ob.node('SplitToSequence', ['x'], ['s'], { axis: 1 }));
    expect(len(m)).toBe(5n);
    expect(splitOf(m).op).toBe('Split');
    expect(splitOf(m).attrs.get('num_splits')).toMatchObject({ value: '5' });
  });
  it('"keepdims = 0 … the split axis is removed": each part Squeezed; keepdims defaults to 1', () => {
    const kept = splitModel(ob.node('SplitToSequence', ['x'], ['s'], { axis: -1 }));
    expect(ops(kept)).toEqual(['Split']);
    const squeezed = splitModel(ob.node('SplitToSequence', ['x'], ['s'], { axis: 0, keepdims: 0 }));
    expect(ops(squeezed)).toEqual(['Split', 'Squeeze']);
  });
  it('"a scalar split: chunks all of size split; the last chunk alone may be smaller": VariadicSplit [2, 2, 1]', () => {
    const m = splitModel(ob.node('SplitToSequence', ['x', 'two'], ['s'], { axis: 1 }), [i64('two', 2)]);
    expect(len(m)).toBe(3n);
    expect(readIntegers(splitOf(m).inputs[2]!.constant!)).toEqual([2n, 2n, 1n]);
  });
  it('"a 1-D split: size(split) chunks": its values may be run-time, its length must be static', () => {
    const m = splitModel(ob.node('SplitToSequence', ['x', 'lens'], ['s']), [], [f32('x', ['n']), ob.valueInfo('lens', 'i64', [3])]);
    expect(len(m)).toBe(3n);
    expect(splitOf(m).op).toBe('VariadicSplit');
    expect(splitOf(m).inputs[2]!.names).toEqual(['lens']);
  });
  it('"the sum of split must equal the dim value at axis": constant lengths that do not are refused', () => {
    expect(errorsOf(() => splitModel(ob.node('SplitToSequence', ['x', 'lens'], ['s'], { axis: 1 }, { name: 'split' }), [ob.int64Tensor('lens', [2], [2, 2])])))
      .toEqual(['CONVERT_OP main/split: SplitToSequence: split 2,2 does not sum to the length 5 of axis 1']);
  });
  it('parts of size 1 on an axis of unknown length are refused: the number of tensors is not static', () => {
    expect(errorsOf(() => splitModel(ob.node('SplitToSequence', ['x'], ['s'], {}, { name: 'split' }), [], [f32('x', ['n', 2])])))
      .toEqual(['CONVERT_OP main/split: SplitToSequence: splitting into parts of 1 needs a static length of axis 0: the number of tensors is fixed at conversion time']);
  });
  it('more than 65536 tensors are refused before any is made (142 bytes over f32[10^7] ran out of memory: a hostile-input campaign)', () => {
    expect(errorsOf(() => splitModel(ob.node('SplitToSequence', ['x'], ['s'], { keepdims: 0 }, { name: 'split' }), [], [f32('x', [10_000_000])])))
      .toEqual(['CONVERT_OP main/split: SplitToSequence: the sequence would hold 10000000 tensors: at most 65536 are made at conversion time (one IR Split output each)']);
    expect(errorsOf(() => splitModel(ob.node('SplitToSequence', ['x', 'one'], ['s'], {}, { name: 'split' }), [i64('one', 1)], [f32('x', [70_000])])))
      .toEqual(['CONVERT_OP main/split: SplitToSequence: the sequence would hold 70000 tensors: at most 65536 are made at conversion time (one IR Split output each)']);
  });
});

describe('ConcatFromSequence: "concatenate a sequence of tensors into a single tensor"', () => {
  const concat = (attrs: Record<string, number>) => toIr({ nodes: [construct, ob.node('ConcatFromSequence', ['s'], ['out'], attrs)] });
  it('Concat along axis; negative axis kept (IR counts from the back as ONNX does)', () => {
    for (const axis of [1, -1]) {
      const c = [...allNodes(concat({ axis }).graph)];
      expect(c.map((n) => n.op)).toEqual(['Concat']);
      expect(c[0]!.attrs.get('axis')).toMatchObject({ value: String(axis) });
      expect(c[0]!.inputs.map((v) => v!.name)).toEqual(['x', 'y', 'z']);
    }
  });
  it('"new_axis = 1: a new axis is inserted", each tensor Unsqueezed at axis (the output\'s), then Concat', () => {
    expect(ops(concat({ axis: -1, new_axis: 1 }))).toEqual(['Unsqueeze', 'Unsqueeze', 'Unsqueeze', 'Concat']);
  });
  it('an empty sequence has nothing to concatenate', () => {
    expect(errorsOf(() => toIr({ nodes: [ob.node('SequenceEmpty', [], ['s']), ob.node('ConcatFromSequence', ['s'], ['out'], { axis: 0 })] })))
      .toEqual([expect.stringMatching(/ConcatFromSequence: the sequence is empty/)]);
  });
});

describe('what is not resolvable at conversion time is refused, naming the node and why', () => {
  it('a sequence graph output', () => {
    expect(errorsOf(() => toIr({ outputs: [seqOf('s')], nodes: [construct] })))
      .toEqual(["CONVERT_SEQUENCE_NOT_STATIC main: sequence 's' is output 0 of graph main: OpenVINO IR has tensors only; it converts only where the tensors it holds are known at conversion time"]);
  });
  it('a sequence graph input', () => {
    const errs = errorsOf(() => toIr({ inputs: [seqOf('s'), ob.valueInfo('p', 'i64', [])], initializers: [], nodes: [ob.node('SequenceLength', ['s'], ['out'], {}, { name: 'len' })] }));
    expect(errs).toContain("CONVERT_SEQUENCE_NOT_STATIC main/len: sequence 's' is a graph input: OpenVINO IR has tensors only; it converts only where the tensors it holds are known at conversion time");
  });
  it('a sequence read by a tensor op (Identity)', () => {
    expect(errorsOf(() => toIr({ outputs: [seqOf('out')], nodes: [construct, ob.node('Identity', ['s'], ['out'], {}, { name: 'id' })] })))
      .toContain("CONVERT_SEQUENCE_NOT_STATIC main/id: sequence 's' is input 0 of Identity, which takes tensors: OpenVINO IR has tensors only; it converts only where the tensors it holds are known at conversion time");
  });
  it('a sequence crossing a body boundary (read inside an If branch)', () => {
    const branch = (name: string, p: number) => ob.graph({ name, outputs: [f32(`${name}_out`)], initializers: [i64(`${name}_p`, p)], nodes: [ob.node('SequenceAt', ['s', `${name}_p`], [`${name}_out`])] });
    const errs = errorsOf(() => toIr({
      inputs: [f32('x', [2, 3]), f32('y', [2, 3]), f32('z', [2, 3]), ob.valueInfo('c', 'boolean', [])],
      nodes: [construct, ob.ifNode('c', ['out'], branch('then', 0), branch('else', 1), { name: 'if' })],
    }));
    expect(errs.filter((e) => e.startsWith('INTERNAL'))).toEqual([]);
    expect(errs.filter((e) => e.startsWith('CONVERT_SEQUENCE_NOT_STATIC main/if:'))).toEqual([
      "CONVERT_SEQUENCE_NOT_STATIC main/if: sequence 's' is input 1 of If, and a sequence cannot cross a body boundary: OpenVINO IR has tensors only; it converts only where the tensors it holds are known at conversion time",
    ]);
  });
});

describe('a sequence inside a body is resolved within the body', () => {
  const inIf = (): Fixture => {
    const branch = (name: string, p: number) => ob.graph({
      name, outputs: [f32(`${name}_out`)], initializers: [i64(`${name}_p`, p)],
      nodes: [ob.node('SequenceConstruct', ['x', 'y', 'z'], [`${name}_s`]), ob.node('SequenceAt', [`${name}_s`, `${name}_p`], [`${name}_out`])],
    });
    return {
      inputs: [f32('x', [2, 3]), f32('y', [2, 3]), f32('z', [2, 3]), ob.valueInfo('c', 'boolean', [])],
      nodes: [ob.ifNode('c', ['out'], branch('then', 0), branch('else', -1))],
    };
  };
  it('If branches each build and index their own sequence', () => {
    const ir = toIr(inIf());
    const n = ir.graph.nodes.find((x) => x.op === 'If')!;
    expect(n.bodies.get('then_body')!.graph.outputs[0]!.names).toContain('x');
    expect(n.bodies.get('else_body')!.graph.outputs[0]!.names).toContain('z');
    expect(verifyGraph(ir.graph)).toEqual([]);
  });
});

describe('optionals: "an optional is a list of at most one tensor", resolved the same way', () => {
  const boolOut = (m: Model) => [...m.graph.outputs[0]!.constant!.data];
  const bool = (name: string) => ob.valueInfo(name, 'boolean', []);
  it('OptionalHasElement: "true if the input is an optional that contains an element, or a tensor", false when empty or absent', () => {
    const has = (nodes: ob.NodeProto[]) => boolOut(toIr({ opset: 18, inputs: [f32('x', [2, 3])], outputs: [bool('out')], nodes }));
    expect(has([ob.node('Optional', ['x'], ['o']), ob.node('OptionalHasElement', ['o'], ['out'])])).toEqual([1]);
    expect(has([ob.node('Optional', [], ['o'], { type: ob.attr.type(ob.tensorType('f32')) }), ob.node('OptionalHasElement', ['o'], ['out'])])).toEqual([0]);
    expect(has([ob.node('OptionalHasElement', ['x'], ['out'])])).toEqual([1]);
    expect(has([ob.node('OptionalHasElement', [], ['out'])])).toEqual([0]);
  });
  it('OptionalGetElement: the tensor held; a tensor input is itself', () => {
    const get = (nodes: ob.NodeProto[]) => resolved(toIr({ opset: 18, inputs: [f32('x', [2, 3])], nodes }));
    expect(get([ob.node('Optional', ['x'], ['o']), ob.node('OptionalGetElement', ['o'], ['out'])])).toEqual(['x']);
    expect(get([ob.node('OptionalGetElement', ['x'], ['out'])])).toEqual(['x']);
  });
  it('an empty optional has no element to get; an optional graph input is not known at conversion time', () => {
    expect(errorsOf(() => toIr({ opset: 18, nodes: [ob.node('Optional', [], ['o'], { type: ob.attr.type(ob.tensorType('f32')) }), ob.node('OptionalGetElement', ['o'], ['out'], {}, { name: 'get' })] })))
      .toEqual(['CONVERT_OP main/get: OptionalGetElement: the optional is empty: it has no element to get']);
    const optIn: ob.ValueInfoProto = { name: 'o', type: { optional_type: { elem_type: ob.tensorType('f32') } } };
    expect(errorsOf(() => toIr({ opset: 18, inputs: [optIn], outputs: [bool('out')], nodes: [ob.node('OptionalHasElement', ['o'], ['out'], {}, { name: 'has' })] })))
      .toContain("CONVERT_SEQUENCE_NOT_STATIC main/has: optional 'o' is a graph input: OpenVINO IR has tensors only; it converts only where the tensors it holds are known at conversion time");
  });
});

describe('a sequence inside a Loop body is resolved within the body', () => {
  /** Loop M times: y ← ReduceSum(ConcatFromSequence([y, x], axis 0, new_axis 1), axis 0) = y + x. */
  const loopModel = (): Fixture => {
    const body = ob.graph({
      name: 'body',
      inputs: [ob.valueInfo('i', 'i64', []), ob.valueInfo('c', 'boolean', []), f32('y', [2, 3])],
      outputs: [ob.valueInfo('c_out', 'boolean', []), f32('y_next', [2, 3])],
      initializers: [ob.int64Tensor('axes', [1], [0])],
      nodes: [
        ob.node('SequenceConstruct', ['y', 'x'], ['s']),
        ob.node('ConcatFromSequence', ['s'], ['stacked'], { axis: 0, new_axis: 1 }),
        ob.node('ReduceSum', ['stacked', 'axes'], ['y_next'], { keepdims: 0 }),
        ob.node('Identity', ['c'], ['c_out']),
      ],
    });
    return {
      opset: 13,
      inputs: [f32('x', [2, 3]), f32('y0', [2, 3])],
      initializers: [ob.int64Tensor('M', [], [3]), ob.boolTensor('cond', [], [true])],
      outputs: [f32('out', [2, 3])],
      nodes: [ob.node('Loop', ['M', 'cond', 'y0'], ['out'], { body: ob.attr.graph(body) })],
    };
  };
  it('the body\'s Concat reads the body parameter and the captured x; no sequence leaves the body', () => {
    const ir = toIr(loopModel());
    const loop = ir.graph.nodes.find((n) => n.op === 'Loop')!;
    expect(loop.bodies.get('body')!.graph.nodes.map((n) => n.op)).toEqual(expect.arrayContaining(['Unsqueeze', 'Unsqueeze', 'Concat', 'ReduceSum']));
    expect(verifyGraph(ir.graph)).toEqual([]);
  });
  it.skipIf(!oracleAvailable())('OpenVINO computes y0 + 3x, as onnxruntime does', async () => {
    const f = loopModel();
    writeFileSync(join(dir, 'loop.onnx'), encode(f));
    saveModel(convertModel(model(f)), join(dir, 'loop.xml'));
    const feeds = { x: f32Tensor([2, 3], 8), y0: f32Tensor([2, 3], 9) };
    const oracle = await Oracle.start();
    try {
      const want = await oracle.runOrt(join(dir, 'loop.onnx'), feeds);
      const got = await oracle.runIr(join(dir, 'loop.xml'), feeds);
      expect(compareOutputs(got, Object.entries(want).map(([n, tensor]) => ({ name: n, tensor })))).toEqual([]);
    } finally {
      await oracle.close();
    }
  }, 120_000);
});

/**
 * A list appended to in a loop, then concatenated (loop-append.ts): M = 3 iterations; each appends
 * x·i (and, with `twice`, also −x) to s, which starts as SequenceEmpty; ConcatFromSequence of the
 * final sequence. Optionally a plain loop-carried y (y ← y + x) and a scan output beside it.
 */
interface AppendOpts { axis: number; newAxis?: 0 | 1; twice?: boolean; carried?: boolean; scan?: boolean; position?: boolean; reader?: 'SequenceAt' | 'second-concat'; init?: 'SequenceConstruct' }
function appendLoop(o: AppendOpts): Fixture {
  const bodyOut = [ob.valueInfo('c_out', 'boolean', []), ...(o.carried ? [f32('y_next', [2, 3])] : []), seqOf('s_next'), ...(o.scan ? [f32('item', [2, 3])] : [])];
  const body = ob.graph({
    name: 'body',
    inputs: [ob.valueInfo('i', 'i64', []), ob.valueInfo('c', 'boolean', []), ...(o.carried ? [f32('y', [2, 3])] : []), seqOf('s')],
    outputs: bodyOut,
    initializers: o.position ? [ob.int64Tensor('zero', [], [0])] : [],
    nodes: [
      ob.node('Cast', ['i'], ['i_f'], { to: 1 }),
      ob.node('Mul', ['x', 'i_f'], ['t']),
      ob.node('SequenceInsert', o.position ? ['s', 't', 'zero'] : ['s', 't'], [o.twice ? 's_mid' : 's_next'], {}, { name: 'append' }),
      ...(o.twice ? [ob.node('Neg', ['x'], ['neg']), ob.node('SequenceInsert', ['s_mid', 'neg'], ['s_next'])] : []),
      ...(o.carried ? [ob.node('Add', ['y', 'x'], ['y_next'])] : []),
      ...(o.scan ? [ob.node('Sub', ['t', 'x'], ['item'])] : []),
      ob.node('Identity', ['c'], ['c_out']),
    ],
  });
  const concat = { axis: o.axis, new_axis: o.newAxis ?? 0 };
  return {
    opset: 13,
    inputs: [f32('x', [2, 3]), ...(o.carried ? [f32('y0', [2, 3])] : [])],
    initializers: [ob.int64Tensor('M', [], [3]), ob.boolTensor('cond', [], [true]), i64('one', 1)],
    outputs: [f32('out'), ...(o.carried ? [f32('y_final', [2, 3])] : []), ...(o.scan ? [f32('scan', [3, 2, 3])] : []), ...(o.reader ? [f32('other')] : [])],
    nodes: [
      o.init ? ob.node('SequenceConstruct', ['x'], ['s0']) : ob.node('SequenceEmpty', [], ['s0'], { dtype: 1 }),
      ob.node('Loop', ['M', 'cond', ...(o.carried ? ['y0'] : []), 's0'], [...(o.carried ? ['y_final'] : []), 's_final', ...(o.scan ? ['scan'] : [])], { body: ob.attr.graph(body) }, { name: 'loop' }),
      ob.node('ConcatFromSequence', ['s_final'], ['out'], concat, { name: 'cat' }),
      ...(o.reader === 'SequenceAt' ? [ob.node('SequenceAt', ['s_final', 'one'], ['other'], {}, { name: 'at' })] : []),
      ...(o.reader === 'second-concat' ? [ob.node('ConcatFromSequence', ['s_final'], ['other'], { axis: o.axis + 1, new_axis: o.newAxis ?? 0 }, { name: 'cat2' })] : []),
    ],
  };
}

describe('a list appended to in a Loop and concatenated after it: the Loop\'s concatenated output', () => {
  const loopOf = (m: Model) => m.graph.nodes.find((n) => n.op === 'Loop')!;
  const concatOutputs = (m: Model) => loopOf(m).bodies.get('body')!.outputs.filter((o) => o.extra && 'axis' in o.extra).map((o) => o.extra!['axis']);
  it('each iteration\'s tensor gets the concatenation axis; the sequence is no Loop input, no body parameter', () => {
    const ir = toIr(appendLoop({ axis: 1, newAxis: 1 }));
    expect(concatOutputs(ir)).toEqual(['1']);
    expect(loopOf(ir).inputs.length).toBe(3); // trip count, condition, the captured x
    expect(loopOf(ir).bodies.get('body')!.graph.inputs.length).toBe(3); // iteration, cond, x
    expect(ops(ir)).not.toContain('Reshape');
    expect(verifyGraph(ir.graph)).toEqual([]);
  });
  it('new_axis = 0: the new axis is merged with the tensors\' own after the loop (negative axis counted on the tensors\' rank)', () => {
    const ir = toIr(appendLoop({ axis: -1 }));
    expect(concatOutputs(ir)).toEqual(['1']);
    expect(ops(ir)).toContain('Reshape');
  });
  it('with a plain loop-carried value and a scan output beside it, each keeps its own binding', () => {
    const ir = toIr(appendLoop({ axis: 0, carried: true, scan: true, twice: true }));
    const body = loopOf(ir).bodies.get('body')!;
    expect(body.outputs.map((o) => o.to).sort()).toEqual([-1, 0, 1, 2]);
    expect(concatOutputs(ir)).toEqual(['0', '0']);
    expect(body.backEdges.length).toBe(2); // the condition and y
  });
  it('refused once, naming the Loop and why, where the pattern does not hold', () => {
    const why = (o: AppendOpts) => errorsOf(() => toIr(appendLoop(o))).map((e) => e.replace(/^.*?; here /, ''));
    const prefix = "CONVERT_OP main/loop: Loop: loop-carried value 0 ('s0') is a sequence: it converts where the body only appends to it and only ConcatFromSequence (one axis) reads it after the loop (OpenVINO IR has tensors only); here ";
    expect(errorsOf(() => toIr(appendLoop({ axis: 0, reader: 'SequenceAt' })))).toEqual([`${prefix}after the loop, 's_final' is read by SequenceAt (main/at), not only by ConcatFromSequence`]);
    expect(why({ axis: 0, position: true })).toEqual(["in the body, 's' is read by SequenceInsert at a position (each step must be one position-less SequenceInsert, an append)"]);
    expect(why({ axis: 0, init: 'SequenceConstruct' })).toEqual(['its initial value is made by SequenceConstruct, not SequenceEmpty']);
    expect(why({ axis: 0, reader: 'second-concat' })).toEqual(["after the loop, 's_final' is concatenated with two different axes"]);
  });
  it('an axis outside the appended tensors\' rank is refused', () => {
    expect(errorsOf(() => toIr(appendLoop({ axis: 2 })))).toEqual([
      'CONVERT_OP main/loop: Loop: the sequence appended to in the body (loop-carried value 0, read by ConcatFromSequence with axis 2): axis 2 is out of range [-2, 1] for tensors of rank 2',
    ]);
  });
  it('ovir check finds the converted forms equivalent', () => {
    const f = appendLoop({ axis: 1, carried: true });
    const r = checkModels(model(f), toIr(f));
    expect(r.entries.filter((e) => e.status === 'contradiction')).toEqual([]);
    expect(r.ok).toBe(true);
  });
});

describe('ONNX shape inference types sequences as onnx does', () => {
  it('seq(tensor) of the tensors\' union; SequenceAt gives the element type; ConcatFromSequence the concatenated one', () => {
    const m = model({
      inputs: [f32('x', [2, 3]), f32('y', [2, 3]), f32('z', [4, 3])],
      outputs: [f32('out'), f32('c')],
      initializers: [i64('p', 0)],
      nodes: [construct, ob.node('SequenceAt', ['s', 'p'], ['out']), ob.node('ConcatFromSequence', ['s'], ['c'], { axis: 0, new_axis: 0 })],
    });
    const r = inferTypes(m);
    const typeOf = (name: string) => r.types.get([...allNodes(m.graph)].flatMap((n) => n.outputs).find((v) => v.name === name)!);
    expect(typeOf('s')).toEqual({ kind: 'sequence', elem: { kind: 'tensor', elem: 'f32', shape: [null, 3] } });
    expect(typeOf('out')).toEqual({ kind: 'tensor', elem: 'f32', shape: [null, 3] });
    expect(typeOf('c')).toEqual({ kind: 'tensor', elem: 'f32', shape: [null, 3] });
  });
  it('SplitToSequence: parts keep the axis as 1, or drop it with keepdims = 0', () => {
    const m = model({
      inputs: [f32('x', [4, 5])], outputs: [seqOf('a'), seqOf('b')],
      nodes: [ob.node('SplitToSequence', ['x'], ['a'], { axis: 1 }), ob.node('SplitToSequence', ['x'], ['b'], { axis: 1, keepdims: 0 })],
    });
    const r = inferTypes(m);
    const [a, b] = m.graph.nodes.map((n) => r.types.get(n.outputs[0]!));
    expect(a).toEqual({ kind: 'sequence', elem: { kind: 'tensor', elem: 'f32', shape: [4, 1] } });
    expect(b).toEqual({ kind: 'sequence', elem: { kind: 'tensor', elem: 'f32', shape: [4] } });
  });
});

describe('ovir check pairs only what both forms hold', () => {
  it('the tensor a SequenceAt names is the IR tensor it resolved to; the sequence itself has no IR counterpart', () => {
    const f: Fixture = {
      initializers: [i64('p', 1)],
      outputs: [f32('out'), f32('c')],
      nodes: [construct, ob.node('SequenceAt', ['s', 'p'], ['out']), ob.node('ConcatFromSequence', ['s'], ['c'], { axis: 1 })],
    };
    const r = checkModels(model(f), toIr(f));
    expect(r.ok).toBe(true);
    expect(r.entries.filter((e) => e.status === 'contradiction')).toEqual([]);
    expect(r.entries.map((e) => e.name)).not.toContain('s');
    // ONNX types the concatenated axis as unknown (the number of tensors is not in a sequence type)
    expect(r.entries.find((e) => e.name === 'c')).toMatchObject({ status: 'compatible', a: { shape: [2, null] }, b: { shape: [2, 9] } });
  });
});

// ── engines: OpenVINO runs ovir's IR, onnxruntime the source ────────────────────────────────────

const ENGINE_CASES: Record<string, { f: Fixture; feeds: Record<string, OracleTensor> }> = {
  'insert, erase, at': {
    f: {
      initializers: [i64('front', 0), i64('back', -1), i64('at', 1)],
      nodes: [construct, ob.node('SequenceErase', ['s', 'back'], ['t']), ob.node('SequenceInsert', ['t', 'z', 'front'], ['u']), ob.node('SequenceAt', ['u', 'at'], ['out'])],
    },
    feeds: { x: f32Tensor([2, 3], 1), y: f32Tensor([2, 3], 2), z: f32Tensor([2, 3], 3) },
  },
  'split (scalar, uneven) then concat with new_axis on a computed tensor': {
    f: {
      inputs: [f32('x', [5, 4])],
      outputs: [f32('out'), ob.valueInfo('n', 'i64', [])],
      initializers: [i64('two', 2), i64('zero', 0), i64('last', -1)],
      nodes: [
        ob.node('Relu', ['x'], ['r']),
        ob.node('SplitToSequence', ['r', 'two'], ['s'], { axis: 0 }),
        ob.node('SequenceLength', ['s'], ['n']),
        ob.node('SequenceErase', ['s', 'last'], ['t']),
        ob.node('ConcatFromSequence', ['t'], ['out'], { axis: -1, new_axis: 1 }),
      ],
    },
    feeds: { x: f32Tensor([5, 4], 4) },
  },
  'split with run-time 1-D lengths, keepdims ignored, then concat': {
    f: {
      inputs: [f32('x', [6, 2]), ob.valueInfo('lens', 'i64', [3])],
      initializers: [i64('one', 1)],
      outputs: [f32('out'), f32('mid')],
      nodes: [
        ob.node('SplitToSequence', ['x', 'lens'], ['s'], { axis: 0, keepdims: 0 }),
        ob.node('SequenceAt', ['s', 'one'], ['mid']),
        ob.node('ConcatFromSequence', ['s'], ['out'], { axis: 0 }),
      ],
    },
    feeds: { x: f32Tensor([6, 2], 5), lens: { dtype: 'i64', shape: [3], data: new Uint8Array(new BigInt64Array([1n, 3n, 2n]).buffer) } },
  },
  'optional: wrap, test, unwrap': {
    f: {
      opset: 18,
      inputs: [f32('x', [2, 3])],
      outputs: [f32('out'), ob.valueInfo('has', 'boolean', []), ob.valueInfo('none', 'boolean', [])],
      nodes: [
        ob.node('Optional', ['x'], ['o']), ob.node('OptionalHasElement', ['o'], ['has']),
        ob.node('Optional', [], ['e'], { type: ob.attr.type(ob.tensorType('f32')) }), ob.node('OptionalHasElement', ['e'], ['none']),
        ob.node('OptionalGetElement', ['o'], ['g']), ob.node('Relu', ['g'], ['out']),
      ],
    },
    feeds: { x: f32Tensor([2, 3], 7) },
  },
  'default split with keepdims = 0, stacked back along a new last axis': {
    f: {
      inputs: [f32('x', [2, 3, 4])],
      nodes: [ob.node('SplitToSequence', ['x'], ['s'], { axis: 1, keepdims: 0 }), ob.node('ConcatFromSequence', ['s'], ['out'], { axis: -1, new_axis: 1 })],
    },
    feeds: { x: f32Tensor([2, 3, 4], 6) },
  },
};

const appendFeeds = { x: f32Tensor([2, 3], 11), y0: f32Tensor([2, 3], 12) };
for (const [name, o] of Object.entries({
  'loop append, concat axis 0': { axis: 0 },
  'loop append, concat axis -1': { axis: -1 },
  'loop append, stacked at axis 1 (new_axis)': { axis: 1, newAxis: 1 },
  'loop append, stacked at axis -1 (new_axis)': { axis: -1, newAxis: 1 },
  'loop append twice per iteration, with a carried value and a scan output': { axis: 1, twice: true, carried: true, scan: true },
} satisfies Record<string, AppendOpts>)) ENGINE_CASES[name] = { f: appendLoop(o), feeds: appendFeeds };

describe.skipIf(!oracleAvailable())('engines: OpenVINO on ovir\'s IR computes what onnxruntime computes on the ONNX source', () => {
  it.each(Object.keys(ENGINE_CASES))('%s', async (name) => {
    const { f, feeds } = ENGINE_CASES[name]!;
    const base = join(dir, name.replace(/[^a-z0-9]+/gi, '_'));
    writeFileSync(`${base}.onnx`, encode(f));
    saveModel(convertModel(model(f)), `${base}.xml`);
    const oracle = await Oracle.start();
    try {
      const want = await oracle.runOrt(`${base}.onnx`, feeds);
      const got = await oracle.runIr(`${base}.xml`, feeds);
      expect(Object.keys(want).length).toBeGreaterThan(0);
      expect(compareOutputs(got, Object.entries(want).map(([n, tensor]) => ({ name: n, tensor })))).toEqual([]);
    } finally {
      await oracle.close();
    }
  }, 120_000);
});
