import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { compressTensorToF16, f32ToF16Bits } from '../../src/convert/fp16.js';
import { allGraphs, makeTensor, tensorFromFloat32, type Model, type Tensor } from '../../src/graph/index.js';
import { Builder } from './builder.js';

const f32s = (t: Tensor): number[] => Array.from(new Float32Array(t.data.slice().buffer));
const u16s = (t: Tensor): number[] => Array.from(new Uint16Array(t.data.slice().buffer));

/** y = If(c){ x * 1048576 } else { x * 0.5 }: the then-branch constant is beyond f16 (max 65504). */
function bigConstantInBranch(): Model {
  const b = new Builder('onnx');
  const x = b.input('x', 'f32', [2]);
  const c = b.input('c', 'boolean', []);
  const n = b.ifNode(b.graph, c, ['y']);
  const t = b.body(n, 'then_branch');
  b.results(t, [b.op(t, 'Mul', [x, b.init('big', tensorFromFloat32([1048576], []), t)], 't')]);
  const e = b.body(n, 'else_branch');
  b.results(e, [b.op(e, 'Mul', [x, b.init('half', tensorFromFloat32([0.5], []), e)], 'e')]);
  b.output(n.outputs[0]!);
  return b.model;
}

describe('--compress-to-fp16 keeps what f16 cannot hold (OpenVINO CompressFloatConstants rule)', () => {
  it('a constant 1048576 inside an If body stays f32; an in-range one becomes f16 + Convert', () => {
    const ir = convertModel(bigConstantInBranch(), { compressToFp16: true });
    const consts = [...allGraphs(ir.graph)].flatMap((g) => g.initializers).filter((v) => v.constant?.elem !== 'boolean');
    const big = consts.find((v) => v.constant!.elem === 'f32');
    expect(big && f32s(big.constant!)).toEqual([1048576]);
    const half = consts.find((v) => v.constant!.elem === 'f16');
    expect(half && u16s(half.constant!)).toEqual([f32ToF16Bits(0.5)]);
    expect(half!.uses.map((u) => u.node.op)).toEqual(['Convert']);
    expect(big!.uses.map((u) => u.node.op)).toEqual(['Multiply']);
  });

  it('stays f32 when at least 75% of the values are out of range; below that, clamps to ±65504', () => {
    expect(compressTensorToF16(tensorFromFloat32([1e6, -1e6, 1e-9, 1], [4]))).toBeNull(); // 3 of 4
    const t = compressTensorToF16(tensorFromFloat32([1e6, -1e6, 2, 1], [4]))!; // 2 of 4
    expect(t.elem).toBe('f16');
    expect(u16s(t)).toEqual([0x7bff, 0xfbff, f32ToF16Bits(2), f32ToF16Bits(1)]); // ±65504, never inf
    expect(compressTensorToF16(tensorFromFloat32([Infinity], [1]))).toBeNull();
    expect(compressTensorToF16(makeTensor('f32', [0], new Uint8Array(0)))).toBeNull();
  });
});
