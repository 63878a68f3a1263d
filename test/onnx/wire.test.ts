import { describe, expect, it } from 'vitest';
import { T } from '../../src/onnx/schema.js';
import { decodeMessage, encodeMessage, int64 } from '../../src/onnx/wire.js';
import type { ModelProto } from '../../src/onnx/proto-types.js';

describe('protobuf wire: 64-bit integers are bigint, lossless', () => {
  const big = [0n, 1n, -1n, 2n ** 53n + 1n, 2n ** 60n + 7n, 2n ** 63n - 1n, -(2n ** 63n), -(2n ** 53n) - 3n, 127n, 128n, 2n ** 31n, 2n ** 32n + 5n];
  it('int64 scalars, repeated packed and unpacked int64, uint64 round-trip exactly', () => {
    const bytes = encodeMessage(T.ModelProto, {
      ir_version: 2n ** 62n + 3n,
      model_version: -5n,
      graph: {
        initializer: [{ dims: big, int64_data: big, uint64_data: [0n, 2n ** 64n - 1n, 2n ** 63n] }],
        node: [{ attribute: [{ name: 'a', type: 7, ints: big, i: -(2n ** 62n) }] }],
      },
    });
    const m = decodeMessage<ModelProto>(T.ModelProto, bytes);
    expect(m.ir_version).toBe(2n ** 62n + 3n);
    expect(m.model_version).toBe(-5n);
    expect(m.graph!.initializer![0]!.dims).toEqual(big);
    expect(m.graph!.initializer![0]!.int64_data).toEqual(big);
    expect(m.graph!.initializer![0]!.uint64_data).toEqual([0n, 2n ** 64n - 1n, 2n ** 63n]);
    expect(m.graph!.node![0]!.attribute![0]!.ints).toEqual(big);
    expect(m.graph!.node![0]!.attribute![0]!.i).toBe(-(2n ** 62n));
  });
  it('absent int64 fields read as 0n; bytes are views into the input', () => {
    const bytes = encodeMessage(T.TensorProto, { raw_data: new Uint8Array([9, 8, 7]) });
    const t = decodeMessage<Record<string, unknown>>(T.TensorProto, bytes);
    expect(int64(t, 'data_location')).toBe(0n);
    // absent int64 fields of decoded messages are 0n, never protobufjs Long objects
    const empty = decodeMessage<ModelProto>(T.ModelProto, new Uint8Array(0));
    expect(empty.ir_version).toBe(0n);
    expect(empty.model_version).toBe(0n);
    expect(decodeMessage<Record<string, unknown>>(T.AttributeProto, new Uint8Array(0))['i']).toBe(0n);
    const raw = t['raw_data'] as Uint8Array;
    expect([...raw]).toEqual([9, 8, 7]);
    expect(raw.buffer).toBe(bytes.buffer);
  });
});
