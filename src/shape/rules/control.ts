import { irBodyKind, onnxBodyKind } from '../../graph/body-kinds.js';
import type { ValueType } from '../../graph/types.js';
import { mergeBranchTypes } from '../if-merge.js';
import type { InferFn, OutputInfo, Rule, RuleContext } from '../rule.js';

/**
 * If (ONNX 1…25, OpenVINO If-8): each output is the merge of the two branch results under the
 * selected policy (see if-merge.ts). With the openvino policy a constant `cond` selects the taken
 * branch only, as If::validate_and_infer_types does.
 */
function constantCond(c: RuleContext): boolean | null {
  const v = c.ints(0);
  if (!v || v.length !== 1) return null;
  return v[0] !== 0;
}

const ifRule = (thenKey: string, elseKey: string): InferFn => (c) => {
  const n = c.node.outputs.length;
  const t = c.body(thenKey);
  const e = c.body(elseKey);
  if (!t || !e) { c.error(`missing ${!t ? thenKey : elseKey}`); return []; }
  for (const [key, b] of [[thenKey, t], [elseKey, e]] as const) {
    const bound = c.node.bodies.get(key)!.outputs.length;
    if (bound !== n || b.types.length !== n) c.report('SHAPE_IF_BRANCH_OUTPUTS', { body: key, got: bound, expected: n });
  }
  const cond = c.policy === 'openvino' ? constantCond(c) : null;
  const outs: OutputInfo[] = [];
  for (let i = 0; i < n; i++) {
    if (cond !== null) {
      const taken = cond ? t : e;
      outs.push({ type: taken.types[i] ?? null, value: taken.values[i] ?? null });
      continue;
    }
    const name = c.node.outputs[i]!.name || `${i}`;
    const m = mergeBranchTypes(c.policy, t.types[i] ?? null, e.types[i] ?? null, name);
    if (m.problem) {
      c.report(m.problem.code, { index: i, value: name, detail: m.problem.detail, policy: c.policy });
    }
    const sameValue = t.values[i] && e.values[i] && JSON.stringify(t.values[i]) === JSON.stringify(e.values[i]);
    outs.push({ type: m.type as ValueType | null, value: sameValue ? t.values[i]! : null });
  }
  return outs;
};

export const controlFlowRules: Rule[] = [
  { dialect: 'onnx', op: 'If', since: 1, infer: ifRule(...(onnxBodyKind('If')!.keys as [string, string])), bodyInputsAreBound: true },
  { dialect: 'ov', op: 'If', since: 8, infer: ifRule(...(irBodyKind('If')!.bodies.map((b) => b.key) as [string, string])), bodyInputsAreBound: true },
];
