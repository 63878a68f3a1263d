import { expect } from 'vitest';
import type { OracleTensor } from './oracle.js';

/**
 * Small f32 tensors for the unit tests that run ovir's output in onnxruntime against an op's
 * definition: building one, reading one back, and comparing within f32's tolerance.
 */

/** An f32 tensor of `shape` holding `values` (row-major). */
export const f32 = (shape: number[], values: number[]): OracleTensor => ({ dtype: 'f32', shape, data: new Uint8Array(new Float32Array(values).buffer) });

/** The elements of an f32 tensor. */
export const floats = (t: OracleTensor): number[] => [...new Float32Array(t.data.buffer.slice(t.data.byteOffset, t.data.byteOffset + t.data.byteLength))];

/** Expects `got` to be `want` element by element within rtol 1e-4 and atol 1e-5 (the suites' f32 tolerance). */
export function expectClose(got: number[], want: number[]): void {
  expect(got.length).toBe(want.length);
  got.forEach((g, i) => expect(Math.abs(g - want[i]!), `element ${i}: ${g} vs ${want[i]}`).toBeLessThanOrEqual(1e-5 + 1e-4 * Math.abs(want[i]!)));
}
