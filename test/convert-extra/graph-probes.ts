import { expect } from 'vitest';
import { OvirError } from '../../src/diag/diagnostic.js';
import { allNodes, type Model, type Node } from '../../src/graph/index.js';

/** Probes the convert-extra tests share: what a converted graph holds, and what a conversion reports. */

/** The ops of every node, bodies included, in graph order. */
export const ops = (m: Model): string[] => [...allNodes(m.graph)].map((n) => n.op);

/** The one node of op `op` (the test fails unless there is exactly one). */
export function only(m: Model, op: string): Node {
  const ns = [...allNodes(m.graph)].filter((n) => n.op === op);
  expect(ns).toHaveLength(1);
  return ns[0]!;
}

/** The diagnostics `f` throws as an OvirError ([] when it throws none; anything else is rethrown). */
export function diags(f: () => unknown): { code: string; path: string; message: string }[] {
  try { f(); } catch (e) { if (e instanceof OvirError) return e.diagnostics.map((d) => ({ code: d.code, path: d.where, message: d.message })); throw e; }
  return [];
}
