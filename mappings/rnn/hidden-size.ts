import type { ConvertContext } from '../spec.js';

/**
 * The most gate rows (gates · hidden_size) taken on trust when neither W's nor R's shape is known:
 * beyond it no weights ovir can hold in one buffer (2^30 bytes at least) have that many rows with
 * one column of one byte each. Real models have hidden sizes of a few thousand at most.
 */
const MAX_UNCHECKED_ROWS = 1 << 24;

/**
 * A recurrent op's hidden_size, checked before it sizes anything (the gate row lists, zero biases
 * and initial states the mappings build): a positive integer, equal to what W's rows (gates ·
 * hidden_size) and R's (gates · hidden_size rows, hidden_size columns) say wherever their shapes
 * are known. A hidden_size of 2^31 on a 207-byte LSTM (W and R for 1) made the process run out of
 * memory building a gate row list (found by a hostile-input campaign). `w` and `r` are the input
 * positions of W and R, `rowAxis` the axis of their gate rows (1 in sequences, 0 in IR cells).
 * Null after reporting the problem on `c`.
 */
export function hiddenSize(c: ConvertContext, gates: number, w: number, r: number, rowAxis: 0 | 1): number | null {
  const hs = c.attr.int('hidden_size');
  if (hs === undefined || hs <= 0n || hs > BigInt(Number.MAX_SAFE_INTEGER)) {
    c.error(hs === undefined ? "attribute 'hidden_size' is required (a positive integer)" : `attribute 'hidden_size' is ${hs}: a positive integer is required`);
    return null;
  }
  const h = Number(hs);
  const dim = (input: number, axis: number): number | null => {
    const t = c.numInputs > input && c.input(input) ? c.type(input) : null;
    const d = t?.kind === 'tensor' && t.shape ? t.shape[axis] : undefined;
    return typeof d === 'number' ? d : null;
  };
  const known: Array<[string, number | null, number]> = [
    [`W (input ${w}) has`, dim(w, rowAxis), gates * h],
    [`R (input ${r}) has`, dim(r, rowAxis), gates * h],
  ];
  for (const [what, got, want] of known) {
    if (got !== null && got !== want) { c.error(`${what} ${got} gate rows where hidden_size ${h} needs ${gates} × ${h} = ${want}`); return null; }
  }
  const cols = dim(r, rowAxis + 1);
  if (cols !== null && cols !== h) { c.error(`R (input ${r}) has ${cols} columns where hidden_size ${h} needs ${h}`); return null; }
  if (known.every(([, got]) => got === null) && cols === null && gates * h > MAX_UNCHECKED_ROWS) {
    c.error(`attribute 'hidden_size' is ${h} and the shapes of W and R are not known to confirm it: more than ${MAX_UNCHECKED_ROWS} gate rows are not taken on trust`);
    return null;
  }
  return h;
}
