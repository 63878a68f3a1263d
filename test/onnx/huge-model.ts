import { Model } from '../../src/graph/model.js';
import { makeTensor } from '../../src/graph/tensor.js';

/**
 * An ONNX model `y = Identity(w)` whose initializer `w` only claims 2 GiB (`huge`): the encoder
 * hands data that large to external data untouched, so the tests need not allocate it.
 */
export function hugeIdentityModel(): { model: Model; huge: Uint8Array } {
  const model = new Model('onnx');
  const huge = { byteLength: 2 ** 31 } as unknown as Uint8Array;
  const w = model.graph.addInitializer(makeTensor('u8', [2 ** 31], huge), ['w']);
  const n = model.graph.addNode({ dialect: 'onnx', op: 'Identity', version: '17' });
  n.addInput(w);
  model.graph.outputs.push(n.addOutput(null, ['y']));
  return { model, huge };
}
