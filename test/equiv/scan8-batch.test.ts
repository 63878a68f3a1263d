import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkFile } from '../../src/equiv/index.js';
import { LIBONNX_DATA } from '../helpers/testdata.js';

/**
 * ONNX Scan-8 runs its body once per element of a batch axis (and per step): its body values hold
 * one batch element, where the other form's loop body (the TensorIterator of the IR, the later
 * Scan of the round trip) holds the batch axis too — the same value, one dim apart. Two such
 * types agree but for that leading axis: compatible, and anything else still decides.
 */
const model = `${LIBONNX_DATA}/node/test_scan_sum/model.onnx`;
const present = existsSync(model);
const ci = process.env['CI'] === 'true';

describe('ovir check: the body of an ONNX Scan-8 (batch axis)', () => {
  it.skipIf(!present && !ci)(`test_scan_sum there and back (--roundtrip): equivalent, the body's types one batch axis apart compatible${present ? '' : ' (skipped: libonnx-testdata absent; fails when CI=true)'}`, () => {
    expect(present, `${model} is missing`).toBe(true);
    const r = checkFile(model, undefined, { roundtrip: true });
    const rt = r.roundtrip!;
    expect(rt.entries.filter((e) => e.status === 'contradiction' && !e.hint)).toEqual([]);
    expect(rt.ok).toBe(true);
    // the body's state: rank 1 in Scan-8's body, 2 in the round trip's: one batch axis apart
    expect(rt.entries.find((e) => e.pathA === 'main/Scan#0/body/next')).toMatchObject({ status: 'compatible', detail: expect.stringContaining('the batch axis an ONNX Scan-8 body does not hold') });
    // the interface decides: the Scan's two outputs
    expect(rt.entries.filter((e) => e.pathA.startsWith('main/Scan#0:')).map((e) => [e.status, e.hint ?? false])).toEqual([['equal', false], ['equal', false]]);
  });
});
