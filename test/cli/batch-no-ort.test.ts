import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { zoo } from '../batch/fixtures.js';
import { runCli } from './run-cli.js';

// A machine where onnxruntime-node is not installed (it is a dev dependency): importing it fails.
vi.mock('onnxruntime-node', () => {
  throw new Error("Cannot find package 'onnxruntime-node'");
});

describe('ovir batch --run without onnxruntime', () => {
  it('is a usage error naming what to install, before any model is converted', async () => {
    const root = zoo({ 'a.onnx': 'onnx' });
    const out = join(root, 'out');
    const r = await runCli('batch', '--jobs', '0', join(root, 'in'), '-o', out, '--roundtrip', '--run', '--quiet');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--run runs models in onnxruntime, which is not installed here: install it with `npm install onnxruntime-node`/);
    expect(existsSync(out)).toBe(false);
  });
});
