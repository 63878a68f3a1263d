/** ovir: convert models between ONNX and OpenVINO IR, control flow included. See src/api.ts and README. */
export * from './api.js';
