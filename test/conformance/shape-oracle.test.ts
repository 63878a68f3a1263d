/**
 * Shape inference against the engines' own answers.
 *
 * ONNX side: for every backend test model (node, simple, pytorch-converted, pytorch-operator), every
 * value onnx.shape_inference.infer_shapes (data_prop on) gives a fully static shape is compared
 * with ours. Agreement rate = values where element type and shape match / values onnx infers
 * statically. A miss where we say less (unknown dim or rank, no rule) lowers the rate; a
 * contradiction (we give a different static size, rank or element type) fails the suite.
 *
 * OV side: each model ovc converts becomes IR; our inference on that IR must agree with
 * OpenVINO's partial shapes of every input and output, and of every output port of every op,
 * inside If/Loop bodies too (equal dims, same intervals, same rank), ops matched by layer name.
 * Graph inputs and outputs must agree; an op output where ours says less (every dim of ours
 * contains OpenVINO's) is counted apart as less precise, a contradiction fails the suite.
 *
 * Both sides: a value whose type ovir only copied from the model's declaration (`assumed`: an op
 * without a rule) is counted apart, never as agreement; a shape rule that threw (SHAPE_RULE_FAILED)
 * is a failure of the model, never a silent fallback to the declaration.
 *
 * Every model is recorded in the scoreboard (suites `shape-onnx`, `shape-ov`) with its misses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromOnnxTypeName, ELEMENT_TYPES, type ElementTypeName } from '../../src/graph/element-type.js';
import { allGraphs } from '../../src/graph/graph.js';
import { OvirError } from '../../src/diag/diagnostic.js';
import type { Model } from '../../src/graph/model.js';
import { dimToJson, type Shape } from '../../src/graph/shape.js';
import type { ValueType } from '../../src/graph/types.js';
import type { Value } from '../../src/graph/value.js';
import { loadModel } from '../../src/io/load.js';
import { inferTypes } from '../../src/shape/index.js';
import { Oracle, type OraclePort } from '../helpers/oracle.js';
import { describeSuite, finishSuite, reasonOf, record, writeScoreboard } from '../helpers/scoreboard.js';
import { backendCases } from '../helpers/testdata.js';

type JsonDim = number | string | null;

/** Every backend test model (libonnx data and the onnx wheel's, deduplicated by the helper). */
function models(): { name: string; path: string }[] {
  return backendCases().map((c) => ({ name: c.name, path: c.model }));
}

const NUMPY: Record<string, ElementTypeName> = {
  float32: 'f32', float64: 'f64', float16: 'f16', int64: 'i64', int32: 'i32', int16: 'i16', int8: 'i8',
  uint8: 'u8', uint16: 'u16', uint32: 'u32', uint64: 'u64', bool: 'boolean', bfloat16: 'bf16',
};
/** The oracle's dtype in our names, whichever spelling it uses (f32, float, tensor(float), float32). */
function normElem(s: string): string {
  const inner = /^tensor\((.*)\)$/.exec(s)?.[1] ?? s;
  if (ELEMENT_TYPES.some((t) => t.name === inner)) return inner;
  return fromOnnxTypeName(inner)?.name ?? NUMPY[inner] ?? inner;
}

/** A dim as [min, max] for comparing OpenVINO shapes (`?`, -1, `a..b`, `..b`, `a..`, numbers). */
function range(d: JsonDim): [number, number] {
  if (d === null) return [0, Infinity];
  if (typeof d === 'number') return d < 0 ? [0, Infinity] : [d, d];
  const m = /^(\d*)\.\.(\d*)$/.exec(d.trim());
  if (m) return [m[1] ? Number(m[1]) : 0, m[2] ? Number(m[2]) : Infinity];
  if (/^-?\d+$/.test(d.trim())) return range(Number(d));
  return [0, Infinity]; // '?' or a symbol
}

function show(s: readonly JsonDim[] | null): string {
  return s === null ? '[...]' : `[${s.map((d) => (d === null ? '?' : String(d))).join(',')}]`;
}

const ourShape = (t: ValueType | undefined): JsonDim[] | null =>
  t && t.kind === 'tensor' && t.shape !== null ? (t.shape as Exclude<Shape, null>).map(dimToJson) : null;
const ourElem = (t: ValueType | undefined): string | null => (t && t.kind === 'tensor' ? t.elem : null);

function valuesByName(model: Model): Map<string, Value> {
  const m = new Map<string, Value>();
  for (const g of allGraphs(model.graph)) {
    for (const v of [...g.inputs, ...g.initializers, ...g.nodes.flatMap((n) => n.outputs)]) {
      for (const n of v.names) if (n && !m.has(n)) m.set(n, v);
    }
  }
  return m;
}

/** Every output of every node, bodies included, keyed `<body path><node name>#<port>` as OracleOpPort names them (no recursion). */
function opPorts(model: Model): Map<string, Value> {
  const out = new Map<string, Value>();
  const todo: { path: string; graph: Model['graph'] }[] = [{ path: '', graph: model.graph }];
  for (let item = todo.pop(); item; item = todo.pop()) {
    for (const n of item.graph.nodes) {
      n.outputs.forEach((v, k) => out.set(`${item!.path}${n.name}#${k}`, v));
      for (const [key, body] of n.bodies) todo.push({ path: `${item.path}${n.name}/${key}/`, graph: body.graph });
    }
  }
  return out;
}

let oracle: Oracle;

beforeAll(async () => {
  oracle = await Oracle.start();
});

/** Suites are described when they run, so that running one (-t) leaves the other's results alone. */
const engines = () => ({ openvino: oracle.versions.openvino, onnx: oracle.versions.onnx });

afterAll(async () => {
  await oracle?.close();
  writeScoreboard();
});

describe('ONNX side: ours vs onnx.shape_inference.infer_shapes (data_prop)', () => {
  it('agrees on every value onnx infers a static shape for', async () => {
    describeSuite('shape-onnx', 'ovir shape inference (onnx policy) vs onnx.shape_inference.infer_shapes(data_prop=True): every value onnx infers a static shape for', engines());
    let total = 0;
    let agree = 0;
    const declaredOnly: string[] = [];
    let assumedCount = 0;
    const ruleFailures: string[] = [];
    const unknownOps = new Map<string, number>();
    const contradictions: string[] = [];
    const misses: string[] = [];
    for (const { name, path } of models()) {
      let model: Model;
      try {
        model = loadModel(path);
      } catch (e) {
        record('shape-onnx', name, e instanceof OvirError ? 'refused' : 'fail', `ovir cannot load the model: ${reasonOf(e)}`);
        continue;
      }
      let theirs: Awaited<ReturnType<Oracle['onnxInferShapes']>>;
      try {
        theirs = await oracle.onnxInferShapes(path);
      } catch (e) {
        record('shape-onnx', name, 'skip', `onnx infer_shapes failed: ${reasonOf(e)}`);
        continue;
      }
      const result = inferTypes(model, { ifMerge: 'onnx' });
      const here: string[] = [];
      let hereContra = false;
      for (const d of result.diagnostics) {
        if (d.code === 'SHAPE_UNKNOWN_OP') { const op = /no shape rule for (\S+)/.exec(d.message)?.[1] ?? '?'; unknownOps.set(op, (unknownOps.get(op) ?? 0) + 1); }
        if (d.code === 'SHAPE_RULE_FAILED') { here.push(`SHAPE_RULE_FAILED ${d.where}: ${d.message}`); ruleFailures.push(`${name}: ${d.where}: ${d.message}`); }
      }
      const byName = valuesByName(model);
      let hereAssumed = 0;
      for (const v of theirs.values) {
        if (v.shape === null || !v.shape.every((d) => typeof d === 'number')) continue;
        total++;
        const ours = byName.get(v.name);
        const t = ours ? result.types.get(ours) : undefined;
        const elem = ourElem(t);
        const shape = ourShape(t);
        const want = normElem(v.dtype);
        const sameShape = shape !== null && shape.length === v.shape.length && shape.every((d, i) => d === v.shape![i]);
        if (ours && result.assumed.has(ours)) {
          // copied from the declaration (an op without a rule upstream): not inference, not agreement
          assumedCount++;
          hereAssumed++;
          continue;
        }
        if (elem === want && sameShape) { agree++; continue; }
        // onnx keeps a declared graph-output shape; when it is what onnx reports and the data that
        // would determine it is a runtime input (Reshape's shape, Pad's pads…), no inference can know it
        const declared = ours && model.graph.outputs.includes(ours) && ours.type?.kind === 'tensor' ? ourShape(ours.type) : null;
        const compatible = shape === null || (shape.length === v.shape.length && shape.every((d, i) => typeof d !== 'number' || d === v.shape![i]));
        if (declared && JSON.stringify(declared) === JSON.stringify(v.shape) && compatible && (elem === null || elem === want)) {
          declaredOnly.push(`${name}: ${v.name} ${want}${show(v.shape)} (ours ${elem ?? '?'}${show(shape)})`);
          continue;
        }
        const contra = (elem !== null && elem !== 'dynamic' && elem !== want)
          || (shape !== null && (shape.length !== v.shape.length || shape.some((d, i) => typeof d === 'number' && d !== v.shape![i])));
        const line = `${v.name}: onnx ${want}${show(v.shape)}, ours ${elem ?? '?'}${show(shape)}${ours ? '' : ' (no such value)'}`;
        here.push(line);
        if (contra) { hereContra = true; contradictions.push(`${name}: ${line}`); }
        else misses.push(`${name}: ${line}`);
      }
      if (hereAssumed) here.push(`${hereAssumed} value(s) only copied from the model's declaration (an op without a shape rule), not inferred`);
      record('shape-onnx', name, here.length ? 'fail' : 'pass', here.length ? `${hereContra ? 'CONTRADICTION ' : ''}${here.slice(0, 5).join('; ')}` : undefined);
    }
    const inferable = total - declaredOnly.length;
    const rate = inferable ? agree / inferable : 1;
    const summary = `${agree}/${inferable} = ${(rate * 100).toFixed(2)}% of the values onnx infers statically `
      + `(not counted as agreement: ${assumedCount} values whose type ovir only copied from the model's declaration; `
      + `${ruleFailures.length} shape rules failed; ${declaredOnly.length} more are declared graph outputs `
      + `onnx keeps and no inference can determine; ${agree}/${total} overall)`;
    record('shape-onnx', '(agreement rate)', rate === 1 ? 'pass' : 'fail', summary);
    describeSuite('shape-onnx', `ovir shape inference (onnx policy) vs onnx.shape_inference.infer_shapes(data_prop=True) on every backend model: agreement ${summary}`, engines());
    process.stdout.write(`shape-onnx agreement: ${summary}; ${misses.length} less precise, ${contradictions.length} contradictions\n`);
    process.stdout.write(`  ops without a shape rule: ${[...unknownOps].sort((a, b) => b[1] - a[1]).map(([o, n]) => `${o} ${n}`).join(', ') || 'none'}\n`);
    for (const d of declaredOnly.slice(0, 200)) process.stdout.write(`  declared-only: ${d}\n`);
    for (const m of misses.slice(0, 200)) process.stdout.write(`  miss: ${m}\n`);
    for (const r of ruleFailures.slice(0, 100)) process.stdout.write(`  rule failed: ${r}\n`);
    finishSuite('shape-onnx');
    expect(total).toBeGreaterThan(0);
    expect(contradictions).toEqual([]);
    expect(ruleFailures, 'shape rules that threw (SHAPE_RULE_FAILED)').toEqual([]);
  });
});

describe('OV side: ours vs OpenVINO partial shapes of IR made by ovc', () => {
  it('agrees on every input and output of every IR', async () => {
    describeSuite('shape-ov', 'ovir shape inference (openvino policy) on IR made by ovc vs the partial shapes OpenVINO reads for every input and output', engines());
    const problems: string[] = [];
    const assumed: string[] = [];
    const ruleFailures: string[] = [];
    let compared = 0;
    let unmatched = 0;
    const lessPrecise: string[] = [];
    /** Ports where OpenVINO has no element type (dynamic) and ovir has one, same shape: ovir says more. */
    const morePrecise: string[] = [];
    for (const { name, path } of models()) {
      let xml: string;
      try {
        xml = await oracle.ovcCached(path);
      } catch (e) {
        record('shape-ov', name, 'skip', `ovc cannot convert: ${reasonOf(e)}`);
        continue;
      }
      let model: Model;
      try {
        model = loadModel(xml);
      } catch (e) {
        record('shape-ov', name, e instanceof OvirError ? 'refused' : 'fail', `ovir cannot load ovc's IR: ${reasonOf(e)}`);
        continue;
      }
      const theirs = await oracle.partialShapes(xml);
      const result = inferTypes(model, { ifMerge: 'openvino' });
      const here: string[] = [];
      const hereLess: string[] = [];
      for (const d of result.diagnostics) {
        if (d.code === 'SHAPE_RULE_FAILED') { here.push(`SHAPE_RULE_FAILED ${d.where}: ${d.message}`); ruleFailures.push(`${name}: ${d.where}: ${d.message}`); }
      }
      const agrees = (elem: string | null, shape: JsonDim[] | null, dtype: string, pshape: JsonDim[] | null): boolean => elem === normElem(dtype)
        && ((shape === null && pshape === null)
          || (shape !== null && pshape !== null && shape.length === pshape.length
            && shape.every((d, k) => { const a = range(d); const b = range(pshape[k]!); return a[0] === b[0] && a[1] === b[1]; })));
      // ours says less but nothing else: same element type, and every dim of ours contains OpenVINO's
      const contains = (elem: string | null, shape: JsonDim[] | null, dtype: string, pshape: JsonDim[] | null): boolean => elem === normElem(dtype)
        && (shape === null || (pshape !== null && shape.length === pshape.length
          && shape.every((d, k) => { const a = range(d); const b = range(pshape[k]!); return a[0] <= b[0] && a[1] >= b[1]; })));
      // OpenVINO without an element type (dynamic), ovir with one, the shapes agreeing: ovir says more
      const saysMore = (elem: string | null, shape: JsonDim[] | null, dtype: string, pshape: JsonDim[] | null): boolean =>
        normElem(dtype) === 'dynamic' && elem !== null && agrees(normElem(dtype), shape, dtype, pshape);
      const compare = (kind: string, ours: Value[], list: OraclePort[]) => {
        list.forEach((p, i) => {
          const v = ours.find((o) => p.names.some((n) => o.names.includes(n))) ?? ours[i];
          const t = v ? result.types.get(v) : undefined;
          const shape = ourShape(t);
          const elem = ourElem(t);
          compared++;
          // a type copied from the declaration is counted apart, never as agreement
          if (v && result.assumed.has(v)) { assumed.push(`${name}: ${kind} ${p.names[0] ?? i}`); return; }
          const line = `${kind} ${p.names[0] ?? i}: openvino ${normElem(p.dtype)}${show(p.shape)}, ours ${elem ?? '?'}${show(shape)}`;
          if (saysMore(elem, shape, p.dtype, p.shape)) morePrecise.push(`${name}: ${line}`);
          else if (!agrees(elem, shape, p.dtype, p.shape)) here.push(line);
        });
      };
      compare('input', model.graph.inputs, theirs.inputs);
      compare('output', model.graph.outputs, theirs.outputs);
      // every output port of every op, bodies included, matched by body path + layer name
      const ours = opPorts(model);
      for (const p of (await oracle.portShapes(xml)).ports) {
        if (p.type === 'Parameter' || p.type === 'Result' || p.type === 'Constant') continue; // graph inputs/outputs above; constants are data
        const v = ours.get(`${p.path}${p.node}#${p.port}`);
        if (!v) { unmatched++; continue; }
        compared++;
        if (result.assumed.has(v)) { assumed.push(`${name}: ${p.path}${p.node}:${p.port}`); continue; }
        const t = result.types.get(v);
        if (!agrees(ourElem(t), ourShape(t), p.dtype, p.shape)) {
          const line = `${p.path}${p.node}:${p.port} (${p.type}): openvino ${normElem(p.dtype)}${show(p.shape)}, ours ${ourElem(t) ?? '?'}${show(ourShape(t))}`;
          if (saysMore(ourElem(t), ourShape(t), p.dtype, p.shape)) morePrecise.push(`${name}: ${line}`);
          else if (contains(ourElem(t), ourShape(t), p.dtype, p.shape)) { lessPrecise.push(`${name}: ${line}`); hereLess.push(line); } else here.push(`CONTRADICTION ${line}`);
        }
      }
      const shown = [...here, ...hereLess.map((l) => `less precise: ${l}`)];
      record('shape-ov', name, shown.length ? 'fail' : 'pass', shown.length ? shown.slice(0, 5).join('; ') : undefined);
      problems.push(...here.map((h) => `${name}: ${h}`));
    }
    const ovSummary = `${compared - problems.length - lessPrecise.length - assumed.length - morePrecise.length}/${compared} ports agree (graph inputs and outputs, and `
      + `every op output inside bodies too); not counted as agreement: ${lessPrecise.length} op outputs where ovir says less than OpenVINO `
      + `(compatible), ${morePrecise.length} where OpenVINO has no element type (dynamic) and ovir has one with the same shape, `
      + `${assumed.length} whose type ovir only copied from a declaration, ${ruleFailures.length} shape rules failed; `
      + `${unmatched} OpenVINO op ports without a same-named ovir node`;
    process.stdout.write(`shape-ov: ${ovSummary}\n`);
    record('shape-ov', '(agreement)', problems.length || lessPrecise.length || assumed.length ? 'fail' : 'pass', ovSummary);
    for (const l of lessPrecise.slice(0, 100)) process.stdout.write(`  less precise: ${l}\n`);
    for (const l of morePrecise.slice(0, 100)) process.stdout.write(`  ovir says more (OpenVINO: dynamic element type): ${l}\n`);
    describeSuite('shape-ov', `ovir shape inference (openvino policy) on IR made by ovc vs the partial shapes OpenVINO reads for every input and output: ${ovSummary}`, engines());
    for (const p of problems.slice(0, 200)) process.stdout.write(`  ${p}\n`);
    finishSuite('shape-ov');
    expect(compared).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  }, 4 * 3600_000); // the first run converts every model with ovc (cached afterwards)
});
