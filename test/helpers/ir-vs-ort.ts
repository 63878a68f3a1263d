import { expect } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import type { Model } from '../../src/graph/index.js';
import { saveModel } from '../../src/io/load.js';
import { compareOutputs } from './compare.js';
import { Oracle, type OracleTensor } from './oracle.js';

/**
 * Writes `make()` as `<base>.onnx` and ovir's IR of it as `<base>.xml`, then requires OpenVINO on
 * the IR to compute, for every feed, what onnxruntime computes on the ONNX model (each of
 * `outputs`, f32 rtol 1e-4, ints exact). `make` is called twice: conversion rewrites its input.
 */
export async function expectIrComputesAsOrt(base: string, make: () => Model, feeds: readonly Record<string, OracleTensor>[], outputs: readonly string[] = ['y']): Promise<void> {
  saveModel(make(), `${base}.onnx`);
  saveModel(convertModel(make()), `${base}.xml`);
  const oracle = await Oracle.start();
  try {
    for (const feed of feeds) {
      const want = await oracle.runOrt(`${base}.onnx`, feed);
      const got = await oracle.runIr(`${base}.xml`, feed);
      for (const name of outputs) expect(want[name]).toBeDefined();
      expect(compareOutputs(got, outputs.map((name) => ({ name, tensor: want[name]! })))).toEqual([]);
    }
  } finally {
    await oracle.close();
  }
}
