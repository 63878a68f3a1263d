import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { junitXml } from '../../src/batch/junit.js';
import type { BatchReport } from '../../src/batch/types.js';

const report: BatchReport = {
  total: 3, converted: 1, failed: 1, skipped: 1, interrupted: 0,
  models: [
    { input: 'zoo/a/good.onnx', outputs: ['out/a/good.xml', 'out/a/good.bin'], status: 'converted', error: null, ms: 1500, check: null },
    { input: 'zoo/bad.onnx', outputs: ['out/bad.xml', 'out/bad.bin'], status: 'failed', error: 'error: cannot read file: truncated <&> [FILE_NOT_FOUND]\nsecond line', ms: 20, check: null },
    { input: 'zoo/old.xml', outputs: ['out/old.onnx'], status: 'skipped', error: null, ms: 0, check: null },
  ],
};

describe('JUnit report', () => {
  const xml = junitXml(report);
  const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml);
  const suite = doc.testsuites.testsuite;
  const cases = suite.testcase as Record<string, unknown>[];

  it('has one testsuite with the totals and one testcase per model, in report order', () => {
    expect(suite).toMatchObject({ name: 'ovir batch', tests: '3', failures: '1', skipped: '1' });
    expect(cases.map((c) => c.name)).toEqual(['zoo/a/good.onnx', 'zoo/bad.onnx', 'zoo/old.xml']);
    expect(cases.map((c) => c.classname)).toEqual(['zoo/a', 'zoo', 'zoo']);
    expect(cases[0]!.time).toBe('1.500');
  });

  it('a failed model carries its error (escaped), its first line as the message', () => {
    expect(cases[1]!.failure).toMatchObject({ message: 'error: cannot read file: truncated <&> [FILE_NOT_FOUND]', '#text': report.models[1]!.error });
    expect(cases[0]!.failure).toBeUndefined();
  });

  it('a skipped model is <skipped/>', () => {
    expect(cases[2]!.skipped).toBeDefined();
    expect(cases[2]!.failure).toBeUndefined();
  });
});
