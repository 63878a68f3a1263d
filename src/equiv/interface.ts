import { diag, type Diagnostic } from '../diag/diagnostic.js';
import { irStateValues, type StatePair } from '../graph/state-metadata.js';
import type { Graph } from '../graph/graph.js';
import type { Value } from '../graph/value.js';
import type { Via } from './correspond.js';
import type { Paths } from './paths.js';

/**
 * The interface decides first: the main graphs' inputs must pair one to one, and so must their
 * outputs, or the two files are not two forms of one model ("nothing compared" is never
 * "equivalent").
 *
 * Keys a value is known by:
 * - inputs: its tensor names, and (IR) the Parameter's layer name;
 * - outputs: its tensor names, and (IR) the Result's layer name without OpenVINO's
 *   `/sink_port_0` suffix (`y/sink_port_0` is the Result of `y`).
 * A pair is one shared key. What is left pairs by position only when, among the leftovers, one
 * side has no names at all (an IR Result whose port has no names, an unnamed ONNX output) and
 * both sides have as many left. A leftover's name that its own form gives to one of its values of
 * the other role (an input named like an output) does not count as a name: ovc folds an
 * eliminated Identity/Dropout into the Parameter, which then carries the output's name only.
 * Anything still unpaired is an EQUIV_INTERFACE_UNPAIRED problem, except an input whose declared
 * shape holds no element (a dim of 0): it can only ever be the empty tensor, and ovc folds it away.
 * ONNX graph inputs with an initializer (a default, ONNX IR < 4) are constants, not interface.
 */
type AddPair = (a: Value, b: Value, via: Via, scope: string, iface?: boolean) => void;

/**
 * State variables are interface too (IR → ONNX makes each OpenVINO variable a graph input and a
 * graph output, mappings/state/variables.ts): an IR ReadValue's output is an input keyed
 * `state:<variable_id>` (the first ReadValue of a variable), an Assign's operand an output keyed
 * `state:<variable_id>.next`; an ONNX graph input or output is keyed so where the model's
 * metadata `ovir.state_variables` (StateNames, by variable_id) names it.
 */
export type StateNames = ReadonlyMap<string, StatePair>;

/** Adds a graph's state variables to one side of its interface (see StateNames). */
function addStates(g: Graph, side: Side, role: 'input' | 'output', states: StateNames | undefined): void {
  if (states) {
    for (const [id, p] of states) {
      const name = role === 'input' ? p.input : p.output;
      const i = name === null ? -1 : side.values.findIndex((v) => v.names.includes(name));
      if (i >= 0) side.info[i]!.keys.push(`state:${id}${role === 'output' ? '.next' : ''}`);
    }
  }
  for (const [id, v] of irStateValues(g, role === 'input' ? 'read' : 'written')) {
    // the key counts as a name: a variable pairs by its key only, never by position
    const key = `state:${id}${role === 'output' ? '.next' : ''}`;
    side.values.push(v);
    side.info.push({ names: [key], keys: [key] });
  }
}

const SINK = /\/sink_port_\d+$/;

function resultNames(g: Graph): string[] {
  return Array.isArray(g.meta['resultNames']) ? g.meta['resultNames'] : [];
}

function inputKeys(v: Value): { names: string[]; keys: string[] } {
  const names = v.names.filter((n) => n);
  const layer = v.metaView['layerName'];
  return { names, keys: typeof layer === 'string' && layer !== '' ? [...names, layer] : names };
}

function outputKeys(g: Graph): (v: Value, i: number) => { names: string[]; keys: string[] } {
  const rn = resultNames(g);
  return (v, i) => {
    const names = v.names.filter((n) => n);
    const r = rn[i];
    return { names, keys: r ? [...names, r.replace(SINK, '')] : names };
  };
}

interface Side {
  values: Value[];
  info: { names: string[]; keys: string[] }[];
  /** Keys of the side's values of the other role (outputs for inputs and vice versa). */
  otherRole: Set<string>;
}

/** No runtime tensor but the empty one fits the declared type. */
function alwaysEmpty(v: Value): boolean {
  const t = v.type;
  return t !== null && t.kind === 'tensor' && t.shape !== null && t.shape.some((d) => d === 0);
}

function pairSide(
  kind: 'input' | 'output', a: Side, b: Side, scope: string, addPair: AddPair, paths: Paths,
): Diagnostic[] {
  const byKey = new Map<string, number>();
  b.info.forEach((inf, j) => { for (const k of inf.keys) if (!byKey.has(k)) byKey.set(k, j); });
  const takenB = new Set<number>();
  const leftA: number[] = [];
  a.info.forEach((inf, i) => {
    for (const k of inf.keys) {
      const j = byKey.get(k);
      if (j !== undefined && !takenB.has(j)) {
        takenB.add(j);
        const via: Via = inf.names.includes(k) && b.info[j]!.names.includes(k) ? 'name' : kind === 'input' ? 'layer name' : 'result name';
        addPair(a.values[i]!, b.values[j]!, via, scope, true);
        return;
      }
    }
    leftA.push(i);
  });
  let leftB = b.values.map((_, j) => j).filter((j) => !takenB.has(j));
  const unnamed = (s: Side, idx: number[]) => idx.every((i) => s.info[i]!.names.every((n) => s.otherRole.has(n)));
  if (leftA.length > 0 && leftA.length === leftB.length && (unnamed(a, leftA) || unnamed(b, leftB))) {
    leftA.forEach((i, k) => addPair(a.values[i]!, b.values[leftB[k]!]!, 'position', scope, true));
    return [];
  }
  const out: Diagnostic[] = [];
  const list = (s: Side, idx: number[]) => idx.map((i) => `'${s.values[i]!.name || s.info[i]!.keys[0] || `#${i}`}'`).join(', ') || 'none';
  const leftAll = (s: Side) => list(s, s.values.map((_, i) => i));
  if (kind === 'input') {
    leftA.splice(0, leftA.length, ...leftA.filter((i) => !alwaysEmpty(a.values[i]!)));
    leftB = leftB.filter((j) => !alwaysEmpty(b.values[j]!));
  }
  for (const i of leftA) {
    const d = diag('EQUIV_INTERFACE_UNPAIRED', paths.value(a.values[i]!), {
      kind, name: a.values[i]!.name || a.info[i]!.keys[0] || `#${i}`, side: 'A', other: 'B', candidates: leftAll(b),
    });
    d.file = 'A';
    out.push(d);
  }
  for (const j of leftB) {
    const d = diag('EQUIV_INTERFACE_UNPAIRED', paths.value(b.values[j]!), {
      kind, name: b.values[j]!.name || b.info[j]!.keys[0] || `#${j}`, side: 'B', other: 'A', candidates: leftAll(a),
    });
    d.file = 'B';
    out.push(d);
  }
  return out;
}

/** Pairs the main graphs' inputs, then their outputs (as interface pairs, state variables included); returns the problems. */
export function pairInterface(
  a: Graph, b: Graph, scope: string, addPair: AddPair, paths: Paths, states: { a?: StateNames; b?: StateNames } = {},
): Diagnostic[] {
  const keysOf = (x: { keys: string[] }[]) => new Set(x.flatMap((i) => i.keys));
  const ins = (g: Graph, st: StateNames | undefined): Side => {
    const values = g.inputs.filter((v) => !v.constant);
    const side = { values, info: values.map(inputKeys), otherRole: keysOf(g.outputs.map(outputKeys(g))) };
    addStates(g, side, 'input', st);
    return side;
  };
  const outs = (g: Graph, st: StateNames | undefined): Side => {
    const inputs = g.inputs.filter((v) => !v.constant);
    const side = { values: [...g.outputs], info: g.outputs.map(outputKeys(g)), otherRole: keysOf(inputs.map(inputKeys)) };
    addStates(g, side, 'output', st);
    return side;
  };
  return [
    ...pairSide('input', ins(a, states.a), ins(b, states.b), scope, addPair, paths),
    ...pairSide('output', outs(a, states.a), outs(b, states.b), scope, addPair, paths),
  ];
}
