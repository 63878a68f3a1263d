/**
 * The ONNX opsets ovir can emit. A module of its own (re-exported by convert/index.ts) so that the
 * CLI can declare and check `--opset` without loading the converter (startup: src/cli/commands.ts).
 */
export const MIN_ONNX_OPSET = 7;
export const MAX_ONNX_OPSET = 25;
