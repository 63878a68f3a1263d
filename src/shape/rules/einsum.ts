import { attrString } from '../../graph/attr-read.js';
import type { Dim, Shape } from '../../graph/shape.js';
import { onnxBroadcast, ovNumpyBroadcast } from '../broadcast.js';
import { mergeDim } from '../dim.js';
import { einsumEquationProblem } from './einsum-equation.js';
import { out, type InferFn, type Rule, type RuleContext } from '../rule.js';

/**
 * Einsum (ONNX-12, OpenVINO-7): each subscript letter names one size (merged across inputs; a
 * static 1 yields to the other size, as broadcasting does); `...` stands for broadcast batch dims.
 * Output: the letters after `->`, or (implicit form) the letters used once, sorted, after `...`.
 */
function einsumShape(c: RuleContext, equation: string, shapes: Shape[], broadcast: (a: Shape, b: Shape) => Shape | undefined): Shape {
  const eq = equation.replace(/\s+/g, '');
  const [lhs, rhs] = eq.includes('->') ? eq.split('->') as [string, string] : [eq, undefined];
  const terms = lhs.split(',');
  if (terms.length !== shapes.length) { c.error(`equation has ${terms.length} operands, the node ${shapes.length} inputs`); return null; }
  const sizes = new Map<string, Dim>();
  const counts = new Map<string, number>();
  let ellipsis: Shape = [];
  for (let t = 0; t < terms.length; t++) {
    const s = shapes[t]!;
    if (s === null) return null;
    const term = terms[t]!;
    const letters = term.replace('...', '');
    const ell = term.includes('...') ? s.length - letters.length : 0;
    if (ell < 0 || (!term.includes('...') && letters.length !== s.length)) { c.error(`operand ${t} '${term}' does not fit rank ${s.length}`); return null; }
    const before = term.includes('...') ? term.indexOf('...') : letters.length;
    if (term.includes('...')) {
      const b = broadcast(ellipsis, s.slice(before, before + ell));
      if (b === undefined) { c.error('ellipsis dims do not broadcast'); return null; }
      ellipsis = b;
    }
    [...letters].forEach((ch, k) => {
      const d = s[k < before ? k : k + ell]!;
      counts.set(ch, (counts.get(ch) ?? 0) + 1);
      const prev = sizes.get(ch);
      if (prev === undefined || prev === 1) sizes.set(ch, d);
      else if (d !== 1) { const m = mergeDim(prev, d); if (m === undefined) c.error(`subscript '${ch}' has sizes that differ`); else sizes.set(ch, m); }
    });
  }
  if (ellipsis === null) return null;
  const outTerm = rhs ?? `...${[...counts].filter(([, n]) => n === 1).map(([ch]) => ch).sort().join('')}`;
  const dims: Dim[] = [];
  const parts = outTerm.split('...');
  parts.forEach((p, i) => {
    if (i > 0) dims.push(...(rhs === undefined && !lhs.includes('...') ? [] : ellipsis!));
    for (const ch of p) dims.push(sizes.get(ch) ?? null);
  });
  return dims;
}

const infer = (dialect: 'onnx' | 'ov'): InferFn => (c) => {
  const eq = attrString(c.node, 'equation') ?? '';
  const problem = einsumEquationProblem(eq, dialect === 'onnx');
  if (problem) { c.error(problem); return [out(c.elem(0), null)]; }
  const shapes = Array.from({ length: c.numInputs }, (_, i) => c.shape(i));
  const bc = (a: Shape, b: Shape) => { const r = dialect === 'onnx' ? onnxBroadcast([a, b]) : ovNumpyBroadcast(a, b); return r.ok ? r.shape : undefined; };
  return [out(c.elem(0), einsumShape(c, eq, shapes, bc))];
};

export const einsumRules: Rule[] = [
  { dialect: 'onnx', op: 'Einsum', since: 12, infer: infer('onnx') },
  { dialect: 'ov', op: 'Einsum', since: 7, infer: infer('ov') },
];
