import { A } from '../../src/graph/attr.js';
import { fromIrElementType } from '../../src/graph/element-type.js';
import { i64Scalar, onnxAxesOp } from '../helpers.js';
import type { OpMapping } from '../spec.js';
import { irSeeds, onnxSeed, SEED_HANDLES } from './random-seed.js';
import { randomDtype } from './random-uniform.js';

/**
 * ONNX Multinomial-7(input [batch, classes] of unnormalized log-probabilities; sample_size = 1,
 * dtype = int32, seed?) ⇄ IR Multinomial-13(probs, num_samples; convert_type, with_replacement,
 * log_probs, global_seed, op_seed), as OpenVINO's ONNX frontend relates them: ONNX draws with
 * replacement from softmax(input), which is IR log_probs = true, with_replacement = true.
 * IR → ONNX: num_samples must be a constant (ONNX sample_size is an attribute); log_probs = false
 * takes the Log of the probabilities (a 0 is −inf, never drawn); probabilities other than f32 are
 * Cast to f32 (onnxruntime's only kernel; f64 ones rounded); 1-D probs are one batch row
 * (Unsqueeze, then Squeeze of the samples); with_replacement = false has no ONNX form (refused).
 * Same distribution, other numbers (random-seed.ts).
 */
export const MULTINOMIAL: readonly OpMapping[] = [
  {
    onnx: { op: 'Multinomial', since: 7 },
    ir: { op: 'Multinomial', version: 'opset13' },
    handles: { onnx: ['dtype', 'sample_size', ...SEED_HANDLES.onnx], ir: ['convert_type', 'with_replacement', 'log_probs', ...SEED_HANDLES.ir] },
    note: 'log_probs = true, with_replacement = true (ONNX draws from softmax(input) with replacement)',
    toIr: (c) => {
      const out = randomDtype(c, 'i32', ['i32', 'i64']);
      if (out === null) return;
      const r = c.rank(0);
      if (r !== null && r !== 2) { c.error(`Multinomial takes [batch_size, class_size] input (rank ${r})`); return; }
      const n = c.attr.int('sample_size', 1n);
      c.output(0, c.emitOwn([c.input(0), i64Scalar(c, n)], {
        convert_type: out, with_replacement: 'true', log_probs: 'true', ...irSeeds(c),
      })[0]!);
    },
    toOnnx: (c) => {
      const outName = (c.attr.string('convert_type') ?? 'i64').trim();
      const out = fromIrElementType(outName);
      if (!out || (out.name !== 'i32' && out.name !== 'i64')) { c.unsupportedAttr('convert_type', outName, 'ONNX Multinomial gives int32 or int64'); return; }
      if (c.attr.bool('with_replacement') === false) { c.unsupportedAttr('with_replacement', 'false', 'ONNX Multinomial draws with replacement'); return; }
      const n = c.constInts(1);
      if (n === null || n.length !== 1) { c.needsConstant(1, 'num_samples (ONNX Multinomial sample_size is an attribute)'); return; }
      const r = c.rank(0);
      if (r !== 1 && r !== 2) { c.error(`Multinomial probs of rank ${r ?? 'unknown'}: 1-D or 2-D probabilities convert`); return; }
      let x = c.input(0)!;
      // onnxruntime's Multinomial takes f32 only (measured): other float types are Cast to it
      if (c.elem(0) !== 'f32') x = c.emit('Cast', [x], { to: A.int(1) })[0]!;
      if (c.attr.bool('log_probs') !== true) x = c.emit('Log', [x])[0]!;
      if (r === 1) x = onnxAxesOp(c, 'Unsqueeze', x, [0n]);
      let y = c.emit('Multinomial', [x], { dtype: A.int(out.onnx!), sample_size: A.int(n[0]!), ...onnxSeed(c) })[0]!;
      if (r === 1) y = onnxAxesOp(c, 'Squeeze', y, [0n]);
      c.output(0, y);
    },
  },
];
