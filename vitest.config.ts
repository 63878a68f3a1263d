import { defineConfig } from 'vitest/config';

// TypeScript's CommonJS sources (.cts: bin/ovir.js's heap check and bundle loader, the batch
// worker's boot) are TypeScript too (Vite transforms .ts, .mts and .tsx by default).
const oxc = { include: /\.(m?ts|cts|[jt]sx)$/ };

// Two projects: fast unit tests (`npm test`) and the conformance suite that runs real engines
// (`npm run test:conformance`: onnxruntime-node in-process, OpenVINO through the oracle venv).
export default defineConfig({
  test: {
    projects: [
      {
        oxc,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: ['test/conformance/**', 'node_modules/**'],
          testTimeout: 30_000,
        },
      },
      {
        oxc,
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
