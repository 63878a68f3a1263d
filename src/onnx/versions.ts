/** The ONNX opset ovir writes when none is asked for: one onnxruntime runs fully. */
export const DEFAULT_ONNX_OPSET = 17;

/** The newest ai.onnx opset whose operator schemas ovir has (scripts/gen-onnx-schemas.py MAX_OPSET). */
export const NEWEST_ONNX_OPSET = 28;

/** The newest ONNX IR version ovir knows (onnx.IR_VERSION of the onnx whose schemas ovir has). */
export const NEWEST_ONNX_IR_VERSION = 14n;

/** ai.onnx opset → the IR version onnx released with it (onnx/helper.py VERSION_TABLE). */
const RELEASED: ReadonlyArray<readonly [number, number]> = [[9, 4], [10, 5], [11, 6], [12, 7], [15, 8], [19, 9], [21, 10], [23, 11], [24, 12], [25, 13], [28, 14]];

/** The IR version onnx released with ai.onnx opset `opset` (onnx.helper.find_min_ir_version_for). */
export function onnxMinIrVersion(opset: number): bigint {
  let ir = 3;
  for (const [o, v] of RELEASED) if (opset >= o) ir = v;
  return BigInt(ir);
}

/**
 * The ONNX IR version a conversion writes for opset `opset`: the released one, never below 8
 * (what onnxruntime and the checker accept for every opset ovir emits).
 */
export function onnxIrVersionFor(opset: number): bigint {
  const ir = onnxMinIrVersion(opset);
  return ir > 8n ? ir : 8n;
}
