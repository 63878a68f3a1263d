import { describe, expect, it } from 'vitest';
import { diag, formatDiagnostic, type Diagnostic } from '../../src/diag/diagnostic.js';
import { groupDiagnostics } from '../../src/diag/group.js';

const inFile = (d: Diagnostic, file = 'm.xml'): Diagnostic => ({ ...d, file });

describe('diagnostics grouped one line per cause (src/diag/group.ts)', () => {
  it('a cause repeated on many Const layers is one line with the count', () => {
    const ds = Array.from({ length: 529 }, (_, i) => inFile(diag('IR_BIN_MISSING', `main/c${i}`, { layer: `c${i}`, path: 'm.bin' })));
    expect(groupDiagnostics(ds)).toEqual([
      "error: m.xml: main/c0: Const layer 'c0' needs weights, but there is no .bin ('m.bin') [IR_BIN_MISSING] … and 528 more Const layers",
    ]);
  });

  it('repeats of one code are grouped per op; distinct ops stay distinct causes; order of first appearance', () => {
    const unsupported = (op: string, i: number) => inFile(diag('CONVERT_UNSUPPORTED_OP', `main/${op}_${i}`, { op, dialect: 'ONNX', version: '17', target: 'OpenVINO IR' }), 'm.onnx');
    const ds = [unsupported('Foo', 0), unsupported('Bar', 0), ...Array.from({ length: 37 }, (_, i) => unsupported('Foo', i + 1))];
    const lines = groupDiagnostics(ds);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^error: m\.onnx: main\/Foo_0: Foo \(ONNX 17\) has no conversion to OpenVINO IR \[CONVERT_UNSUPPORTED_OP\] … and 37 more nodes of op Foo$/);
    expect(lines[1]).toMatch(/main\/Bar_0: Bar .*\[CONVERT_UNSUPPORTED_OP\]$/);
  });

  it('repeats at the same node are counted there, not as more nodes; the same finding twice counts once', () => {
    const unknown = (attr: string, where = 'main/Neg#0') => inFile(diag('CONVERT_UNKNOWN_ATTR', where, { op: 'Neg', attr, target: 'OpenVINO IR' }), 'm.onnx');
    expect(groupDiagnostics(['a0', 'a1', 'a2', 'a3', 'a4'].map((a) => unknown(a)))).toEqual([
      "error: m.onnx: main/Neg#0: Neg: attribute 'a0' has no counterpart in OpenVINO IR; refusing to drop it [CONVERT_UNKNOWN_ATTR] … and 4 more at main/Neg#0",
    ]);
    expect(groupDiagnostics([unknown('a0'), unknown('a1'), unknown('a0', 'main/Neg#1'), unknown('a1', 'main/Neg#1')])[0]).toMatch(/… and 3 more at 2 nodes of op Neg$/);
    const rule = inFile(diag('SHAPE_RULE', 'main/y', { op: 'Reshape', detail: 'bad' }), 'm.onnx');
    expect(groupDiagnostics([rule, { ...rule }])).toEqual(['error: m.onnx: main/y: Reshape: bad [SHAPE_RULE]']);
  });

  it('after a root cause (a file or option problem), the shape errors that follow are one summary line', () => {
    const root = inFile(diag('CONVERT_BAD_OPTION', 'main', { detail: '--input x[1,2,3]: …' }), 'v5.onnx');
    const cascade = Array.from({ length: 40 }, (_, i) => inFile(diag('SHAPE_RULE', `main/n${i}`, { op: `Op${i}`, detail: 'rank mismatch' }), 'v5.onnx'));
    const lines = groupDiagnostics([root, ...cascade]);
    expect(lines).toEqual([
      'error: v5.onnx: main: --input x[1,2,3]: … [CONVERT_BAD_OPTION]',
      'note: v5.onnx: 40 further errors from inference and conversion left out: they follow from the error above (--json lists every one)',
    ]);
  });

  it('without a root cause, shape errors are causes of their own; info is left out; other files are not affected', () => {
    const shape = inFile(diag('SHAPE_RULE', 'main/n0', { op: 'Reshape', detail: 'bad' }), 'a.onnx');
    const info = inFile(diag('SHAPE_UNKNOWN_OP', 'main/n1', { op: 'X', dialect: 'onnx', version: '17', fallback: 'unknown' }), 'a.onnx');
    const other = inFile(diag('FILE_NOT_FOUND', '', { reason: 'ENOENT' }), 'b.onnx');
    expect(groupDiagnostics([shape, info, other])).toEqual([
      'error: a.onnx: main/n0: Reshape: bad [SHAPE_RULE]',
      'error: b.onnx: cannot read file: ENOENT [FILE_NOT_FOUND]',
    ]);
  });

  it('a diagnostic is plain JSON, bigint parameters included (every one goes to --json and reports)', () => {
    const d = diag('ONNX_DIM_TOO_LARGE', 'main', { what: 'input x', value: 2n ** 60n });
    expect(JSON.parse(JSON.stringify(d))).toMatchObject({ code: 'ONNX_DIM_TOO_LARGE', params: { value: '1152921504606846976' } });
  });
});

describe('a diagnostic line shows control characters of names as escapes (a name is the model author\'s text)', () => {
  it('a newline cannot forge a second line, an escape sequence cannot reach the terminal; --json keeps them', () => {
    const d = inFile(diag('CONVERT_UNSUPPORTED_OP', 'main/a\nerror: forged\u001b]0;title\u0007', { op: 'Foo\u009b', dialect: 'ONNX', version: '17', target: 'OpenVINO IR' }), 'm\t.onnx');
    const line = formatDiagnostic(d);
    expect(line).toBe('error: m\\t.onnx: main/a\\nerror: forged\\x1b]0;title\\x07: Foo\\x9b (ONNX 17) has no conversion to OpenVINO IR [CONVERT_UNSUPPORTED_OP]');
    expect(groupDiagnostics([d, { ...d, where: 'main/b\u0000' }])[0]).toMatch(/… and 1 more node of op Foo\\x9b$/);
    expect(d.where).toContain('\n');
  });
});
