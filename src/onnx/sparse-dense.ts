import type { Diagnostics } from '../diag/diagnostic.js';
import { byteSize, byteSizeText, elementType } from '../graph/element-type.js';
import { elementCount } from '../graph/shape.js';
import { makeTensor, readIntegers, type Tensor } from '../graph/tensor.js';
import type { SparseTensorProto } from './proto-types.js';
import { T } from './schema.js';
import { decodeTensor, tensorDims } from './tensor-data.js';
import { decodeMessage, list, str } from './wire.js';

/** The largest dense tensor a sparse one is expanded to (a typed array's practical bound). */
const MAX_DENSE_BYTES = 2 ** 31 - 1;

/**
 * The dense tensor a sparse initializer stands for (SparseTensorProto, as its encoded bytes): zeros
 * with `values[k]` at the place `indices` gives for k — either NNZ linear indices ([NNZ]) or one
 * coordinate row per value ([NNZ, rank]), as the ONNX spec defines them. OpenVINO IR has no sparse
 * tensors; its ONNX frontend expands them the same way. Null, with an ONNX_TENSOR_BAD diagnostic at
 * `where`, when the proto does not describe a tensor (an index out of range, a shape mismatch) or
 * the dense form has no fixed-size element type or is too large to hold.
 */
export function denseOfSparse(bytes: Uint8Array, diags: Diagnostics, where: string): Tensor | null {
  const sp = decodeMessage<SparseTensorProto>(T.SparseTensorProto, bytes);
  const name = str(sp.values, 'name');
  const bad = (detail: string): null => {
    diags.add('ONNX_TENSOR_BAD', where, { name, detail: `sparse initializer: ${detail}` });
    return null;
  };
  const ctx = { diags, where, external: null };
  if (!sp.values || !sp.indices) return bad('values and indices are both required');
  const values = decodeTensor(sp.values, ctx);
  const indices = decodeTensor(sp.indices, ctx);
  const dims = tensorDims(list<bigint>(sp, 'dims').map((d) => BigInt(d)), name, ctx);
  if (!values || !indices || !dims) return null;
  const bits = elementType(values.elem).bits;
  if (values.elem === 'string' || bits % 8 !== 0) return bad(`values of element type ${values.elem} cannot be expanded to a dense tensor`);
  const size = bits / 8;
  const count = elementCount(dims);
  const denseBytes = byteSize(values.elem, count);
  if (!Number.isSafeInteger(denseBytes) || denseBytes > MAX_DENSE_BYTES) return bad(`its dense form ${values.elem} ${JSON.stringify(dims)} needs ${byteSizeText(values.elem, dims)} bytes, more than ${MAX_DENSE_BYTES}`);
  if (values.dims.length !== 1) return bad(`values must be 1-D, got ${JSON.stringify(values.dims)}`);
  const nnz = values.dims[0]!;
  const linear = indices.dims.length === 1 && indices.dims[0] === nnz;
  const coords = indices.dims.length === 2 && indices.dims[0] === nnz && indices.dims[1] === dims.length;
  if (!linear && !coords) return bad(`indices ${JSON.stringify(indices.dims)} are neither [${nnz}] nor [${nnz}, ${dims.length}] for ${nnz} values of a rank-${dims.length} tensor`);
  // onnx: int64 indices (a float or string tensor made readIntegers throw: a crash, not a diagnostic)
  if (elementType(indices.elem).kind !== 'int' && elementType(indices.elem).kind !== 'uint') return bad(`indices must be integers (int64), got ${indices.elem}`);
  const idx = readIntegers(indices);
  const data = new Uint8Array(denseBytes);
  const src = values.data;
  for (let k = 0; k < nnz; k++) {
    let at = 0;
    if (linear) at = Number(idx[k]!);
    else {
      for (let r = 0; r < dims.length; r++) {
        const c = Number(idx[k * dims.length + r]!);
        if (!(c >= 0 && c < dims[r]!)) return bad(`index ${c} of value ${k} is outside dimension ${r} (${dims[r]})`);
        at = at * dims[r]! + c;
      }
    }
    if (!(at >= 0 && at < count)) return bad(`index ${at} of value ${k} is outside the ${count} elements`);
    data.set(src.subarray(k * size, (k + 1) * size), at * size);
  }
  return makeTensor(values.elem, dims, data);
}
