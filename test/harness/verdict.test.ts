/** A case's status from ovir's outcome and the reference engine's, as the scoreboard's legend defines it. */
import { describe, expect, it } from 'vitest';
import { unreferenced, verdict, type Outcome } from '../helpers/verdict.js';

const pass: Outcome = { kind: 'pass' };
const REF = "OpenVINO on ovc's IR";

describe('verdict', () => {
  it('passes when ours passes, whatever the reference did', () => {
    expect(verdict(pass, { kind: 'convert', text: 'ovc cannot convert: x' }, REF)).toEqual({ status: 'pass' });
  });

  it('records a clean refusal as refused, never skip, and counts the gap when the reference passes', () => {
    const refused: Outcome = { kind: 'refused', text: 'ONNX → IR refused: CONVERT_UNSUPPORTED_OP main/X#0: …' };
    expect(verdict(refused, pass, REF)).toEqual({ status: 'refused', reason: refused.text, gap: true });
    expect(verdict(refused, { kind: 'convert', text: 'ovc cannot convert: y' }, REF)).toMatchObject({ status: 'refused', gap: false });
  });

  it('fails wrong numbers of ours when the reference passes (a gap)', () => {
    const v = verdict({ kind: 'differs', text: 'ours differs from the expected: output y: 1/4 elements differ' }, pass, REF);
    expect(v).toEqual({ status: 'fail', reason: 'ours differs from the expected: output y: 1/4 elements differ', gap: true });
  });

  it('skips only when the reference fails the same way: same kind, same message with node names aside; ours stays in the reason', () => {
    const ours: Outcome = { kind: 'run', text: "OpenVINO cannot run ours: CPU plug-in doesn't support Unsqueeze operation with dynamic rank. Operation name: y" };
    const same: Outcome = { kind: 'run', text: "OpenVINO cannot run ovc's IR: CPU plug-in doesn't support Unsqueeze operation with dynamic rank. Operation name: Unsqueeze_12" };
    const v = verdict(ours, same, REF);
    expect(v.status).toBe('skip');
    expect(v.reason).toContain(ours.text);
  });

  it('fails when the reference fails differently: another message, or another kind (conversion vs run), naming both', () => {
    const ours: Outcome = { kind: 'run', text: 'OpenVINO cannot run ours: Input order must have shape [n], where n is the rank of arg.' };
    const other: Outcome = { kind: 'run', text: "OpenVINO cannot run ovc's IR: Unsupported operation of type: Convert" };
    const ovcFails: Outcome = { kind: 'convert', text: 'ovc cannot convert: Input order must have shape [n], where n is the rank of arg.' };
    for (const ref of [other, ovcFails]) {
      const v = verdict(ours, ref, REF);
      expect(v.status).toBe('fail');
      expect(v.reason).toContain(ours.text);
      expect(v.reason).toContain(ref.text);
      expect(v.gap).toBe(false);
    }
  });

  it('treats wrong numbers on the same outputs as the same failure, on other outputs as a different one', () => {
    const ours: Outcome = { kind: 'differs', text: 'ours differs from the expected: output z: 40320/40320 elements differ; worst at [6,9]' };
    expect(verdict(ours, { kind: 'differs', text: "ovc's IR differs from the expected: output z: 40000/40320 elements differ; worst at [1,2]" }, REF).status).toBe('skip');
    expect(verdict(ours, { kind: 'differs', text: "ovc's IR differs from the expected: output w: 1/2 elements differ" }, REF).status).toBe('fail');
  });

  it('treats wrong numbers only on outputs the reference also gets wrong as the same failure, and an output only ours gets wrong as a fail', () => {
    // the reference engine misses both outputs of a deep network (rounding drift it shows against itself); ours misses one of them
    const ref: Outcome = { kind: 'differs', text: 'the original differs from the expected: output offsets: 102137/102400 elements differ; output scores: 237/25600 elements differ' };
    expect(verdict({ kind: 'differs', text: 'ours differs from the expected: output offsets: 3020/102400 elements differ' }, ref, REF).status).toBe('skip');
    const v = verdict({ kind: 'differs', text: 'ours differs from the expected: output offsets: 3/4 elements differ; output heat: 1/4 elements differ' }, ref, REF);
    expect(v.status).toBe('fail');
    expect(v.reason).toContain('output heat');
  });

  it('never excuses an internal error or crash of ours', () => {
    const crash: Outcome = { kind: 'internal', text: 'ONNX → IR crashed: TypeError: x is undefined' };
    expect(verdict(crash, { kind: 'internal', text: crash.text }, REF).status).toBe('fail');
  });

  it('marks a harness limit unjudged', () => {
    expect(verdict({ kind: 'harness', text: 'HarnessLimit: the bridge has no element type x' }, pass, REF).status).toBe('unjudged');
  });
});

describe('unreferenced', () => {
  it('excuses nothing: a failure without a reference run is a fail', () => {
    expect(unreferenced({ kind: 'run', text: 'OpenVINO cannot run ours: x' })).toEqual({ status: 'fail', reason: 'OpenVINO cannot run ours: x' });
    expect(unreferenced({ kind: 'refused', text: 'r' })).toEqual({ status: 'refused', reason: 'r' });
    expect(unreferenced(pass)).toEqual({ status: 'pass' });
  });
});
