/**
 * The one table of ops that carry bodies (If, Loop, TensorIterator, Scan): their body keys, IR
 * port-map element names, special ports, and how formal body inputs/outputs line up with the
 * node's. Read by the codecs (src/ir/read.ts, src/ir/write.ts, src/onnx/body-layout.ts), the
 * converter (mappings/controlflow/if.ts) and inference (through the ops' shape rules).
 */

/** How a body's formal inputs/outputs line up with its node's (ONNX; IR says it in port maps). */
export interface BodyLayout {
  /** Formal body input i is bound to node input `inputOffset + i` (when present; Infinity: never). */
  readonly inputOffset: number;
  /** Body output `outputOffset + j` becomes node output j (Infinity: none does). */
  readonly outputOffset: number;
  /** Whether the body has formal inputs at all (If branches have none: captures only). */
  readonly formalInputs: boolean;
}

export interface IrBodyKind {
  readonly op: string;
  /** Body element names and the port map describing each, in IR order. */
  readonly bodies: readonly { readonly key: string; readonly portMap: string }[];
  /** Whether `<back_edges>` may follow (loops). */
  readonly backEdges: boolean;
  /** `<data>` attributes naming special body ports (Loop: current_iteration, body_condition). */
  readonly specialPorts: readonly string[];
  readonly loop: boolean;
}

export interface OnnxBodyKind {
  readonly op: string;
  /** The op's domain ('' = ai.onnx). */
  readonly domain?: string;
  /** Graph attribute names, in order. */
  readonly keys: readonly string[];
  readonly layout: (version: number) => BodyLayout;
}

const IR: readonly IrBodyKind[] = [
  {
    op: 'If',
    bodies: [{ key: 'then_body', portMap: 'then_port_map' }, { key: 'else_body', portMap: 'else_port_map' }],
    backEdges: false,
    specialPorts: [],
    loop: false,
  },
  { op: 'Loop', bodies: [{ key: 'body', portMap: 'port_map' }], backEdges: true, specialPorts: ['current_iteration', 'body_condition'], loop: true },
  { op: 'TensorIterator', bodies: [{ key: 'body', portMap: 'port_map' }], backEdges: true, specialPorts: [], loop: true },
];

/**
 * If: no formal inputs; branch output j → node output j.
 * Loop: body (iter_num, cond, v…) ← node (M, cond, v_initial…); body outputs (cond, v…, scan…) →
 *       node outputs (v_final…, scan…), so the body's first output (cond) feeds no node output.
 * Scan (opset 8 has sequence_lens first): body (state…, scan_in…) ← node (state…, scan_in…).
 * FlexAttention (ai.onnx.preview): score_mod / prob_mod take the tensor being modified, which the
 *       op computes, and give its modified form: formal inputs and outputs bound to no node port.
 */
const ONNX: readonly OnnxBodyKind[] = [
  { op: 'If', keys: ['then_branch', 'else_branch'], layout: () => ({ inputOffset: 0, outputOffset: 0, formalInputs: false }) },
  { op: 'Loop', keys: ['body'], layout: () => ({ inputOffset: 0, outputOffset: 1, formalInputs: true }) },
  { op: 'Scan', keys: ['body'], layout: (v) => ({ inputOffset: v === 8 ? 1 : 0, outputOffset: 0, formalInputs: true }) },
  { op: 'FlexAttention', domain: 'ai.onnx.preview', keys: ['score_mod', 'prob_mod'], layout: () => ({ inputOffset: Infinity, outputOffset: Infinity, formalInputs: true }) },
];

const IR_BY_OP = new Map(IR.map((k) => [k.op, k]));
const onnxKey = (op: string, domain = ''): string => `${domain === 'ai.onnx' ? '' : domain}:${op}`;
const ONNX_BY_OP = new Map(ONNX.map((k) => [onnxKey(k.op, k.domain), k]));

/** The IR body kind of canonical op `op` (undefined: the op carries no bodies). */
export const irBodyKind = (op: string): IrBodyKind | undefined => IR_BY_OP.get(op);
/** The ONNX body kind of `op` in `domain` ('' or 'ai.onnx': the default domain). */
export const onnxBodyKind = (op: string, domain = ''): OnnxBodyKind | undefined => ONNX_BY_OP.get(onnxKey(op, domain));

/** Every element name a body-carrying IR layer may hold beside data/input/output/rt_info. */
export const IR_BODY_ELEMENTS: ReadonlySet<string> = new Set(IR.flatMap((k) => [...k.bodies.flatMap((b) => [b.key, b.portMap]), ...(k.backEdges ? ['back_edges'] : [])]));

/** Element names of IR bodies (then_body, else_body, body), their port maps aside. */
export const IR_BODY_TAGS: ReadonlySet<string> = new Set(IR.flatMap((k) => k.bodies.map((b) => b.key)));
