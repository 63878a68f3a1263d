import { attrString } from './attr-read.js';
import type { Graph } from './graph.js';
import type { Value } from './value.js';

/**
 * The model metadata by which IR → ONNX records what it made of OpenVINO's state variables
 * (mappings/state/variables.ts), read back by ONNX → IR (which makes them variables again) and
 * by `ovir check` (which pairs them with the IR's ReadValue / Assign).
 *
 * `ovir.state_variables`: JSON `[{ variable_id, input, output, initial, initial_value }]`: the
 * graph input the variable is read from and the graph output its new value is written to (null
 * where the variable is only assigned or only read), what the first call feeds (`zeros`,
 * `constant` or `computed`), and the initializer holding that constant value (null when none).
 */
export const STATE_METADATA_KEY = 'ovir.state_variables';

export interface StatePair {
  readonly input: string | null;
  readonly output: string | null;
  readonly initial: 'zeros' | 'constant' | 'computed' | null;
  readonly initialValue: string | null;
}

/** The pairs by variable_id, from a model's metadata (none, or not ovir's JSON: empty). */
export function stateNamesOf(metadata: readonly (readonly [string, string])[] | undefined): ReadonlyMap<string, StatePair> {
  const out = new Map<string, StatePair>();
  const text = metadata?.find(([k]) => k === STATE_METADATA_KEY)?.[1];
  if (text === undefined) return out;
  try {
    const list: unknown = JSON.parse(text);
    if (!Array.isArray(list)) return out;
    const str = (x: unknown): string | null => (typeof x === 'string' ? x : null);
    for (const e of list as unknown[]) {
      if (typeof e !== 'object' || e === null) continue;
      const r = e as Record<string, unknown>;
      const id = r['variable_id'];
      if (typeof id !== 'string' || out.has(id)) continue;
      const initial = r['initial'] === 'zeros' || r['initial'] === 'constant' || r['initial'] === 'computed' ? r['initial'] : null;
      out.set(id, { input: str(r['input']), output: str(r['output']), initial, initialValue: str(r['initial_value']) });
    }
  } catch { /* not ovir's: no pairs */ }
  return out;
}

/** The metadata value for the pairs (inverse of stateNamesOf). */
export function stateMetadata(pairs: ReadonlyMap<string, StatePair>): [string, string] {
  return [STATE_METADATA_KEY, JSON.stringify([...pairs].map(([id, p]) => ({
    variable_id: id, input: p.input, output: p.output, initial: p.initial, initial_value: p.initialValue,
  })))];
}

/**
 * An OpenVINO graph's state variables by variable_id, in node order: the value each one's first
 * ReadValue reads (`read`), or the value its first Assign writes (`written`).
 */
export function irStateValues(g: Graph, role: 'read' | 'written'): Map<string, Value> {
  const out = new Map<string, Value>();
  for (const n of g.nodes) {
    if (n.dialect !== 'ov' || n.op !== (role === 'read' ? 'ReadValue' : 'Assign')) continue;
    const id = attrString(n, 'variable_id');
    const v = role === 'read' ? n.outputs[0] : n.inputs[0];
    if (id !== undefined && v && !out.has(id)) out.set(id, v);
  }
  return out;
}
