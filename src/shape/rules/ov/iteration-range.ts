/**
 * The iteration range of a sliced TensorIterator input or concatenated output, as OpenVINO's CPU
 * plugin checks it when it compiles the model (TensorIterator's getNumIterations): a negative start
 * or end counts from the axis length + 1; walking from the lower to the higher end by |stride|, the
 * range must lie in the axis, be non-empty and hold a whole number of steps ("Invalid start,
 * stride, end values in an iteration component", "Each iteration must be the same size").
 * `space` is the static length of the axis. Returns what is wrong, or null.
 */
export function iterationRangeProblem(start: number, end: number, stride: number, space: number): string | null {
  if (stride === 0) return 'stride 0 would never end';
  const s = start < 0 ? start + space + 1 : start;
  const e = end < 0 ? end + space + 1 : end;
  const lo = stride < 0 ? e : s;
  const hi = stride < 0 ? s : e;
  const step = Math.abs(stride);
  if (lo < 0 || lo >= hi || hi > space || hi - lo < step) {
    return `start ${start}, end ${end}, stride ${stride} do not give a range within the axis of length ${space}`;
  }
  if ((hi - lo) % step !== 0) return `the range's length ${hi - lo} is not a multiple of the stride ${stride}`;
  return null;
}
