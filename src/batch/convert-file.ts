import { formatOf, loadModel, saveModel } from '../io/load.js';
import { unknownFormat } from '../io/format.js';
import { aboutFile } from '../diag/diagnostic.js';
import { otherFormat } from './plan.js';
import { convertTo } from './task.js';
import type { ConvertFileOptions } from './types.js';

/**
 * Converts one model file into another: the output format is `opts.to`, else that of `output`'s
 * extension (`.onnx`, or `.xml` with its `.bin`). The output is written atomically (durably with `opts.fsync`). Throws
 * OvirError with every diagnostic when the model cannot be read or converted.
 */
export function convertFile(input: string, output: string, opts: ConvertFileOptions = {}): void {
  const from = formatOf(input);
  if (!from) throw unknownFormat(input);
  const to = opts.to ?? formatOf(output) ?? otherFormat(from);
  if (formatOf(output) !== to) throw unknownFormat(output);
  // what conversion and the writer find is about the model read from `input`
  aboutFile(input, () => saveModel(convertTo(loadModel(input), to, opts), output, { fsync: opts.fsync === true }));
}
