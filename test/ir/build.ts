/**
 * Builders for IR text and small ov-dialect models used by the IR codec tests. IR text is made
 * from descriptions (not hand-written files) so each test states only what it is about.
 */
import { Graph, Model, tensorType, type ElementTypeName, type Shape, type Value } from '../../src/graph/index.js';
import { OvirError } from '../../src/diag/diagnostic.js';

export interface PortSpec {
  id?: number;
  precision?: string;
  names?: string;
  dims?: number[];
}

export interface LayerSpec {
  id: number;
  name?: string;
  type: string;
  version?: string;
  data?: Record<string, string>;
  inputs?: PortSpec[];
  outputs?: PortSpec[];
  /** Raw XML appended inside the layer (port maps, bodies). */
  inner?: string;
}

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
const attrs = (r: Record<string, string | number | undefined>): string =>
  Object.entries(r).filter(([, v]) => v !== undefined).map(([k, v]) => ` ${k}="${esc(String(v))}"`).join('');

function portXml(p: PortSpec, id: number): string {
  const dims = (p.dims ?? []).map((d) => `<dim>${d}</dim>`).join('');
  return `<port${attrs({ id: p.id ?? id, precision: p.precision, names: p.names })}>${dims}</port>`;
}

export function layerXml(l: LayerSpec): string {
  const ins = l.inputs ?? [];
  const outs = l.outputs ?? [];
  return `<layer${attrs({ id: l.id, name: l.name ?? `${l.type}_${l.id}`, type: l.type, version: l.version ?? 'opset1' })}>`
    + (l.data ? `<data${attrs(l.data)}/>` : '')
    + (ins.length ? `<input>${ins.map((p, k) => portXml(p, k)).join('')}</input>` : '')
    + (outs.length ? `<output>${outs.map((p, k) => portXml(p, ins.length + k)).join('')}</output>` : '')
    + (l.inner ?? '')
    + '</layer>';
}

export type EdgeSpec = [fromLayer: number, fromPort: number, toLayer: number, toPort: number];

export function bodyXml(layers: LayerSpec[], edges: EdgeSpec[]): string {
  return `<layers>${layers.map(layerXml).join('')}</layers><edges>${edges
    .map(([a, b, c, d]) => `<edge from-layer="${a}" from-port="${b}" to-layer="${c}" to-port="${d}"/>`).join('')}</edges>`;
}

export function netXml(layers: LayerSpec[], edges: EdgeSpec[], version = '11'): string {
  return `<?xml version="1.0"?>\n<net name="t" version="${version}">${bodyXml(layers, edges)}<rt_info/></net>\n`;
}

export const param = (id: number, name: string, elem = 'f32', shape = '2,4', dims = [2, 4]): LayerSpec => ({
  id, name, type: 'Parameter', data: { shape, element_type: elem }, outputs: [{ precision: elem === 'boolean' ? 'BOOL' : 'FP32', names: name, dims }],
});

export const result = (id: number, name = `Result_${id}`, dims = [2, 4]): LayerSpec => ({
  id, name, type: 'Result', inputs: [{ precision: 'FP32', dims }],
});

/** The diagnostics of the OvirError `fn` throws (fails the test if it does not throw one). */
export function diagnosticsOf(fn: () => unknown): { code: string; where: string; message: string; file?: string }[] {
  try {
    fn();
  } catch (e) {
    if (e instanceof OvirError) return e.diagnostics;
    throw e;
  }
  throw new Error('expected an OvirError');
}

export const codesOf = (fn: () => unknown): string[] => diagnosticsOf(fn).map((d) => d.code);

/** A small ov-dialect model: x → op(x, const) → Result. */
export function tinyModel(elem: ElementTypeName = 'f32', shape: Shape = [2, 3]): { model: Model; x: Value } {
  const model = new Model('ov');
  const g: Graph = model.graph;
  const x = g.addInput(tensorType(elem, shape), ['x']);
  x.meta['layerName'] = 'x';
  return { model, x };
}
