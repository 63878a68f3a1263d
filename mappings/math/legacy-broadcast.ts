import type { Node } from '../../src/graph/node.js';
import { i64Const, normAxis } from '../helpers.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * Binary ops before opset 7 broadcast only when asked: `broadcast=1` lets B be broadcast to A,
 * its dims aligned with A's from `axis` on (absent axis: aligned with A's trailing dims, as numpy
 * does). IR broadcasts numpy-style, so B gets trailing 1-dims to make the alignment numpy's:
 * A [2,3,4,5] + B [3,4] axis=1 is A + Unsqueeze(B, [2]). `broadcast=0` needs equal shapes, which
 * numpy broadcasting leaves alone.
 */
function legacyToIr(c: ConvertContext, irOp: string, extra: Record<string, string>): void {
  const bcast = c.attr.int('broadcast', 0n);
  const axis = c.attr.int('axis');
  const a = c.input(0)!;
  let b = c.input(1)!;
  if (bcast !== 0n && bcast !== 1n) { c.unsupportedAttr('broadcast', String(bcast), 'must be 0 or 1'); return; }
  if (bcast === 1n && axis !== undefined) {
    const [ra, rb] = [c.rank(0), c.rank(1)];
    if (ra === null || rb === null) { c.error(`broadcast=1 with axis ${axis} needs the ranks of A and B, which are not known`); return; }
    const start = normAxis(axis, ra);
    const trailing = ra - start - rb;
    if (start < 0 || trailing < 0) { c.unsupportedAttr('axis', String(axis), `B of rank ${rb} does not fit into A of rank ${ra} from that axis`); return; }
    if (trailing > 0) b = c.emit('Unsqueeze', [b, i64Const(c, Array.from({ length: trailing }, (_, i) => BigInt(rb + i)))], {}, 1, 'opset1')[0]!;
  }
  c.output(0, c.emit(irOp, [a, b], { auto_broadcast: 'numpy', ...extra }, 1, 'opset1')[0]!);
}

const hasLegacyAttrs = (n: Node): boolean => n.attrs.has('broadcast') || n.attrs.has('axis');

const legacy = (op: string, irOp: string, opts: { extra?: Record<string, string>; always?: boolean } = {}): OpMapping => ({
  onnx: { op, since: 1, until: 6 },
  ir: null,
  decomposes: [irOp, 'Unsqueeze'],
  ...(opts.always ? {} : { when: hasLegacyAttrs }),
  handles: { onnx: ['broadcast', 'axis'] },
  note: 'broadcast=1 aligns B with A from axis: B gets trailing 1-dims, then numpy broadcasting',
  toIr: (c) => legacyToIr(c, irOp, opts.extra ?? {}),
});

export const LEGACY_BROADCAST: readonly OpMapping[] = [
  legacy('Add', 'Add'),
  legacy('Sub', 'Subtract'),
  legacy('Mul', 'Multiply'),
  // ONNX integer Div truncates: IR Divide m_pythondiv="false"
  legacy('Div', 'Divide', { extra: { m_pythondiv: 'false' } }),
  legacy('Pow', 'Power'),
  legacy('Equal', 'Equal'),
  legacy('Greater', 'Greater'),
  legacy('Less', 'Less'),
  legacy('And', 'LogicalAnd', { always: true }),
  legacy('Or', 'LogicalOr', { always: true }),
  legacy('Xor', 'LogicalXor', { always: true }),
];
