import { describe, expect, it, vi } from 'vitest';
import { runCli } from '../cli/run-cli.js';

// onnxruntime-node absent (as after `npm install --omit=dev`): importing it fails.
vi.mock('onnxruntime-node', () => {
  throw new Error("Cannot find package 'onnxruntime-node'");
});

describe('ovir check --run without onnxruntime-node', () => {
  it('is a usage error (exit 2) naming what to install, before any work', async () => {
    const r = await runCli('check', 'samples/if-nested/model.onnx', '--run');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('check --run: --run needs onnxruntime-node, which could not be loaded (npm install onnxruntime-node)');
    expect(r.stderr).toContain('[CLI_USAGE]');
  });
});
