import { ALL_MAPPINGS } from '../../mappings/index.js';
import { irSideOf, irVersionsOf, type OpMapping } from '../../mappings/spec.js';
import type { Node } from '../graph/node.js';
import { formatRange, inRange, rangesOverlap } from '../graph/version-range.js';

/**
 * The mapping tables indexed for both directions. ONNX side: by (domain, op) and opset range
 * (several entries may share an opset when their `when` tells them apart). IR side: by op name
 * and op version (an entry reads its `ir.version` and its `ir.reads`), then by the target ONNX
 * opset range. Entries with `ir: null` only decompose an ONNX op and take no part in IR lookup.
 */
export interface ConvertRegistry {
  /** ONNX → IR: the entry for this ONNX node at opset `version` (honouring `when`). */
  forOnnx(node: Node, version: number): OpMapping | undefined;
  /** IR → ONNX: the entry reading IR op `op` at version `irVersion` ('opset8') whose ONNX range contains `opset`. */
  forIr(op: string, irVersion: string, opset: number): OpMapping | undefined;
  /** IR → ONNX: what is read of this IR op (versions and ONNX opsets), for messages; '' when nothing. */
  irSupport(op: string, irVersion: string): string;
  /** The version an IR op is written with when a mapping emits it without one (`opset1` when no entry names it). */
  irVersion(op: string): string;
  readonly entries: readonly OpMapping[];
}

const normDomain = (d: string | undefined): string => (d === undefined || d === 'ai.onnx' ? '' : d);
const onnxKey = (domain: string | undefined, op: string): string => `${normDomain(domain)}:${op}`;
const inOnnxRange = (e: OpMapping, v: number): boolean => inRange(e.onnx, v);
const range = (e: OpMapping): string => formatRange(e.onnx);
const irName = (e: OpMapping): string => irSideOf(e)?.op ?? `(decomposed ${e.onnx.op})`;

/** Overlapping ONNX version ranges of two entries. */
export function overlaps(a: OpMapping, b: OpMapping): boolean {
  return rangesOverlap(a.onnx, b.onnx);
}

/**
 * Builds the registry (pure). Two entries may cover the same ONNX op and opset only if they name
 * different IR ops and at most one of them lacks `when`; two entries reading one IR op at one
 * version may not cover the same ONNX opset. Violations are programming errors and throw.
 */
export function buildConvertRegistry(entries: readonly OpMapping[] = ALL_MAPPINGS): ConvertRegistry {
  const byOnnx = new Map<string, OpMapping[]>();
  const byIr = new Map<string, OpMapping[]>();
  for (const e of entries) {
    const k = onnxKey(e.onnx.domain, e.onnx.op);
    const list = byOnnx.get(k) ?? [];
    for (const o of list) {
      if (!overlaps(o, e)) continue;
      if (irName(o) === irName(e) || (!o.when && !e.when)) {
        throw new Error(`mappings overlap for ONNX ${k} (${irName(o)} ${range(o)} and ${irName(e)} ${range(e)})`);
      }
    }
    list.push(e);
    byOnnx.set(k, list);
    const ir = irSideOf(e);
    if (!ir) continue;
    const irList = byIr.get(ir.op.toLowerCase()) ?? [];
    const versions = irVersionsOf(e);
    for (const o of irList) {
      const shared = irVersionsOf(o).filter((v) => versions.includes(v));
      if (shared.length && overlaps(o, e)) {
        throw new Error(`mappings overlap for IR ${ir.op} ${shared.join(', ')}: ONNX ${o.onnx.op} ${range(o)} and ${e.onnx.op} ${range(e)}`);
      }
    }
    irList.push(e);
    byIr.set(ir.op.toLowerCase(), irList);
  }
  const irEntries = (op: string): OpMapping[] => byIr.get(op.toLowerCase()) ?? [];
  // Looked up for every node: the candidates of (domain, op, opset) and the entry of (IR op,
  // version, opset) are found once, then kept (nested maps: no key string per lookup).
  const onnxCandidates = new Map<string, Map<string, Map<number, OpMapping[]>>>();
  const irFound = new Map<string, Map<string, Map<number, OpMapping | undefined>>>();
  return {
    entries,
    forOnnx(node, version) {
      let byOp = onnxCandidates.get(node.domain);
      if (!byOp) onnxCandidates.set(node.domain, (byOp = new Map()));
      let byVersion = byOp.get(node.op);
      if (!byVersion) byOp.set(node.op, (byVersion = new Map()));
      let list = byVersion.get(version);
      if (!list) byVersion.set(version, (list = (byOnnx.get(onnxKey(node.domain, node.op)) ?? []).filter((e) => inOnnxRange(e, version))));
      if (list.length === 1 && !list[0]!.when) return list[0];
      return list.find((e) => e.when?.(node)) ?? list.find((e) => !e.when);
    },
    forIr(op, irVersion, opset) {
      let byVersion = irFound.get(op);
      if (!byVersion) irFound.set(op, (byVersion = new Map()));
      let byOpset = byVersion.get(irVersion);
      if (!byOpset) byVersion.set(irVersion, (byOpset = new Map()));
      if (byOpset.has(opset)) return byOpset.get(opset);
      const e = irEntries(op).find((x) => irVersionsOf(x).includes(irVersion) && inOnnxRange(x, opset));
      byOpset.set(opset, e);
      return e;
    },
    irSupport(op, irVersion) {
      const list = irEntries(op);
      if (!list.length) return '';
      const atVersion = list.filter((e) => irVersionsOf(e).includes(irVersion));
      if (atVersion.length) return `only at ONNX opsets ${atVersion.map(range).join(', ')}`;
      return `ovir reads ${op} ${[...new Set(list.flatMap(irVersionsOf))].join(', ')}`;
    },
    irVersion(op) {
      return irSideOf(irEntries(op)[0] ?? { onnx: { op, since: 1 }, ir: null })?.version ?? 'opset1';
    },
  };
}

let cached: ConvertRegistry | undefined;
/** The registry of every mapping in mappings/ (built once). */
export function defaultConvertRegistry(): ConvertRegistry {
  return (cached ??= buildConvertRegistry());
}
