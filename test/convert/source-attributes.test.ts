import { describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { OvirError, type Diagnostic } from '../../src/diag/diagnostic.js';
import { A, type Attr } from '../../src/graph/index.js';
import { Builder } from './builder.js';

/**
 * ONNX → IR reads each node's attributes as its operator schema types them: an attribute of
 * another kind (Softmax `axis` written as a string) or a required one that is absent (Concat
 * without `axis`) makes the model invalid ONNX (onnx's checker refuses it), and converting it would
 * read the default in place of what the node says — a silently different model. Each is an error
 * naming the node and the attribute, all of a model's at once.
 */
function errorsOf(op: string, attrs: Record<string, Attr>, inputs = 1): Diagnostic[] {
  const b = new Builder('onnx', 17);
  const x = b.input('x', 'f32', [2, 3]);
  b.output(b.op(b.graph, op, new Array(inputs).fill(x), 'y', attrs));
  try { convertModel(b.model); } catch (e) { if (e instanceof OvirError) return e.diagnostics.filter((d) => d.severity === 'error'); throw e; }
  return [];
}

describe('source attributes against the ONNX schema', () => {
  it('an attribute of another kind than the schema\'s is refused, naming node, attribute and kinds', () => {
    expect(errorsOf('Softmax', { axis: A.string('1') }).map((d) => `${d.code} ${d.where}: ${d.message}`))
      .toEqual([expect.stringMatching(/^CONVERT_UNSUPPORTED_ATTR main\/Softmax#0: Softmax: attribute 'axis' = <string> is not supported \(the Softmax-13 schema says int\)/)]);
    expect(errorsOf('Transpose', { perm: A.int(1) })[0]!.message).toContain("attribute 'perm' = <int> is not supported (the Transpose-13 schema says ints)");
  });

  it('a required attribute that is absent is refused; with it the node converts', () => {
    expect(errorsOf('Concat', {}, 2).map((d) => `${d.code} ${d.message}`)).toEqual(["CONVERT_OP Concat: attribute 'axis' is required (the Concat-13 schema); the node has none"]);
    expect(errorsOf('Concat', { axis: A.int(0) }, 2)).toEqual([]);
  });

  it('an integer where the schema says float reads as that number', () => {
    expect(errorsOf('LeakyRelu', { alpha: A.int(1) })).toEqual([]);
  });
});
