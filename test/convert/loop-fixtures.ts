/**
 * ONNX Loop models of the shapes the ONNX Loop spec describes, as bytes (shared by the unit tests
 * and the engine-judged conformance suite). Every model's inputs have static types.
 *
 *   Loop(M, cond, v_initial…) → (v_final…, scan_outputs…)
 *   body(iteration_num, cond_in, v…) → (cond_out, v_next…, scan_items…)
 */
import * as ob from '../helpers/onnx-builder.js';

export interface LoopFixture { readonly name: string; readonly bytes: Uint8Array }

/** The ONNX IR version released with an opset (onnx's VERSION_TABLE). */
export const irVersionFor = (opset: number): number =>
  (opset <= 10 ? 5 : opset <= 11 ? 6 : opset <= 14 ? 7 : opset <= 18 ? 8 : opset <= 20 ? 9 : opset <= 22 ? 10 : opset <= 24 ? 11 : 12);

const f32 = (name: string, shape: number[]) => ob.valueInfo(name, 'f32', shape);

/**
 * y_final, y_scan = Loop(M, cond, y0): y ← y + x (x read from the outer graph), each iteration's
 * y·iteration_num stacked. `M` / `cond` may be left empty; the body's cond_out is either cond_in
 * passed through or `iteration_num < 2` (computed).
 */
export function accumulate(opts: { opset?: number; trip?: 'input' | 'empty'; cond?: 'input' | 'empty'; condOut?: 'through' | 'computed'; secondScan?: boolean } = {}): Uint8Array {
  const opset = opts.opset ?? 17;
  const computed = opts.condOut === 'computed' || opts.trip === 'empty';
  const body = ob.graph({
    name: 'body',
    inputs: [ob.valueInfo('i', 'i64', []), ob.valueInfo('c', 'boolean', []), f32('y', [2])],
    outputs: [ob.valueInfo('c_out', 'boolean', []), f32('y_next', [2]), f32('y_item', [2]), ...(opts.secondScan ? [f32('neg_item', [2])] : [])],
    initializers: computed ? [ob.int64Tensor('two', [], [2])] : [],
    nodes: [
      ob.node('Add', ['y', 'x'], ['y_next']),
      ob.node('Cast', ['i'], ['i_f'], { to: 1 }),
      ob.node('Mul', ['y_next', 'i_f'], ['y_item']),
      computed ? ob.node('Less', ['i', 'two'], ['c_out']) : ob.node('Identity', ['c'], ['c_out']),
      ...(opts.secondScan ? [ob.node('Neg', ['y_item'], ['neg_item'])] : []),
    ],
  });
  const inputs = [f32('y0', [2]), f32('x', [2])];
  if (opts.trip !== 'empty') inputs.unshift(ob.valueInfo('M', 'i64', []));
  if (opts.cond !== 'empty') inputs.push(ob.valueInfo('cond', 'boolean', []));
  return ob.encodeModelProto(ob.model({
    opset,
    irVersion: irVersionFor(opset),
    graph: ob.graph({
      name: 'accumulate',
      inputs,
      outputs: [f32('y_final', [2]), f32('y_scan', [null as unknown as number, 2]), ...(opts.secondScan ? [f32('neg_scan', [null as unknown as number, 2])] : [])],
      nodes: [ob.node('Loop', [opts.trip === 'empty' ? '' : 'M', opts.cond === 'empty' ? '' : 'cond', 'y0'], ['y_final', 'y_scan', ...(opts.secondScan ? ['neg_scan'] : [])], { body: ob.attr.graph(body) }, { name: 'loop' })],
    }),
  }));
}

/**
 * An If inside a Loop: on even iterations y ← y + x, on odd ones y ← y - x (both branches read the
 * body's y and the main graph's x); the new y is also stacked. M and cond are graph inputs.
 */
export function ifInsideLoop(opset = 17): Uint8Array {
  const branch = (name: string, op: string) => ob.graph({ name, outputs: [f32(`${name}_y`, [2])], nodes: [ob.node(op, ['y', 'x'], [`${name}_y`])] });
  const body = ob.graph({
    name: 'body',
    inputs: [ob.valueInfo('i', 'i64', []), ob.valueInfo('c', 'boolean', []), f32('y', [2])],
    outputs: [ob.valueInfo('c_out', 'boolean', []), f32('y_next', [2]), f32('y_item', [2])],
    initializers: [ob.int64Tensor('two', [], [2]), ob.int64Tensor('zero', [], [0])],
    nodes: [
      ob.node('Mod', ['i', 'two'], ['parity']),
      ob.node('Equal', ['parity', 'zero'], ['even']),
      ob.ifNode('even', ['y_next'], branch('add', 'Add'), branch('sub', 'Sub'), { name: 'parity_if' }),
      ob.node('Identity', ['y_next'], ['y_item']),
      ob.node('Identity', ['c'], ['c_out']),
    ],
  });
  return ob.encodeModelProto(ob.model({
    opset,
    irVersion: irVersionFor(opset),
    graph: ob.graph({
      name: 'if_inside_loop',
      inputs: [ob.valueInfo('M', 'i64', []), ob.valueInfo('cond', 'boolean', []), f32('y0', [2]), f32('x', [2])],
      outputs: [f32('y_final', [2]), f32('y_scan', [null as unknown as number, 2])],
      nodes: [ob.node('Loop', ['M', 'cond', 'y0'], ['y_final', 'y_scan'], { body: ob.attr.graph(body) }, { name: 'loop' })],
    }),
  }));
}

/**
 * A Loop inside a Loop inside an If (then-branch), with an If inside the inner Loop: the inner
 * body reads x from the main graph (three levels up) and the outer body's y (one level up).
 * else-branch: -x.
 */
export function nestedLoops(opset = 17): Uint8Array {
  const inner = ob.graph({
    name: 'inner',
    inputs: [ob.valueInfo('j', 'i64', []), ob.valueInfo('cj', 'boolean', []), f32('acc', [2])],
    outputs: [ob.valueInfo('cj_out', 'boolean', []), f32('acc_next', [2])],
    nodes: [
      ob.node('Greater', ['j', 'zero_i'], ['later']),
      ob.ifNode('later', ['step'], ob.graph({ name: 'later_then', outputs: [f32('t_step', [2])], nodes: [ob.node('Mul', ['x', 'y'], ['t_step'])] }),
        ob.graph({ name: 'later_else', outputs: [f32('e_step', [2])], nodes: [ob.node('Identity', ['x'], ['e_step'])] }), { name: 'inner_if' }),
      ob.node('Add', ['acc', 'step'], ['acc_next']),
      ob.node('Identity', ['cj'], ['cj_out']),
    ],
  });
  const outer = ob.graph({
    name: 'outer',
    inputs: [ob.valueInfo('i', 'i64', []), ob.valueInfo('ci', 'boolean', []), f32('y', [2])],
    outputs: [ob.valueInfo('ci_out', 'boolean', []), f32('y_next', [2])],
    nodes: [
      ob.node('Loop', ['three', '', 'y'], ['y_next'], { body: ob.attr.graph(inner) }, { name: 'inner_loop' }),
      ob.node('Identity', ['ci'], ['ci_out']),
    ],
  });
  const thenBranch = ob.graph({
    name: 'then',
    outputs: [f32('loops_y', [2])],
    nodes: [ob.node('Loop', ['M', '', 'x'], ['loops_y'], { body: ob.attr.graph(outer) }, { name: 'outer_loop' })],
  });
  const elseBranch = ob.graph({ name: 'else', outputs: [f32('neg_x', [2])], nodes: [ob.node('Neg', ['x'], ['neg_x'])] });
  return ob.encodeModelProto(ob.model({
    opset,
    irVersion: irVersionFor(opset),
    graph: ob.graph({
      name: 'nested_loops',
      inputs: [ob.valueInfo('M', 'i64', []), ob.valueInfo('go', 'boolean', []), f32('x', [2])],
      outputs: [f32('out', [2])],
      initializers: [ob.int64Tensor('three', [], [3]), ob.int64Tensor('zero_i', [], [0])],
      nodes: [ob.ifNode('go', ['out'], thenBranch, elseBranch, { name: 'top_if' })],
    }),
  }));
}

/** A Loop whose loop-carried value is a sequence (IR has tensors only: refused). */
export function sequenceCarried(): Uint8Array {
  const body = ob.graph({
    name: 'body',
    inputs: [ob.valueInfo('i', 'i64', []), ob.valueInfo('c', 'boolean', []), { name: 's', type: { sequence_type: { elem_type: ob.tensorType('f32', [2]) } } }],
    outputs: [ob.valueInfo('c_out', 'boolean', []), { name: 's_next', type: { sequence_type: { elem_type: ob.tensorType('f32', [2]) } } }],
    nodes: [ob.node('SequenceInsert', ['s', 'x'], ['s_next']), ob.node('Identity', ['c'], ['c_out'])],
  });
  return ob.encodeModelProto(ob.model({
    graph: ob.graph({
      name: 'seq_loop',
      inputs: [ob.valueInfo('M', 'i64', []), ob.valueInfo('cond', 'boolean', []), f32('x', [2])],
      outputs: [{ name: 's_final', type: { sequence_type: { elem_type: ob.tensorType('f32', [2]) } } }],
      nodes: [
        ob.node('SequenceEmpty', [], ['s0'], { dtype: 1 }),
        ob.node('Loop', ['M', 'cond', 's0'], ['s_final'], { body: ob.attr.graph(body) }, { name: 'seq_loop' }),
      ],
    }),
  }));
}

/** Every ONNX Loop version the spec has, with the opset a model uses to get it (Loop-1: opset 10). */
export const LOOP_VERSIONS: readonly { version: number; opset: number }[] = [1, 11, 13, 16, 19, 21, 23, 24, 25]
  .map((version) => ({ version, opset: version === 1 ? 10 : version }));
