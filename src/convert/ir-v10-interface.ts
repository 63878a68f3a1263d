import type { Diagnostics } from '../diag/diagnostic.js';
import { A } from '../graph/attr.js';
import { elementType, type ElementTypeName } from '../graph/element-type.js';
import type { Model } from '../graph/model.js';
import type { Node } from '../graph/node.js';
import { tensorType } from '../graph/types.js';

/**
 * IR version 10 (the Open Model Zoo's and the Model Optimizer's IRs before 2022) is read by
 * OpenVINO with the interface of its old Inference Engine API, whatever the file declares
 * (OpenVINO 2026.4, measured with read_model on one IR of each element type):
 * - an f16 Parameter becomes an f32 input, converted to f16 inside;
 * - every output becomes f32, except i32 and the 64-bit and unsigned 32-bit integers, which become
 *   i32 (i64, u32, u64): a Convert before each Result.
 * So the model OpenVINO runs from such a file has that interface: IR → ONNX writes it too (Casts at
 * the main graph's inputs and outputs, a CONVERT_IR_V10_INTERFACE warning naming each), and the
 * ONNX model computes what OpenVINO computes from the file; `ovir check` compares such a file as
 * OpenVINO sees it (the same Converts in the IR). Bodies keep their types. Applying it again
 * changes nothing (the interface then has only f32 inputs where f16 were, f32/i32 outputs).
 */
export function legacyOutputType(elem: ElementTypeName): ElementTypeName | null {
  if (elem === 'f32' || elem === 'i32' || elem === 'dynamic') return null;
  return elem === 'i64' || elem === 'u32' || elem === 'u64' ? 'i32' : 'f32';
}

/**
 * Rewrites the main graph of `m` to the interface OpenVINO gives an IR v10 file: `m` is the ONNX
 * model converted from it (Casts at opset `opset`) or the IR itself (Converts). Returns what
 * undoes it.
 */
export function applyIrV10Interface(m: Model, opset: number, diags: Diagnostics): () => void {
  const g = m.graph;
  const changed: string[] = [];
  /** What undoes each change, newest first (see the return). */
  const undo: (() => void)[] = [];
  const added = new Set<Node>();
  const cast = (to: ElementTypeName, name: string) => {
    if (m.dialect === 'ov') {
      const n = g.addNode({ dialect: 'ov', op: 'Convert', version: 'opset1', name });
      n.attrs.set('destination_type', A.string(to));
      return n;
    }
    const n = g.addNode({ dialect: 'onnx', op: 'Cast', version: String(opset), name });
    n.attrs.set('to', A.int(elementType(to).onnx!));
    return n;
  };
  const front: typeof g.nodes = [];
  for (const v of g.inputs) {
    const t = v.type;
    if (t?.kind !== 'tensor' || t.elem !== 'f16' || v.constant) continue;
    const uses = [...v.uses];
    const n = cast('f16', `${v.name}/to_f16`);
    g.nodes.pop(); // placed first below: it reads a graph input
    front.push(n);
    added.add(n);
    n.addInput(v);
    const inner = n.addOutput(tensorType('f16', t.shape), [`${v.name}/f16`]);
    for (const u of uses) u.node.setInput(u.index, inner);
    const asOutput: number[] = [];
    for (let k = 0; k < g.outputs.length; k++) if (g.outputs[k] === v) { g.outputs[k] = inner; asOutput.push(k); }
    v.type = tensorType('f32', t.shape);
    undo.push(() => {
      // the readers read `v` again, and its use list is the one it had (same order)
      for (const u of uses) u.node.inputs[u.index] = v;
      v.uses = uses;
      for (const k of asOutput) g.outputs[k] = v;
      v.type = t;
    });
    changed.push(`input '${v.name}' f16 → f32`);
  }
  if (front.length) g.nodes.unshift(...front);
  for (let k = 0; k < g.outputs.length; k++) {
    const v = g.outputs[k]!;
    const t = v.type;
    const to = t?.kind === 'tensor' ? legacyOutputType(t.elem) : null;
    if (!to || t?.kind !== 'tensor') continue;
    const names = v.names;
    const n = cast(to, `${v.name || `output_${k}`}/to_${to}`);
    added.add(n);
    n.addInput(v);
    v.names = [];
    g.outputs[k] = n.addOutput(tensorType(to, t.shape), names);
    undo.push(() => {
      g.outputs[k] = v;
      v.names = names;
      v.uses = v.uses.filter((u) => u.node !== n);
    });
    changed.push(`output '${names[0] ?? k}' ${t.elem} → ${to}`);
  }
  if (changed.length) diags.add('CONVERT_IR_V10_INTERFACE', '', { detail: changed.join(', ') });
  // Undoes every change (checkModels compares a file's model as OpenVINO runs it, and gives it back as it was).
  return () => {
    for (let i = undo.length - 1; i >= 0; i--) undo[i]!();
    g.nodes = g.nodes.filter((n) => !added.has(n));
  };
}
