import type { Node } from '../../src/graph/node.js';
import type { Value } from '../../src/graph/value.js';
import { scalarLike } from '../generator/constant-of-shape.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * ONNX's variadic elementwise ops (1 to 2^31-1 inputs, numpy broadcasting from opset 8, equal
 * shapes before) as a left fold of OpenVINO's binary ops, as OpenVINO's frontend writes them:
 *   Sum(a, b, c)  = Add(Add(a, b), c)          Max / Min: Maximum / Minimum folded alike
 *   Mean(a, b, c) = Divide(Sum(a, b, c), 3)    one input: that input itself
 * Two-input Max/Min from opset 8 keep their one-to-one entries (mappings/elementwise.ts).
 */
function fold(c: ConvertContext, irOp: string): Value | null {
  const ins: Value[] = [];
  for (let i = 0; i < c.numInputs; i++) {
    const v = c.input(i);
    if (!v) { c.error(`input ${i} is absent: every input of ${c.node.op} is required`); return null; }
    ins.push(v);
  }
  if (!ins.length) { c.error(`${c.node.op} needs at least one input`); return null; }
  let acc = ins[0]!;
  for (const v of ins.slice(1)) acc = c.emit(irOp, [acc, v], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
  return acc;
}

const variadic = (op: string, irOp: string, since: number, when?: (n: Node) => boolean): OpMapping => ({
  onnx: { op, since },
  ir: null,
  decomposes: [irOp],
  ...(when ? { when } : {}),
  note: `IR: ${irOp} folded over the inputs (one input: itself)`,
  toIr: (c) => { const y = fold(c, irOp); if (y) c.output(0, y); },
});

/** Max/Min at opset 8+ with other than two inputs, and at opsets 6-7 always (no entry of their own). */
const notBinary = (n: Node): boolean => Number(n.version) < 8 || n.inputs.length !== 2;

export const VARIADIC: readonly OpMapping[] = [
  variadic('Sum', 'Add', 6),
  variadic('Max', 'Maximum', 6, notBinary),
  variadic('Min', 'Minimum', 6, notBinary),
  {
    onnx: { op: 'Mean', since: 6 },
    ir: null,
    decomposes: ['Add', 'Divide'],
    note: 'IR: Add folded over the inputs, divided by their count',
    toIr: (c) => {
      const sum = fold(c, 'Add');
      if (!sum) return;
      if (c.numInputs === 1) { c.output(0, sum); return; }
      const n = scalarLike(c, 0, c.numInputs, 'Mean');
      if (n) c.output(0, c.emit('Divide', [sum, n], { auto_broadcast: 'numpy', m_pythondiv: 'true' }, 1, 'opset1')[0]!);
    },
  },
];
