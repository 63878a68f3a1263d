/** The scoreboard markdown: counts per suite, failures before skips, reasons escaped, deterministic. */
import { describe, expect, it } from 'vitest';
import { renderMarkdown, type SuiteResult } from '../helpers/scoreboard.js';

const suites: SuiteResult[] = [
  {
    suite: 'codec-ir', counts: { pass: 10, fail: 1, skip: 2 },
    cases: [
      { name: 'libonnx/node/test_b', status: 'fail', reason: 'ours differs | badly' },
      { name: 'libonnx/node/test_a', status: 'skip', reason: 'ovc cannot convert: <op>' },
      { name: 'libonnx/node/test_c', status: 'skip', reason: 'ovc/OV mismatch' },
    ],
  },
  { suite: 'codec-onnx', description: 'Decode then encode.', engines: { 'onnxruntime-node': '1.23.2' }, counts: { pass: 5, fail: 0, skip: 0 }, cases: [] },
];

describe('renderMarkdown', () => {
  const md = renderMarkdown(suites, '2026-01-01');

  it('has one summary row per suite with its counts and total', () => {
    expect(md).toContain('| [codec-ir](#codec-ir) | 10 | 1 | 2 | 13 |');
    expect(md).toContain('| [codec-onnx](#codec-onnx) | 5 | 0 | 0 | 5 |');
  });

  it('gives each suite a section with its description, engines, failures then skips', () => {
    const ir = md.slice(md.indexOf('## codec-ir'), md.indexOf('## codec-onnx'));
    expect(ir.indexOf('### Failures (1)')).toBeLessThan(ir.indexOf('### Skips (2)'));
    expect(ir).toContain('| libonnx/node/test_b | ours differs \\| badly |');
    expect(ir).toContain('| libonnx/node/test_a | ovc cannot convert: &lt;op> |');
    expect(md).toContain('Decode then encode.');
    expect(md).toContain('Engines: onnxruntime-node 1.23.2.');
    expect(md.slice(md.indexOf('## codec-onnx'))).not.toContain('### Skips');
  });

  it('changes nothing but the generated line between runs', () => {
    const other = renderMarkdown(suites, '2026-02-02').split('\n');
    const diff = md.split('\n').filter((l, i) => l !== other[i]);
    expect(diff).toHaveLength(1);
    expect(diff[0]).toMatch(/^Generated 2026-01-01\./);
  });
});
