import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as ovir from '../../src/index.js';
import { reluOnnx } from '../batch/fixtures.js';
import { nestedIfModel } from './fixtures.js';

describe('the library API (src/index.ts)', () => {
  it.each([
    'loadModel', 'saveModel', 'convertModel', 'convertFile', 'convertBatch', 'inferTypes', 'checkModels', 'checkFile',
    'decodeOnnx', 'encodeOnnx', 'readIr', 'writeIr', 'describeModel', 'junitXml', 'OvirError', 'Model', 'Graph',
  ])('exports %s', (name) => {
    expect(typeof (ovir as Record<string, unknown>)[name]).toBe('function');
  });

  it.each(['onnx', 'ov'] as const)('the %s test fixture is a valid graph', (d) => {
    expect(ovir.verifyGraph(nestedIfModel(d, 3).graph)).toEqual([]);
  });

  it('convertFile: ONNX → IR → ONNX by the output extensions, and the result checks equivalent', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ovir-api-'));
    ovir.saveModel(nestedIfModel('onnx', 2), join(dir, 'm.onnx'));
    ovir.convertFile(join(dir, 'm.onnx'), join(dir, 'm.xml'));
    expect(existsSync(join(dir, 'm.bin'))).toBe(true);
    ovir.convertFile(join(dir, 'm.xml'), join(dir, 'back.onnx'));
    const a = ovir.loadModel(join(dir, 'm.onnx'));
    expect(ovir.describeModel(ovir.loadModel(join(dir, 'm.xml')), 'm.xml')).toMatchObject({ format: 'ir', maxDepth: 2 });
    expect(ovir.checkModels(a, ovir.loadModel(join(dir, 'back.onnx'))).ok).toBe(true);
  });

  it('convertFile: bad extensions and bad models are OvirErrors with coded diagnostics', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ovir-api-'));
    ovir.saveModel(reluOnnx(), join(dir, 'r.onnx'));
    expect(() => ovir.convertFile(join(dir, 'r.onnx'), join(dir, 'r.tflite'))).toThrow(ovir.OvirError);
    expect(() => ovir.convertFile(join(dir, 'r.onnx'), join(dir, 'r.onnx'), { to: 'ir' })).toThrow(ovir.OvirError);
    try {
      ovir.convertFile(join(dir, 'missing.onnx'), join(dir, 'x.xml'));
      expect.unreachable();
    } catch (e) {
      expect((e as ovir.OvirError).diagnostics[0]!.code).toBe('FILE_NOT_FOUND');
    }
  });

  it('encodeOnnx/decodeOnnx and writeIr/readIr round-trip in memory', () => {
    const bytes = ovir.encodeOnnx(reluOnnx()).bytes;
    expect(ovir.decodeOnnx(bytes).graph.nodes.map((n) => n.op)).toEqual(['Relu']);
    const { xml, bin } = ovir.writeIr(nestedIfModel('ov', 1));
    const m = ovir.readIr(xml, Buffer.concat(bin));
    expect(m.dialect).toBe('ov');
  });
});
