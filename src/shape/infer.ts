import { AttrTypeError } from '../graph/attr-read.js';
import { backEdgeIndices, bindingLookup, type Body } from '../graph/body.js';
import { irBodyKind, onnxBodyKind } from '../graph/body-kinds.js';
import { diag, type Diagnostic } from '../diag/diagnostic.js';
import type { DiagCode, DiagParams } from '../diag/codes.js';
import type { ElementTypeName } from '../graph/element-type.js';
import { allGraphs, type Graph } from '../graph/graph.js';
import type { Model } from '../graph/model.js';
import type { Node } from '../graph/node.js';
import { dimsEqual, type Dim, type Shape } from '../graph/shape.js';
import type { Tensor } from '../graph/tensor.js';
import { showType, type TensorType, type ValueType } from '../graph/types.js';
import type { Value } from '../graph/value.js';
import { ValueTable } from '../graph/id-table.js';
import { arityProblems, attributeProblems } from '../onnx/validate.js';
import { contradictions, shapeOnly } from './check.js';
import { mergeShape } from './dim.js';
import { TypeInterner } from './intern.js';
import { partialFromTensor, staticValues } from './partial.js';
import { nodeVersion, type Registry } from './registry.js';
import type { BodyResults, IfMergePolicy, OutputInfo, PartialValue, RuleContext } from './rule.js';
import { defaultRegistry } from './rules/index.js';

export interface InferOptions {
  /** How If merges its branches; default 'onnx' for the onnx dialect, 'openvino' for ov. */
  ifMerge?: IfMergePolicy;
  /** Rules to use (default: every rule in src/shape/rules). */
  registry?: Registry;
  /**
   * Whether a declared type of an intermediate value (not a main-graph input or output) that
   * inference contradicts is an error (SHAPE_DECLARED_CONTRADICTS). Default false: such
   * declarations are hints, as in ovc and onnxruntime: a warning (SHAPE_DECLARED_HINT), and the
   * inferred type is trusted. So is the declared shape of an ONNX main-graph output
   * (SHAPE_OUTPUT_DECLARED_HINT): onnxruntime merges it leniently (a warning) and OpenVINO's
   * frontend types outputs by inference (skl2onnx declares PLSRegression's output [N, features]
   * and a two-target tree regressor's [N, 1]; both engines run them). An output's element type,
   * and IR declarations of the main graph's outputs, are always checked.
   */
  strict?: boolean;
  /**
   * Whether an If branch that does not infer with the types of the values it captures, under a
   * condition inference does not know, is typed again with those captures relaxed (dims dynamic,
   * then rank dynamic) — a SHAPE_BRANCH_RELAXED warning and an entry of `relaxed` when that
   * succeeds. Default: on for the onnx and symbolic policies (ONNX lets a branch be invalid for the
   * shapes given: onnxruntime fails only when it runs), off for openvino (OpenVINO validates every
   * body with the types bound into it, and refuses such an IR). The ONNX → IR converter asks for it
   * on the IR and then feeds such a branch captures of dynamic dims (src/convert/relax-if.ts).
   */
  relaxBranches?: boolean;
}

export interface InferenceResult {
  /** The inferred type of every value of every graph (inputs, initializers, node outputs). */
  readonly types: ReadonlyMap<Value, ValueType>;
  /** Known data of small integer tensors (shapes, axes), as propagated. */
  readonly values: Map<Value, PartialValue>;
  readonly diagnostics: Diagnostic[];
  readonly policy: IfMergePolicy;
  /**
   * Values whose type rests on a declaration rather than on inference: outputs of ops without a
   * rule (left as declared), and everything computed from them.
   */
  readonly assumed: Set<Value>;
  /**
   * Each If whose condition inference knows, with the branch it takes and the errors found in the
   * other one (bodies nested in it included). Under the onnx and symbolic policies those errors are
   * SHAPE_UNTAKEN_BRANCH warnings in `diagnostics` (ONNX runs only the taken branch: onnxruntime
   * accepts a branch that never runs and does not fit); under openvino they stay errors, as
   * OpenVINO validates every body when it reads an IR. Listed here for the converter, which
   * replaces such an If by its taken branch (src/convert/index.ts).
   */
  readonly untaken: Map<Node, UntakenBranch>;
  /**
   * Each If with a branch typed with its captures relaxed (InferOptions.relaxBranches): the branch
   * did not infer with the captured types, and did with the relaxed ones. Never both branches of
   * one If: when neither infers as given, the If fails whichever branch runs, an error.
   */
  readonly relaxed: Map<Node, RelaxedBranch>;
}

export interface RelaxedBranch {
  /** The body key (ONNX then_branch/else_branch, IR then_body/else_body). */
  readonly key: string;
  /** 'dims': the captures keep their rank, every dim dynamic; 'rank': their rank is dynamic too. */
  readonly level: 'dims' | 'rank';
  /** The body parameters typed relaxed (captures of outer values that are not constants). */
  readonly params: readonly Value[];
  /** The branch's errors with the captured types, as found. */
  readonly errors: Diagnostic[];
  /**
   * The rank each output of an If inside the branch (at any depth) had with the captured types,
   * where known: what those Ifs yield when the branch runs with the shapes given (their conditions
   * may be known only from those shapes). OpenVINO's CPU plugin needs an If output of known rank.
   */
  readonly ranks: ReadonlyMap<Value, number>;
}

export interface UntakenBranch {
  /** The known condition: the taken branch is then_* when true. */
  readonly cond: boolean;
  /** The errors of the branch not taken, as found (before any downgrade). */
  readonly errors: Diagnostic[];
}

const UNKNOWN: ValueType = { kind: 'unknown' };
const NO_RANKS: ReadonlyMap<Value, number> = new Map();
/** The errors that may come from the shapes a branch captures: what relaxing them can cure. */
const SHAPE_CAUSED: ReadonlySet<DiagCode> = new Set(['SHAPE_RULE', 'SHAPE_IF_RANK_MISMATCH', 'SHAPE_IF_TYPE_MISMATCH']);

interface Frame {
  readonly graph: Graph;
  next: number;
  bodiesDone: boolean;
  /** A body an If with a known condition does not take: the If, and where its diagnostics start. */
  untakenOf?: { node: Node; cond: boolean; start: number };
  /** A branch of an If whose condition inference does not know (with relaxBranches). */
  branchOf?: BranchAttempt;
  /** A body of an IR Loop-5, typed from the Loop's inputs until its loop-carried types settle. */
  loopOf?: LoopRound;
}

/**
 * One inference of a Loop-5 body: where its diagnostics start, and the loop-carried Parameters
 * relaxed so far (dims the body changes made dynamic), as OpenVINO's Loop::validate_and_infer_types
 * relaxes them and validates the body again.
 */
interface LoopRound {
  readonly node: Node;
  start: number;
  readonly relaxed: Map<Value, ValueType>;
  readonly round: number;
}

/**
 * One inference of an If branch: where its diagnostics start, how far its captures are relaxed
 * (0: as bound, 1: dims dynamic, 2: rank dynamic), and the diagnostics of the first attempt.
 */
interface BranchAttempt {
  readonly node: Node;
  readonly key: string;
  readonly level: 0 | 1 | 2;
  start: number;
  readonly first: Diagnostic[] | null;
  readonly params: readonly Value[];
  readonly ranks: ReadonlyMap<Value, number>;
}

/**
 * Infers the type of every value of the model, graph by graph in topological order, bodies from
 * the types bound into them. Does not change the model. Iterative: bodies are frames on an
 * explicit stack, so nesting depth is not limited by the JS stack. Every problem becomes a
 * diagnostic; inference goes on after it.
 */
export function inferTypes(model: Model, opts: InferOptions = {}): InferenceResult {
  const policy = opts.ifMerge ?? (model.dialect === 'ov' ? 'openvino' : 'onnx');
  const registry = opts.registry ?? defaultRegistry();
  const state = new State(model.graph, policy, registry, opts.strict === true, new Set(model.graph.outputs));
  const relax = opts.relaxBranches ?? policy !== 'openvino';
  state.seedGraph(model.graph, null);
  const stack: Frame[] = [{ graph: model.graph, next: 0, bodiesDone: false }];
  while (stack.length) {
    const f = stack[stack.length - 1]!;
    // its diagnostics start when the frame does (not when it was pushed: a sibling body may run first)
    if (f.untakenOf && f.untakenOf.start < 0) f.untakenOf.start = state.diagnostics.length;
    if (f.branchOf && f.branchOf.start < 0) f.branchOf.start = state.diagnostics.length;
    if (f.loopOf && f.loopOf.start < 0) f.loopOf.start = state.diagnostics.length;
    if (f.next >= f.graph.nodes.length) {
      stack.pop();
      if (f.untakenOf) state.closeUntaken(f.untakenOf);
      if (f.loopOf) {
        const again = state.closeLoopRound(f.loopOf, f.graph);
        if (again) stack.push({ graph: f.graph, next: 0, bodiesDone: false, loopOf: again });
      }
      if (f.branchOf) {
        const again = state.closeBranch(f.branchOf, f.graph);
        if (again) stack.push({ graph: f.graph, next: 0, bodiesDone: false, branchOf: again });
      }
      continue;
    }
    const node = f.graph.nodes[f.next]!;
    if (node.bodies.size > 0 && !f.bodiesDone) {
      f.bodiesDone = true;
      // Every body is checked, the branch a known condition does not take too: OpenVINO validates
      // each body when it reads the IR, with the body Parameters' types as written (which ovir
      // writes from the bound inputs), and only then infers the If from the taken body.
      // A branch a known condition does not take is inferred all the same; its errors are set
      // apart when it is done (closeUntaken).
      const cond = node.op === 'If' ? state.knownCondition(node) : null;
      const untakenKey = cond === null ? null : IF_KEYS[node.dialect][cond ? 1 : 0];
      const bodies = [...node.bodies.entries()];
      for (let k = bodies.length - 1; k >= 0; k--) {
        const [key, body] = bodies[k]!;
        state.seedGraph(body.graph, node);
        const frame: Frame = { graph: body.graph, next: 0, bodiesDone: false };
        if (node.dialect === 'ov' && node.op === 'Loop') frame.loopOf = { node, start: -1, relaxed: new Map(), round: 0 };
        if (key === untakenKey) frame.untakenOf = { node, cond: cond!, start: -1 };
        else if (relax && cond === null && node.op === 'If') frame.branchOf = { node, key, level: 0, start: -1, first: null, params: [], ranks: NO_RANKS };
        stack.push(frame);
      }
      continue;
    }
    state.inferNode(node);
    f.next++;
    f.bodiesDone = false;
  }
  return {
    types: state.types, values: state.values, diagnostics: state.diagnostics, policy, assumed: state.assumed,
    untaken: state.untaken, relaxed: state.relaxed,
  };
}

/** The bodies of If in each dialect: [then, else]. */
const IF_KEYS = {
  onnx: onnxBodyKind('If')!.keys as readonly string[],
  ov: irBodyKind('If')!.bodies.map((b) => b.key),
} as const;

/**
 * Writes the inferred types into `value.type` of every value they describe, except where `keep`
 * says the type the value already has is to stay (the converter keeps one that says more).
 * forEach, not for-of: no [key, value] array per value of the model.
 */
export function applyInferred(result: InferenceResult, keep?: (before: ValueType, inferred: ValueType) => boolean): void {
  result.types.forEach((t, v) => {
    const before = v.type;
    if (t.kind === 'unknown' && before === null) return; // nothing learned: keep "not known"
    if (before && keep?.(before, t)) return;
    v.type = t;
  });
}

class State {
  readonly types: ValueTable<ValueType>;
  readonly values = new Map<Value, PartialValue>();
  readonly diagnostics: Diagnostic[] = [];
  readonly assumed = new Set<Value>();
  readonly untaken = new Map<Node, UntakenBranch>();
  readonly relaxed = new Map<Node, RelaxedBranch>();
  private readonly interner = new TypeInterner();

  constructor(
    root: Graph,
    readonly policy: IfMergePolicy,
    readonly registry: Registry,
    private readonly strict: boolean,
    /** The main graph's outputs: their declarations are the model's interface (an ONNX output's shape aside: see InferOptions.strict). */
    private readonly interfaceValues: ReadonlySet<Value>,
  ) {
    this.types = new ValueTable(root);
  }

  private report(code: DiagCode, where: string, params: DiagParams): void {
    this.diagnostics.push(diag(code, where, params));
  }

  private set(v: Value, t: ValueType | null, value: PartialValue | null | undefined): void {
    this.types.set(v, t ? this.interner.intern(t) : UNKNOWN);
    if (value) this.values.set(v, value);
    else if (v.constant) {
      const p = partialFromTensor(v.constant);
      if (p) this.values.set(v, p);
    }
  }

  /**
   * Graph inputs and initializers: declared for the main graph; in a body, what flows in through
   * the bindings — the bound value's inferred type for If parameters and for ONNX captures (outer
   * values a body reads); for the formal inputs of loops (ONNX Loop/Scan, IR Loop/TensorIterator),
   * whose shapes change from iteration to iteration, the declared type, or the bound element type
   * with an unknown shape when nothing is declared (as onnx's Loop inference does).
   */
  seedGraph(g: Graph, owner: Node | null, relax: 0 | 1 | 2 = 0, relaxed?: Value[]): void {
    let body: Body | undefined;
    if (owner) for (const b of owner.bodies.values()) if (b.graph === g) { body = b; break; }
    const rule = owner ? this.registry.lookup(owner.dialect, owner.domain, owner.op, versionOf(owner)) : undefined;
    // The binding of each body parameter (the first, as a search from the start finds it).
    const bindingOf = bindingLookup(body);
    let formal = 0;
    for (const p of g.inputs) {
      const binding = bindingOf(p);
      const outer = binding ? owner!.inputs[binding.from] : null;
      if (outer && owner!.dialect === 'ov' && owner!.op === 'Loop' && binding && !(binding.extra && 'axis' in binding.extra)) {
        // Loop-5: a Parameter fed from an input (loop-carried or invariant) starts from that
        // input's type, as OpenVINO types it (the declared shape may be a relaxed one OpenVINO
        // computes again: kept where it says more); loop-carried ones are relaxed by closeLoopRound
        const t = this.types.get(outer) ?? outer.type;
        this.set(p, loopParamType(t, p.type), null);
      } else if (outer && (rule?.bodyInputsAreBound || p.metaView['onnxCapture'] === true)) {
        const t = this.types.get(outer) ?? outer.type;
        const loose = relax !== 0 && !outer.constant ? relaxedType(t, relax) : null;
        if (loose) relaxed?.push(p);
        this.set(p, loose ?? t, loose ? null : this.values.get(outer));
        if (this.assumed.has(outer)) this.assumed.add(p);
        this.check(p, g, owner!.dialect);
      } else if (rule?.bodyParam && p.metaView['onnxCapture'] !== true) {
        this.set(p, rule.bodyParam(owner!, formal++, outer ? this.types.get(outer) ?? outer.type : null, p.type), null);
      } else if (outer && p.type === null) {
        const t = this.types.get(outer) ?? outer.type;
        this.set(p, t && t.kind === 'tensor' ? { kind: 'tensor', elem: t.elem, shape: null } : t, null);
      } else {
        this.set(p, p.type, null);
      }
    }
    for (const c of g.initializers) this.set(c, c.type, null);
  }

  /** An If's condition when inference knows it (one element), else null. */
  knownCondition(node: Node): boolean | null {
    const c = node.inputs[0];
    const v = c ? staticValues(this.values.get(c) ?? null) : null;
    return v && v.length === 1 ? v[0] !== 0 : null;
  }

  /**
   * The untaken branch of an If is done: its errors (from `start` on: nested bodies are inferred
   * within its frame) are recorded for the If and, except under the openvino policy, become
   * SHAPE_UNTAKEN_BRANCH warnings.
   */
  closeUntaken(u: { node: Node; cond: boolean; start: number }): void {
    const errors: Diagnostic[] = [];
    const ds = this.diagnostics;
    for (let i = u.start; i < ds.length; i++) {
      const d = ds[i]!;
      if (d.severity !== 'error') continue;
      errors.push(d);
      if (this.policy !== 'openvino') {
        ds[i] = diag('SHAPE_UNTAKEN_BRANCH', d.where, { cond: String(u.cond), code: d.code, detail: d.message });
      }
    }
    this.untaken.set(u.node, { cond: u.cond, errors });
  }

  /**
   * A round of a Loop-5 body is done. A loop-carried Parameter whose back-edge Result has another
   * shape is relaxed (the dims that differ dynamic; another rank: the whole shape) and the body is
   * inferred again from the start, its earlier diagnostics dropped; returned for the caller to
   * infer. Each round relaxes something, so rounds end; past 16 the types stand as they are.
   */
  closeLoopRound(r: LoopRound, g: Graph): LoopRound | null {
    const body = [...r.node.bodies.values()].find((b) => b.graph === g);
    if (!body || r.round >= 16) return null;
    let changed = false;
    // as OpenVINO: only a back edge whose Result is also a last-iteration output relaxes its Parameter
    const lastValue = new Set(body.outputs.filter((o) => o.to >= 0 && !(o.extra && 'axis' in o.extra)).map((o) => o.result));
    for (const e of backEdgeIndices(body)) {
      if (!e || !lastValue.has(e.result)) continue;
      const param = g.inputs[e.param];
      const res = g.outputs[e.result];
      if (!param || !res) continue;
      const pt = this.types.get(param) ?? null;
      const rt = this.types.get(res) ?? null;
      const wider = relaxToward(pt, rt);
      if (wider) { r.relaxed.set(param, wider); changed = true; }
    }
    if (!changed) return null;
    this.diagnostics.length = r.start;
    this.forget(g);
    this.seedGraph(g, r.node);
    for (const [p, t] of r.relaxed) this.set(p, t, null);
    return { node: r.node, start: -1, relaxed: r.relaxed, round: r.round + 1 };
  }

  /**
   * A branch of an If whose condition is not known is done. Without errors it stands (a relaxed
   * one is recorded, with a SHAPE_BRANCH_RELAXED warning in place of the first attempt's
   * diagnostics). With errors, the next attempt relaxes its captures further (its values are
   * forgotten, the body seeded again): returned for the caller to infer. When no relaxation helps,
   * or both branches of the If would need one, the first attempt's diagnostics stand.
   */
  closeBranch(b: BranchAttempt, g: Graph): BranchAttempt | null {
    const ds = this.diagnostics;
    let failed = false;
    for (let i = b.start; i < ds.length && !failed; i++) failed = ds[i]!.severity === 'error';
    const first = b.first ?? ds.slice(b.start);
    if (!failed) {
      if (b.level === 0) return null;
      // the relaxed attempt's own diagnostics (warnings) stay; the first attempt's were dropped when it began
      const errors = first.filter((d) => d.severity === 'error');
      const sibling = this.relaxed.get(b.node);
      if (sibling) {
        // neither branch infers with the captured types: the If fails whichever runs
        this.relaxed.delete(b.node);
        const at = ds.findIndex((d) => d.code === 'SHAPE_BRANCH_RELAXED' && d.where === b.node.path);
        if (at >= 0) ds.splice(at, 1);
        ds.push(...sibling.errors, ...first);
        return null;
      }
      this.relaxed.set(b.node, { key: b.key, level: b.level === 1 ? 'dims' : 'rank', params: b.params, errors, ranks: b.ranks });
      const e = errors[0]!;
      ds.push(diag('SHAPE_BRANCH_RELAXED', b.node.path, {
        branch: b.key.replace(/_(branch|body)$/, ''), errors: errors.length, detail: `${e.where}: ${e.message}`,
        relaxed: b.params.map((p) => `${p.label} as ${showType(this.types.get(p) ?? null)}`).join(', '),
      }));
      return null;
    }
    // only errors shapes can cause are worth relaxing (not a bad attribute, nor a declaration --strict refuses)
    if (!first.every((d) => d.severity !== 'error' || SHAPE_CAUSED.has(d.code))) return null;
    for (let level = b.level + 1; level <= 2; level++) {
      const params: Value[] = [];
      if (!this.relaxes(b.node, g, level as 1 | 2, b.level)) continue;
      ds.length = b.start;
      const ranks = b.level === 0 ? this.ifRanks(g) : b.ranks;
      this.forget(g);
      this.seedGraph(g, b.node, level as 1 | 2, params);
      return { node: b.node, key: b.key, level: level as 1 | 2, start: -1, first, params, ranks };
    }
    if (b.level > 0) { ds.length = b.start; ds.push(...first); }
    return null;
  }

  /** Whether seeding body `g` of `owner` at relaxation `level` types some capture otherwise than at `from`. */
  private relaxes(owner: Node, g: Graph, level: 1 | 2, from: 0 | 1 | 2): boolean {
    const body = [...owner.bodies.values()].find((x) => x.graph === g);
    if (!body) return false;
    for (const bi of body.inputs) {
      const outer = owner.inputs[bi.from];
      if (!outer || outer.constant) continue;
      const t = this.types.get(outer) ?? outer.type;
      const next = relaxedType(t, level);
      if (!next) continue;
      if (from === 0 ? this.values.has(outer) || showType(next) !== showType(t) : showType(next) !== showType(relaxedType(t, from as 1 | 2))) return true;
    }
    return false;
  }

  /** The known rank of every If output inside `g` (bodies included), as inferred so far. */
  private ifRanks(g: Graph): Map<Value, number> {
    const ranks = new Map<Value, number>();
    for (const x of allGraphs(g)) {
      for (const n of x.nodes) {
        if (n.op !== 'If') continue;
        for (const v of n.outputs) {
          const t = this.types.get(v);
          if (t?.kind === 'tensor' && t.shape !== null) ranks.set(v, t.shape.length);
        }
      }
    }
    return ranks;
  }

  /** Forgets what inference said of every value and If inside `g` (bodies included), before it is inferred again. */
  private forget(g: Graph): void {
    for (const x of allGraphs(g)) {
      for (const v of x.inputs) this.drop(v);
      for (const v of x.initializers) this.drop(v);
      for (const n of x.nodes) {
        for (const v of n.outputs) this.drop(v);
        this.untaken.delete(n);
        this.relaxed.delete(n);
      }
    }
  }

  private drop(v: Value): void {
    this.types.delete(v);
    this.values.delete(v);
    this.assumed.delete(v);
  }

  /** `where`: the node or graph whose path a report names (built only then). */
  private check(v: Value, where: Node | Graph, dialect: 'onnx' | 'ov'): void {
    const declared = v.type;
    if (declared === null || declared.kind === 'unknown') return; // nothing declared: nothing to contradict
    const inferred = this.types.get(v) ?? null;
    if (inferred === declared) return;
    const problems = contradictions(dialect, declared, inferred);
    if (problems.length) {
      const output = this.interfaceValues.has(v);
      const hint = !this.strict && (!output || (dialect === 'onnx' && shapeOnly(declared, inferred)));
      this.report(!hint ? 'SHAPE_DECLARED_CONTRADICTS' : output ? 'SHAPE_OUTPUT_DECLARED_HINT' : 'SHAPE_DECLARED_HINT', where.path, {
        value: v.label, declared: showType(v.type), inferred: showType(inferred), detail: problems.join('; '),
      });
    }
  }

  inferNode(node: Node): void {
    const version = versionOf(node);
    const rule = this.registry.lookup(node.dialect, node.domain, node.op, version);
    const outputs = node.outputs;
    let outs: readonly (OutputInfo | null)[] = [];
    if (!rule) {
      const anyDeclared = outputs.some((o) => o.type !== null && o.type.kind !== 'unknown');
      this.report('SHAPE_UNKNOWN_OP', node.path, {
        op: node.domain ? `${node.domain}.${node.op}` : node.op, dialect: node.dialect, version: node.version,
        fallback: anyDeclared ? 'as declared' : 'unknown',
      });
      for (const o of outputs) {
        this.set(o, o.type, null);
        if (o.type !== null && o.type.kind !== 'unknown') this.assumed.add(o);
      }
      return;
    }
    const tainted = this.tainted(node);
    // the path is computed only when something is reported (unnamed nodes' labels cost a search)
    const c = new Context(node, version, this);
    // An ONNX attribute of another kind than its schema's, or a required one absent: the rule
    // would read a default in its place (Softmax `axis` given as a string), so nothing is inferred.
    const bad = attributeProblems(node, version);
    for (const p of bad) this.report('SHAPE_BAD_ATTR', node.path, { op: node.op, detail: p.value === null ? p.detail : `attribute '${p.attr}' is ${p.value}: ${p.detail}` });
    // an input or output the schema does not have (or a required one empty): the rule would read what is not there
    const arity = arityProblems(node, version);
    for (const detail of arity) this.report('ONNX_NODE_ARITY', node.path, { op: node.op, detail });
    if (!bad.length && !arity.length) {
      try {
        outs = rule.infer(c);
      } catch (e) {
        if (e instanceof AttrTypeError) this.report('SHAPE_BAD_ATTR', node.path, { op: node.op, detail: e.message });
        else this.report('SHAPE_RULE_FAILED', node.path, { op: node.op, detail: e instanceof Error ? e.message : String(e) });
        outs = [];
      }
    }
    for (let i = 0; i < outputs.length; i++) {
      const o = outputs[i]!;
      const info = outs[i] ?? null;
      let t = info?.type ?? null;
      // A rule that could say nothing at all leaves the declared type (as onnx keeps value_info).
      if (isNothing(t) && o.type) { t = o.type; if (!isNothing(t)) this.assumed.add(o); }
      if (t?.kind === 'tensor' && t.shape !== null && !t.shape.every(exactDim)) {
        // a dim past 2^53 (60 doublings by Concat) is a rounded double: never written as if exact
        const d = t.shape.find((x) => !exactDim(x)) as number;
        this.report('SHAPE_RULE', node.path, { op: node.op, detail: `output ${i} has a dimension of about ${d.toExponential(3)}: from 2^53 on, a dimension cannot be represented exactly` });
        t = { kind: 'tensor', elem: t.elem, shape: t.shape.map((x) => (exactDim(x) ? x : null)) };
      }
      if (tainted) this.assumed.add(o);
      this.set(o, t, info?.value ?? null);
      this.check(o, node, node.dialect);
    }
  }

  /** Whether a node reads a value whose type rests on a declaration (an input, or a body result). */
  private tainted(node: Node): boolean {
    const assumed = this.assumed;
    if (!assumed.size) return false;
    for (const v of node.inputs) if (v !== null && assumed.has(v)) return true;
    if (node.bodies.size) for (const b of node.bodies.values()) if (b.graph.outputs.some((v) => assumed.has(v))) return true;
    return false;
  }

  typeOf(v: Value | null): ValueType | null {
    if (!v) return null;
    return this.types.get(v) ?? v.type;
  }
}

/**
 * A captured type relaxed: level 1 keeps the rank and makes every dim dynamic, level 2 makes the
 * rank dynamic too. Null when there is nothing to relax (not a tensor, or no shape to loosen).
 */
function relaxedType(t: ValueType | null, level: 1 | 2): ValueType | null {
  if (!t || t.kind !== 'tensor') return null;
  if (level === 2) return t.shape === null ? null : { kind: 'tensor', elem: t.elem, shape: null };
  return t.shape === null || t.shape.length === 0 ? null : { kind: 'tensor', elem: t.elem, shape: t.shape.map(() => null) };
}

/** A dim that is not a number, or a number that is an exact integer (below 2^53). */
const exactDim = (d: Dim): boolean => typeof d !== 'number' || Number.isSafeInteger(d);

function isNothing(t: ValueType | null): boolean {
  return t === null || t.kind === 'unknown' || (t.kind === 'tensor' && t.elem === 'dynamic' && t.shape === null);
}

/** IR `opsetN` → N, by version string (a node's version is one of a few strings). */
const OV_VERSIONS = new Map<string, number>();

/** nodeVersion, without a regular expression per IR node. */

function versionOf(node: Node): number {
  if (node.dialect !== 'ov') return nodeVersion(node);
  let v = OV_VERSIONS.get(node.version);
  if (v === undefined) {
    v = nodeVersion(node);
    if (OV_VERSIONS.size < 1024) OV_VERSIONS.set(node.version, v);
  }
  return v;
}

class Context implements RuleContext {
  constructor(readonly node: Node, readonly version: number, private readonly st: State) {}

  private get where(): string { return this.node.path; }

  get policy(): IfMergePolicy { return this.st.policy; }
  get numInputs(): number { return this.node.inputs.length; }

  has(i: number): boolean { return this.node.inputs[i] != null; }
  type(i: number): ValueType | null { return this.st.typeOf(this.node.inputs[i] ?? null); }
  tensor(i: number): TensorType | null {
    const t = this.type(i);
    return t && t.kind === 'tensor' ? t : null;
  }
  shape(i: number): Shape { return this.tensor(i)?.shape ?? null; }
  elem(i: number): ElementTypeName { return this.tensor(i)?.elem ?? 'dynamic'; }
  value(i: number): PartialValue | null {
    const v = this.node.inputs[i];
    return v ? this.st.values.get(v) ?? null : null;
  }
  ints(i: number): number[] | null { return staticValues(this.value(i)); }
  constant(i: number): Tensor | null { return this.node.inputs[i]?.constant ?? null; }

  bodyResult(key: string, index: number): ValueType | null {
    const v = this.node.bodies.get(key)?.graph.outputs[index];
    return v ? this.st.typeOf(v) : null;
  }

  body(key: string): BodyResults | undefined {
    const b = this.node.bodies.get(key);
    if (!b) return undefined;
    const n = this.node.outputs.length;
    const types: (ValueType | null)[] = Array.from({ length: n }, () => null);
    const values: (PartialValue | null)[] = Array.from({ length: n }, () => null);
    for (const ob of b.outputs) {
      const v = b.graph.outputs[ob.result];
      if (!v || ob.to < 0 || ob.to >= n) continue;
      types[ob.to] = this.st.typeOf(v);
      values[ob.to] = this.st.values.get(v) ?? null;
    }
    return { key, types, values };
  }

  error(detail: string): void { this.st.diagnostics.push(diag('SHAPE_RULE', this.where, { op: this.node.op, detail })); }
  warn(detail: string): void { this.st.diagnostics.push(diag('SHAPE_RULE_WARNING', this.where, { op: this.node.op, detail })); }
  info(detail: string): void { this.st.diagnostics.push(diag('SHAPE_RULE_INFO', this.where, { op: this.node.op, detail })); }
  report(code: DiagCode, params: DiagParams): void { this.st.diagnostics.push(diag(code, this.where, params)); }
}

/**
 * A Loop-5 body Parameter's first type: the bound input's, where it is a tensor of known rank (the
 * declaration's dims kept where they say more and agree), else the declared one.
 */
function loopParamType(bound: ValueType | null, declared: ValueType | null): ValueType | null {
  if (!bound || bound.kind !== 'tensor' || bound.elem === 'dynamic') return declared;
  if (bound.shape === null) return declared && declared.kind === 'tensor' && declared.elem === bound.elem ? declared : bound;
  if (!declared || declared.kind !== 'tensor' || declared.shape === null || declared.shape.length !== bound.shape.length) return bound;
  const merged = mergeShape(bound.shape, declared.shape);
  return merged === undefined ? bound : { kind: 'tensor', elem: bound.elem, shape: merged };
}

/**
 * A loop-carried Parameter's next type, as OpenVINO 2026.4 relaxes it (measured: a Keras LSTM
 * list [1,1,1] → Result [1,2,8] gives [1,?,?]; ONNX test_loop11's y [1] → Result [..5] gives [?];
 * TFLite's [7,2,8] → [1..15,2,8] gives [?,2,8]), or null when it stands: the dims where the back
 * edge's `result` differs dynamic, the others kept; another rank or an unknown one: rank dynamic.
 */
function relaxToward(param: ValueType | null, result: ValueType | null): ValueType | null {
  if (!param || !result || param.kind !== 'tensor' || result.kind !== 'tensor' || param.shape === null) return null;
  if (result.shape === null || result.shape.length !== param.shape.length) return { kind: 'tensor', elem: param.elem, shape: null };
  let changed = false;
  const dims = param.shape.map((d, k) => {
    if (d === null || dimsEqual(d, result.shape![k]!)) return d;
    changed = true;
    return null;
  });
  return changed ? { kind: 'tensor', elem: param.elem, shape: dims } : null;
}
