/**
 * Plain-object shapes of the ONNX messages as protobufjs gives and takes them (field names as in
 * onnx.proto). Every field is optional: absent means not present on the wire. int64/uint64 are
 * bigint (see wire.ts); bytes are Uint8Array views into the decoded buffer.
 */
export interface StringStringEntryProto { key?: string; value?: string }

export interface OperatorSetIdProto { domain?: string; version?: bigint }

export interface TensorShapeDimProto { dim_value?: bigint; dim_param?: string; denotation?: string }
export interface TensorShapeProto { dim?: TensorShapeDimProto[] }

export interface TypeProto {
  tensor_type?: { elem_type?: number; shape?: TensorShapeProto | null } | null;
  sequence_type?: { elem_type?: TypeProto | null } | null;
  map_type?: { key_type?: number; value_type?: TypeProto | null } | null;
  optional_type?: { elem_type?: TypeProto | null } | null;
  sparse_tensor_type?: { elem_type?: number; shape?: TensorShapeProto | null } | null;
  opaque_type?: { domain?: string; name?: string } | null;
  denotation?: string;
}

export interface ValueInfoProto {
  name?: string;
  type?: TypeProto | null;
  doc_string?: string;
  metadata_props?: StringStringEntryProto[];
}

export interface TensorProto {
  dims?: bigint[];
  data_type?: number;
  segment?: { begin?: bigint; end?: bigint } | null;
  float_data?: number[];
  int32_data?: number[];
  string_data?: Uint8Array[];
  int64_data?: bigint[];
  name?: string;
  doc_string?: string;
  raw_data?: Uint8Array;
  external_data?: StringStringEntryProto[];
  data_location?: number;
  double_data?: number[];
  uint64_data?: bigint[];
  metadata_props?: StringStringEntryProto[];
}

export interface SparseTensorProto { values?: TensorProto | null; indices?: TensorProto | null; dims?: bigint[] }

export interface AttributeProto {
  name?: string;
  ref_attr_name?: string;
  doc_string?: string;
  type?: number;
  f?: number;
  i?: bigint;
  s?: Uint8Array;
  t?: TensorProto | null;
  g?: GraphProto | null;
  sparse_tensor?: SparseTensorProto | null;
  tp?: TypeProto | null;
  floats?: number[];
  ints?: bigint[];
  strings?: Uint8Array[];
  tensors?: TensorProto[];
  graphs?: GraphProto[];
  sparse_tensors?: SparseTensorProto[];
  type_protos?: TypeProto[];
}

export interface NodeProto {
  input?: string[];
  output?: string[];
  name?: string;
  op_type?: string;
  domain?: string;
  overload?: string;
  attribute?: AttributeProto[];
  doc_string?: string;
  metadata_props?: StringStringEntryProto[];
  device_configurations?: unknown[];
}

export interface TensorAnnotation { tensor_name?: string; quant_parameter_tensor_names?: StringStringEntryProto[] }

export interface GraphProto {
  node?: NodeProto[];
  name?: string;
  initializer?: TensorProto[];
  sparse_initializer?: SparseTensorProto[];
  doc_string?: string;
  input?: ValueInfoProto[];
  output?: ValueInfoProto[];
  value_info?: ValueInfoProto[];
  quantization_annotation?: TensorAnnotation[];
  metadata_props?: StringStringEntryProto[];
}

export interface FunctionProto {
  name?: string;
  input?: string[];
  output?: string[];
  attribute?: string[];
  attribute_proto?: AttributeProto[];
  node?: NodeProto[];
  doc_string?: string;
  opset_import?: OperatorSetIdProto[];
  domain?: string;
  overload?: string;
  value_info?: ValueInfoProto[];
  metadata_props?: StringStringEntryProto[];
}

export interface TrainingInfoProto {
  initialization?: GraphProto | null;
  algorithm?: GraphProto | null;
  initialization_binding?: StringStringEntryProto[];
  update_binding?: StringStringEntryProto[];
}

export interface ModelProto {
  ir_version?: bigint;
  opset_import?: OperatorSetIdProto[];
  producer_name?: string;
  producer_version?: string;
  domain?: string;
  model_version?: bigint;
  doc_string?: string;
  graph?: GraphProto | null;
  metadata_props?: StringStringEntryProto[];
  training_info?: TrainingInfoProto[];
  functions?: FunctionProto[];
  configuration?: { name?: string; num_devices?: number; device?: string[] }[];
}
