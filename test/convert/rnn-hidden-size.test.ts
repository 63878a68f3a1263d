import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { A, makeTensor } from '../../src/graph/index.js';
import { decodeOnnx } from '../../src/onnx/decode.js';
import { diagnosticsOf } from '../helpers/diagnostics.js';
import * as ob from '../helpers/onnx-builder.js';
import { Builder } from './builder.js';

/**
 * hidden_size is checked against W and R before it sizes anything (mappings/rnn/hidden-size.ts):
 * W holds gates · hidden_size rows and R is gates · hidden_size by hidden_size. A 207-byte LSTM
 * with W and R for hidden_size 1 and hidden_size = 2^31 made the process run out of memory (V8's
 * fatal "invalid size error", no diagnostic) building its gate rows; now each such model is one
 * clean error naming the op and both numbers, both directions.
 */
const messages = (f: () => unknown): string[] => diagnosticsOf(f);

/** ONNX LSTM / GRU / RNN over X [1, 2, 4] with W, R for hidden size 1 and the given hidden_size. */
function onnxRnn(op: 'LSTM' | 'GRU' | 'RNN', gates: number, hiddenSize: bigint | number): Uint8Array {
  return ob.encodeModelProto(ob.model({
    opset: 17,
    graph: ob.graph({
      name: 'main',
      inputs: [ob.valueInfo('X', 'f32', [1, 2, 4])],
      outputs: [ob.valueInfo('Y', 'f32', null)],
      initializers: [ob.floatTensor('W', [1, gates, 4], new Array(gates * 4).fill(0.5)), ob.floatTensor('R', [1, gates, 1], new Array(gates).fill(0.25))],
      nodes: [ob.node(op, ['X', 'W', 'R'], ['Y'], { hidden_size: ob.attr.int(hiddenSize) })],
    }),
  }));
}

describe('hidden_size against W and R', () => {
  it.each([['LSTM', 4], ['GRU', 3], ['RNN', 1]] as const)('ONNX %s with hidden_size 2^31 and W for 1: one error, no memory blow-up', (op, gates) => {
    expect(messages(() => convertModel(decodeOnnx(onnxRnn(op, gates, 2n ** 31n))))).toEqual([
      `CONVERT_OP main/${op}#0: ${op}: W (input 1) has ${gates} gate rows where hidden_size 2147483648 needs ${gates} × 2147483648 = ${gates * 2 ** 31}`,
    ]);
  });

  it('ONNX LSTM whose W agrees and R has other columns: the error names R', () => {
    const bytes = ob.encodeModelProto(ob.model({
      opset: 17,
      graph: ob.graph({
        name: 'main',
        inputs: [ob.valueInfo('X', 'f32', [1, 2, 4])],
        outputs: [ob.valueInfo('Y', 'f32', null)],
        initializers: [ob.floatTensor('W', [1, 8, 4], new Array(32).fill(0.5)), ob.floatTensor('R', [1, 8, 3], new Array(24).fill(0.25))],
        nodes: [ob.node('LSTM', ['X', 'W', 'R'], ['Y'], { hidden_size: ob.attr.int(2) })],
      }),
    }));
    expect(messages(() => convertModel(decodeOnnx(bytes)))).toEqual(['CONVERT_OP main/LSTM#0: LSTM: R (input 2) has 3 columns where hidden_size 2 needs 2']);
  });

  it('ONNX LSTM with hidden_size 0 or negative: a positive integer is required', () => {
    expect(messages(() => convertModel(decodeOnnx(onnxRnn('LSTM', 4, 0))))).toEqual(["CONVERT_OP main/LSTM#0: LSTM: attribute 'hidden_size' is 0: a positive integer is required"]);
    expect(messages(() => convertModel(decodeOnnx(onnxRnn('LSTM', 4, -3))))).toEqual(["CONVERT_OP main/LSTM#0: LSTM: attribute 'hidden_size' is -3: a positive integer is required"]);
  });

  it('ONNX LSTM with W and R of unknown shape (graph inputs) and hidden_size 2^31: not taken on trust', () => {
    const bytes = ob.encodeModelProto(ob.model({
      opset: 17,
      graph: ob.graph({
        name: 'main',
        inputs: [ob.valueInfo('X', 'f32', [1, 2, 4]), ob.valueInfo('W', 'f32', null), ob.valueInfo('R', 'f32', null)],
        outputs: [ob.valueInfo('Y', 'f32', null)],
        nodes: [ob.node('LSTM', ['X', 'W', 'R'], ['Y'], { hidden_size: ob.attr.int(2n ** 31n) })],
      }),
    }));
    expect(messages(() => convertModel(decodeOnnx(bytes)))).toEqual([
      "CONVERT_OP main/LSTM#0: LSTM: attribute 'hidden_size' is 2147483648 and the shapes of W and R are not known to confirm it: more than 16777216 gate rows are not taken on trust",
    ]);
  });

  it('IR LSTMSequence-5 and GRUCell-3 with hidden_size 2^31 and weights for 1: one error each', () => {
    const b = new Builder('ov');
    const x = b.input('X', 'f32', [2, 1, 4]);
    const h = b.input('H', 'f32', [2, 1, 1]);
    const cState = b.input('C', 'f32', [2, 1, 1]);
    const lens = b.init('lens', makeTensor('i32', [2], new Uint8Array(new Int32Array([1, 1]).buffer)));
    const f32 = (dims: number[]) => makeTensor('f32', dims, new Uint8Array(dims.reduce((a, d) => a * d, 1) * 4));
    const seq = b.node(b.graph, 'LSTMSequence', [x, h, cState, lens, b.init('W', f32([1, 4, 4])), b.init('R', f32([1, 4, 1])), b.init('B', f32([1, 4]))], 3,
      { hidden_size: A.raw('2147483648'), direction: A.raw('forward') }, { name: 'lstm', version: 'opset5' });
    const x2 = b.input('X2', 'f32', [2, 4]);
    const h2 = b.input('H2', 'f32', [2, 1]);
    const cell = b.node(b.graph, 'GRUCell', [x2, h2, b.init('W2', f32([3, 4])), b.init('R2', f32([3, 1]))], 1, { hidden_size: A.raw('2147483648') }, { name: 'gru', version: 'opset3' });
    for (const v of [...seq.outputs, ...cell.outputs]) b.graph.outputs.push(v);
    expect(messages(() => convertModel(b.model))).toEqual([
      'CONVERT_OP main/lstm: LSTMSequence: W (input 4) has 4 gate rows where hidden_size 2147483648 needs 4 × 2147483648 = 8589934592',
      'CONVERT_OP main/gru: GRUCell: W (input 2) has 3 gate rows where hidden_size 2147483648 needs 3 × 2147483648 = 6442450944',
    ]);
  });
});
