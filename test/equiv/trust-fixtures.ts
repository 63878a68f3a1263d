import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { convertModel } from '../../src/convert/index.js';
import { allGraphs, defaultOnnxInfo, Graph, Model, tensorType, type Value } from '../../src/graph/index.js';
import { makeTensor, tensorFromFloat32 } from '../../src/graph/tensor.js';
import { saveModel } from '../../src/io/load.js';

/**
 * Real files for the trust tests: ONNX models built with the graph API and written by our
 * encoder, their IR written by our converter, and IR files edited by hand as a user would.
 */
const F = tensorType('f32', [2, 4]);
const BOOL = tensorType('boolean', []);

type Op = [op: string, inputs: string[], output: string];

/** Adds ONNX nodes to `g`; names are looked up in `scope` (outer reads become captures of `g`). */
function build(g: Graph, ops: Op[], scope: Map<string, Value>): Map<string, Value> {
  const local = new Map(scope);
  for (const [op, ins, out] of ops) {
    const n = g.addNode({ dialect: 'onnx', op, version: '13', name: `${op}_${out}` });
    for (const i of ins) n.addInput(local.get(i)!);
    local.set(out, n.addOutput(null, [out]));
  }
  return local;
}

/**
 * An ONNX If whose branches read outer values: each branch is a list of ops over names of `outer`;
 * the branch outputs `results` become the If outputs `outs`.
 */
function addIf(g: Graph, name: string, cond: Value, outer: Map<string, Value>, branches: { then: Op[]; else: Op[] }, results: { then: string[]; else: string[] }, outs: string[]): Value[] {
  const node = g.addNode({ dialect: 'onnx', op: 'If', version: '13', name });
  node.addInput(cond);
  const outVals = outs.map((o) => node.addOutput(null, [o]));
  for (const key of ['then', 'else'] as const) {
    const body = g.addBody(node, `${key}_branch`);
    const reads = [...new Set(branches[key].flatMap(([, ins]) => ins))].filter((n) => outer.has(n));
    const scope = new Map<string, Value>();
    for (const r of reads) {
      const p = body.graph.addInput(null, [r]);
      let from = node.inputs.indexOf(outer.get(r)!);
      if (from < 0) from = node.addInput(outer.get(r)!);
      body.inputs.push({ param: p, from });
      scope.set(r, p);
    }
    const vals = build(body.graph, branches[key], scope);
    results[key].forEach((r, i) => { body.graph.outputs.push(vals.get(r)!); body.outputs.push({ result: i, to: i }); });
  }
  return outVals;
}

function model(): { m: Model; g: Graph; x: Value; z: Value; cond: Value } {
  const m = new Model('onnx');
  m.onnx = defaultOnnxInfo(13);
  const g = m.graph;
  const cond = g.addInput(BOOL, ['cond']);
  const x = g.addInput(F, ['x']);
  const z = g.addInput(F, ['z']);
  return { m, g, x, z, cond };
}

/** Issue 15: then computes x - z and x * z, else x + z and z - x (x, z: f32[2,4]). */
export function subModel(): Model {
  const { m, g, x, z, cond } = model();
  const outer = new Map([['x', x], ['z', z]]);
  const ys = addIf(g, 'If_0', cond, outer,
    { then: [['Sub', ['x', 'z'], 'd'], ['Mul', ['x', 'z'], 'p']], else: [['Add', ['x', 'z'], 's'], ['Sub', ['z', 'x'], 'e']] },
    { then: ['d', 'p'], else: ['s', 'e'] }, ['y0', 'y1']);
  g.outputs.push(...ys);
  return m;
}

/** Two levels: the outer If's then-branch holds If_1 (on c2) whose then computes x - z. */
export function nestedModel(): Model {
  const { m, g, x, z, cond } = model();
  const c2 = g.addInput(BOOL, ['c2']);
  const outerIf = g.addNode({ dialect: 'onnx', op: 'If', version: '13', name: 'If_0' });
  outerIf.addInput(cond);
  const y = outerIf.addOutput(null, ['y']);
  // then: If_1(c2) { x - z } else { z - x }, captured through If_0's then-branch.
  const thenB = g.addBody(outerIf, 'then_branch');
  const scope = new Map<string, Value>();
  for (const [name, v] of [['c2', c2], ['x', x], ['z', z]] as const) {
    const p = thenB.graph.addInput(null, [name]);
    thenB.inputs.push({ param: p, from: outerIf.addInput(v) });
    scope.set(name, p);
  }
  const [inner] = addIf(thenB.graph, 'If_1', scope.get('c2')!, scope,
    { then: [['Sub', ['x', 'z'], 'd']], else: [['Sub', ['z', 'x'], 'e']] }, { then: ['d'], else: ['e'] }, ['inner']);
  thenB.graph.outputs.push(inner!);
  thenB.outputs.push({ result: 0, to: 0 });
  const elseB = g.addBody(outerIf, 'else_branch');
  const px = elseB.graph.addInput(null, ['x']);
  elseB.inputs.push({ param: px, from: outerIf.inputs.indexOf(x) });
  const neg = elseB.graph.addNode({ dialect: 'onnx', op: 'Neg', version: '13', name: 'Neg_x' });
  neg.addInput(px);
  elseB.graph.outputs.push(neg.addOutput(null, ['nx']));
  elseB.outputs.push({ result: 0, to: 0 });
  g.outputs.push(y);
  return m;
}

/** x * 1048576 inside an If branch (the Silero constant that overflows f16), else x. */
export function bigConstModel(values: number[] = [1048576, 0.5, -3, 0.1]): Model {
  const { m, g, x, cond } = model();
  const node = g.addNode({ dialect: 'onnx', op: 'If', version: '13', name: 'If_0' });
  node.addInput(cond);
  const y = node.addOutput(null, ['y']);
  const thenB = g.addBody(node, 'then_branch');
  const px = thenB.graph.addInput(null, ['x']);
  thenB.inputs.push({ param: px, from: node.addInput(x) });
  const k = thenB.graph.addInitializer(tensorFromFloat32(values, [4]), ['big']);
  const mul = thenB.graph.addNode({ dialect: 'onnx', op: 'Mul', version: '13', name: 'Mul_big' });
  mul.addInput(px);
  mul.addInput(k);
  thenB.graph.outputs.push(mul.addOutput(null, ['xb']));
  thenB.outputs.push({ result: 0, to: 0 });
  const elseB = g.addBody(node, 'else_branch');
  const ex = elseB.graph.addInput(null, ['x']);
  elseB.inputs.push({ param: ex, from: 1 });
  const id = elseB.graph.addNode({ dialect: 'onnx', op: 'Neg', version: '13', name: 'Neg_x' });
  id.addInput(ex);
  elseB.graph.outputs.push(id.addOutput(null, ['nx']));
  elseB.outputs.push({ result: 0, to: 0 });
  g.outputs.push(y);
  return m;
}

/** Writes `m` as .onnx and its IR (by our converter) as .xml; returns the paths and the IR text. */
export function writeBoth(m: Model, name: string): { dir: string; onnx: string; xml: string; text: string } {
  const dir = mkdtempSync(join(tmpdir(), `ovir-trust-${name}-`));
  const onnx = join(dir, `${name}.onnx`);
  saveModel(m, onnx);
  const xml = join(dir, `${name}.xml`);
  saveModel(convertModel(m, { to: 'ov' }), xml);
  return { dir, onnx, xml, text: readFileSync(xml, 'utf8') };
}

/** Writes an edited copy of an IR (same .bin) and returns its path. */
export function writeEdited(f: { dir: string; xml: string }, name: string, text: string, bin?: Uint8Array): string {
  const out = join(f.dir, `${name}.xml`);
  writeFileSync(out, text);
  writeFileSync(join(f.dir, `${name}.bin`), bin ?? readFileSync(f.xml.replace(/\.xml$/, '.bin')));
  return out;
}

/** Swaps the `external_port_id`s of the first two `<kind>` entries of the `n`-th `<then_port_map>`. */
export function swapPortMap(text: string, kind: 'input' | 'output', n = 0): string {
  let k = -1;
  return text.replace(/<then_port_map>[\s\S]*?<\/then_port_map>/g, (block) => {
    if (++k !== n) return block;
    const re = new RegExp(`<${kind} external_port_id="(\\d+)"`, 'g');
    const ids = [...block.matchAll(re)].map((x) => x[1]!);
    if (ids.length < 2) throw new Error(`port map ${n} has fewer than two ${kind} entries`);
    let i = 0;
    return block.replace(re, (all, id: string) => {
      const j = i++;
      if (j === 0) return all.replace(`"${id}"`, `"${ids[1]}"`);
      if (j === 1) return all.replace(`"${id}"`, `"${ids[0]}"`);
      return all;
    });
  });
}

/** IEEE half bits of x, rounded to nearest even; beyond the f16 range: ±inf (what a naive compression writes). */
export function f16Bits(x: number): number {
  const sign = x < 0 || Object.is(x, -0) ? 0x8000 : 0;
  const a = Math.abs(x);
  if (Number.isNaN(x)) return 0x7e00;
  if (a >= 65520) return sign | 0x7c00;
  if (a < 2 ** -14) return sign | Math.round(a / 2 ** -24);
  let e = Math.floor(Math.log2(a));
  let m = Math.round((a / 2 ** e - 1) * 1024);
  if (m === 1024) { m = 0; e++; }
  return sign | ((e + 15) << 10) | m;
}

/**
 * The IR of `m` with the f32 constants of one body compressed to f16 by hand (`Const f16 →
 * Convert f32`, as fp16 compression writes them), values out of f16 range becoming inf.
 */
export function naiveFp16(ir: Model): Model {
  for (const g of allGraphs(ir.graph)) {
    for (let i = 0; i < g.initializers.length; i++) {
      const v = g.initializers[i]!;
      if (v.constant?.elem !== 'f32') continue;
      const vals = new Float32Array(Uint8Array.from(v.constant.data).buffer);
      const half = new Uint16Array(vals.length);
      vals.forEach((x, k) => { half[k] = f16Bits(x); });
      const h = g.addInitializer(makeTensor('f16', v.constant.dims, new Uint8Array(half.buffer)), []);
      h.meta['layerName'] = `${v.label}/compressed`;
      g.initializers.pop();
      g.initializers[i] = h;
      const cvt = g.addNode({ dialect: 'ov', op: 'Convert', version: 'opset1', name: `${v.label}/decompress` });
      g.nodes.pop();
      g.nodes.unshift(cvt);
      cvt.attrs.set('destination_type', { type: 'raw', value: 'f32' });
      cvt.addInput(h);
      const out = cvt.addOutput(tensorType('f32', v.constant.dims), v.names);
      for (const u of [...v.uses]) u.node.setInput(u.index, out);
    }
  }
  return ir;
}

/** A main graph of one ONNX op over inputs of the given types: `out = op(inputs...)`. */
export function opModel(op: string, inputs: Record<string, ReturnType<typeof tensorType>>, out = 'y'): Model {
  const m = new Model('onnx');
  m.onnx = defaultOnnxInfo(13);
  const g = m.graph;
  const n = g.addNode({ dialect: 'onnx', op, version: '13', name: `${op}_0` });
  for (const [name, t] of Object.entries(inputs)) {
    const v = g.addInput(t, [name]);
    if (name.startsWith('unused')) continue;
    n.addInput(v);
  }
  g.outputs.push(n.addOutput(null, [out]));
  return m;
}
