/**
 * `node dist/src/batch/ort-child.js <a.onnx> <b.onnx> [<RunCompareOptions as JSON>]`: runs both models in onnxruntime on the
 * same random inputs and prints the RunRecord as the last stdout line (see runInChild). A
 * separate process, so that a native crash in onnxruntime ends only this process.
 */
import { loadModel } from '../io/load.js';
import { INPUT_RAN, runAndCompare, type RunCompareOptions } from './run-ort.js';

const [fileA, fileB, optsJson] = process.argv.slice(2);
if (!fileA || !fileB) {
  process.stderr.write('usage: ort-child <a.onnx> <b.onnx>\n');
  process.exit(2);
}
const opts = optsJson ? (JSON.parse(optsJson) as RunCompareOptions) : {};
const record = await runAndCompare(fileA, fileB, loadModel(fileA), () => process.stdout.write(INPUT_RAN + '\n'), opts);
process.stdout.write(JSON.stringify(record) + '\n');
