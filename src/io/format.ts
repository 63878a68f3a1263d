import { extname } from 'node:path';
import { OvirError } from '../diag/diagnostic.js';

/** The two model file formats, told apart by extension. */
export type ModelFormat = 'onnx' | 'ir';

/** `.onnx` → onnx, `.xml` → ir (case-insensitive), anything else → null. */
export function formatOf(path: string): ModelFormat | null {
  const ext = extname(path).toLowerCase();
  if (ext === '.onnx') return 'onnx';
  if (ext === '.xml') return 'ir';
  return null;
}

/** Model files of other frameworks by extension: what they are, for the refusal of one. */
const FOREIGN: Readonly<Record<string, string>> = {
  '.tflite': 'TensorFlow Lite', '.pb': 'TensorFlow', '.pbtxt': 'TensorFlow', '.pdmodel': 'PaddlePaddle', '.pdiparams': 'PaddlePaddle',
  '.pt': 'PyTorch', '.pth': 'PyTorch', '.ckpt': 'a checkpoint', '.h5': 'Keras', '.keras': 'Keras', '.safetensors': 'safetensors weights',
  '.ort': 'onnxruntime\'s ORT format', '.bin': 'a weights file (an IR\'s .bin is read through its .xml)', '.engine': 'TensorRT', '.mlmodel': 'Core ML',
};

/** What a model file of another framework is, by its extension ('' when unknown). */
export function foreignFormat(path: string): string {
  return FOREIGN[extname(path).toLowerCase()] ?? '';
}

/** FILE_UNKNOWN_FORMAT for `path`, saying what the file is when its extension tells. */
export function unknownFormat(path: string): OvirError {
  const what = foreignFormat(path);
  const detail = what ? `: it is ${what}; ovir reads ONNX and OpenVINO IR only (ovc reads it, or export it to ONNX first)` : '';
  return OvirError.of('FILE_UNKNOWN_FORMAT', '', { path, detail }, path);
}
