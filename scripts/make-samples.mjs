#!/usr/bin/env node
// Regenerates samples/ from code: `npm run build && node scripts/make-samples.mjs`.
// Each sample is built in one dialect with the graph API (outer values a body reads enter it as
// bound parameters, as the decoders make them), converted with convertModel, and both forms are
// written with the library's own writers. Deterministic: running it twice gives the same bytes.
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Model, defaultOnnxInfo, tensorType, tensorFromFloat32, convertModel, saveModel, inferTypes, applyInferred } from '../dist/src/index.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', 'samples');

/** A tiny builder: `use(g, v)` threads an outer value into body `g` through bindings. */
function builder(dialect) {
  const model = new Model(dialect);
  if (dialect === 'ov') model.ir = { name: 'sample', version: 11, rtInfo: null };
  else model.onnx = defaultOnnxInfo(17);
  const version = (op) => (dialect === 'onnx' ? '17' : op === 'If' ? 'opset8' : 'opset1');
  const keys = dialect === 'onnx' ? ['then_branch', 'else_branch'] : ['then_body', 'else_body'];
  const caps = new Map();
  const b = {
    model, g: model.graph, keys,
    input(name, elem, shape) {
      const v = model.graph.addInput(tensorType(elem, shape), [name]);
      if (dialect === 'ov') v.meta.layerName = name;
      return v;
    },
    init(g, name, t) {
      const v = g.addInitializer(t, [name]);
      if (dialect === 'ov') v.meta.layerName = name;
      return v;
    },
    // One If input per (node, outer value), shared by both bodies (as the If-8 spec's example
    // does); one parameter per (body, value).
    use(g, v) {
      if (v.graph === g) return v;
      const chain = [];
      for (let h = g; h !== v.graph; h = h.owner.node.graph) chain.push(h);
      let cur = v;
      for (let i = chain.length - 1; i >= 0; i--) {
        const h = chain[i];
        const owner = h.owner;
        const seen = caps.get(h) ?? new Map();
        caps.set(h, seen);
        let p = seen.get(cur);
        if (!p) {
          const inputs = caps.get(owner.node) ?? new Map();
          caps.set(owner.node, inputs);
          let from = inputs.get(cur);
          if (from === undefined) { from = owner.node.addInput(cur); inputs.set(cur, from); }
          p = h.addInput(cur.type, [...cur.names]);
          if (dialect === 'ov') p.meta.layerName = cur.name;
          owner.node.bodies.get(owner.key).inputs.push({ param: p, from });
          seen.set(cur, p);
        }
        cur = p;
      }
      return cur;
    },
    op(g, op, inputs, out, name) {
      const n = g.addNode({ dialect, op, version: version(op), name: name ?? out });
      for (const v of inputs) n.addInput(b.use(g, v));
      if (dialect === 'ov' && ['Add', 'Subtract', 'Multiply'].includes(op)) n.attrs.set('auto_broadcast', { type: 'raw', value: 'numpy' });
      return n.addOutput(null, [out]);
    },
    ifNode(g, cond, outs, name) {
      const n = g.addNode({ dialect, op: 'If', version: version('If'), name });
      n.addInput(b.use(g, cond));
      for (const o of outs) n.addOutput(null, [o]);
      const bodies = keys.map((k) => g.addBody(n, k).graph);
      return { n, then: bodies[0], else: bodies[1] };
    },
    results(g, values) {
      const body = g.owner.node.bodies.get(g.owner.key);
      values.forEach((v, k) => { g.outputs.push(b.use(g, v)); body.outputs.push({ result: k, to: k }); });
    },
  };
  return b;
}

const NEG = { onnx: 'Neg', ov: 'Negative' };
const MUL = { onnx: 'Mul', ov: 'Multiply' };

const SAMPLES = {
  /** The OpenVINO If-8 spec's example (seed 003), as a complete IR net: x is read by both bodies
   * through one If input; then = x + z, else = x + w. */
  'if-shared-outer': { from: 'ov', build(b) {
    const cond = b.input('cond', 'boolean', []);
    const x = b.input('x', 'f32', [2, 4]);
    const z = b.input('z', 'f32', [2, 4]);
    const w = b.input('w', 'f32', [2, 4]);
    const i = b.ifNode(b.g, cond, ['if/cond:0'], 'if/cond');
    b.results(i.then, [b.op(i.then, 'Add', [x, z], 'Add:0', 'Add')]);
    b.results(i.else, [b.op(i.else, 'Add', [x, w], 'Add_1:0', 'Add')]);
    b.g.outputs.push(i.n.outputs[0]);
  } },
  /** then = -a, else = b * b: each branch reads its own outer value. */
  'if-different-outer': { from: 'onnx', build(b) {
    const cond = b.input('cond', 'boolean', []);
    const a = b.input('a', 'f32', [3]);
    const c = b.input('b', 'f32', [3]);
    const i = b.ifNode(b.g, cond, ['out'], 'If_0');
    b.results(i.then, [b.op(i.then, NEG[b.model.dialect], [a], 'neg_a')]);
    b.results(i.else, [b.op(i.else, MUL[b.model.dialect], [c, c], 'b_squared')]);
    b.g.outputs.push(i.n.outputs[0]);
  } },
  /** An If nested in an If: the inner one (in the outer then-branch) reads x from the main graph. */
  'if-nested': { from: 'onnx', build(b) {
    const c1 = b.input('c1', 'boolean', []);
    const c2 = b.input('c2', 'boolean', []);
    const x = b.input('x', 'f32', [2]);
    const outer = b.ifNode(b.g, c1, ['y'], 'outer_if');
    const inner = b.ifNode(outer.then, c2, ['inner_y'], 'inner_if');
    b.results(inner.then, [b.op(inner.then, 'Add', [x, x], 'x_doubled')]);
    b.results(inner.else, [b.op(inner.else, NEG[b.model.dialect], [x], 'x_negated')]);
    b.results(outer.then, [inner.n.outputs[0]]);
    b.results(outer.else, [b.op(outer.else, MUL[b.model.dialect], [x, x], 'x_squared')]);
    b.g.outputs.push(outer.n.outputs[0]);
  } },
  /** ONNX Scan ⇄ TensorIterator: a running sum over the rows of xs, last row first
   * (scan_input_directions 1), whose body holds an If reading c and w from the main graph:
   * ys[i] = c ? s_i * w : -s_i. In IR: a back edge for s, a sliced input (stride -1) for xs,
   * invariant inputs for c and w, the If-8 inside the TensorIterator body. */
  'scan-if-inside': { from: 'onnx', build(b) {
    const c = b.input('c', 'boolean', []);
    const s0 = b.input('s0', 'f32', [2]);
    const xs = b.input('xs', 'f32', [4, 2]);
    const w = b.input('w', 'f32', [2]);
    const n = b.g.addNode({ dialect: 'onnx', op: 'Scan', version: '17', name: 'Scan_0' });
    n.addInput(s0);
    n.addInput(xs);
    n.meta.onnxInputCount = 2;
    n.attrs.set('num_scan_inputs', { type: 'int', value: 1n });
    n.attrs.set('scan_input_directions', { type: 'ints', value: [1n] });
    const body = b.g.addBody(n, 'body');
    const g = body.graph;
    const s = g.addInput(tensorType('f32', [2]), ['s']);
    const x = g.addInput(tensorType('f32', [2]), ['x']);
    body.inputs.push({ param: s, from: 0 }, { param: x, from: 1 });
    const next = b.op(g, 'Add', [s, x], 's_next');
    const i = b.ifNode(g, c, ['y'], 'If_0');
    b.results(i.then, [b.op(i.then, MUL.onnx, [next, w], 's_times_w')]);
    b.results(i.else, [b.op(i.else, NEG.onnx, [next], 's_negated')]);
    g.outputs.push(next, i.n.outputs[0]);
    body.outputs.push({ result: 0, to: 0 }, { result: 1, to: 1 });
    for (const x of body.inputs) if (x.from >= 2) x.param.meta.onnxCapture = true;
    b.g.outputs.push(n.addOutput(null, ['s_final']), n.addOutput(null, ['ys']));
  } },
  /** Branch outputs with no node: then returns the outer value x itself (a Result fed by the body
   * Parameter), else its own constant (a Result fed by a Const). */
  'if-direct-output': { from: 'ov', build(b) {
    const cond = b.input('cond', 'boolean', [1]);
    const x = b.input('x', 'f32', [2]);
    const i = b.ifNode(b.g, cond, ['y'], 'If_direct');
    b.results(i.then, [x]);
    b.results(i.else, [b.init(i.else, 'fallback', tensorFromFloat32([7, 8]))]);
    b.g.outputs.push(i.n.outputs[0]);
  } },
};

for (const [name, s] of Object.entries(SAMPLES)) {
  const b = builder(s.from === 'ov' ? 'ov' : 'onnx');
  s.build(b);
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  // Type every value of the hand-built form (IR ports need precisions, ONNX outputs types).
  applyInferred(inferTypes(b.model));
  const other = convertModel(b.model);
  const [onnx, ir] = s.from === 'ov' ? [other, b.model] : [b.model, other];
  saveModel(ir, join(dir, 'model.xml'));
  saveModel(onnx, join(dir, 'model.onnx'));
  process.stdout.write(`samples/${name}: model.onnx, model.xml, model.bin\n`);
}
