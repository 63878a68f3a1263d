import type { OpMapping } from '../../mappings/spec.js';
import { tensorFromFloat32, tensorFromInt64, type Model } from '../../src/graph/index.js';
import { Builder } from './builder.js';
import type { Sample } from './op-samples.js';

/** The opset a sample is tried at when it names none: 17, held to the entry's ONNX range. */
export const sampleDefaultOpset = (e: OpMapping): number => Math.max(e.onnx.since, Math.min(e.onnx.until ?? 17, 17));

/** A one-node ONNX model of entry `e`'s op from sample `s` (constant operands as initializers). */
export function buildSampleModel(e: OpMapping, s: Sample, opset: number): Model {
  const b = new Builder('onnx', opset);
  const ins = s.inputs.map((x, i) => {
    if (!x) return null;
    if (x.ints) return b.init(`c${i}`, tensorFromInt64(x.ints, x.shape));
    if (x.floats) return b.init(`c${i}`, tensorFromFloat32(x.floats, x.shape));
    return b.input(`in${i}`, x.elem, x.shape);
  });
  const n = b.node(b.graph, e.onnx.op, ins, Array.from({ length: s.outputs ?? 1 }, (_, k) => `out${k}`), s.attrs ?? {}, { name: 'n' });
  n.outputs.forEach((o) => b.output(o));
  return b.model;
}
