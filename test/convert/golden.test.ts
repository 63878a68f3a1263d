import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { writeIr } from '../../src/ir/write.js';
import { Builder } from './builder.js';
import { directOutputs, nested, opsIf, seedExample } from './fixtures.js';

/**
 * Golden IR: what ONNX → IR conversion writes for the If cases, byte for byte. A change here is a
 * change in the IR we hand to OpenVINO: review the diff (`npx vitest run -u` accepts it) and rerun
 * test/conformance/if.test.ts, which runs these same fixtures in OpenVINO.
 */
const cases: [string, (b: Builder) => unknown, number][] = [
  ['seed-003-shared-outer', seedExample, 17],
  ['direct-outputs', directOutputs, 17],
  ['nested-2', (b) => nested(b, 2), 17],
  ['ops-in-branches', opsIf, 18],
];

describe('golden IR from ONNX If models', () => {
  it.each(cases)('%s', async (name, make, opset) => {
    const b = new Builder('onnx', opset);
    make(b);
    const { xml, bin } = writeIr(convertModel(b.model));
    await expect(xml).toMatchFileSnapshot(`golden/${name}.xml`);
    const bytes = Buffer.concat(bin.map((x) => Buffer.from(x))).toString('hex');
    await expect(bytes).toMatchFileSnapshot(`golden/${name}.bin.hex`);
  });
});
