type FieldDef = { id: number; type: string; rule?: 'repeated'; options?: Record<string, unknown> };
type Fields = Record<string, FieldDef>;

const f = (id: number, type: string): FieldDef => ({ id, type });
const r = (id: number, type: string): FieldDef => ({ id, type, rule: 'repeated' });
const packed = (id: number, type: string): FieldDef => ({ id, type, rule: 'repeated', options: { packed: true } });
const msg = (fields: Fields, extra: Record<string, unknown> = {}) => ({ fields, ...extra });

/**
 * The ONNX protobuf schema (onnx/onnx-ml.proto as of onnx 1.23: IR version 13, with the FLOAT6 codes
 * and IR_VERSION 14 of the development head), written
 * as a protobufjs JSON descriptor so that dist needs no .proto file at run time. Field names are the
 * proto's own (snake_case). int64/uint64 fields are read and written as bigint by `wire.ts`. The
 * coders of its messages are generated from it (src/onnx/coders-gen.ts) into coders.data.ts.
 */
export const ONNX_DESCRIPTOR = {
  nested: {
    onnx: {
      nested: {
        Version: {
          values: {
            _START_VERSION: 0, IR_VERSION_2017_10_10: 1, IR_VERSION_2017_10_30: 2, IR_VERSION_2017_11_3: 3,
            IR_VERSION_2019_1_22: 4, IR_VERSION_2019_3_18: 5, IR_VERSION_2019_9_19: 6, IR_VERSION_2020_5_8: 7,
            IR_VERSION_2021_7_30: 8, IR_VERSION_2023_5_5: 9, IR_VERSION_2024_3_25: 10, IR_VERSION_2025_05_12: 11,
            IR_VERSION_2025_08_26: 12, IR_VERSION_2025_11_06: 13, IR_VERSION: 14,
          },
        },
        OperatorStatus: { values: { EXPERIMENTAL: 0, STABLE: 1 } },
        AttributeProto: msg({
          name: f(1, 'string'),
          ref_attr_name: f(21, 'string'),
          doc_string: f(13, 'string'),
          type: f(20, 'AttributeType'),
          f: f(2, 'float'),
          i: f(3, 'int64'),
          s: f(4, 'bytes'),
          t: f(5, 'TensorProto'),
          g: f(6, 'GraphProto'),
          sparse_tensor: f(22, 'SparseTensorProto'),
          tp: f(14, 'TypeProto'),
          floats: r(7, 'float'),
          ints: r(8, 'int64'),
          strings: r(9, 'bytes'),
          tensors: r(10, 'TensorProto'),
          graphs: r(11, 'GraphProto'),
          sparse_tensors: r(23, 'SparseTensorProto'),
          type_protos: r(15, 'TypeProto'),
        }, {
          reserved: [[12, 12], [16, 19], 'v'],
          nested: {
            AttributeType: {
              values: {
                UNDEFINED: 0, FLOAT: 1, INT: 2, STRING: 3, TENSOR: 4, GRAPH: 5, SPARSE_TENSOR: 11, TYPE_PROTO: 13,
                FLOATS: 6, INTS: 7, STRINGS: 8, TENSORS: 9, GRAPHS: 10, SPARSE_TENSORS: 12, TYPE_PROTOS: 14,
              },
            },
          },
        }),
        ValueInfoProto: msg({
          name: f(1, 'string'),
          type: f(2, 'TypeProto'),
          doc_string: f(3, 'string'),
          metadata_props: r(4, 'StringStringEntryProto'),
        }),
        NodeProto: msg({
          input: r(1, 'string'),
          output: r(2, 'string'),
          name: f(3, 'string'),
          op_type: f(4, 'string'),
          domain: f(7, 'string'),
          overload: f(8, 'string'),
          attribute: r(5, 'AttributeProto'),
          doc_string: f(6, 'string'),
          metadata_props: r(9, 'StringStringEntryProto'),
          device_configurations: r(10, 'NodeDeviceConfigurationProto'),
        }),
        IntIntListEntryProto: msg({ key: f(1, 'int64'), value: r(2, 'int64') }),
        NodeDeviceConfigurationProto: msg({
          configuration_id: f(1, 'string'),
          sharding_spec: r(2, 'ShardingSpecProto'),
          pipeline_stage: f(3, 'int32'),
        }),
        ShardingSpecProto: msg({
          tensor_name: f(1, 'string'),
          device: r(2, 'int64'),
          index_to_device_group_map: r(3, 'IntIntListEntryProto'),
          sharded_dim: r(4, 'ShardedDimProto'),
        }),
        ShardedDimProto: msg({ axis: f(1, 'int64'), simple_sharding: r(2, 'SimpleShardedDimProto') }),
        SimpleShardedDimProto: msg(
          { dim_value: f(1, 'int64'), dim_param: f(2, 'string'), num_shards: f(3, 'int64') },
          { oneofs: { dim: { oneof: ['dim_value', 'dim_param'] } } },
        ),
        TrainingInfoProto: msg({
          initialization: f(1, 'GraphProto'),
          algorithm: f(2, 'GraphProto'),
          initialization_binding: r(3, 'StringStringEntryProto'),
          update_binding: r(4, 'StringStringEntryProto'),
        }),
        ModelProto: msg({
          ir_version: f(1, 'int64'),
          opset_import: r(8, 'OperatorSetIdProto'),
          producer_name: f(2, 'string'),
          producer_version: f(3, 'string'),
          domain: f(4, 'string'),
          model_version: f(5, 'int64'),
          doc_string: f(6, 'string'),
          graph: f(7, 'GraphProto'),
          metadata_props: r(14, 'StringStringEntryProto'),
          training_info: r(20, 'TrainingInfoProto'),
          functions: r(25, 'FunctionProto'),
          configuration: r(26, 'DeviceConfigurationProto'),
        }),
        DeviceConfigurationProto: msg({ name: f(1, 'string'), num_devices: f(2, 'int32'), device: r(3, 'string') }),
        StringStringEntryProto: msg({ key: f(1, 'string'), value: f(2, 'string') }),
        TensorAnnotation: msg({ tensor_name: f(1, 'string'), quant_parameter_tensor_names: r(2, 'StringStringEntryProto') }),
        GraphProto: msg({
          node: r(1, 'NodeProto'),
          name: f(2, 'string'),
          initializer: r(5, 'TensorProto'),
          sparse_initializer: r(15, 'SparseTensorProto'),
          doc_string: f(10, 'string'),
          input: r(11, 'ValueInfoProto'),
          output: r(12, 'ValueInfoProto'),
          value_info: r(13, 'ValueInfoProto'),
          quantization_annotation: r(14, 'TensorAnnotation'),
          metadata_props: r(16, 'StringStringEntryProto'),
        }, { reserved: [[3, 3], [4, 4], [6, 9], 'ir_version', 'producer_version', 'producer_tag', 'domain'] }),
        TensorProto: msg({
          dims: r(1, 'int64'),
          data_type: f(2, 'int32'),
          segment: f(3, 'Segment'),
          float_data: packed(4, 'float'),
          int32_data: packed(5, 'int32'),
          string_data: r(6, 'bytes'),
          int64_data: packed(7, 'int64'),
          name: f(8, 'string'),
          doc_string: f(12, 'string'),
          raw_data: f(9, 'bytes'),
          external_data: r(13, 'StringStringEntryProto'),
          data_location: f(14, 'DataLocation'),
          double_data: packed(10, 'double'),
          uint64_data: packed(11, 'uint64'),
          metadata_props: r(16, 'StringStringEntryProto'),
        }, {
          nested: {
            DataType: {
              values: {
                UNDEFINED: 0, FLOAT: 1, UINT8: 2, INT8: 3, UINT16: 4, INT16: 5, INT32: 6, INT64: 7, STRING: 8,
                BOOL: 9, FLOAT16: 10, DOUBLE: 11, UINT32: 12, UINT64: 13, COMPLEX64: 14, COMPLEX128: 15,
                BFLOAT16: 16, FLOAT8E4M3FN: 17, FLOAT8E4M3FNUZ: 18, FLOAT8E5M2: 19, FLOAT8E5M2FNUZ: 20,
                UINT4: 21, INT4: 22, FLOAT4E2M1: 23, FLOAT8E8M0: 24, UINT2: 25, INT2: 26, FLOAT6E2M3: 27,
                FLOAT6E3M2: 28,
              },
            },
            Segment: msg({ begin: f(1, 'int64'), end: f(2, 'int64') }),
            DataLocation: { values: { DEFAULT: 0, EXTERNAL: 1 } },
          },
        }),
        SparseTensorProto: msg({ values: f(1, 'TensorProto'), indices: f(2, 'TensorProto'), dims: r(3, 'int64') }),
        TensorShapeProto: msg({ dim: r(1, 'Dimension') }, {
          nested: {
            Dimension: msg(
              { dim_value: f(1, 'int64'), dim_param: f(2, 'string'), denotation: f(3, 'string') },
              { oneofs: { value: { oneof: ['dim_value', 'dim_param'] } } },
            ),
          },
        }),
        TypeProto: msg({
          tensor_type: f(1, 'Tensor'),
          sequence_type: f(4, 'Sequence'),
          map_type: f(5, 'Map'),
          optional_type: f(9, 'Optional'),
          sparse_tensor_type: f(8, 'SparseTensor'),
          opaque_type: f(7, 'Opaque'),
          denotation: f(6, 'string'),
        }, {
          oneofs: { value: { oneof: ['tensor_type', 'sequence_type', 'map_type', 'optional_type', 'sparse_tensor_type', 'opaque_type'] } },
          nested: {
            Tensor: msg({ elem_type: f(1, 'int32'), shape: f(2, 'TensorShapeProto') }),
            Sequence: msg({ elem_type: f(1, 'TypeProto') }),
            Map: msg({ key_type: f(1, 'int32'), value_type: f(2, 'TypeProto') }),
            Optional: msg({ elem_type: f(1, 'TypeProto') }),
            SparseTensor: msg({ elem_type: f(1, 'int32'), shape: f(2, 'TensorShapeProto') }),
            Opaque: msg({ domain: f(1, 'string'), name: f(2, 'string') }, { reserved: [[3, 3], 'parameters'] }),
          },
        }),
        OperatorSetIdProto: msg({ domain: f(1, 'string'), version: f(2, 'int64') }),
        FunctionProto: msg({
          name: f(1, 'string'),
          input: r(4, 'string'),
          output: r(5, 'string'),
          attribute: r(6, 'string'),
          attribute_proto: r(11, 'AttributeProto'),
          node: r(7, 'NodeProto'),
          doc_string: f(8, 'string'),
          opset_import: r(9, 'OperatorSetIdProto'),
          domain: f(10, 'string'),
          overload: f(13, 'string'),
          value_info: r(12, 'ValueInfoProto'),
          metadata_props: r(14, 'StringStringEntryProto'),
        }, { reserved: [[2, 2], [3, 3], 'since_version', 'status'] }),
      },
    },
  },
};
