/** The scoreboard: statuses as its legend defines them, counts per suite, gap column, run stamps, partial runs unpublished. */
import { describe, expect, it } from 'vitest';
import { describeSuite, finishSuite, publishable, record, renderMarkdown, suiteResult, type SuiteResult } from '../helpers/scoreboard.js';

const suites: SuiteResult[] = [
  {
    suite: 'codec-ir', counts: { pass: 10, fail: 1, refused: 0, skip: 2, unjudged: 1 },
    run: { date: '2026-01-01', filter: null, complete: true },
    cases: [
      { name: 'libonnx/node/test_b', status: 'fail', reason: 'ours differs | badly' },
      { name: 'libonnx/node/test_a', status: 'skip', reason: 'ovc cannot convert: <op>' },
      { name: 'libonnx/node/test_c', status: 'skip', reason: 'ovc/OV mismatch' },
      { name: 'libonnx/node/test_d', status: 'unjudged', reason: 'test data is a sequence' },
    ],
  },
  {
    suite: 'convert-onnx-ir', reference: "OpenVINO on ovc's IR", gap: 1, counts: { pass: 3, fail: 0, refused: 2, skip: 0, unjudged: 0 },
    run: { date: '2026-01-02', filter: null, complete: true },
    cases: [
      { name: 'onnx/node/test_x', status: 'refused', reason: 'CONVERT_UNSUPPORTED_OP main/X', gap: true },
      { name: 'onnx/node/test_y', status: 'refused', reason: 'CONVERT_UNSUPPORTED_OP main/Y' },
    ],
  },
  // a suite file written before `refused`/`unjudged` existed
  { suite: 'codec-onnx', description: 'Decode then encode.', engines: { 'onnxruntime-node': '1.23.2' }, counts: { pass: 5, fail: 0, skip: 0 } as SuiteResult['counts'], cases: [] },
];

describe('renderMarkdown', () => {
  const md = renderMarkdown(suites, '2026-01-03');

  it('has one summary row per suite: every status, total, gap column and the run date', () => {
    expect(md).toContain('| suite | pass | fail | refused | skip | unjudged (harness) | total | OpenVINO / onnxruntime passes, ovir does not | run |');
    expect(md).toContain('| [codec-ir](#codec-ir) | 10 | 1 | 0 | 2 | 1 | 14 |  | 2026-01-01 |');
    expect(md).toContain('| [convert-onnx-ir](#convert-onnx-ir) | 3 | 0 | 2 | 0 | 0 | 5 | 1 | 2026-01-02 |');
    expect(md).toContain('| [codec-onnx](#codec-onnx) | 5 | 0 | 0 | 0 | 0 | 5 |  | unstamped |');
  });

  it('says in its legend that a declined case is refused, never skip', () => {
    expect(md).toContain('a case ovir declines is `refused`, never `skip`');
    expect(md).toMatch(/\*\*skip\*\*: only what the reference engine itself cannot do/);
    expect(md).toMatch(/\*\*unjudged \(harness\)\*\*: a limit of this test harness/);
  });

  it('gives each suite a section: description, engines, failures, refusals, skips, unjudged; gap cases marked', () => {
    const ir = md.slice(md.indexOf('## codec-ir'), md.indexOf('## codec-onnx'));
    expect(ir.indexOf('### Failures (1)')).toBeLessThan(ir.indexOf('### Skips (reference engine cannot) (2)'));
    expect(ir.indexOf('### Skips')).toBeLessThan(ir.indexOf('### Unjudged (harness limits) (1)'));
    expect(ir).toContain('| libonnx/node/test_b | ours differs \\| badly |');
    expect(ir).toContain('| libonnx/node/test_a | ovc cannot convert: &lt;op> |');
    expect(md).toContain('Decode then encode.');
    expect(md).toContain('engines: onnxruntime-node 1.23.2.');
    const conv = md.slice(md.indexOf('## convert-onnx-ir'));
    expect(conv).toContain("**1 case where OpenVINO on ovc's IR passes and ovir does not**");
    expect(conv).toContain('### Refused by ovir (2)');
    expect(conv).toContain('| onnx/node/test_x ✗ | CONVERT_UNSUPPORTED_OP main/X |');
    expect(conv).toContain('| onnx/node/test_y | CONVERT_UNSUPPORTED_OP main/Y |');
  });

  it('changes nothing but the generated line between renderings', () => {
    const other = renderMarkdown(suites, '2026-02-02').split('\n');
    const diff = md.split('\n').filter((l, i) => l !== other[i]);
    expect(diff).toHaveLength(1);
    expect(diff[0]).toMatch(/^Generated 2026-01-03 /);
  });
});

describe('recording a run', () => {
  it('counts each status and the gap, and stamps the run', () => {
    describeSuite('t-counts', 'd', { e: '1' }, { reference: 'OpenVINO' });
    record('t-counts', 'a', 'pass');
    record('t-counts', 'b', 'refused', 'R', { gap: true });
    record('t-counts', 'c', 'unjudged', 'U');
    record('t-counts', 'd', 'skip', 'S');
    record('t-counts', 'e', 'fail', 'F', { gap: true });
    const r = suiteResult('t-counts');
    expect(r.counts).toEqual({ pass: 1, fail: 1, refused: 1, skip: 1, unjudged: 1 });
    expect(r.gap).toBe(2);
    expect(r.cases.map((c) => c.status)).toEqual(['fail', 'refused', 'skip', 'unjudged']);
    expect(r.run?.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('publishes only a complete, unfiltered run', () => {
    describeSuite('t-full', 'd');
    record('t-full', 'a', 'pass');
    expect(publishable(suiteResult('t-full'))).toBe(false); // not finished
    finishSuite('t-full');
    expect(publishable(suiteResult('t-full'))).toBe(process.env.OVIR_ZOO_FILTER === undefined && process.env.OVIR_CONFORMANCE_FILTER === undefined);
    describeSuite('t-filtered', 'd', undefined, { filter: /relu/i });
    record('t-filtered', 'a', 'pass');
    finishSuite('t-filtered');
    expect(suiteResult('t-filtered').run?.filter).toBe('/relu/i');
    expect(publishable(suiteResult('t-filtered'))).toBe(false);
  });

  it('lets a suite that takes no filter say so, whatever the environment', () => {
    const saved = process.env.OVIR_ZOO_FILTER;
    process.env.OVIR_ZOO_FILTER = 'relu';
    try {
      describeSuite('t-env', 'd');
      describeSuite('t-unfiltered', 'd', undefined, { filter: null });
    } finally {
      if (saved === undefined) delete process.env.OVIR_ZOO_FILTER; else process.env.OVIR_ZOO_FILTER = saved;
    }
    finishSuite('t-env');
    finishSuite('t-unfiltered');
    expect(suiteResult('t-env').run?.filter).toBe('relu');
    expect(publishable(suiteResult('t-env'))).toBe(false);
    expect(publishable(suiteResult('t-unfiltered'))).toBe(true);
  });
});
