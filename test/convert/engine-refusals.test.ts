import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { decodeOnnx } from '../../src/onnx/decode.js';
import { readIr } from '../../src/ir/read.js';
import { diagnosticsOf } from '../helpers/diagnostics.js';
import * as ob from '../helpers/onnx-builder.js';

/**
 * A model the target engine refuses when it reads it is refused by the conversion, with a coded
 * error naming the node, instead of a file written with exit 0 (found by a hostile-input campaign:
 * each case below converted and OpenVINO could not read the IR). The shape rules of the target
 * dialect run on every converted model (completeTypes), so each is the engine's own check; the
 * valid neighbour of each case still converts.
 */
type Dims = readonly (number | string | null)[] | null;
function oneNode(op: string, inputs: [string, Dims][], attrs: Record<string, ob.AttrValue> = {}, opset = 18, inits: ReturnType<typeof ob.floatTensor>[] = []): Uint8Array {
  return ob.encodeModelProto(ob.model({
    opset,
    graph: ob.graph({
      name: 'main',
      inputs: inputs.map(([n, s]) => ob.valueInfo(n, 'f32', s as never)),
      outputs: [ob.valueInfo('y', 'f32', null)],
      initializers: inits,
      nodes: [ob.node(op, inputs.map(([n]) => n), ['y'], attrs)],
    }),
  }));
}
const refusal = (bytes: Uint8Array): string[] => diagnosticsOf(() => convertModel(decodeOnnx(bytes)));

// (where onnx's own inference refuses the node too, the source's rule says it first, naming the ONNX node)
describe('ONNX → IR: what OpenVINO refuses is refused', () => {
  it('Softmax axis 5 on rank 1; axis -1 and -2 on rank 2 convert', () => {
    expect(refusal(oneNode('Softmax', [['x', [2]]], { axis: 5 }, 17))).toEqual(['SHAPE_RULE main/Softmax#0: Softmax: axis 5 is out of range for an input of rank 1 (must be in [-1, 0])']);
    expect(refusal(oneNode('Softmax', [['x', [2]]], { axis: -1 }, 17))).toEqual([]);
    expect(refusal(oneNode('LogSoftmax', [['x', [2, 3]]], { axis: -2 }, 17))).toEqual([]);
    expect(refusal(oneNode('Softmax', [['x', null]], { axis: 5 }, 17))).toEqual([]);
  });

  it('MaxPool kernel larger than the padded input; kernel = input + pads, same_upper and a dynamic dim convert', () => {
    expect(refusal(oneNode('MaxPool', [['x', [1, 1, 4]]], { kernel_shape: [1000000] }))).toEqual([
      "SHAPE_RULE main/y: MaxPool: spatial axis 0: the kernel spans 1000000 (size 1000000, dilation 1), more than the padded input's 4 (4 + pads 0, 0)",
    ]);
    expect(refusal(oneNode('MaxPool', [['x', [1, 1, 4]]], { kernel_shape: [3], dilations: [2] }))).toHaveLength(1);
    expect(refusal(oneNode('MaxPool', [['x', [1, 1, 4]]], { kernel_shape: [6], pads: [1, 1] }))).toEqual([]);
    expect(refusal(oneNode('MaxPool', [['x', [1, 1, 4]]], { kernel_shape: [4] }))).toEqual([]);
    expect(refusal(oneNode('MaxPool', [['x', [1, 1, 4]]], { kernel_shape: [7], auto_pad: 'SAME_UPPER' }))).toEqual([]);
    expect(refusal(oneNode('MaxPool', [['x', [1, 1, 'n']]], { kernel_shape: [7] }))).toEqual([]);
  });

  it('Conv: data channels other than the filters input channels × group', () => {
    expect(refusal(oneNode('Conv', [['x', [1, 1, 7, 5]], ['w', [1, 2, 3, 3]]]))).toEqual(['SHAPE_RULE main/y: Convolution: the data has 1 channels, the filters 2 input channels']);
    expect(refusal(oneNode('Conv', [['x', [1, 4, 7, 5]], ['w', [2, 3, 3, 3]]], { group: 2 }))).toEqual([
      'SHAPE_RULE main/y: GroupConvolution: the data has 4 channels, the filters 2 groups of 3 input channels (6)',
    ]);
    expect(refusal(oneNode('Conv', [['x', [1, 6, 7, 5]], ['w', [2, 3, 3, 3]]], { group: 2 }))).toEqual([]);
    expect(refusal(oneNode('Conv', [['x', [1, 'c', 7, 5]], ['w', [1, 2, 3, 3]]]))).toEqual([]);
  });

  it('BatchNormalization: a per-channel operand of another length than the channels', () => {
    const bn = (v: number) => oneNode('BatchNormalization', [['x', [2, 3, 4, 5]], ['s', [3]], ['b', [3]], ['m', [3]], ['v', [v]]], {}, 15);
    expect(refusal(bn(4))).toEqual(['SHAPE_RULE main/y: BatchNormInference: variance has 4 values for 3 channels']);
    expect(refusal(bn(3))).toEqual([]);
  });

  it('Einsum: an output letter no input has, two arrows; a transposition converts', () => {
    expect(refusal(oneNode('Einsum', [['x', [2, 3]]], { equation: 'ij->k' }))).toEqual([
      "SHAPE_RULE main/Einsum#0: Einsum: output subscript 'k' names 'k', which no input subscript of equation 'ij->k' has",
    ]);
    expect(refusal(oneNode('Einsum', [['x', [2, 3]]], { equation: 'ij->ij->ij' }))).toEqual(["SHAPE_RULE main/Einsum#0: Einsum: equation 'ij->ij->ij' has more than one '->'"]);
    expect(refusal(oneNode('Einsum', [['x', [2, 3]]], { equation: 'i j -> j i' }))).toEqual([]);
  });

  it('a graph input whose initializer default contradicts its declaration', () => {
    const m = oneNode('Neg', [['s0', [2]]], {}, 17, [ob.floatTensor('s0', [0], [])]);
    expect(refusal(m)).toEqual(["SHAPE_DECLARED_CONTRADICTS main: value 's0' is declared f32[2] but inferred f32[0] (its initializer): dim 0: [2] vs [0]"]);
    expect(refusal(oneNode('Neg', [['s0', [2]]], {}, 17, [ob.floatTensor('s0', [2], [1, 2])]))).toEqual([]);
  });

  it('Scan over an axis the input does not have', () => {
    const body = ob.graph({ name: 'b', inputs: [ob.valueInfo('v', 'f32', [])], outputs: [ob.valueInfo('vo', 'f32', [])], nodes: [ob.node('Neg', ['v'], ['vo'])] });
    const scan = (axis: number) => ob.encodeModelProto(ob.model({
      opset: 17,
      graph: ob.graph({
        name: 'main', inputs: [ob.valueInfo('x', 'f32', [2])], outputs: [ob.valueInfo('y', 'f32', null)],
        nodes: [ob.node('Scan', ['x'], ['y'], { body: ob.attr.graph(body), num_scan_inputs: 1, scan_input_axes: [axis] })],
      }),
    }));
    expect(refusal(scan(2 ** 40))).toEqual(['SHAPE_RULE main/Scan#0: Scan: scan_input_axes[0] = 1099511627776 is out of range for scan input 0 of rank 1']);
    expect(refusal(scan(-1))).toEqual([]);
  });
});

describe('IR → ONNX: an IR OpenVINO refuses is refused', () => {
  // OpenVINO's own IR of onnx's test_scan9_sum: a TensorIterator over axis 0 of a [3, 2] input
  const here = new URL('./ir-refusals/', import.meta.url);
  const xml = readFileSync(new URL('ti-scan-sum.xml', here), 'utf8');
  const bin = new Uint8Array(readFileSync(new URL('ti-scan-sum.bin', here)));
  const convertIr = (text: string): string[] => diagnosticsOf(() => convertModel(readIr(text, bin)));
  const inputMap = '<input axis="0" external_port_id="0" internal_layer_id="1" start="0" end="-1" stride="1" part_size="1" />';

  it('TensorIterator slicing past its axis (the CPU plugin\'s "Invalid start, stride, end values")', () => {
    expect(convertIr(xml)).toEqual([]);
    expect(convertIr(xml.replace(inputMap, inputMap.replace('end="-1"', 'end="5"')))).toEqual([
      'SHAPE_RULE main/z: TensorIterator: input 0: start 0, end 5, stride 1 do not give a range within the axis of length 3',
    ]);
    expect(convertIr(xml.replace(inputMap, inputMap.replace('start="0" end="-1" stride="1"', 'start="-1" end="0" stride="-1"')))).toEqual([]);
  });

  it('SoftMax-8 axis 5 on rank 2', () => {
    const sm = (axis: number) => `<?xml version="1.0"?>
<net name="m" version="11"><layers>
<layer id="0" name="x" type="Parameter" version="opset1"><data shape="2,3" element_type="f32"/><output><port id="0" precision="FP32"><dim>2</dim><dim>3</dim></port></output></layer>
<layer id="1" name="s" type="SoftMax" version="opset8"><data axis="${axis}"/><input><port id="0" precision="FP32"><dim>2</dim><dim>3</dim></port></input><output><port id="1" precision="FP32"><dim>2</dim><dim>3</dim></port></output></layer>
<layer id="2" name="r" type="Result" version="opset1"><input><port id="0" precision="FP32"><dim>2</dim><dim>3</dim></port></input></layer>
</layers><edges><edge from-layer="0" from-port="0" to-layer="1" to-port="0"/><edge from-layer="1" from-port="1" to-layer="2" to-port="0"/></edges></net>`;
    const run = (axis: number) => diagnosticsOf(() => convertModel(readIr(sm(axis), new Uint8Array(0))));
    expect(run(5)).toEqual(['SHAPE_RULE main/s: Softmax: axis 5 is out of range for an input of rank 2 (must be in [-2, 1])']);
    expect(run(-2)).toEqual([]);
  });
});

describe("ONNX → IR: what onnx's inference refuses is refused, though the IR would not see it", () => {
  it('Conv kernel_shape [3, -1] (the IR reads W, 3×3): refused naming the node; a kernel_shape equal to W converts', () => {
    expect(refusal(oneNode('Conv', [['x', [1, 1, 5, 5]], ['w', [1, 1, 3, 3]]], { kernel_shape: [3, -1] })))
      .toEqual(['SHAPE_RULE main/Conv#0: Conv: kernel_shape [3,-1] must only contain positive values']);
    expect(refusal(oneNode('Conv', [['x', [1, 1, 5, 5]], ['w', [1, 1, 3, 3]]], { kernel_shape: [3, 2] })))
      .toEqual(["SHAPE_RULE main/Conv#0: Conv: kernel_shape [3,2] is not W's spatial dims [3,3]"]);
    expect(refusal(oneNode('Conv', [['x', [1, 1, 5, 5]], ['w', [1, 1, 3, 3]]], { kernel_shape: [3, 3] }))).toEqual([]);
  });
});

describe('an op without a conversion that only makes model outputs: the refusal says how --output converts the rest', () => {
  const withTail = (tailFeedsMore: boolean): Uint8Array => ob.encodeModelProto(ob.model({
    opset: 17,
    opsets: { 'com.example': 1 },
    graph: ob.graph({
      name: 'main',
      inputs: [ob.valueInfo('x', 'f32', [2, 3])],
      outputs: [ob.valueInfo('r', 'f32', null), ob.valueInfo('post', 'f32', null), ...(tailFeedsMore ? [ob.valueInfo('again', 'f32', null)] : [])],
      nodes: [
        ob.node('Relu', ['x'], ['r']),
        ob.node('Sigmoid', ['x'], ['s']),
        ob.node('Postprocess', ['s', 'r'], ['post'], {}, { domain: 'com.example' }),
        ...(tailFeedsMore ? [ob.node('Neg', ['post'], ['again'])] : []),
      ],
    }),
  }));
  it("names the op's outputs and the --output list: the model's other outputs, then the op's inputs", () => {
    expect(refusal(withTail(false))).toEqual([
      "CONVERT_UNSUPPORTED_OP main/Postprocess#2: Postprocess (domain com.example) (ONNX 1) has no conversion to OpenVINO IR: it only makes the model's output 'post'; `--output r,s` converts the model without it",
    ]);
  });
  it('no such hint when the cut would leave no node (the op reads only graph inputs)', () => {
    expect(refusal(oneNode('Frobnicate', [['x', [2]]]))).toEqual(['CONVERT_UNSUPPORTED_OP main/Frobnicate#0: Frobnicate (ONNX 18) has no conversion to OpenVINO IR']);
  });
  it('no such hint when its output feeds another node', () => {
    expect(refusal(withTail(true))).toEqual(['CONVERT_UNSUPPORTED_OP main/Postprocess#2: Postprocess (domain com.example) (ONNX 1) has no conversion to OpenVINO IR']);
  });
});
