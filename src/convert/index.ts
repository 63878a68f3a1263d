import { Diagnostics, OvirError, type Diagnostic } from '../diag/diagnostic.js';
import { DEFAULT_ONNX_OPSET, onnxIrVersionFor } from '../onnx/versions.js';
import { defaultOnnxInfo, Model } from '../graph/model.js';
import { isStaticShape, type Shape } from '../graph/shape.js';
import { tensorType, type ValueType } from '../graph/types.js';
import { allGraphs } from '../graph/graph.js';
import { verifyGraph } from '../graph/verify.js';
import { validateOnnxModel } from '../onnx/validate.js';
import { applyInferred, inferTypes } from '../shape/infer.js';
import { Engine } from './engine.js';
import { compressToFp16 } from './fp16.js';
import { foldConstants } from './fold.js';
import { foldUntakenBranches } from './fold-untaken.js';
import { freezeInputs, type FreezeSpec } from './freeze.js';
import { applyIrV10Interface } from './ir-v10-interface.js';
import { pinRelaxedRanks, relaxBranchCaptures } from './relax-if.js';
import { assignOnnxNames } from './onnx-names.js';
import { legalizeOnnxTypes } from './onnx-types.js';
import { pruneUnused } from './prune.js';
import { defaultConvertRegistry, type ConvertRegistry } from './registry.js';
import { SourceInfo } from './source-types.js';
import { MAX_ONNX_OPSET, MIN_ONNX_OPSET } from './opset-range.js';

export { buildConvertRegistry, defaultConvertRegistry, type ConvertRegistry } from './registry.js';

export interface ConvertOptions {
  /** Target format; default: the other one. */
  to?: 'onnx' | 'ov';
  /** ONNX opset to emit (IR → ONNX); default DEFAULT_ONNX_OPSET. */
  opset?: number;
  /** Store f32 constants as f16 (+ Convert), as ovc's compress_to_fp16 does (ONNX → IR). */
  compressToFp16?: boolean;
  /** Override the shapes of main graph inputs, by name. */
  inputShapes?: Record<string, Shape>;
  /** Mapping tables to use (default: all of mappings/). */
  registry?: ConvertRegistry;
  /**
   * Declared types of intermediate values that inference contradicts are errors, as those of
   * graph inputs/outputs are (default: warnings, the inferred type is used). See InferOptions.strict.
   */
  strict?: boolean;
  /**
   * Inputs to freeze, by name: each becomes a constant (`{ sr: 16000 }`, `{ mask: [true, false] }`,
   * or `{ x: { values: [...], shape: [2, 2], type: 'f32' } }`); then constant subgraphs fold and
   * every If whose condition became constant is replaced by its chosen branch (src/convert/fold.ts).
   */
  freeze?: Readonly<Record<string, FreezeSpec>>;
  /** Receives the warnings of a successful conversion (e.g. SHAPE_DECLARED_HINT). */
  onWarning?: (d: Diagnostic) => void;
}

export { DEFAULT_ONNX_OPSET, onnxIrVersionFor } from '../onnx/versions.js';
export { MIN_ONNX_OPSET, MAX_ONNX_OPSET } from './opset-range.js';

/**
 * Converts a model to the other format and returns a NEW model (the input is not changed).
 * IR → ONNX without `opset`: DEFAULT_ONNX_OPSET, or the lowest later opset that has every form the
 * model needs (see below).
 * Every problem (all unsupported ops, attributes and types, with their graph paths) is collected
 * and thrown as one OvirError.
 */
export function convertModel(model: Model, opts: ConvertOptions = {}): Model {
  const to = opts.to ?? (model.dialect === 'onnx' ? 'ov' : 'onnx');
  if (to !== 'onnx' || opts.opset !== undefined) return convertOnce(model, opts);
  // No opset named: the default, unless every problem there is one a later opset solves (an op,
  // attribute, input or element type that exists only later, run-time Reduce axes…): then the
  // lowest opset that solves them all. An opset the user names is kept, and such problems refused.
  try {
    return convertOnce(model, { ...opts, opset: DEFAULT_ONNX_OPSET });
  } catch (e) {
    if (!(e instanceof OvirError)) throw e;
    const errors = e.diagnostics.filter((d) => d.severity === 'error');
    const need = Math.max(...errors.map((d) => d.needsOpset ?? Infinity));
    if (!errors.length || !Number.isFinite(need) || need <= DEFAULT_ONNX_OPSET || need > MAX_ONNX_OPSET) throw e;
    return convertOnce(model, { ...opts, opset: need });
  }
}

function convertOnce(model: Model, opts: ConvertOptions): Model {
  const to = opts.to ?? (model.dialect === 'onnx' ? 'ov' : 'onnx');
  const diags = new Diagnostics();
  const opset = opts.opset ?? DEFAULT_ONNX_OPSET;
  if (to === model.dialect) diags.add('CONVERT_SAME_FORMAT', '', { format: to === 'ov' ? 'OpenVINO IR' : 'ONNX' });
  if (!Number.isInteger(opset) || opset < MIN_ONNX_OPSET || opset > MAX_ONNX_OPSET) {
    diags.add('CONVERT_BAD_OPTION', '', { detail: `--opset ${opset}: ovir emits ONNX opsets ${MIN_ONNX_OPSET} to ${MAX_ONNX_OPSET}` });
  }
  if (opts.compressToFp16 && to !== 'ov') diags.add('CONVERT_BAD_OPTION', '', { detail: '--compress-to-fp16 applies to conversion to OpenVINO IR only' });
  diags.throwIfErrors();

  const out = new Model(to);
  if (to === 'onnx') out.onnx = { ...defaultOnnxInfo(opset), irVersion: onnxIrVersionFor(opset) };
  else out.ir = { name: model.ir?.name ?? (model.graph.name !== 'main' ? model.graph.name : 'model'), version: 11, rtInfo: null };

  // what reading the source found and did not stop at (e.g. nodes read in dependency order)
  const readWarnings = model.graph.meta['diagnostics'];
  if (Array.isArray(readWarnings)) diags.push(...(readWarnings as Diagnostic[]).filter((d) => d.severity === 'warning'));
  const source = new SourceInfo(model, opts.strict === true);
  // the source's declarations: hints are warnings; errors (interface values) surface on the
  // converted model below, so only under strict (where intermediates are errors too) from here
  diags.push(...source.declared.filter((d) => d.severity !== 'error' || opts.strict === true));
  const engine = new Engine(to, opset, opts.registry ?? defaultConvertRegistry(), source, diags);
  engine.run(model, out);
  // A source its own engine refuses is refused as it is: OpenVINO validates every node and body
  // when it reads an IR (a TensorIterator slicing past its axis, a Loop back edge changing the
  // element type), onnxruntime runs onnx's inference (a Conv kernel_shape of -1, which the IR,
  // reading W, would not even see). The mappings' own refusals, when there are any, say it more
  // precisely. (No backend or npm model has such an error: measured on the 2,984.)
  if (!diags.hasErrors()) diags.push(...source.invalid);
  if (opts.inputShapes) overrideInputShapes(out, opts.inputShapes, diags);
  diags.throwIfErrors();
  if (to === 'onnx') relaxIrScalars(out);
  // an IR v10 file runs in OpenVINO with its old API's interface types: the ONNX model gets them too
  if (to === 'onnx' && model.ir?.version === 10) applyIrV10Interface(out, opset, diags);
  if (opts.freeze && Object.keys(opts.freeze).length) {
    // on the converted graph (either dialect): convertModel never changes its input model
    const frozen = freezeInputs(out.graph, opts.freeze, diags);
    diags.throwIfErrors();
    const inferred = inferTypes(out, { ifMerge: to === 'ov' ? 'openvino' : 'onnx' });
    foldConstants(out.graph, frozen, (v) => {
      const t = inferred.assumed.has(v) ? null : inferred.types.get(v);
      return t?.kind === 'tensor' && isStaticShape(t.shape) ? t.shape : null;
    });
  }

  if (opts.compressToFp16) compressToFp16(out.graph, diags);
  pruneUnused(out.graph);
  if (to === 'onnx') {
    assignOnnxNames(out.graph);
    engine.reportStates(out);
  }
  completeTypes(out, diags, opts.strict === true);
  if (to === 'onnx') {
    // Casts where the ONNX op (or onnxruntime) cannot take the IR's element type and widening is exact.
    // the Casts it adds are named too (only when it added any: naming again changes nothing otherwise)
    if (legalizeOnnxTypes(out, opset)) assignOnnxNames(out.graph);
  }
  const broken = verifyGraph(out.graph);
  if (broken.length) {
    diags.push(...broken.map((d) => ({ ...d, message: `conversion produced an invalid graph (please report): ${d.message}` })));
  }
  // Nothing the target opset lacks is ever written (an attribute, an input, an element type).
  if (to === 'onnx' && !diags.hasErrors()) diags.push(...validateOnnxModel(out));
  diags.throwIfErrors();
  if (opts.onWarning) for (const d of diags.list) if (d.severity === 'warning') opts.onWarning(d);
  return out;
}

function overrideInputShapes(model: Model, shapes: Record<string, Shape>, diags: Diagnostics): void {
  for (const [name, shape] of Object.entries(shapes)) {
    const v = model.graph.inputs.find((x) => x.names.includes(name));
    if (!v) { diags.add('CONVERT_BAD_OPTION', 'main', { detail: `--input ${name}: the model has no input named '${name}'` }); continue; }
    const elem = v.type?.kind === 'tensor' ? v.type.elem : 'dynamic';
    v.type = tensorType(elem, shape);
  }
}

/**
 * An IR port without <dim> is a scalar or a dynamic-rank value (the format cannot tell them
 * apart), so a rank-0 type read from a port of a node output is only a guess: it is dropped to
 * unknown rank for inference to settle, rather than declared to ONNX as a scalar.
 */
function relaxIrScalars(model: Model): void {
  for (const g of allGraphs(model.graph)) {
    for (const n of g.nodes) {
      for (const v of n.outputs) {
        if (v.type?.kind === 'tensor' && v.type.shape !== null && v.type.shape.length === 0) v.type = tensorType(v.type.elem, null);
      }
    }
  }
}

/**
 * Shape and type inference on the converted model, so that every port of an IR carries a
 * precision and dims and every ONNX graph input/output a type. An inferred type fills in what
 * the source did not say; where inference knows less than the source (an op without a rule yet),
 * the source's type stays.
 */
function completeTypes(model: Model, diags: Diagnostics, strict: boolean): void {
  const ov = model.dialect === 'ov';
  const ifMerge = ov ? 'openvino' : 'onnx';
  // IR: a branch of an unknown condition that infers only with its captures relaxed is noted (relaxed)
  const opts = { ifMerge, strict, relaxBranches: ov } as const;
  let result = inferTypes(model, opts);
  // an If whose known condition skips a branch OpenVINO would refuse: the taken branch alone
  if (ov && result.untaken.size && foldUntakenBranches(model.graph, result.untaken, diags)) {
    pruneUnused(model.graph);
    result = inferTypes(model, opts);
  }
  // such a branch reads its captures through a Reshape OpenVINO cannot type: it validates as for any input
  if (ov && result.relaxed.size) {
    relaxBranchCaptures(result.relaxed, diags);
    // and an If output of dynamic rank gets one back (OpenVINO's CPU If needs it)
    result = pinRelaxedRanks(result.relaxed, () => inferTypes(model, { ifMerge, strict }));
  }
  // every value inference saw is in result.types (the others keep their type anyway); a type that
  // says more than the inferred one stays
  applyInferred(result, moreKnown);
  const declaredFromSource = strict && diags.list.some((d) => d.code === 'SHAPE_DECLARED_CONTRADICTS');
  for (const d of result.diagnostics) {
    if (d.severity === 'error' && !(declaredFromSource && d.code === 'SHAPE_DECLARED_CONTRADICTS')) diags.push(d);
  }
}

/** Whether `a` says more than `b` (b unknown, or b's element type or rank unknown where a's is). */
function moreKnown(a: ValueType, b: ValueType | null): boolean {
  if (!b || b.kind === 'unknown') return a.kind !== 'unknown';
  if (a.kind !== 'tensor' || b.kind !== 'tensor') return false;
  if (b.elem === 'dynamic' && a.elem !== 'dynamic') return true;
  return b.shape === null && a.shape !== null;
}
