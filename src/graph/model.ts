import { Graph } from './graph.js';
import type { Dialect } from './node.js';

/** What an ONNX ModelProto carries besides its graph. */
export interface OnnxModelInfo {
  irVersion: bigint;
  /** domain ('' for ai.onnx) → opset version. */
  opsetImports: Map<string, number>;
  producerName: string;
  producerVersion: string;
  domain: string;
  modelVersion: bigint;
  docString: string;
  metadataProps: [string, string][];
  /** Parts carried through unchanged (FunctionProto, TrainingInfoProto…), as encoded bytes. */
  passthrough: Record<string, Uint8Array[]>;
}

/** What an IR `<net>` carries besides its graph. */
export interface IrModelInfo {
  name: string;
  version: 10 | 11;
  /** The `<rt_info>` element of the net, as parsed (carried through). */
  rtInfo: unknown;
}

export class Model {
  dialect: Dialect;
  graph: Graph;
  onnx?: OnnxModelInfo;
  ir?: IrModelInfo;

  constructor(dialect: Dialect, graph = new Graph('main')) {
    this.dialect = dialect;
    this.graph = graph;
  }
}

export function defaultOnnxInfo(opset = 17): OnnxModelInfo {
  return {
    irVersion: 8n,
    opsetImports: new Map([['', opset]]),
    producerName: 'ovir',
    producerVersion: '',
    domain: '',
    modelVersion: 0n,
    docString: '',
    metadataProps: [],
    passthrough: {},
  };
}
