import { elementType, type ElementTypeName } from '../../src/graph/element-type.js';
import { A } from '../../src/graph/attr.js';
import { makeTensor, readIntegers } from '../../src/graph/tensor.js';
import type { Value } from '../../src/graph/value.js';
import { never } from '../ir-only/onnx-build.js';
import { convWithBias } from '../nn/conv-bias.js';
import { NUMPY_BROADCAST, type ConvertContext, type OpMapping } from '../spec.js';

function twoInputsOnly(c: ConvertContext): void {
  if (c.numInputs !== 2) { c.error(`${c.node.op} with ${c.numInputs} inputs: only two-input ${c.node.op} converts (the IR op is binary)`); return; }
  c.output(0, c.emitOwn([c.input(0), c.input(1)], c.attrs())[0]!);
}

/**
 * Binary elementwise ops. ONNX broadcasts numpy-style from opset 7; before, only with an explicit
 * `broadcast`/`axis` pair, which is refused as an unknown attribute rather than guessed (without
 * it the shapes are equal, which numpy broadcasting covers). IR carries auto_broadcast="numpy"
 * ("none" is accepted when reading: shapes then already agree).
 */
const binary = (onnx: string, ir: string, since = 1): OpMapping => ({
  onnx: { op: onnx, since },
  ir: { op: ir, version: 'opset1' },
  attrs: [...NUMPY_BROADCAST],
});

/**
 * [a, b] when an ONNX Div is Div(Sub(a, Mod(a, b)), b) on integers — the floor division IR →
 * ONNX writes for IR Divide m_pythondiv="true" — else null.
 */
function floorDivOperands(c: ConvertContext): [Value, Value] | null {
  const [num, b] = c.node.inputs;
  const sub = num?.producer;
  if (!b || !sub || sub.dialect !== 'onnx' || !sub.is('Sub')) return null;
  const [a, m] = sub.inputs;
  const mod = m?.producer;
  if (!a || !mod || !mod.is('Mod') || mod.inputs[0] !== a || mod.inputs[1] !== b) return null;
  const fmod = mod.attrs.get('fmod');
  if (fmod && !(fmod.type === 'int' && fmod.value === 0n)) return null;
  const t = c.typeOf(a);
  return t?.kind === 'tensor' && t.elem !== 'dynamic' && !/^(f|bf)/.test(t.elem) ? [a, b] : null;
}

function powToIr(c: ConvertContext): void {
  const [tb, te] = [c.elem(0), c.elem(1)];
  let [base, exp] = [c.input(0), c.input(1)];
  const power = (a: Value | null, b: Value | null): Value => c.emit('Power', [a, b], { auto_broadcast: 'numpy' }, 1, 'opset1')[0]!;
  const convert = (v: Value | null, to: ElementTypeName): Value => c.emit('Convert', [v], { destination_type: to }, 1, 'opset1')[0]!;
  if (tb === null || te === null || tb === te) { c.output(0, power(base, exp)); return; }
  const [b, e] = [elementType(tb), elementType(te)];
  if (e.kind === 'int' || e.kind === 'uint' || (b.kind === 'float' && b.bits >= e.bits)) {
    exp = convert(exp, tb);
    c.output(0, power(base, exp));
    return;
  }
  base = convert(base, te);
  c.output(0, convert(power(base, exp), tb));
}

/**
 * IR → ONNX: Power of a constant base 2 on u64 (ovc writes ONNX BitShift this way: x · 2^y,
 * x / 2^y) is BitShift(1, y, LEFT). ONNX Pow takes no unsigned type and u64 has no exact wider
 * type to compute in (narrower unsigned types are widened exactly by legalizeOnnxTypes).
 */
function powerOfTwo(c: ConvertContext): Value | null {
  const base = c.node.inputs[0]?.constant;
  if (!base || base.elem !== 'u64' || c.opset < 11) return null;
  if (!readIntegers(base).every((v) => v === 2n)) return null;
  const width = elementType(base.elem).bits / 8;
  const ones = new Uint8Array(base.data.length);
  for (let i = 0; i < ones.length; i += width) ones[i] = 1; // little-endian 1 in every element
  return c.emit('BitShift', [c.constant(makeTensor(base.elem, base.dims, ones)), c.input(1)], { direction: A.string('LEFT') })[0]!;
}

export const ELEMENTWISE: readonly OpMapping[] = [
  {
    ...binary('Add', 'Add'),
    // a per-channel constant added to a convolution is the ONNX Conv's bias input
    foldOnnx: convWithBias,
    note: 'IR → ONNX: an Add of a per-channel constant onto a convolution read by nothing else is that Conv/ConvTranspose\'s bias B',
  },
  binary('Sub', 'Subtract'),
  binary('Mul', 'Multiply'),
  {
    // ONNX Pow's exponent may have another element type than the base; IR Power's may not. As
    // OpenVINO's frontend: an integer exponent, or a real base at least as wide, is converted to the
    // base's type; otherwise the base goes to the exponent's type and the result back to the base's.
    ...binary('Pow', 'Power'),
    toIr: powToIr,
    foldOnnx: powerOfTwo,
  },
  binary('Equal', 'Equal'),
  binary('Greater', 'Greater'),
  binary('Less', 'Less'),
  binary('GreaterOrEqual', 'GreaterEqual', 12),
  binary('LessOrEqual', 'LessEqual', 12),
  binary('And', 'LogicalAnd', 7),
  binary('Or', 'LogicalOr', 7),
  // LogicalXor-2 only renamed the op's opset (same semantics, numpy broadcasting); ovc writes it
  { ...binary('Xor', 'LogicalXor', 7), ir: { op: 'LogicalXor', version: 'opset1', reads: ['opset2'] } },
  // Xor-1 (v0::Xor) is LogicalXor before its rename, read by old IRs: IR → ONNX only (ONNX → IR writes LogicalXor)
  { ...binary('Xor', 'Xor', 7), when: never, note: 'v0::Xor of old IRs, LogicalXor before the rename (IR → ONNX only)' },
  { ...binary('BitwiseAnd', 'BitwiseAnd', 18), ir: { op: 'BitwiseAnd', version: 'opset13' } },
  { ...binary('BitwiseOr', 'BitwiseOr', 18), ir: { op: 'BitwiseOr', version: 'opset13' } },
  { ...binary('BitwiseXor', 'BitwiseXor', 18), ir: { op: 'BitwiseXor', version: 'opset13' } },
  {
    // ONNX integer Div truncates toward zero (C semantics, as onnxruntime computes it); IR Divide
    // floors unless m_pythondiv is false.
    onnx: { op: 'Div', since: 1 },
    ir: { op: 'Divide', version: 'opset1' },
    attrs: [...NUMPY_BROADCAST, { ir: 'm_pythondiv', kind: 'string', irValues: ['false', 'true'] }],
    note: 'm_pythondiv="true" floors integer quotients: back to ONNX as Div(a - Mod(a, b), b)',
    // ONNX → IR reads that form back as one flooring Divide (IR → ONNX → IR keeps the IR).
    toIr: (c) => {
      const floor = floorDivOperands(c);
      const [a, b] = floor ? [c.converted(floor[0]), c.converted(floor[1])] : [c.input(0), c.input(1)];
      c.output(0, c.emit('Divide', [a, b], { auto_broadcast: 'numpy', m_pythondiv: floor ? 'true' : 'false' }, 1, 'opset1')[0]!);
    },
    toOnnx: (c) => {
      const floors = c.attr.bool('m_pythondiv', true);
      const elem = c.elem(0);
      if (floors && (elem === null || !/^(f|bf)/.test(elem))) {
        // Integer floor division: a - floormod(a, b) is a multiple of b, so ONNX's truncating
        // Div of it is exact. ONNX Mod (fmod=0) takes the divisor's sign: a floor modulo.
        if (c.opset < 10) { c.unsupportedAttr('m_pythondiv', 'true', 'integer floor division needs ONNX Mod (opset 10 or later)'); return; }
        const m = c.emit('Mod', [c.input(0), c.input(1)])[0]!;
        const d = c.emit('Sub', [c.input(0), m])[0]!;
        c.output(0, c.emit('Div', [d, c.input(1)])[0]!);
        return;
      }
      c.output(0, c.emit('Div', [c.input(0), c.input(1)])[0]!);
    },
  },
  {
    onnx: { op: 'Where', since: 9 },
    ir: { op: 'Select', version: 'opset1' },
    attrs: [...NUMPY_BROADCAST],
  },
  {
    // ONNX Max/Min are variadic; IR's are binary: two-input nodes only.
    onnx: { op: 'Max', since: 8 },
    ir: { op: 'Maximum', version: 'opset1' },
    attrs: [...NUMPY_BROADCAST],
    toIr: twoInputsOnly,
  },
  {
    onnx: { op: 'Min', since: 8 },
    ir: { op: 'Minimum', version: 'opset1' },
    attrs: [...NUMPY_BROADCAST],
    toIr: twoInputsOnly,
  },
];
