import { describe, expect, it } from 'vitest';
import { attrKind } from '../../src/ir/attr-schema.js';

/**
 * Attribute names as OpenVINO's op specs (and ovc's IR) spell them: a misspelled schema entry
 * leaves the real attribute untyped (read raw) and types a name no IR carries.
 */
describe('IR attribute schema spells attributes as OpenVINO does', () => {
  it.each([
    ['Eye', 'output_type', 'elem'], // Eye-9: <data output_type="f32"/>
    ['Convert', 'destination_type', 'elem'],
    ['Parameter', 'element_type', 'elem'],
  ] as const)('%s %s is %s', (op, name, kind) => {
    expect(attrKind(op, name)).toBe(kind);
  });
});
