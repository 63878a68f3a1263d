import { describe, expect, it } from 'vitest';
import { progressSink } from '../../src/batch/progress.js';
import type { BatchEvent, ModelResult } from '../../src/batch/types.js';

function stream(isTTY: boolean) {
  const s = { isTTY, text: '', write(x: string) { s.text += x; return true; } };
  return s;
}
const result = (input: string, status: ModelResult['status'], error: string | null = null): ModelResult =>
  ({ input, outputs: [input.replace('.onnx', '.xml')], status, error, ms: 7, check: null });
const events: BatchEvent[] = [
  { type: 'start', total: 2 },
  { type: 'model-start', input: 'a.onnx', index: 0, total: 2 },
  { type: 'model-done', result: result('a.onnx', 'converted'), done: 1, total: 2 },
  { type: 'model-start', input: 'b.onnx', index: 1, total: 2 },
  { type: 'model-done', result: result('b.onnx', 'failed', 'error: bad [FILE_NOT_FOUND]'), done: 2, total: 2 },
];

describe('batch progress output', () => {
  it('not a TTY: one plain line per model, failures on stderr', () => {
    const out = stream(false);
    const err = stream(false);
    const sink = progressSink(out as never, err as never, false);
    for (const e of events) sink.onEvent(e);
    sink.stop();
    expect(out.text).toBe('[1/2] converted a.onnx -> a.xml (7 ms)\n');
    expect(err.text).toBe('[2/2] failed: b.onnx: error: bad [FILE_NOT_FOUND]\n');
  });

  it('--quiet: only the failures', () => {
    const out = stream(true);
    const err = stream(true);
    const sink = progressSink(out as never, err as never, true);
    for (const e of events) sink.onEvent(e);
    sink.stop();
    expect(out.text).toBe('');
    expect(err.text).toBe('failed: b.onnx: error: bad [FILE_NOT_FOUND]\n');
  });
});
