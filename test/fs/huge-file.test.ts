import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { MAX_BUFFER_BYTES } from '../../src/fs/sparse-file.js';
import { ConstWriter } from '../../src/ir/const-writer.js';
import { readIrFile } from '../../src/ir/file.js';
import { readOnnxFile, writeOnnxFile } from '../../src/onnx/file.js';
import * as ob from '../helpers/onnx-builder.js';
import { codesOf, netXml, result } from '../ir/build.js';

// A weights file larger than Node's largest Buffer (4 GiB): a .bin of a model with more than 4 GiB
// of weights, or such an ONNX external data file. Its tensors are read where they lie, each range a
// window of its own. The files here are sparse (their holes take no disk): only the bytes written
// exist, and reading the rest gives zeros.

const dir = mkdtempSync(join(tmpdir(), 'ovir-huge-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SIZE = MAX_BUFFER_BYTES + (1 << 20);
const AT = MAX_BUFFER_BYTES + 4096; // past 4 GiB
const VALUES = [1.5, -2, 3.25, 0];

/** A sparse file of SIZE bytes holding VALUES as f32 at AT. */
function hugeFile(path: string): void {
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, Buffer.from(Float32Array.from(VALUES).buffer), 0, 16, AT);
    writeSync(fd, Buffer.alloc(1), 0, 1, SIZE - 1);
  } finally {
    closeSync(fd);
  }
}

const constLayer = (offset: number, size: number, shape: string, dims: number[]) => ({
  id: 1, name: 'c', type: 'Const', data: { element_type: 'f32', shape, offset: String(offset), size: String(size) }, outputs: [{ precision: 'FP32', names: 'c', dims }],
});
const valuesOf = (t: { data: Uint8Array }) => [...new Float32Array(Uint8Array.from(t.data).buffer)];

describe('weights files larger than any Buffer (4 GiB)', () => {
  it('an IR .bin: a Const past 4 GiB reads its own bytes, and converts to ONNX', () => {
    hugeFile(join(dir, 'm.bin'));
    writeFileSync(join(dir, 'm.xml'), netXml([constLayer(AT, 16, '1,4', [1, 4]), result(2, 'out', [1, 4])], [[1, 0, 2, 0]]));
    const m = readIrFile(join(dir, 'm.xml'));
    expect(valuesOf(m.graph.initializers[0]!.constant!)).toEqual(VALUES);
    writeOnnxFile(convertModel(m), join(dir, 'back.onnx'));
    const back = readOnnxFile(join(dir, 'back.onnx'));
    expect(valuesOf(back.graph.initializers[0]!.constant!)).toEqual(VALUES);
  });

  it('an IR .bin: one Const of more than 4 GiB is refused by name (IR_BLOB_TOO_BIG)', () => {
    const n = MAX_BUFFER_BYTES / 4 + 1;
    writeFileSync(join(dir, 'big.xml'), netXml([constLayer(0, n * 4, `${n}`, [n]), result(2, 'out', [n])], [[1, 0, 2, 0]]));
    hugeFile(join(dir, 'big.bin'));
    expect(codesOf(() => readIrFile(join(dir, 'big.xml')))).toEqual(['IR_BLOB_TOO_BIG']);
  });

  it('an IR .xml past 2 GiB (Node reads no larger file whole) is refused as too big, not as unreadable', () => {
    const xml = join(dir, 'huge.xml');
    const fd = openSync(xml, 'w');
    try {
      writeSync(fd, Buffer.from('<?xml version="1.0"?>'), 0, 21, 0);
      writeSync(fd, Buffer.alloc(1), 0, 1, 2 ** 31); // 2 GiB + 1 byte, sparse
    } finally {
      closeSync(fd);
    }
    let message = '';
    expect(codesOf(() => {
      try {
        readIrFile(xml);
      } catch (e) {
        message = (e as Error).message;
        throw e;
      }
    })).toEqual(['FILE_TOO_BIG']);
    expect(message).toContain('2.0 GiB of XML; ovir reads an IR .xml of up to 2 GiB');
  });

  it('the .bin writer takes weights of 2 GiB or more (its dedup samples their middle: no 32-bit arithmetic)', () => {
    const n = 2 ** 31 / 4 + 1024; // f32 elements: 2 GiB + 4 KiB
    // two such weights, sparse: the first marked in its middle (where the dedup samples), so the
    // two differ there and are never compared whole
    const fd = openSync(join(dir, 'two.bin'), 'w');
    try {
      writeSync(fd, Buffer.from([7]), 0, 1, Math.floor((n * 4 - 32) / 2));
      writeSync(fd, Buffer.alloc(1), 0, 1, 2 * n * 4 - 1);
    } finally {
      closeSync(fd);
    }
    const consts = [0, n * 4].map((offset, k) => ({ ...constLayer(offset, n * 4, `${n}`, [n]), id: k + 1, name: `c${k}` }));
    writeFileSync(join(dir, 'two.xml'), netXml([...consts, result(3, 'o1', [n]), result(4, 'o2', [n])], [[1, 0, 3, 0], [2, 0, 4, 0]]));
    const m = readIrFile(join(dir, 'two.xml'));
    const w = new ConstWriter();
    const [a, b] = m.graph.initializers.map((v) => w.write(v.constant!));
    expect(a).toEqual({ offset: 0, size: n * 4 });
    expect(b).toEqual({ offset: n * 4, size: n * 4 });
  });

  it('ONNX external data: a tensor past 4 GiB of its data file', () => {
    hugeFile(join(dir, 'w.data'));
    writeFileSync(join(dir, 'm.onnx'), ob.encodeModelProto(ob.model({
      graph: ob.graph({
        inputs: [ob.valueInfo('x', 'f32', [1, 4])],
        outputs: [ob.valueInfo('y', 'f32', [1, 4])],
        initializers: [ob.externalTensor('w', 'f32', [1, 4], 'w.data', AT, 16)],
        nodes: [ob.node('Add', ['x', 'w'], ['y'])],
      }),
    })));
    const m = readOnnxFile(join(dir, 'm.onnx'));
    expect(valuesOf(m.graph.initializers[0]!.constant!)).toEqual(VALUES);
  });
});
