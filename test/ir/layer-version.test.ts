import { describe, expect, it } from 'vitest';
import { readIr } from '../../src/ir/read.js';
import { diagnosticsOf, netXml, param, result, type LayerSpec } from './build.js';

/**
 * Parameter, Const and Result are no ops a mapping checks the version of: a Const of version
 * opset999, a Parameter without version or a layer id of -2 were read (and converted) where
 * OpenVINO 2026.4 refuses the file (found by a hostile-input campaign; versions measured: Parameter
 * opset1…opset17, Const and Result opset1…opset16).
 */
const relu: LayerSpec = { id: 1, name: 'r', type: 'Relu', inputs: [{ precision: 'FP32', dims: [2, 4] }], outputs: [{ precision: 'FP32', names: 'y', dims: [2, 4] }] };
const net = (p: Partial<LayerSpec>, r: Partial<LayerSpec> = {}): string =>
  netXml([{ ...param(0, 'x'), ...p }, relu, { ...result(2, 'y_res'), ...r }], [[Number(p.id ?? 0), 0, 1, 0], [1, 1, 2, 0]]);

describe('the version of a Parameter, Const or Result', () => {
  it.each(['opset1', 'opset16', 'opset17'])('a Parameter of %s is read', (version) => {
    expect(() => readIr(net({ version }), null)).not.toThrow();
  });

  it.each([['', 'Parameter'], ['opset0', 'Parameter'], ['opset18', 'Parameter'], ['opset1 ', 'Parameter'], ['opset17', 'Result'], ['extension', 'Result']])('version %j of a %s: IR_LAYER_BAD naming the layer', (version, type) => {
    const d = diagnosticsOf(() => readIr(type === 'Parameter' ? net({ version }) : net({}, { version }), null));
    expect(d.map((x) => [x.code, x.where])).toEqual([['IR_LAYER_BAD', type === 'Parameter' ? 'main/x' : 'main/y_res']]);
    expect(d[0]!.message).toContain(`version '${version}' is no opset that has ${type}`);
  });

  it('a negative layer id', () => {
    const d = diagnosticsOf(() => readIr(netXml([param(0, 'x'), relu, result(-2, 'y_res')], [[0, 0, 1, 0], [1, 1, -2, 0]]), null));
    expect(d[0]!.message).toContain("id '-2' is not an unsigned integer");
  });
});
