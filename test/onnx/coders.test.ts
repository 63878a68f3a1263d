import { readFileSync } from 'node:fs';
import protobuf from 'protobufjs/light.js';
import { describe, expect, it } from 'vitest';
import { codersSource } from '../../src/onnx/coders-gen.js';
import { T, type MessageCoder } from '../../src/onnx/schema.js';
import { ONNX_DESCRIPTOR } from '../../src/onnx/schema-descriptor.js';
import { decodeMessage, encodeMessage, has, makeReader } from '../../src/onnx/wire.js';

// The ONNX messages' coders are protobufjs's own generated functions, written out at build time
// (src/onnx/coders-gen.ts) so that no reflection is built when ovir starts.

const root = protobuf.Root.fromJSON(ONNX_DESCRIPTOR as unknown as protobuf.INamespace);
root.resolveAll();

/** A message's own fields (what the wire had), 64-bit values as bigint, nested messages alike. */
function own(m: unknown): unknown {
  if (m instanceof Uint8Array) return [...m];
  if (Array.isArray(m)) return m.map(own);
  if (m === null || typeof m !== 'object') return m;
  return Object.fromEntries(Object.keys(m).map((k) => [k, own((m as Record<string, unknown>)[k])]));
}

const samples: [keyof typeof T, object][] = [
  ['OperatorSetIdProto', { domain: 'ai.onnx.ml', version: 3n }],
  ['TypeProto', { tensor_type: { elem_type: 1, shape: { dim: [{ dim_value: 1n }, { dim_param: 'N' }, {}] } }, denotation: 'IMAGE' }],
  ['TypeProto', { sequence_type: { elem_type: { map_type: { key_type: 7, value_type: { optional_type: { elem_type: { tensor_type: { elem_type: 11 } } } } } } } }],
  ['TensorProto', { dims: [2n, 3n], data_type: 7, int64_data: [-1n, 2n ** 62n, 0n, 5n, 6n, 7n], name: 't', raw_data: new Uint8Array([1, 2, 3]), external_data: [{ key: 'location', value: 'w.bin' }] }],
  ['AttributeProto', { name: 'then_branch', type: 5, g: { name: 'b', node: [{ op_type: 'Add', input: ['a', 'b'], output: ['c'], attribute: [{ name: 'axis', type: 2, i: -1n }] }] } }],
  ['AttributeProto', { name: 'floats', type: 6, floats: [0.5, -2] }],
  ['ModelProto', { ir_version: 10n, opset_import: [{ domain: '', version: 21n }], graph: { name: 'main', initializer: [{ dims: [1n], data_type: 1, float_data: [3] }] }, metadata_props: [{ key: 'k', value: 'v' }] }],
];

describe('ONNX message coders (src/onnx/coders.data.ts)', () => {
  it('are what protobufjs generates from the schema descriptor (regenerate: scripts/gen-onnx-coders.mjs)', () => {
    expect(readFileSync(new URL('../../src/onnx/coders.data.ts', import.meta.url), 'utf8')).toBe(codersSource());
  });

  it.each(samples.map(([type, m], k) => [`${type} #${k}`, type, m] as const))('encode and decode %s as protobufjs reflection does', (_, type, m) => {
    const reflected = root.lookupType(`onnx.${type}`);
    const coder: MessageCoder = T[type];
    const bytes = encodeMessage(coder, m);
    // the same bytes as reflection writes, and the same fields read back by either
    expect([...bytes]).toEqual([...encodeMessage(reflected as unknown as MessageCoder, m)]);
    expect(own(decodeMessage(coder, bytes))).toEqual(own(reflected.decode(makeReader(bytes))));
  });

  it('read an absent field as its default (64-bit ones as 0n) without owning it, a oneof by the member set', () => {
    const op = decodeMessage<{ domain: string; version: bigint }>(T.OperatorSetIdProto, new Uint8Array(0));
    expect([op.domain, op.version, has(op, 'domain'), has(op, 'version')]).toEqual(['', 0n, false, false]);
    const dim = decodeMessage<{ dim: { value?: string }[] }>(T.TensorShapeProto, encodeMessage(T.TensorShapeProto, { dim: [{ dim_param: 'N' }, {}] }));
    expect(dim.dim.map((d) => d.value)).toEqual(['dim_param', undefined]);
  });
});
