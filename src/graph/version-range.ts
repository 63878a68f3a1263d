/**
 * Version ranges, as both registries key by them (mapping entries by ONNX opset, shape rules by
 * ONNX opset or IR opset number): `since` to `until` inclusive, open-ended without `until`.
 */
export interface VersionRange { readonly since: number; readonly until?: number }

export const inRange = (r: VersionRange, v: number): boolean => r.since <= v && v <= (r.until ?? Infinity);

export const rangesOverlap = (a: VersionRange, b: VersionRange): boolean =>
  Math.max(a.since, b.since) <= Math.min(a.until ?? Infinity, b.until ?? Infinity);

export const formatRange = (r: VersionRange): string => `${r.since}..${r.until ?? ''}`;
