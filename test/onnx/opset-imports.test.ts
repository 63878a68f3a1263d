import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { decodeOnnx } from '../../src/onnx/decode.js';
import { NEWEST_ONNX_IR_VERSION, NEWEST_ONNX_OPSET } from '../../src/onnx/versions.js';
import { diagnosticsOf } from '../helpers/diagnostics.js';
import * as ob from '../helpers/onnx-builder.js';

/**
 * A model's opset imports (ModelProto.opset_import) say what its ops mean. A hostile-input
 * campaign found a model without an ai.onnx import converted with a message about "Relu (ONNX )",
 * and one importing opset 999 converted silently.
 */
const REPO = join(import.meta.dirname, '..', '..');

function reluModel(opsets: { domain: string; version: bigint }[], irVersion?: bigint): Uint8Array {
  const m = ob.model({
    graph: ob.graph({
      name: 'main',
      inputs: [ob.valueInfo('x', 'f32', [2])],
      outputs: [ob.valueInfo('z', 'f32', [2])],
      nodes: [ob.node('Relu', ['x'], ['y']), ob.node('Relu', ['y'], ['z'])],
    }),
  });
  return ob.encodeModelProto({ ...m, opset_import: opsets, ...(irVersion !== undefined ? { ir_version: irVersion } : {}) });
}

describe('opset imports', () => {
  it('an ai.onnx node without an ai.onnx import: one error, at the first such node', () => {
    expect(diagnosticsOf(() => decodeOnnx(reluModel([])))).toEqual([
      "ONNX_OPSET_MISSING main/Relu#0: the node's domain ai.onnx has no opset import (ModelProto.opset_import): its version, and so what its ops mean, is unknown",
    ]);
  });

  it('a version that is not a positive integer is an error', () => {
    expect(diagnosticsOf(() => decodeOnnx(reluModel([{ domain: '', version: 0n }])))).toEqual([
      'ONNX_OPSET_BAD : opset import of domain ai.onnx: version 0 is not a positive integer',
    ]);
  });

  it('an ai.onnx opset past the newest ovir knows is read as the newest, with a warning (as OpenVINO reads it)', () => {
    const m = decodeOnnx(reluModel([{ domain: '', version: 999n }]));
    const warned = (m.graph.meta['diagnostics'] as { code: string; message: string }[]).map((d) => `${d.code}: ${d.message}`);
    expect(warned).toEqual([
      `ONNX_OPSET_NEWER: the model imports ai.onnx opset 999, past opset ${NEWEST_ONNX_OPSET}, the newest ovir knows: its ops are read as at opset ${NEWEST_ONNX_OPSET} (as OpenVINO's frontend does; onnxruntime refuses such a model)`,
    ]);
    const warnings: string[] = [];
    convertModel(m, { onWarning: (d) => warnings.push(d.code) });
    expect(warnings).toEqual(['ONNX_OPSET_NEWER']);
  });

  it('an IR version past the newest ovir knows is read, with a warning (it converted silently; onnx\'s checker and onnxruntime refuse it)', () => {
    const m = decodeOnnx(reluModel([{ domain: '', version: 17n }], 999n));
    const warned = (m.graph.meta['diagnostics'] as { code: string; message: string }[]).map((d) => `${d.code}: ${d.message}`);
    expect(warned).toEqual([
      `ONNX_IR_VERSION_NEWER: the model declares ONNX IR version 999, past ${NEWEST_ONNX_IR_VERSION}, the newest ovir knows: it is read as IR version ${NEWEST_ONNX_IR_VERSION} (fields a newer IR added are not read; onnx's checker and onnxruntime refuse such a model)`,
    ]);
    expect(decodeOnnx(reluModel([{ domain: '', version: 17n }], NEWEST_ONNX_IR_VERSION)).graph.meta['diagnostics']).toBeUndefined();
  });

  it('the newest IR version is the schema descriptor\'s (onnx.proto of the onnx the schemas come from)', () => {
    const desc = readFileSync(join(REPO, 'src/onnx/schema-descriptor.ts'), 'utf8');
    expect(BigInt(/IR_VERSION: (\d+)/.exec(desc)![1]!)).toBe(NEWEST_ONNX_IR_VERSION);
  });

  it('the newest opset is the one the schema table was generated for', () => {
    const gen = readFileSync(join(REPO, 'scripts/gen-onnx-schemas.py'), 'utf8');
    expect(Number(/^MAX_OPSET = (\d+)/m.exec(gen)?.[1])).toBe(NEWEST_ONNX_OPSET);
  });
});

describe('a single-version domain without an import', () => {
  it('a com.microsoft node without its import is read at version 1 with one warning (onnxruntime runs such a model)', () => {
    const m = ob.model({
      graph: ob.graph({
        name: 'main',
        inputs: [ob.valueInfo('x', 'f32', [2])],
        outputs: [ob.valueInfo('z', 'f32', [2])],
        nodes: [ob.node('Gelu', ['x'], ['y'], {}, { domain: 'com.microsoft' }), ob.node('Gelu', ['y'], ['z'], {}, { domain: 'com.microsoft' })],
      }),
    });
    const model = decodeOnnx(ob.encodeModelProto({ ...m, opset_import: [{ domain: '', version: 17n }] }));
    expect(model.graph.nodes.map((n) => n.version)).toEqual(['1', '1']);
    const warnings = (model.graph.meta['diagnostics'] as { code: string; where: string }[]).map((d) => `${d.code} ${d.where}`);
    expect(warnings).toEqual(['ONNX_OPSET_ASSUMED main/Gelu#0']);
  });
});
