import { elementType } from '../../src/graph/element-type.js';
import type { Value } from '../../src/graph/value.js';
import { irBuilder } from '../nn/ir-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * onnxruntime's com.microsoft GELU family and BiasAdd (docs/ContribOperators.md), as IR Gelu-7
 * or the elementwise ops they are:
 *   Gelu(X)            = Gelu-7 ERF: 0.5·x·(1 + erf(x/√2))
 *   BiasGelu(A, B)     = Gelu-7 ERF of A + B
 *   FastGelu(X, bias?) = Gelu-7 TANH of X (+ bias): 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³)))
 *   QuickGelu(X)       = x · sigmoid(alpha · x), alpha default 1.702
 *   BiasAdd(X, bias, skip) = X + bias + skip
 */
const MS = 'com.microsoft';

/** Input 0's element type when it is a float type, else a diagnostic and null. */
function floatElem(c: ConvertContext): ReturnType<ConvertContext['elem']> {
  const elem = c.elem(0);
  if (elem === null) { c.error(`${c.node.op} needs the element type of its input`); return null; }
  if (elementType(elem).kind !== 'float') { c.error(`${c.node.op} of ${elem} values: onnxruntime defines it on float types only`); return null; }
  return elem;
}

const add = (c: ConvertContext, a: Value, b: Value): Value => c.emit('Add', [a, b], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
const gelu = (c: ConvertContext, x: Value, mode: 'ERF' | 'TANH'): Value => c.emit('Gelu', [x], { approximation_mode: mode }, 1, 'opset7')[0]!;
const present = (c: ConvertContext, i: number): boolean => c.numInputs > i && c.input(i) !== null;

export const MS_GELU: readonly OpMapping[] = [
  {
    onnx: { op: 'Gelu', domain: MS, since: 1 },
    ir: null,
    decomposes: ['Gelu'],
    note: 'IR: Gelu-7 ERF (the com.microsoft op onnxruntime fuses before ONNX had Gelu-20)',
    toIr: (c) => { if (floatElem(c)) c.output(0, gelu(c, c.input(0)!, 'ERF')); },
  },
  {
    onnx: { op: 'BiasGelu', domain: MS, since: 1 },
    ir: null,
    decomposes: ['Add', 'Gelu'],
    note: 'IR: Gelu-7 ERF of A + B',
    toIr: (c) => { if (floatElem(c)) c.output(0, gelu(c, add(c, c.input(0)!, c.input(1)!), 'ERF')); },
  },
  {
    onnx: { op: 'FastGelu', domain: MS, since: 1 },
    ir: null,
    decomposes: ['Add', 'Gelu'],
    note: 'IR: Gelu-7 TANH of X (+ bias)',
    toIr: (c) => {
      if (!floatElem(c)) return;
      const x = present(c, 1) ? add(c, c.input(0)!, c.input(1)!) : c.input(0)!;
      c.output(0, gelu(c, x, 'TANH'));
    },
  },
  {
    onnx: { op: 'QuickGelu', domain: MS, since: 1 },
    ir: null,
    decomposes: ['Multiply', 'Sigmoid'],
    handles: { onnx: ['alpha'] },
    note: 'IR: X · Sigmoid(alpha · X) (alpha default 1.702)',
    toIr: (c) => {
      const elem = floatElem(c);
      if (!elem) return;
      const b = irBuilder(c);
      const x = c.input(0)!;
      const alpha = c.attr.float('alpha', 1.702);
      const s = c.emit('Sigmoid', [alpha === 1 ? x : b.mul(x, b.scalar(elem, alpha))], {}, 1, 'opset1')[0]!;
      c.output(0, b.mul(x, s));
    },
  },
  {
    onnx: { op: 'BiasAdd', domain: MS, since: 1 },
    ir: null,
    decomposes: ['Add'],
    note: 'IR: X + bias + skip (onnxruntime runs it on CUDA only)',
    toIr: (c) => { if (floatElem(c)) c.output(0, add(c, add(c, c.input(0)!, c.input(1)!), c.input(2)!)); },
  },
];
