import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { OvirError, type Diagnostic } from '../../src/diag/diagnostic.js';
import { A, tensorFromFloat32, type Value } from '../../src/graph/index.js';
import { encodeOnnx } from '../../src/onnx/encode.js';
import { inferTypes } from '../../src/shape/infer.js';
import { checkModels } from '../../src/equiv/check-models.js';
import { tensorType } from '../../src/graph/types.js';
import { attrString } from '../../src/graph/attr-read.js';
import { describeModel } from '../../src/io/describe.js';
import ort from 'onnxruntime-node';
import { Builder } from './builder.js';

/**
 * OpenVINO's state variables IR → ONNX (mappings/state/variables.ts): ONNX has no state, so each
 * variable becomes a main graph input named variable_id (default: its initial value when
 * constants compute it) and the value its Assign writes a graph output `<variable_id>.next`, after
 * the model's own outputs (the entries stand on ONNX Identity: no ONNX op maps to them). The engines judge stateful IRs OpenVINO writes in
 * test/conformance/state-variables.test.ts.
 */

/** y = (state + x) · 2; the state becomes state + x. `init`: the ReadValue's init input (none: ReadValue-6 without one). */
function accumulator(init: 'const' | 'from-input' | 'none', variableId = 'acc'): Builder {
  const b = new Builder('ov');
  const x = b.input('x', 'f32', [2]);
  const initValue: Value | null = init === 'const' ? b.init('init', tensorFromFloat32([10, 20], [2]))
    : init === 'from-input' ? b.op(b.graph, 'Multiply', [x, b.init('zero', tensorFromFloat32([0], []))], 'zeros', { auto_broadcast: A.raw('numpy') })
      : null;
  const rv = b.op(b.graph, 'ReadValue', initValue ? [initValue] : [], 'state', {
    variable_id: A.raw(variableId), variable_type: A.raw('f32'), variable_shape: A.raw('2'),
  }, { version: 'opset6' });
  const sum = b.op(b.graph, 'Add', [rv, x], 'sum', { auto_broadcast: A.raw('numpy') });
  b.node(b.graph, 'Assign', [sum], ['assigned'], { variable_id: A.raw(variableId) }, { name: 'assign', version: 'opset6' });
  b.output(b.op(b.graph, 'Multiply', [sum, b.init('two', tensorFromFloat32([2], []))], 'y', { auto_broadcast: A.raw('numpy') }));
  return b;
}

function convert(b: Builder): { onnx: ReturnType<typeof convertModel>; warnings: Diagnostic[] } {
  const warnings: Diagnostic[] = [];
  return { onnx: convertModel(b.model, { onWarning: (d) => warnings.push(d) }), warnings };
}

function errorsOf(f: () => unknown): Diagnostic[] {
  try { f(); } catch (e) { if (e instanceof OvirError) return e.diagnostics.filter((d) => d.severity === 'error'); throw e; }
  return [];
}

describe('ReadValue / Assign → a graph input and a graph output per variable', () => {
  it('the variable is input `acc` (required) and output `acc.next`, after the model\'s outputs; the warning states the initial value', () => {
    const { onnx, warnings } = convert(accumulator('const'));
    expect(onnx.graph.inputs.map((v) => v.name)).toEqual(['x', 'acc']);
    expect(onnx.graph.inputs[1]!.constant).toBeNull();
    expect(onnx.graph.outputs.map((v) => v.name)).toEqual(['y', 'acc.next']);
    expect(onnx.onnx!.metadataProps).toContainEqual(['ovir.state_variables', JSON.stringify([{ variable_id: 'acc', input: 'acc', output: 'acc.next', initial: 'constant', initial_value: 'acc.initial' }])]);
    // the initial value is an initializer no node reads: where a caller finds it, and what IR comes back to
    expect(onnx.graph.initializers.find((v) => v.name === 'acc.initial')!.uses).toHaveLength(0);
    const w = warnings.filter((d) => d.code === 'CONVERT_STATE_VARIABLE');
    expect(w).toHaveLength(1);
    expect(w[0]!.where).toBe('main/ReadValue#0');
    expect(w[0]!.message).toContain("graph input 'acc' (the first call gives the IR's constant init of shape [2]: [10, 20], initializer 'acc.initial')");
    expect(w[0]!.message).toContain("graph output 'acc.next'");
  });

  it('onnxruntime: fed the initial value, then each call\'s .next, it carries the state on', async () => {
    const session = await ort.InferenceSession.create(encodeOnnx(convert(accumulator('const')).onnx).bytes);
    expect(session.inputNames).toEqual(['x', 'acc']);
    const x = new ort.Tensor('float32', new Float32Array([1, 2]), [2]);
    const first = await session.run({ x, acc: new ort.Tensor('float32', new Float32Array([10, 20]), [2]) });
    expect([...(first['y']!.data as Float32Array)]).toEqual([22, 44]);
    expect([...(first['acc.next']!.data as Float32Array)]).toEqual([11, 22]);
    const second = await session.run({ x, acc: first['acc.next']! });
    expect([...(second['y']!.data as Float32Array)]).toEqual([24, 48]);
    expect([...(second['acc.next']!.data as Float32Array)]).toEqual([12, 24]);
  });

  it('ReadValue-6 without an init starts at zeros, as OpenVINO does', () => {
    const { warnings, onnx } = convert(accumulator('none'));
    expect(warnings.find((d) => d.code === 'CONVERT_STATE_VARIABLE')!.message).toContain('the first call gives zeros');
    expect(onnx.onnx!.metadataProps[0]![1]).toContain('"initial":"zeros"');
  });

  it('an init computed from an input: the warning says the first call gives what the IR computes, and from where', () => {
    const { onnx, warnings } = convert(accumulator('from-input'));
    expect(onnx.graph.inputs.map((v) => v.name)).toEqual(['x', 'acc']);
    expect(warnings.find((d) => d.code === 'CONVERT_STATE_VARIABLE')!.message).toContain('the first call gives the value the IR computes for it (from main/Multiply#0) at the first call');
    expect(onnx.onnx!.metadataProps[0]![1]).toContain('"initial":"computed"');
  });

  it('a variable_id that another value is named already gets a name of its own, and the metadata says which', () => {
    const { onnx } = convert(accumulator('const', 'x'));
    expect(onnx.graph.inputs.map((v) => v.name)).toEqual(['x', 'x_1']);
    expect(onnx.onnx!.metadataProps).toContainEqual(['ovir.state_variables', JSON.stringify([{ variable_id: 'x', input: 'x_1', output: 'x.next', initial: 'constant', initial_value: 'x.initial' }])]);
  });

  it('a variable assigned twice is an error naming both Assigns', () => {
    const b = accumulator('const');
    b.node(b.graph, 'Assign', [b.graph.inputs[0]!], ['again'], { variable_id: A.raw('acc') }, { name: 'assign2', version: 'opset6' });
    const errs = errorsOf(() => convertModel(b.model));
    expect(errs.map((d) => [d.code, d.where])).toEqual([['CONVERT_OP', 'main/assign2']]);
    expect(errs[0]!.message).toContain("variable 'acc' is assigned twice (also by main/assign)");
  });

  it('a variable inside a body is refused, naming it', () => {
    const b = new Builder('ov');
    const cond = b.input('c', 'boolean', []);
    const x = b.input('x', 'f32', [2]);
    const n = b.ifNode(b.graph, cond, ['y'], 'If_0');
    const t = b.body(n, 'then_body');
    const rv = b.op(t, 'ReadValue', [b.use(t, x)], 'inner', { variable_id: A.raw('v'), variable_type: A.raw('f32'), variable_shape: A.raw('2') }, { version: 'opset6' });
    b.results(t, [rv]);
    const e = b.body(n, 'else_body');
    b.results(e, [b.use(e, x)]);
    b.output(n.outputs[0]!);
    const errs = errorsOf(() => convertModel(b.model));
    expect(errs.map((d) => d.code)).toContain('CONVERT_OP');
    expect(errs.find((d) => d.code === 'CONVERT_OP')!.message).toContain("variable 'v' is used inside a body");
  });
});

describe('shape rules: ReadValue-6 is typed by its variable, ReadValue-3 by its init, Assign by its value', () => {
  it('variable_type / variable_shape win over the init; a bad variable_type is an error', () => {
    const b = new Builder('ov');
    const x = b.input('x', 'f32', [null, 3]);
    const declared = b.op(b.graph, 'ReadValue', [x], 'declared', { variable_id: A.raw('a'), variable_type: A.raw('f32'), variable_shape: A.raw('?,3') }, { version: 'opset6' });
    const v3 = b.op(b.graph, 'ReadValue', [x], 'v3', { variable_id: A.raw('b') }, { version: 'opset3' });
    const bad = b.op(b.graph, 'ReadValue', [], 'bad', { variable_id: A.raw('c'), variable_type: A.raw('float99'), variable_shape: A.raw('2') }, { version: 'opset6' });
    const asg = b.node(b.graph, 'Assign', [declared], ['asg'], { variable_id: A.raw('a') }, { version: 'opset6' }).outputs[0]!;
    const r = inferTypes(b.model);
    const text = (v: Value): string => JSON.stringify(r.types.get(v));
    expect(text(declared)).toBe(JSON.stringify({ kind: 'tensor', elem: 'f32', shape: [null, 3] }));
    expect(text(v3)).toBe(text(x));
    expect(text(asg)).toBe(text(declared));
    expect(r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.where)).toEqual(['main/ReadValue#2']);
    expect(r.types.get(bad)).toEqual({ kind: 'tensor', elem: 'dynamic', shape: [2] });
  });
});

describe('ovir check pairs a variable with the graph input and output it became', () => {
  it('the IR and its ONNX are equivalent; a wrong state input type is a contradiction, not "equivalent"', () => {
    const ir = accumulator('const').model;
    const onnx = convertModel(ir);
    const report = checkModels(ir, onnx);
    expect(report.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(report.ok).toBe(true);
    onnx.graph.inputs[1]!.type = tensorType('f32', [3]);
    const bad = checkModels(ir, onnx);
    expect(bad.ok).toBe(false);
  });

  it('without the metadata the ONNX state input and output pair with nothing: not comparable', () => {
    const ir = accumulator('const').model;
    const onnx = convertModel(ir);
    onnx.onnx!.metadataProps = [];
    const report = checkModels(ir, onnx);
    expect(report.ok).toBe(false);
    expect(report.diagnostics.filter((d) => d.code === 'EQUIV_INTERFACE_UNPAIRED').length).toBeGreaterThan(0);
  });
});

describe('ONNX → IR makes the variables of ovir\'s metadata variables again (the round trip IR → ONNX → IR)', () => {
  const codes = (ds: Diagnostic[]) => ds.map((d) => d.code).filter((c) => c.startsWith('CONVERT_STATE'));

  it('input acc and output acc.next become ReadValue-6 (init: acc.initial) and Assign-6 of variable acc', () => {
    const onnx = convertModel(accumulator('const').model);
    const warnings: Diagnostic[] = [];
    const back = convertModel(onnx, { onWarning: (d) => warnings.push(d) });
    expect(codes(warnings)).toEqual(['CONVERT_STATE_RESTORED']);
    expect(back.graph.inputs.map((v) => v.name)).toEqual(['x']);
    expect(back.graph.outputs.map((v) => v.name)).toEqual(['y']);
    const rv = back.graph.nodes.find((n) => n.op === 'ReadValue')!;
    expect([rv.version, attrString(rv, 'variable_id'), attrString(rv, 'variable_type'), attrString(rv, 'variable_shape')]).toEqual(['opset6', 'acc', 'f32', '2']);
    expect([...new Float32Array(rv.inputs[0]!.constant!.data.slice().buffer)]).toEqual([10, 20]);
    const asg = back.graph.nodes.find((n) => n.op === 'Assign')!;
    expect(attrString(asg, 'variable_id')).toBe('acc');
  });

  it('ReadValue-6 without an init comes back without one (zeros of a static shape)', () => {
    const back = convertModel(convertModel(accumulator('none').model));
    const rv = back.graph.nodes.find((n) => n.op === 'ReadValue')!;
    expect(rv.inputs).toHaveLength(0);
  });

  it('an initial value the IR computed is not in the ONNX model: the variable stays an input and an output, and says why', () => {
    const warnings: Diagnostic[] = [];
    const back = convertModel(convertModel(accumulator('from-input').model), { onWarning: (d) => warnings.push(d) });
    expect(codes(warnings)).toEqual(['CONVERT_STATE_NOT_RESTORED']);
    expect(warnings.find((d) => d.code === 'CONVERT_STATE_NOT_RESTORED')!.message).toContain('its initial value was computed by the IR');
    expect(back.graph.inputs.map((v) => v.name)).toEqual(['x', 'acc']);
    expect(back.graph.nodes.some((n) => n.op === 'ReadValue')).toBe(false);
  });

  it('metadata naming an output the model does not have restores nothing for that variable', () => {
    const onnx = convertModel(accumulator('const').model);
    onnx.onnx!.metadataProps = [['ovir.state_variables', JSON.stringify([{ variable_id: 'acc', input: 'acc', output: 'gone', initial: 'constant', initial_value: 'acc.initial' }])]];
    const warnings: Diagnostic[] = [];
    convertModel(onnx, { onWarning: (d) => warnings.push(d) });
    expect(warnings.find((d) => d.code === 'CONVERT_STATE_NOT_RESTORED')!.message).toContain("the model has no graph output 'gone' for it");
  });
});

describe('ovir info lists the state variables', () => {
  it('an IR\'s ReadValues by variable_id; the ONNX made of it, with the input and output each became', () => {
    const ir = accumulator('const').model;
    // (the built IR's ports carry no types: describeModel reports what a model declares)
    expect(describeModel(ir, 'm.xml').variables.map((v) => v.name)).toEqual(['acc']);
    expect(describeModel(convertModel(ir), 'm.onnx').variables).toEqual([{ name: 'acc', dtype: 'f32', shape: [2], input: 'acc', output: 'acc.next' }]);
  });
});
