import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { opsMarkdown } from '../../src/convert/ops-doc.js';

/**
 * docs/ops.md is generated from the tables and must match them: this test regenerates it and
 * compares. `npm run docs:ops` (OVIR_WRITE_OPS_DOC=1) writes it instead.
 */
const PAGE = 'docs/ops.md';

describe('docs/ops.md', () => {
  it('is what the tables generate (run `npm run docs:ops` after changing mappings or shape rules)', () => {
    const want = opsMarkdown();
    if (process.env['OVIR_WRITE_OPS_DOC'] === '1') writeFileSync(PAGE, want);
    expect(existsSync(PAGE) ? readFileSync(PAGE, 'utf8') : '(missing)').toBe(want);
  });

  it('names each entry with its directions and shape-rule coverage', () => {
    const page = opsMarkdown();
    expect(page).toMatch(/\| Squeeze \| 1\.\. \| Squeeze opset1 \(also reads opset15\) \| yes \| yes \| yes \| yes \| axes → input 1 at 13 \|/);
    expect(page).toMatch(/\| LeakyRelu \| 6\.\. \| written as PRelu \| yes \| — \|/);
    expect(page).toMatch(/\| Softmax \| opset8, opset1 \| Softmax \| 13\.\. \|/);
  });
});
