import { CODERS } from './coders.data.js';

/**
 * An ONNX message's coder: decode from a Reader (or bytes), encode into a Writer — protobufjs's
 * generated functions, written out by src/onnx/coders-gen.ts from the schema
 * (src/onnx/schema-descriptor.ts) so that no reflection is built at run time.
 */
export interface MessageCoder {
  readonly name: string;
  decode(r: unknown, length?: number): unknown;
  encode(message: object, w?: unknown): unknown;
}

const coder = (name: string): MessageCoder => {
  const c = (CODERS as unknown as Record<string, MessageCoder | undefined>)[name];
  if (!c) throw new Error(`no coder for ${name}`);
  return c;
};

/** The message types by their proto name. */
export const T = {
  ModelProto: coder('onnx.ModelProto'),
  GraphProto: coder('onnx.GraphProto'),
  NodeProto: coder('onnx.NodeProto'),
  AttributeProto: coder('onnx.AttributeProto'),
  TensorProto: coder('onnx.TensorProto'),
  SparseTensorProto: coder('onnx.SparseTensorProto'),
  ValueInfoProto: coder('onnx.ValueInfoProto'),
  TypeProto: coder('onnx.TypeProto'),
  TensorShapeProto: coder('onnx.TensorShapeProto'),
  OperatorSetIdProto: coder('onnx.OperatorSetIdProto'),
  FunctionProto: coder('onnx.FunctionProto'),
  TrainingInfoProto: coder('onnx.TrainingInfoProto'),
  StringStringEntryProto: coder('onnx.StringStringEntryProto'),
  TensorAnnotation: coder('onnx.TensorAnnotation'),
  DeviceConfigurationProto: coder('onnx.DeviceConfigurationProto'),
  NodeDeviceConfigurationProto: coder('onnx.NodeDeviceConfigurationProto'),
} as const;

/** AttributeProto.AttributeType */
export const AttrType = {
  UNDEFINED: 0, FLOAT: 1, INT: 2, STRING: 3, TENSOR: 4, GRAPH: 5, FLOATS: 6, INTS: 7, STRINGS: 8,
  TENSORS: 9, GRAPHS: 10, SPARSE_TENSOR: 11, SPARSE_TENSORS: 12, TYPE_PROTO: 13, TYPE_PROTOS: 14,
} as const;

/** TensorProto.DataType */
export const DataType = {
  UNDEFINED: 0, FLOAT: 1, UINT8: 2, INT8: 3, UINT16: 4, INT16: 5, INT32: 6, INT64: 7, STRING: 8, BOOL: 9,
  FLOAT16: 10, DOUBLE: 11, UINT32: 12, UINT64: 13, COMPLEX64: 14, COMPLEX128: 15, BFLOAT16: 16,
  FLOAT8E4M3FN: 17, FLOAT8E4M3FNUZ: 18, FLOAT8E5M2: 19, FLOAT8E5M2FNUZ: 20, UINT4: 21, INT4: 22,
  FLOAT4E2M1: 23, FLOAT8E8M0: 24, UINT2: 25, INT2: 26, FLOAT6E2M3: 27, FLOAT6E3M2: 28,
} as const;

export const DATA_LOCATION_EXTERNAL = 1;
