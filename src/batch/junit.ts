import { create } from 'xmlbuilder2';
import type { BatchReport } from './types.js';

/**
 * The report as JUnit XML for CI dashboards: one `<testsuite name="ovir batch">`, one `<testcase>`
 * per model (classname = the input's folder, name = the input path, time in seconds), a failed
 * model carries `<failure message="first line">full error</failure>`, a skipped or interrupted
 * one `<skipped/>` (with its reason).
 */
export function junitXml(report: BatchReport, suiteName = 'ovir batch'): string {
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele('testsuites', {
    name: suiteName, tests: report.total, failures: report.failed, skipped: report.skipped + report.interrupted, errors: 0,
    time: seconds(report.models.reduce((a, m) => a + m.ms, 0)),
  });
  const suite = root.ele('testsuite', {
    name: suiteName, tests: report.total, failures: report.failed, skipped: report.skipped + report.interrupted, errors: 0,
    time: seconds(report.models.reduce((a, m) => a + m.ms, 0)),
  });
  for (const m of report.models) {
    const slash = m.input.lastIndexOf('/');
    const tc = suite.ele('testcase', { classname: slash > 0 ? m.input.slice(0, slash) : '.', name: m.input, time: seconds(m.ms) });
    if (m.status === 'failed') {
      const text = m.error ?? 'failed';
      tc.ele('failure', { message: text.split('\n')[0], type: 'ConversionFailure' }).txt(text);
    } else if (m.status === 'skipped') {
      tc.ele('skipped', { message: 'outputs up to date (--resume)' });
    } else if (m.status === 'interrupted') {
      tc.ele('skipped', { message: m.error ?? 'interrupted' });
    }
    if (m.check) tc.ele('system-out').txt(JSON.stringify(m.check));
  }
  return root.end({ prettyPrint: true }) + '\n';
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}
