import { A, type Attr } from '../../src/graph/attr.js';
import { fromIrElementType, fromOnnxDataType, type ElementTypeName } from '../../src/graph/element-type.js';
import type { Value } from '../../src/graph/value.js';
import { asI64Vector, i64Const } from '../helpers.js';
import type { ConvertContext, OpMapping } from '../spec.js';
import { typedScalar } from '../typed-consts.js';
import { irSeeds, onnxSeed, SEED_HANDLES } from './random-seed.js';

/**
 * ONNX RandomUniform-1 (shape attribute) / RandomUniformLike-1 (the input's shape) ⇄ IR
 * RandomUniform-8(shape, min, max; output_type, global_seed, op_seed): values in [low, high) of
 * `dtype` (default f32; Like: the input's type). Same distribution, other numbers (see
 * random-seed.ts). IR → ONNX: a float output with constant shape and bounds is ONNX RandomUniform
 * (f16 / bf16 drawn in f32 and Cast: onnxruntime has no kernel for them);
 * a run-time shape RandomUniformLike of a ConstantOfShape; run-time bounds min + u · (max − min);
 * an integer output (i32/i64: uniform whole numbers in [min, max)) ⌊min + u · (max − min)⌋ with u
 * drawn in f64, capped at max − 1 against rounding.
 */

/** The float types the ONNX random ops produce (bf16 from opset 22). */
export const RANDOM_FLOATS: readonly ElementTypeName[] = ['f16', 'f32', 'f64', 'bf16'];

/** ONNX → IR: the element type the source's `dtype` names (else `fallback`), or null after a diagnostic. */
export function randomDtype(c: ConvertContext, fallback: ElementTypeName | null, allowed: readonly ElementTypeName[] = RANDOM_FLOATS): ElementTypeName | null {
  const d = c.attr.int('dtype');
  const elem = d === undefined ? fallback : fromOnnxDataType(Number(d))?.name ?? null;
  if (elem === null || !allowed.includes(elem)) {
    if (d === undefined) c.error(`${c.node.op} needs a float input type or a dtype (input type ${fallback ?? 'unknown'})`);
    else c.unsupportedAttr('dtype', String(d), `one of ${allowed.join(', ')}`);
    return null;
  }
  return elem;
}

/**
 * IR: values uniform in [low, high) of `elem` for the i64 shape `shape` (bf16 drawn in f32 and
 * converted: no bf16 constants are built here).
 */
export function irUniform(c: ConvertContext, shape: Value, elem: ElementTypeName, low: number, high: number, seeds: Record<string, string>): Value {
  const gen = typedScalar(elem, 0) === null ? 'f32' : elem;
  const u = c.emit('RandomUniform', [shape, c.constant(typedScalar(gen, low)!), c.constant(typedScalar(gen, high)!)], { output_type: gen, ...seeds }, 1, 'opset8')[0]!;
  return gen === elem ? u : c.emit('Convert', [u], { destination_type: elem }, 1, 'opset1')[0]!;
}

/** IR: the i64 shape of source input `i` (ShapeOf). */
export const irShapeOf = (c: ConvertContext, i: number): Value => c.emit('ShapeOf', [c.input(i)], { output_type: 'i64' }, 1, 'opset3')[0]!;

/**
 * What a random op draws (ONNX → IR): its dtype, and its shape as an IR value (the `*Like` ops:
 * the input's, the others: their shape attribute); null after a diagnostic.
 */
export function randomTarget(c: ConvertContext, like: boolean): { elem: ElementTypeName; shape: Value } | null {
  const elem = randomDtype(c, like ? c.elem(0) : 'f32');
  if (elem === null) return null;
  if (like) return { elem, shape: irShapeOf(c, 0) };
  const dims = c.attr.ints('shape');
  if (dims === undefined) { c.error(`${c.node.op} needs its shape attribute`); return null; }
  return { elem, shape: i64Const(c, dims) };
}

function uniformToIr(c: ConvertContext, like: boolean): void {
  const t = randomTarget(c, like);
  if (!t) return;
  c.output(0, irUniform(c, t.shape, t.elem, c.attr.float('low', 0), c.attr.float('high', 1), irSeeds(c)));
}

/** IR → ONNX. */
function uniformToOnnx(c: ConvertContext): void {
  const outName = (c.attr.string('output_type') ?? '').trim();
  const out = fromIrElementType(outName);
  const isFloat = out !== undefined && RANDOM_FLOATS.includes(out.name);
  if (!out || out.onnx === null || (!isFloat && out.name !== 'i32' && out.name !== 'i64')) {
    c.unsupportedAttr('output_type', outName, 'RandomUniform-8 draws f16, bf16, f32, f64, i32 or i64');
    return;
  }
  const seed = onnxSeed(c);
  const shape = c.constInts(0);
  const bound = (i: number): number | null => { const v = c.constNumbers(i); return v !== null && v.length === 1 ? Number(v[0]) : null; };
  const lo = bound(1);
  const hi = bound(2);
  // drawn in this type: f32 and f64 as themselves, f16 / bf16 in f32 (onnxruntime has no kernel
  // for them, measured) and Cast after, whole numbers in f64
  const half = out.name === 'f16' || out.name === 'bf16';
  const drawType = !isFloat ? 11 : half ? 1 : out.onnx;
  const fitsF32 = (v: number | null): v is number => v !== null && Math.fround(v) === v;
  const direct = isFloat && fitsF32(lo) && fitsF32(hi);
  const attrs: Record<string, Attr> = { dtype: A.int(drawType), ...seed, ...(direct ? { low: A.float(lo), high: A.float(hi) } : {}) };
  const u = shape !== null
    ? c.emit('RandomUniform', [], { ...attrs, shape: A.ints(shape) })[0]!
    : c.emit('RandomUniformLike', [c.emit('ConstantOfShape', [asI64Vector(c, 0)])[0]!], attrs)[0]!;
  const cast = (v: Value, to: number): Value => c.emit('Cast', [v], { to: A.int(to) })[0]!;
  if (direct) { c.output(0, half ? cast(u, out.onnx) : u); return; }
  // min + u · (max − min) in the draw type, bounds as scalars
  const scalarOf = (i: number): Value => {
    const v = c.emit('Reshape', [c.input(i)!, i64Const(c, [])])[0]!;
    return !isFloat || half ? cast(v, drawType) : v;
  };
  const min = scalarOf(1);
  const max = scalarOf(2);
  let y = c.emit('Add', [min, c.emit('Mul', [u, c.emit('Sub', [max, min])[0]!])[0]!])[0]!;
  if (!isFloat) {
    const last = c.emit('Sub', [max, c.constant(typedScalar('f64', 1)!)])[0]!;
    y = c.emit('Min', [c.emit('Floor', [y])[0]!, last])[0]!;
  }
  c.output(0, drawType === out.onnx ? y : cast(y, out.onnx));
}

export const RANDOM_UNIFORM: readonly OpMapping[] = [
  {
    onnx: { op: 'RandomUniform', since: 1 },
    ir: { op: 'RandomUniform', version: 'opset8' },
    handles: { onnx: ['dtype', 'low', 'high', 'shape', ...SEED_HANDLES.onnx], ir: ['output_type', 'alignment', ...SEED_HANDLES.ir] },
    note: 'same distribution, other numbers: OpenVINO\'s generator is not onnxruntime\'s (seed: its float bits as op_seed)',
    toIr: (c) => uniformToIr(c, false),
    toOnnx: uniformToOnnx,
  },
  {
    onnx: { op: 'RandomUniformLike', since: 1 },
    ir: null,
    decomposes: ['ShapeOf', 'RandomUniform'],
    handles: { onnx: ['dtype', 'low', 'high', ...SEED_HANDLES.onnx] },
    note: 'RandomUniform of the input\'s ShapeOf',
    toIr: (c) => uniformToIr(c, true),
  },
];
