import { extname } from 'node:path';

/** The two model file formats, told apart by extension. */
export type ModelFormat = 'onnx' | 'ir';

/** `.onnx` → onnx, `.xml` → ir (case-insensitive), anything else → null. */
export function formatOf(path: string): ModelFormat | null {
  const ext = extname(path).toLowerCase();
  if (ext === '.onnx') return 'onnx';
  if (ext === '.xml') return 'ir';
  return null;
}
