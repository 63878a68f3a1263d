import { defineConfig } from 'vitest/config';

// Two projects: fast unit tests (`npm test`) and the conformance suite that runs real engines
// (`npm run test:conformance`: onnxruntime-node in-process, OpenVINO through the oracle venv).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: ['test/conformance/**', 'node_modules/**'],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'conformance',
          include: ['test/conformance/**/*.test.ts'],
          testTimeout: 1_800_000,
          hookTimeout: 1_800_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
