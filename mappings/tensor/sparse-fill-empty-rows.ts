import { A } from '../../src/graph/attr.js';
import { elementType } from '../../src/graph/element-type.js';
import { tensorFromInt64 } from '../../src/graph/tensor.js';
import type { Value } from '../../src/graph/value.js';
import { i64Const, i64Scalar } from '../helpers.js';
import { cast, dimOf, irOnly, never, on, unsqueeze } from '../ir-only/onnx-build.js';
import type { ConvertContext, OpMapping } from '../spec.js';

/**
 * SparseFillEmptyRows-16 (TensorFlow's tf.sparse.fill_empty_rows), which ONNX lacks, as OpenVINO's
 * reference (sparse_fill_empty_rows.hpp, which the CPU plugin runs) computes it: values [N],
 * dense_shape [2] = [rows, cols], indices [N, 2], default_value a scalar. A row no index names is
 * empty (output 2, [rows] boolean: ScatterElements add of ones into per-row counts, Equal 0); each
 * empty row r gets the entry (r, 0) = default_value (NonZero); the N + E entries are sorted by
 * (row, col) — ascending row·cols + col, TopK smallest of all — giving output_indices [N + E, 2]
 * (the indices' type) and output_values [N + E]. Entries with equal (row, col) are in an order
 * neither spec fixes.
 */
function sparseFillEmptyRowsToOnnx(c: ConvertContext): void {
  const idxType = c.elem(2);
  if (idxType === null || idxType === 'dynamic' || elementType(idxType).kind !== 'int') { c.error(`SparseFillEmptyRows takes integer indices, not ${idxType ?? 'an unknown type'}`); return; }
  const asI64 = (i: number): Value => (c.elem(i) === 'i64' ? c.input(i)! : cast(c, c.input(i)!, 'i64'));
  const values = c.input(0)!;
  const shape = asI64(1);
  const indices = asI64(2);
  const rows = on(c, 'Gather', [shape, i64Scalar(c, 0n)], { axis: A.int(0) });
  const cols = on(c, 'Max', [on(c, 'Gather', [shape, i64Scalar(c, 1n)], { axis: A.int(0) }), i64Scalar(c, 1n)]);
  const column = (k: bigint): Value => on(c, 'Gather', [indices, i64Scalar(c, k)], { axis: A.int(1) }); // [N]
  const row = column(0n);
  const zerosOf = (n: Value): Value => on(c, 'ConstantOfShape', [unsqueeze(c, n, [0n])], { value: A.tensor(tensorFromInt64([0n], [1])) });
  const ones = on(c, 'Add', [on(c, 'Mul', [row, i64Scalar(c, 0n)]), i64Scalar(c, 1n)]);
  const counts = on(c, 'ScatterElements', [zerosOf(rows), row, ones], { axis: A.int(0), reduction: A.string('add') });
  const empty = on(c, 'Equal', [counts, i64Scalar(c, 0n)]); // [rows]
  const emptyRows = on(c, 'Reshape', [on(c, 'NonZero', [empty]), i64Const(c, [-1n])]); // [E]
  const E = dimOf(c, emptyRows, 0n);
  const allRows = on(c, 'Concat', [row, emptyRows], { axis: A.int(0) });
  const allCols = on(c, 'Concat', [column(1n), zerosOf(E)], { axis: A.int(0) });
  const key = on(c, 'Add', [on(c, 'Mul', [allRows, cols]), allCols]);
  const total = unsqueeze(c, dimOf(c, key, 0n), [0n]);
  const [, order] = c.emit('TopK', [key, total], { axis: A.int(0), largest: A.int(0), sorted: A.int(1) }, 2);
  const added = on(c, 'Concat', [unsqueeze(c, emptyRows, [1n]), unsqueeze(c, zerosOf(E), [1n])], { axis: A.int(1) }); // [E, 2]
  const outIndices = on(c, 'Gather', [on(c, 'Concat', [indices, added], { axis: A.int(0) }), order!], { axis: A.int(0) });
  const fill = on(c, 'Expand', [on(c, 'Reshape', [c.input(3)!, i64Const(c, [1n])]), unsqueeze(c, E, [0n])]);
  const outValues = on(c, 'Gather', [on(c, 'Concat', [values, fill], { axis: A.int(0) }), order!], { axis: A.int(0) });
  c.output(0, idxType === 'i64' ? outIndices : cast(c, outIndices, idxType));
  c.output(1, outValues);
  c.output(2, empty);
}

export const SPARSE_FILL_EMPTY_ROWS: readonly OpMapping[] = [
  {
    onnx: { op: 'ScatterElements', since: 16 },
    ir: { op: 'SparseFillEmptyRows', version: 'opset16' },
    when: never,
    note: 'per-row counts (ScatterElements add), the empty rows (NonZero) as (row, 0) = default_value, all entries sorted by (row, col) with TopK',
    toIr: irOnly,
    toOnnx: sparseFillEmptyRowsToOnnx,
  },
];
