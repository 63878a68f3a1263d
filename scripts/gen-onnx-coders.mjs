// Writes src/onnx/coders.data.ts, the ONNX messages' coders (src/onnx/coders-gen.ts), from the
// compiled descriptor: run after `tsc` when src/onnx/schema-descriptor.ts changes.
//   npx tsc -p . && node scripts/gen-onnx-coders.mjs
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const { codersSource } = await import(pathToFileURL(join(repo, 'dist/src/onnx/coders-gen.js')).href);
const out = join(repo, 'src/onnx/coders.data.ts');
writeFileSync(out, codersSource());
console.log(`wrote ${out}`);
