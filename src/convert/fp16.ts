import { allGraphs, type Graph } from '../graph/graph.js';
import { f32ToF16Bits } from '../graph/f16.js';
import { makeTensor, type Tensor } from '../graph/tensor.js';
import { elementCount } from '../graph/shape.js';
import { tensorType } from '../graph/types.js';
import type { Value } from '../graph/value.js';

export { f32ToF16Bits } from '../graph/f16.js';

function toF16(t: Tensor): Tensor {
  const n = elementCount(t.dims);
  const src = new DataView(t.data.buffer, t.data.byteOffset, t.data.byteLength);
  const out = new Uint16Array(n);
  for (let i = 0; i < n; i++) out[i] = f32ToF16Bits(src.getFloat32(i * 4, true));
  return makeTensor('f16', t.dims, new Uint8Array(out.buffer));
}

/**
 * compress_to_fp16 as ovc does it: every f32 constant of every graph is stored as f16 and
 * converted back to f32 by a Convert right after it, so the model computes in f32 as before.
 */
export function compressToFp16(root: Graph): void {
  for (const g of allGraphs(root)) compressGraph(g);
}

function compressGraph(g: Graph): void {
  const converts = [];
  for (let i = 0; i < g.initializers.length; i++) {
    const v = g.initializers[i]!;
    if (v.constant?.elem !== 'f32' || elementCount(v.constant.dims) === 0) continue;
    const half = g.addInitializer(toF16(v.constant), []);
    half.meta['layerName'] = `${(v.meta['layerName'] as string | undefined) ?? v.label}/compressed`;
    g.initializers.splice(g.initializers.length - 1, 1);
    g.initializers[i] = half;
    const cvt = g.addNode({ dialect: 'ov', op: 'Convert', version: 'opset1', name: `${(v.meta['layerName'] as string | undefined) ?? v.label}/decompress` });
    g.nodes.pop();
    cvt.attrs.set('destination_type', { type: 'raw', value: 'f32' });
    cvt.addInput(half);
    const out = cvt.addOutput(tensorType('f32', v.constant.dims), v.names);
    out.meta = { ...v.meta };
    redirect(g, v, out);
    converts.push(cvt);
  }
  g.nodes.unshift(...converts);
}

function redirect(g: Graph, from: Value, to: Value): void {
  for (const u of [...from.uses]) u.node.setInput(u.index, to);
  for (let k = 0; k < g.outputs.length; k++) if (g.outputs[k] === from) g.outputs[k] = to;
}
