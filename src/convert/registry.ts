import { ALL_MAPPINGS } from '../../mappings/index.js';
import type { OpMapping } from '../../mappings/spec.js';
import type { Node } from '../graph/node.js';

/** The mapping tables indexed for both directions. */
export interface ConvertRegistry {
  /** ONNX → IR: the entry for this ONNX node at opset `version` (honouring `when`). */
  forOnnx(node: Node, version: number): OpMapping | undefined;
  /** IR → ONNX: the entry for this IR op whose ONNX range contains the target opset. */
  forIr(op: string, opset: number): OpMapping | undefined;
  /** IR → ONNX: whether some entry exists for this IR op at any opset (for messages). */
  irOpsets(op: string): string;
  /** The version an IR op is written with (`opset1` when no entry names it). */
  irVersion(op: string): string;
  readonly entries: readonly OpMapping[];
}

const normDomain = (d: string | undefined): string => (d === undefined || d === 'ai.onnx' ? '' : d);
const onnxKey = (domain: string | undefined, op: string): string => `${normDomain(domain)}:${op}`;
const inRange = (e: OpMapping, v: number): boolean => e.onnx.since <= v && v <= (e.onnx.until ?? Infinity);

/** Overlapping ONNX version ranges of two entries for one ONNX op and one IR op. */
export function overlaps(a: OpMapping, b: OpMapping): boolean {
  const lo = Math.max(a.onnx.since, b.onnx.since);
  const hi = Math.min(a.onnx.until ?? Infinity, b.onnx.until ?? Infinity);
  return lo <= hi;
}

/**
 * Builds the registry (pure). Two entries may cover the same ONNX op and opset only if they name
 * different IR ops and at most one of them lacks `when`; two entries for one IR op may not cover
 * the same ONNX opset. Violations are programming errors and throw.
 */
export function buildConvertRegistry(entries: readonly OpMapping[] = ALL_MAPPINGS): ConvertRegistry {
  const byOnnx = new Map<string, OpMapping[]>();
  const byIr = new Map<string, OpMapping[]>();
  for (const e of entries) {
    const k = onnxKey(e.onnx.domain, e.onnx.op);
    const list = byOnnx.get(k) ?? [];
    for (const o of list) {
      if (!overlaps(o, e)) continue;
      if (o.ir.op === e.ir.op || (!o.when && !e.when)) {
        throw new Error(`mappings overlap for ONNX ${k} (${o.ir.op} ${o.onnx.since}..${o.onnx.until ?? ''} and ${e.ir.op} ${e.onnx.since}..${e.onnx.until ?? ''})`);
      }
    }
    list.push(e);
    byOnnx.set(k, list);
    const irList = byIr.get(e.ir.op.toLowerCase()) ?? [];
    for (const o of irList) {
      if (overlaps(o, e)) throw new Error(`mappings overlap for IR ${e.ir.op}: ONNX ${o.onnx.op} ${o.onnx.since}.. and ${e.onnx.op} ${e.onnx.since}..`);
    }
    irList.push(e);
    byIr.set(e.ir.op.toLowerCase(), irList);
  }
  return {
    entries,
    forOnnx(node, version) {
      const list = (byOnnx.get(onnxKey(node.domain, node.op)) ?? []).filter((e) => inRange(e, version));
      return list.find((e) => e.when?.(node)) ?? list.find((e) => !e.when);
    },
    forIr(op, opset) {
      return (byIr.get(op.toLowerCase()) ?? []).find((e) => inRange(e, opset));
    },
    irOpsets(op) {
      return (byIr.get(op.toLowerCase()) ?? []).map((e) => `${e.onnx.since}..${e.onnx.until ?? ''}`).join(', ');
    },
    irVersion(op) {
      return (byIr.get(op.toLowerCase()) ?? [])[0]?.ir.version ?? 'opset1';
    },
  };
}

let cached: ConvertRegistry | undefined;
/** The registry of every mapping in mappings/ (built once). */
export function defaultConvertRegistry(): ConvertRegistry {
  return (cached ??= buildConvertRegistry());
}
