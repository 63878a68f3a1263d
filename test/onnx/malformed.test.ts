import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OvirError } from '../../src/diag/diagnostic.js';
import { decodeOnnx } from '../../src/onnx/decode.js';
import { encodeOnnx } from '../../src/onnx/encode.js';
import * as ob from '../helpers/onnx-builder.js';

/** A small model with control flow, attributes of several kinds and typed tensors. */
function sample(): Uint8Array {
  const branch = (op: string, out: string) => ob.graph({ name: op, nodes: [ob.node(op, ['x'], [out], op === 'LeakyRelu' ? { alpha: 0.1 } : {})], outputs: [ob.valueInfo(out, 'f32', [2])] });
  return ob.encodeModelProto(ob.model({
    graph: ob.graph({
      inputs: [ob.valueInfo('c', 'boolean', []), ob.valueInfo('x', 'f32', [2])],
      initializers: [ob.int64Tensor('shape', [1], [2]), ob.floatTensor('w', [2], [0.5, 2])],
      outputs: [ob.valueInfo('z', 'f32', [2])],
      nodes: [
        ob.ifNode('c', ['y'], branch('LeakyRelu', 't0'), branch('Neg', 'e0')),
        ob.node('Reshape', ['y', 'shape'], ['r']),
        ob.node('Mul', ['r', 'w'], ['z'], {}, { name: 'mul' }),
      ],
    }),
  }));
}

/** Deterministic pseudo-random numbers (xorshift32). */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13; s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5; s >>>= 0;
    return s / 2 ** 32;
  };
}

describe('malformed input: an OvirError or a model, never a crash', () => {
  const inputs: [string, Uint8Array][] = [['sample', sample()]];
  const ifModel = '/usr/share/libonnx-testdata/data/node/test_if/model.onnx';
  if (existsSync(ifModel)) inputs.push(['test_if', readFileSync(ifModel)]);

  it.each(inputs)('%s: every truncation, and 300 random byte flips', (_name, bytes) => {
    const outcomes = { model: 0, error: 0 };
    const attempt = (b: Uint8Array) => {
      try {
        const m = decodeOnnx(b);
        encodeOnnx(m); // whatever decodes must encode
        outcomes.model++;
      } catch (e) {
        if (!(e instanceof OvirError)) throw new Error(`not an OvirError: ${(e as Error).stack}`);
        expect(e.diagnostics.length).toBeGreaterThan(0);
        outcomes.error++;
      }
    };
    for (let n = 0; n < bytes.length; n++) attempt(bytes.subarray(0, n));
    const rand = rng(42);
    for (let k = 0; k < 300; k++) {
      const b = Uint8Array.from(bytes);
      const flips = 1 + Math.floor(rand() * 3);
      for (let f = 0; f < flips; f++) b[Math.floor(rand() * b.length)] = Math.floor(rand() * 256);
      attempt(b);
    }
    expect(outcomes.error).toBeGreaterThan(0);
  });
});
