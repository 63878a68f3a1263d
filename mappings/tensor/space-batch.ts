import { A } from '../../src/graph/attr.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const } from '../helpers.js';
import { irOnly, never, on } from '../ir-only/onnx-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * SpaceToBatch-2 / BatchToSpace-2 (TensorFlow frontend), which ONNX lacks, as the spec's own
 * Reshape → Transpose → Reshape (exact: element moves), with the zero Pad before (SpaceToBatch) or
 * the crop Slice after (BatchToSpace). block_shape, pads and crops must be constants with
 * block_shape[0] = 1, and the spatial dims static (the batch may be dynamic: it is a −1 or 0 of
 * the Reshapes).
 */
interface Blocks { blocks: number[]; begin: bigint[]; end: bigint[]; dims: number[] }

/** Constant operands 1..3 and the static non-batch dims of `v`; null after a diagnostic. */
function blocksOf(c: ConvertContext, v: Value, padsMode: boolean): Blocks | null {
  const blocks = c.constInts(1);
  const begin = c.constInts(2);
  const end = c.constInts(3);
  for (const [i, k, what] of [[1, blocks, 'block_shape'], [2, begin, padsMode ? 'pads_begin' : 'crops_begin'], [3, end, padsMode ? 'pads_end' : 'crops_end']] as const) {
    if (k === null) { c.needsConstant(i, `${what} (it fixes the ONNX Reshape and Transpose)`); return null; }
  }
  if (blocks![0] !== 1n) { c.error(`${c.node.op} with block_shape[0] = ${blocks![0]} (the spec requires 1)`); return null; }
  const t = c.typeOf(v);
  const shape = t?.kind === 'tensor' ? t.shape : null;
  const dims = shape?.slice(1);
  if (!dims || !dims.every((d): d is number => typeof d === 'number')) { c.error(`${c.node.op} needs the dims after the batch to be static`); return null; }
  return { blocks: blocks!.slice(1).map(Number), begin: begin!, end: end!, dims };
}

const reshape = (c: ConvertContext, v: Value, dims: readonly number[]): Value => on(c, 'Reshape', [v, i64Const(c, dims.map(BigInt))]);

function spaceToBatchToOnnx(c: ConvertContext): void {
  const k0 = blocksOf(c, c.input(0)!, true);
  if (!k0) return;
  const pads = i64Const(c, [...k0.begin, ...k0.end]);
  const padded = k0.begin.some((p) => p !== 0n) || k0.end.some((p) => p !== 0n) ? on(c, 'Pad', [c.input(0)!, pads]) : c.input(0)!;
  const dims = k0.dims.map((d, i) => d + Number(k0.begin[i + 1]!) + Number(k0.end[i + 1]!));
  const K = dims.length;
  if (dims.some((d, i) => d % k0.blocks[i]! !== 0)) { c.error('SpaceToBatch: a padded dim is not a multiple of its block'); return; }
  const split = reshape(c, padded, [0, ...dims.flatMap((d, i) => [d / k0.blocks[i]!, k0.blocks[i]!])]);
  const perm = [...Array.from({ length: K }, (_, i) => 2 * i + 2), 0, ...Array.from({ length: K }, (_, i) => 2 * i + 1)];
  const moved = on(c, 'Transpose', [split], { perm: A.ints(perm.map(BigInt)) });
  c.output(0, reshape(c, moved, [-1, ...dims.map((d, i) => d / k0.blocks[i]!)]));
}

function batchToSpaceToOnnx(c: ConvertContext): void {
  const k0 = blocksOf(c, c.input(0)!, false);
  if (!k0) return;
  const K = k0.dims.length;
  const split = reshape(c, c.input(0)!, [...k0.blocks, -1, ...k0.dims]);
  const perm = [K, ...Array.from({ length: K }, (_, i) => [K + 1 + i, i]).flat()];
  const moved = on(c, 'Transpose', [split], { perm: A.ints(perm.map(BigInt)) });
  const full = k0.dims.map((d, i) => d * k0.blocks[i]!);
  let y = reshape(c, moved, [-1, ...full]);
  if (k0.begin.some((p) => p !== 0n) || k0.end.some((p) => p !== 0n)) {
    const axes = full.map((_, i) => BigInt(i + 1));
    y = on(c, 'Slice', [y, i64Const(c, k0.begin.slice(1)), i64Const(c, full.map((d, i) => BigInt(d) - k0.end[i + 1]!)), i64Const(c, axes)]);
  }
  c.output(0, y);
}

export const SPACE_BATCH: readonly OpMapping[] = [
  {
    onnx: { op: 'Transpose', since: 13 },
    ir: { op: 'SpaceToBatch', version: 'opset2' },
    when: never,
    note: 'Pad, then Reshape [B, D/b, b, …] → Transpose (blocks first) → Reshape [B·Πb, D/b, …]',
    toIr: irOnly,
    toOnnx: spaceToBatchToOnnx,
  },
  {
    onnx: { op: 'Transpose', since: 13 },
    ir: { op: 'BatchToSpace', version: 'opset2' },
    when: never,
    note: 'Reshape [b…, B/Πb, D…] → Transpose [B/Πb, D, b, …] → Reshape [B/Πb, D·b, …], then the crop Slice',
    toIr: irOnly,
    toOnnx: batchToSpaceToOnnx,
  },
];
