/**
 * Every diagnostic ovir can report, in one table: code → severity and message template.
 * Add new codes in the section of the area that reports them; keep messages short, lowercase,
 * saying what is wrong and, where it helps, what to do. The location (file, graph path) is not
 * part of the message: it is carried by the diagnostic and printed in front of it.
 */
type Param = string | number | bigint | boolean | undefined;
type Params = Readonly<Record<string, Param>>;
/**
 * The parameters of one code: `R` required, `O` optional, plus what every diagnostic may carry
 * (`needsOpset`: IR → ONNX, the lowest opset that has the form). A call that misses a parameter
 * its message prints, or passes one it does not know, does not compile.
 */
type P<R extends string, O extends string = never> =
  { readonly [k in R]: Param } & { readonly [k in O]?: Param } & { readonly needsOpset?: number };
interface CodeDef<T> { readonly severity: 'error' | 'warning' | 'info'; readonly message: (p: T) => string }
const E = <T>(message: (p: T) => string): CodeDef<T> => ({ severity: 'error', message });
const W = <T>(message: (p: T) => string): CodeDef<T> => ({ severity: 'warning', message });
const I = <T>(message: (p: T) => string): CodeDef<T> => ({ severity: 'info', message });

export const CODES = {
  // ── files and I/O ─────────────────────────────────────────────────────────────
  FILE_NOT_FOUND: E((p: P<'reason'>) => `cannot read file: ${p.reason}`),
  FILE_UNKNOWN_FORMAT: E((p: P<'path', 'detail'>) => `cannot tell the format of '${p.path}' (expected .onnx, or .xml with a .bin beside it)${p.detail ?? ''}`),
  FILE_WRITE_FAILED: E((p: P<'path' | 'reason'>) => `cannot write '${p.path}': ${p.reason}`),
  FILE_TOO_BIG: E((p: P<'path' | 'detail'>) => `'${p.path}' is too big: ${p.detail}`),
  FILE_CHANGED: E((p: P<'path' | 'reason'>) => `cannot read the weights of '${p.path}' any more: ${p.reason} (big models' weights are read from the file when they are needed)`),

  // ── graph verifier ────────────────────────────────────────────────────────────
  GRAPH_FOREIGN_VALUE: E((p: P<'index' | 'value'>) => `input ${p.index} reads value '${p.value}' of another graph; outer values must enter a body through a binding`),
  GRAPH_USE_BEFORE_DEF: E((p: P<'index' | 'value'>) => `input ${p.index} reads '${p.value}', which is produced later (graph is not in topological order or has a cycle)`),
  GRAPH_OUTPUT_FOREIGN: E((p: P<'index' | 'value'>) => `graph output ${p.index} ('${p.value}') is a value of another graph`),
  GRAPH_BINDING_BAD_INPUT: E((p: P<'body' | 'param' | 'from'>) => `body '${p.body}' binds parameter ${p.param} to node input ${p.from}, which does not exist`),
  GRAPH_BINDING_UNBOUND_PARAM: E((p: P<'body' | 'param'>) => `body '${p.body}' parameter '${p.param}' is not bound to any node input`),
  GRAPH_BINDING_TWICE: E((p: P<'body' | 'param'>) => `body '${p.body}' binds parameter '${p.param}' more than once`),
  GRAPH_BINDING_BAD_OUTPUT: E((p: P<'body' | 'detail'>) => `body '${p.body}' output binding ${p.detail}`),
  GRAPH_DUPLICATE_PRODUCER: E((p: P<'value'>) => `value '${p.value}' is produced more than once (not SSA)`),

  // ── ONNX codec (src/onnx) ─────────────────────────────────────────────────────
  ONNX_BAD_PROTOBUF: E((p: P<'what' | 'reason'>) => `not a valid ONNX protobuf (${p.what}): ${p.reason}`),
  ONNX_NO_GRAPH: E((_p: P<never>) => `the model has no graph`),
  ONNX_UNKNOWN_NAME: E((p: P<'what' | 'name'>) => `${p.what} reads '${p.name}', which is not defined in this graph or any enclosing one`),
  ONNX_USE_BEFORE_DEF: E((p: P<'what' | 'name' | 'definedIn'>) => `${p.what} reads '${p.name}', which is defined only later (at ${p.definedIn}); nodes must come in topological order`),
  ONNX_NODE_ORDER: W((p: P<'count'>) => `the nodes are not in topological order (${p.count} out of place; onnx.checker rejects this, onnxruntime and OpenVINO sort them): read in dependency order, and written sorted`),
  ONNX_SHADOWING: E((p: P<'what' | 'name' | 'outer'>) => `${p.what} '${p.name}' reuses a name visible from the enclosing graph ${p.outer}; ONNX forbids shadowing outer names`),
  ONNX_FUNCTION_RECURSIVE: E((p: P<'fn' | 'chain'>) => `model-local function ${p.fn} calls itself (${p.chain}): it cannot be inlined`),
  ONNX_FUNCTION_CALL: E((p: P<'fn' | 'detail'>) => `call of model-local function ${p.fn}: ${p.detail}`),
  ONNX_DUPLICATE_NAME: E((p: P<'what' | 'name'>) => `${p.what} '${p.name}' is defined more than once in this graph (ONNX values are SSA)`),
  ONNX_BAD_ATTR: E((p: P<'attr' | 'detail'>) => `attribute '${p.attr}': ${p.detail}`),
  ONNX_OPSET_MISSING: E((p: P<'domain'>) => `the node's domain ${p.domain} has no opset import (ModelProto.opset_import): its version, and so what its ops mean, is unknown`),
  ONNX_OPSET_BAD: E((p: P<'domain' | 'version'>) => `opset import of domain ${p.domain}: version ${p.version} is not a positive integer`),
  ONNX_IR_VERSION_NEWER: W((p: P<'version' | 'newest'>) => `the model declares ONNX IR version ${p.version}, past ${p.newest}, the newest ovir knows: it is read as IR version ${p.newest} (fields a newer IR added are not read; onnx's checker and onnxruntime refuse such a model)`),
  ONNX_OPSET_ASSUMED: W((p: P<'domain' | 'version'>) => `the node's domain ${p.domain} has no opset import: read at version ${p.version}, its only one (as onnxruntime runs such a model)`),
  ONNX_OPSET_NEWER: W((p: P<'version' | 'newest'>) => `the model imports ai.onnx opset ${p.version}, past opset ${p.newest}, the newest ovir knows: its ops are read as at opset ${p.newest} (as OpenVINO's frontend does; onnxruntime refuses such a model)`),
  ONNX_NODE_ARITY: E((p: P<'op' | 'detail'>) => `${p.op}: ${p.detail} (onnx.checker and onnxruntime refuse the node)`),
  ONNX_BAD_TYPE: E((p: P<'what' | 'detail'>) => `${p.what}: ${p.detail}`),
  ONNX_DIM_NEGATIVE: W((p: P<'what' | 'value'>) => `${p.what}: dimension ${p.value} is negative (some exporters write -1 for a run-time dim): read as unknown`),
  ONNX_DIM_TOO_LARGE: E((p: P<'what' | 'value'>) => `${p.what}: dimension ${p.value} is beyond 2^53 and cannot be represented exactly`),
  ONNX_TENSOR_BAD: E((p: P<'name' | 'detail'>) => `tensor '${p.name}': ${p.detail}`),
  ONNX_EXTERNAL_PATH: E((p: P<'name' | 'location' | 'detail'>) => `tensor '${p.name}': external data location '${p.location}' ${p.detail}`),
  ONNX_EXTERNAL_READ: E((p: P<'name' | 'location' | 'reason'>) => `tensor '${p.name}': cannot read external data '${p.location}': ${p.reason}`),
  ONNX_EXTERNAL_RANGE: E((p: P<'name' | 'location' | 'detail'>) => `tensor '${p.name}': external data '${p.location}' ${p.detail}`),
  ONNX_ENCODE: E((p: P<'detail'>) => `cannot write as ONNX: ${p.detail}`),
  ONNX_INVALID_AT_OPSET: E((p: P<'op' | 'detail' | 'opset', 'hint'>) => `${p.op}: ${p.detail} at ONNX opset ${p.opset}${p.hint ? ' (' + p.hint + ')' : ''}; not written`),

  // ── IR codec (src/ir) ─────────────────────────────────────────────────────────
  IR_XML_MALFORMED: E((p: P<'detail'>) => `not well-formed XML: ${p.detail}`),
  IR_DOCTYPE: E((_p: P<never>) => `DOCTYPE/ENTITY declarations are not allowed in IR (entity expansion is refused)`),
  IR_NOT_NET: E((p: P<'tag'>) => `the root element is <${p.tag}>, expected <net>`),
  IR_VERSION: E((p: P<'version'>) => `IR version '${p.version}' is not supported (only 10 and 11)`),
  IR_LAYER_BAD: E((p: P<'layer' | 'detail'>) => `layer ${p.layer}: ${p.detail}`),
  IR_ATTR_MISSING: E((p: P<'op' | 'layer' | 'attr'>) => `${p.op} layer '${p.layer}' lacks the required attribute '${p.attr}'`),
  IR_ATTR_BAD: E((p: P<'op' | 'layer' | 'attr' | 'value' | 'detail'>) => `${p.op} layer '${p.layer}': attribute ${p.attr}="${p.value}" ${p.detail}`),
  IR_ATTR_UNTYPED: W((p: P<'op' | 'attr' | 'value' | 'kind'>) => `${p.op} attribute ${p.attr}="${p.value}" is not a valid ${p.kind}; kept as written`),
  IR_BIN_MISSING: E((p: P<'layer', 'path'>) => `Const layer '${p.layer}' needs weights, but there is no .bin${p.path ? ` ('${p.path}')` : ''}`),
  IR_BLOB_BOUNDS: E((p: P<'layer' | 'detail'>) => `Const layer '${p.layer}': ${p.detail}`),
  IR_BLOB_TOO_SMALL: E((p: P<'layer' | 'detail'>) => `Const layer '${p.layer}': ${p.detail}`),
  IR_BLOB_TOO_BIG: E((p: P<'layer' | 'detail'>) => `Const layer '${p.layer}': ${p.detail}`),
  IR_STRING_BLOB: E((p: P<'layer' | 'detail'>) => `Const layer '${p.layer}': bad string data: ${p.detail}`),
  IR_PORT_BAD: E((p: P<'layer' | 'port' | 'detail'>) => `layer '${p.layer}' port ${p.port}: ${p.detail}`),
  IR_EDGE_BAD: E((p: P<'edge' | 'detail'>) => `edge ${p.edge}: ${p.detail}`),
  IR_EDGE_MISSING: E((p: P<'port' | 'layer'>) => `input port ${p.port} of layer '${p.layer}' has no incoming edge`),
  IR_EDGE_TWICE: E((p: P<'port' | 'layer'>) => `input port ${p.port} of layer '${p.layer}' has more than one incoming edge`),
  IR_CYCLE: E((p: P<'layer'>) => `the edges form a cycle through layer '${p.layer}'`),
  IR_BODY_MISSING: E((p: P<'op' | 'layer' | 'body'>) => `${p.op} layer '${p.layer}' lacks <${p.body}>`),
  IR_PORTMAP_BAD: E((p: P<'map' | 'entry' | 'detail'>) => `<${p.map}> entry ${p.entry}: ${p.detail}`),
  IR_PORTMAP_UNMAPPED: E((p: P<'param' | 'map'>) => `body Parameter '${p.param}' is not in <${p.map}>: it would never be fed`),
  IR_IF_COND_PARAM: W((p: P<'map' | 'param'>) => `<${p.map}> feeds body Parameter '${p.param}' from the cond port (input 0), which OpenVINO does not do correctly; the writer routes it through an extra input`),
  IR_PORTMAP_OUTPUTS_DIFFER: E((p: P<'then' | 'else'>) => `then_port_map and else_port_map cover different outputs (then: ${p.then}; else: ${p.else})`),
  IR_WRITE_DIALECT: E((p: P<'op' | 'dialect'>) => `node ${p.op} is in the ${p.dialect} dialect; only OpenVINO (ov) nodes can be written as IR`),
  IR_WRITE_TYPE: E((p: P<'what' | 'value' | 'detail'>) => `${p.what} '${p.value}' has ${p.detail}; IR needs a known element type there`),
  IR_WRITE_ATTR: E((p: P<'op' | 'attr' | 'kind'>) => `${p.op}: attribute '${p.attr}' of kind ${p.kind} has no IR form`),
  IR_WRITE_GRAPH: E((p: P<'detail'>) => `${p.detail}`),
  IR_WRITE_NUL: E((p: P<'what' | 'text' | 'read'>) => `${p.what} '${p.text}' holds a NUL character, which IR cannot carry: OpenVINO's reader ends the text there (it would read '${p.read}')`),

  // ── conversion (src/convert, mappings/) ───────────────────────────────────────
  CONVERT_UNSUPPORTED_OP: E((p: P<'op' | 'dialect' | 'version' | 'target', 'detail'>) => `${p.op} (${p.dialect} ${p.version}) has no conversion to ${p.target}${p.detail ? ': ' + p.detail : ''}`),
  CONVERT_UNKNOWN_ATTR: E((p: P<'op' | 'attr' | 'target'>) => `${p.op}: attribute '${p.attr}' has no counterpart in ${p.target}; refusing to drop it`),
  CONVERT_UNSUPPORTED_ATTR: E((p: P<'op' | 'attr' | 'value', 'detail'>) => `${p.op}: attribute '${p.attr}' = ${p.value} is not supported${p.detail ? ' (' + p.detail + ')' : ''}`),
  CONVERT_NEEDS_CONSTANT: E((p: P<'op' | 'index' | 'what' | 'target'>) => `${p.op}: input ${p.index} (${p.what}) must be a constant to convert to ${p.target}`),
  CONVERT_UNSUPPORTED_TYPE: E((p: P<'what' | 'value' | 'type' | 'target'>) => `${p.what} '${p.value}' has type ${p.type}, which ${p.target} cannot hold`),
  CONVERT_OP: E((p: P<'op' | 'detail'>) => `${p.op}: ${p.detail}`),
  CONVERT_SEQUENCE_NOT_STATIC: E((p: P<'kind' | 'value' | 'detail'>) => `${p.kind} '${p.value}' ${p.detail}: OpenVINO IR has tensors only; it converts only where the tensors it holds are known at conversion time`),
  CONVERT_IF_FOLDED: W((p: P<'cond' | 'branch' | 'errors' | 'detail'>) => `If: the condition is always ${p.cond}, so the If is replaced by its ${p.branch} branch: the other branch never runs and is not valid for OpenVINO, which validates every body (${p.errors} error(s), first: ${p.detail})`),
  CONVERT_STATE_VARIABLE: W((p: P<'variable' | 'input' | 'output'>) => `state variable '${p.variable}' (ReadValue / Assign): ONNX has no state between calls, so the variable is read from graph input ${p.input} and its new value is graph output ${p.output}; every call feeds the previous call's output to that input`),
  CONVERT_STATE_RESTORED: W((p: P<'variable' | 'input' | 'output' | 'detail'>) => `graph input ${p.input} and output ${p.output} are state variable '${p.variable}' again, as the model's metadata ovir.state_variables records (ReadValue / Assign, ${p.detail})`),
  CONVERT_STATE_NOT_RESTORED: W((p: P<'variable' | 'input' | 'output' | 'detail'>) => `state variable '${p.variable}' stays graph input ${p.input} and output ${p.output}: ${p.detail}`),
  CONVERT_IR_V10_INTERFACE: W((p: P<'detail'>) => `an IR version 10 file runs in OpenVINO with its old API's interface types, so the ONNX model has them too (Casts at the main graph's inputs and outputs): ${p.detail}`),
  CONVERT_FP16_CLAMPED: W((p: P<'value' | 'count' | 'total'>) => `constant '${p.value}': ${p.count} of ${p.total} values lie beyond f16's range (±65504) and are stored as ±65504, as OpenVINO's compress_to_fp16 stores them — the IR computes other numbers there, not a rounding (convert without --compress_to_fp16 to keep the constant f32)`),
  CONVERT_CONSTANT_WIDENED: W((p: P<'value' | 'from' | 'to' | 'bytes'>) => `constant '${p.value}' of element type ${p.from}, which ONNX cannot hold, is stored as ${p.to} (the same numbers: only Converts read it; ${p.bytes})`),
  CONVERT_SEMANTICS_CHOICE: W((p: P<'op' | 'detail'>) => `${p.op}: ${p.detail}`),
  CONVERT_BAD_OPTION: E((p: P<'detail'>) => `${p.detail}`),
  CONVERT_SAME_FORMAT: E((p: P<'format'>) => `the model is already ${p.format}; nothing to convert`),

  // ── shape inference (src/shape) ───────────────────────────────────────────────
  SHAPE_UNKNOWN_OP: I((p: P<'op' | 'dialect' | 'version' | 'fallback'>) => `no shape rule for ${p.op} (${p.dialect}, version ${p.version}): outputs left ${p.fallback}`),
  SHAPE_RULE: E((p: P<'op' | 'detail'>) => `${p.op}: ${p.detail}`),
  SHAPE_RULE_WARNING: W((p: P<'op' | 'detail'>) => `${p.op}: ${p.detail}`),
  SHAPE_RULE_INFO: I((p: P<'op' | 'detail'>) => `${p.op}: ${p.detail}`),
  SHAPE_BAD_ATTR: E((p: P<'op' | 'detail'>) => `${p.op}: ${p.detail}`),
  SHAPE_DECLARED_CONTRADICTS: E((p: P<'value' | 'declared' | 'inferred' | 'detail'>) => `value '${p.value}' is declared ${p.declared} but inferred ${p.inferred}: ${p.detail}`),
  SHAPE_DECLARED_HINT: W((p: P<'value' | 'declared' | 'inferred' | 'detail'>) => `value '${p.value}' is declared ${p.declared} but inferred ${p.inferred}: ${p.detail}; an intermediate value's declaration is a hint, the inferred type is used (--strict makes this an error)`),
  SHAPE_OUTPUT_DECLARED_HINT: W((p: P<'value' | 'declared' | 'inferred' | 'detail'>) => `graph output '${p.value}' is declared ${p.declared} but inferred ${p.inferred}: ${p.detail}; an ONNX graph output's declared shape is a hint, as onnxruntime (its lenient merge) and OpenVINO's frontend take it: the inferred shape is used (its element type must agree; --strict makes this an error)`),
  SHAPE_IF_TYPE_MISMATCH: E((p: P<'index' | 'value' | 'detail' | 'policy'>) => `If output ${p.index} ('${p.value}'): branches disagree (${p.detail}) under the ${p.policy} merge policy`),
  SHAPE_IF_RANK_MISMATCH: E((p: P<'index' | 'value' | 'detail' | 'policy'>) => `If output ${p.index} ('${p.value}'): ${p.detail}, which the ${p.policy} merge policy rejects`),
  SHAPE_IF_BRANCH_OUTPUTS: E((p: P<'body' | 'got' | 'expected'>) => `If body '${p.body}' gives ${p.got} outputs, the node has ${p.expected}`),
  SHAPE_LOOP_BACK_EDGE: E((p: P<'result' | 'param' | 'from' | 'to'>) => `Loop body: back edge from Result ${p.result} to Parameter '${p.param}' changes the element type (${p.from} → ${p.to}); a loop-carried value keeps its type`),
  SHAPE_UNTAKEN_BRANCH: W((p: P<'cond' | 'code' | 'detail'>) => `in the If branch its condition (always ${p.cond}) never takes: ${p.detail} [${p.code}]; not an error, since only the taken branch runs`),
  SHAPE_RULE_FAILED: E((p: P<'op' | 'detail'>) => `shape rule for ${p.op} failed (please report): ${p.detail}`),
  SHAPE_BRANCH_RELAXED: W((p: P<'branch' | 'relaxed' | 'errors' | 'detail'>) => `If: the ${p.branch} branch does not infer with the types of the values it captures (${p.errors} error(s), first: ${p.detail}); the condition is not known, so it is typed as for any input, with ${p.relaxed}: a run that takes it with these shapes fails, as in onnxruntime`),

  // ── equivalence check (src/equiv) ─────────────────────────────────────────────
  EQUIV_CONTRADICTION: E((p: P<'name' | 'detail' | 'pathB'>) => `'${p.name}' contradicts between the two forms: ${p.detail} (B: ${p.pathB})`),
  EQUIV_BINDING_MISMATCH: W((p: P<'body' | 'param' | 'fromB' | 'fromA'>) => `${p.body} body: parameter '${p.param}' is fed from node input ${p.fromB} in B, but its counterpart in A from input ${p.fromA} (bindings wired differently)`),
  EQUIV_RESULT_MISMATCH: W((p: P<'body' | 'result' | 'outA'>) => `${p.body} body: B's result '${p.result}' is not what feeds node output ${p.outA} (bindings wired differently)`),
  EQUIV_INTERFACE_UNPAIRED: E((p: P<'kind' | 'name' | 'side' | 'other' | 'candidates'>) => `graph ${p.kind} '${p.name}' of ${p.side} has no counterpart among ${p.other}'s ${p.kind}s (${p.candidates}): the two files are not comparable as forms of one model`),
  EQUIV_PROVENANCE: E((p: P<'what' | 'detail'>) => `${p.what} is wired differently: ${p.detail}`),
  EQUIV_DATAFLOW: E((p: P<'node' | 'index' | 'detail'>) => `'${p.node}' reads input ${p.index} from another value than its counterpart: ${p.detail}`),
  EQUIV_CONST_PAYLOAD: E((p: P<'name' | 'pathB' | 'detail'>) => `constant '${p.name}' holds other numbers than its counterpart (B: ${p.pathB}): ${p.detail}`),
  EQUIV_NAME_HINT: W((p: P<'name' | 'pathB' | 'detail', 'how'>) => `${p.how ?? 'same-named'} '${p.name}' differs between the two forms (B: ${p.pathB}): ${p.detail}; names inside the graphs (and parameters paired by position) are hints in two-file mode, so this does not decide the verdict`),
  EQUIV_FORM_DIFFERS: E((p: P<'detail' | 'pathB' | 'compared'>) => `the two forms are not written alike here: ${p.detail} (B: ${p.pathB}; compared: ${p.compared}), so the computation is not proven the same (\`--run\` compares the numbers)`),
  EQUIV_FORM_UNCOMPARED: E((p: P<'detail'>) => `the computations of the two forms could not be compared: ${p.detail}; the computation is not proven the same (\`--run\` compares the numbers)`),
  EQUIV_BODY_UNMATCHED: W((p: P<'node' | 'side' | 'other'>) => `'${p.node}' of ${p.side} has bodies but no counterpart in ${p.other}: values inside are not compared`),

  // ── CLI and batch (src/cli) ───────────────────────────────────────────────────
  CLI_USAGE: E((p: P<'detail'>) => `${p.detail}`),
  INTERNAL: E((p: P<'detail'>) => `internal error (please report): ${p.detail}`),
} satisfies Record<string, CodeDef<never>>;

export type DiagCode = keyof typeof CODES;
export type DiagParams = Params;
/** The parameters code `C` takes. */
export type ParamsOf<C extends DiagCode> = Parameters<(typeof CODES)[C]['message']>[0];
