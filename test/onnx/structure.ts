import { createHash } from 'node:crypto';
import type { Attr } from '../../src/graph/attr.js';
import type { Graph } from '../../src/graph/graph.js';
import type { Model } from '../../src/graph/model.js';
import type { Tensor } from '../../src/graph/tensor.js';
import type { Value } from '../../src/graph/value.js';

/**
 * A canonical, comparable description of a decoded model: every graph (iteratively, pre-order)
 * with its inputs, initializers (type, dims, a digest of the bytes), nodes (op, domain, version,
 * inputs as references to where each value was defined, attributes, output names and types),
 * body bindings and outputs. Two decodes describe the same structure iff these are equal.
 */
export function structure(model: Model): unknown[] {
  const out: unknown[] = [];
  const ref = new Map<Value, string>();
  const stack: { g: Graph; path: string }[] = [{ g: model.graph, path: 'main' }];
  const digest = (t: Tensor) => `${t.elem}${JSON.stringify(t.dims)}:${createHash('sha1').update(t.data).update((t.strings ?? []).map((s) => Buffer.from(s).toString('hex')).join(',')).digest('hex')}`;
  const attr = (a: Attr): unknown => {
    if (a.type === 'tensor') return digest(a.value);
    if (a.type === 'tensors') return a.value.map(digest);
    if (a.type === 'raw') return [a.value, a.bytes ? Buffer.from(a.bytes).toString('hex') : null];
    return JSON.stringify(a.value, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v));
  };
  const order: unknown[][] = [];
  while (stack.length) {
    const { g, path } = stack.pop()!;
    const desc: unknown[] = [path];
    g.inputs.forEach((v, i) => { ref.set(v, `${path}:in${i}`); desc.push(['in', v.name, v.type, v.constant ? digest(v.constant) : null]); });
    g.initializers.forEach((v, i) => { ref.set(v, `${path}:init${i}`); desc.push(['init', v.name, digest(v.constant!)]); });
    g.nodes.forEach((n, i) => {
      n.outputs.forEach((v, k) => ref.set(v, `${path}:n${i}.${k}`));
      desc.push(['node', n.op, n.domain, n.version, n.name,
        n.inputs.map((v) => (v ? ref.get(v) ?? `foreign:${v.name}` : null)),
        [...n.attrs].sort(([a], [b]) => a.localeCompare(b)).map(([k, a]) => [k, a.type, attr(a)]),
        n.outputs.map((v) => [v.name, v.type]),
        [...n.bodies].map(([k, b]) => [k, b.inputs.map((x) => [b.graph.inputs.indexOf(x.param), x.from]), b.outputs.map((x) => [x.result, x.to])]),
      ]);
      const bodies = [...n.bodies];
      for (let k = bodies.length - 1; k >= 0; k--) stack.push({ g: bodies[k]![1].graph, path: `${path}/${i}/${bodies[k]![0]}` });
    });
    desc.push(['out', g.outputs.map((v) => ref.get(v) ?? `foreign:${v.name}`)]);
    order.push(desc);
  }
  out.push(model.onnx ? [model.onnx.irVersion, [...model.onnx.opsetImports], model.onnx.producerName, model.onnx.metadataProps] : null);
  out.push(order);
  return out;
}

/** A decoded protobuf message as plain JSON-able data (own fields only; bigint → 'Nn', bytes → arrays). */
export function plainProto(x: unknown): unknown {
  if (typeof x === 'bigint') return `${x}n`;
  if (x instanceof Uint8Array) return [...x];
  if (Array.isArray(x)) return x.map(plainProto);
  if (x !== null && typeof x === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(x)) {
      const v = (x as Record<string, unknown>)[k];
      if (v !== undefined && v !== null) out[k] = plainProto(v);
    }
    return out;
  }
  return x;
}
