import { describe, expect, it } from 'vitest';
import { parseInputOverride } from '../../src/batch/input-override.js';

describe('--input name[shape]', () => {
  it.each([
    ['x[1,3,224,224]', { name: 'x', shape: [1, 3, 224, 224] }],
    ['x[N,3,?,-1]', { name: 'x', shape: [{ sym: 'N' }, 3, null, null] }],
    ['ids[1..8,16]', { name: 'ids', shape: [{ min: 1, max: 8 }, 16] }],
    ['ids[2..,..4]', { name: 'ids', shape: [{ min: 2, max: Infinity }, { min: 0, max: 4 }] }],
    ['s[]', { name: 's', shape: [] }],
    ['any[...]', { name: 'any', shape: null }],
    ['input:0[1, 2]', { name: 'input:0', shape: [1, 2] }],
  ])('%s', (text, want) => {
    expect(parseInputOverride(text)).toEqual(want);
  });

  it.each(['x', '[1,2]', 'x[1,,2]', 'x[3..1]', 'x[1.5]'])('rejects %s', (text) => {
    expect(typeof parseInputOverride(text)).toBe('string');
  });
});
