import { irSideOf } from '../../mappings/spec.js';
import { defaultConvertRegistry } from '../convert/registry.js';
import type { Node } from '../graph/node.js';

/**
 * Which nodes of the two forms are "the same op, one to one": same dialect, same op (and domain);
 * across dialects, an entry of the mapping tables that converts the one into the other node for
 * node, inputs in order (an entry without `toIr`/`toOnnx` escape hatches: those reorder, split or
 * decompose). Anything else is a decomposition, not guessed at.
 */
let plain: Set<string> | undefined;
function plainPairs(): Set<string> {
  if (plain) return plain;
  plain = new Set();
  // A pair is plain only when every entry relating the two ops is: the key holds no opset, and
  // PRelu-6 (plain) and PRelu-7+ (a slope unsqueezed to ONNX's broadcasting) are one key.
  const mixed = new Set<string>();
  for (const e of defaultConvertRegistry().entries) {
    // Escape hatches and operand moves reorder, add or drop inputs; a decomposition has no IR op.
    const ir = irSideOf(e);
    if (!ir) continue;
    const key = `${e.onnx.domain ?? ''}:${e.onnx.op}|${ir.op.toLowerCase()}`;
    if (e.toIr || e.toOnnx || e.moves?.length) mixed.add(key);
    else plain.add(key);
  }
  for (const k of mixed) plain.delete(k);
  return plain;
}

const onnxKey = (n: Node): string => `${n.domain === 'ai.onnx' ? '' : n.domain}:${n.op}`;

export function sameOp(a: Node, b: Node): boolean {
  if (a.dialect === b.dialect) return a.op.toLowerCase() === b.op.toLowerCase() && (a.dialect === 'ov' || onnxKey(a) === onnxKey(b));
  const [o, i] = a.dialect === 'onnx' ? [a, b] : [b, a];
  return plainPairs().has(`${onnxKey(o)}|${i.op.toLowerCase()}`);
}

/** Ops whose two inputs may be swapped without changing the result (ONNX and IR spellings). */
const COMMUTATIVE = new Set([
  'add', 'mul', 'multiply', 'max', 'maximum', 'min', 'minimum', 'sum', 'mean', 'equal', 'notequal',
  'and', 'or', 'xor', 'logicaland', 'logicalor', 'logicalxor', 'bitwiseand', 'bitwiseor', 'bitwisexor',
]);

export function isCommutative(n: Node): boolean {
  return COMMUTATIVE.has(n.op.toLowerCase());
}
