import type { Diagnostic } from '../diag/diagnostic.js';
import type { ValueType } from './types.js';

/**
 * What a model's graphs, nodes and values carry beside their structure, one typed key each: details
 * of the source format kept so that writing it again loses nothing (IR layer names, rt_info, ONNX
 * doc strings and metadata), and facts the codecs leave for later passes (captures, input counts).
 * A key is set only when there is something to keep. A new key is declared here, with its type and
 * who sets and reads it; a misspelled key does not compile.
 */
export interface Meta {
  // ── IR (src/ir/read.ts sets, src/ir/write.ts and the converter read) ──────────────────────────
  /** The IR layer's name (Parameter, Const, Result, op layers); kept on conversion to IR. */
  layerName?: string;
  /** The layer's type as spelled in the IR (op-names.ts may canonicalise it). */
  irType?: string;
  /** The layer's version attribute (Parameter/Const/Result layers). */
  irVersion?: string;
  /** Layer attributes beyond id/name/type/version, written back as they were. */
  irLayerAttrs?: Record<string, string>;
  /** `<data>` attributes of Parameter/Const layers beyond the ones ovir interprets. */
  irExtraData?: Record<string, string>;
  /** `<rt_info>` of the layer (nodes, graphs) or of its output port (values). */
  irRtInfo?: XmlElement;
  /** `<rt_info>` of a Parameter/Const layer itself (values: irRtInfo is the port's). */
  irLayerRtInfo?: XmlElement;
  /** `<rt_info>` of each input port, by port. */
  irInputRtInfo?: (XmlElement | undefined)[];
  /** Unknown child elements of the layer, written back unchanged. */
  irChildren?: XmlElement[];
  /** Graph: per output, the Result layer's name (`<name>/sink_port_0` when ovir makes one). */
  resultNames?: string[];
  /** Graph: per output, what its Result layer carried. */
  irResults?: Meta[];
  /** Body graph: the IR layer ids of its Parameters/Results (back edges name layers by id). */
  irLayerIds?: { params: [string, number][]; results: [string, number][] };

  // ── ONNX (src/onnx/decode.ts sets, src/onnx/encode.ts reads) ──────────────────────────────────
  /** Graph: GraphProto.name. */
  onnxName?: string;
  /** doc_string of the graph, node, value_info or tensor. */
  docString?: string;
  /** metadata_props of the graph, node or value_info. */
  metadataProps?: [string, string][];
  /** metadata_props of an initializer's TensorProto. */
  tensorMetadataProps?: [string, string][];
  /** Node: NodeProto.overload. */
  overload?: string;
  /** Node: attribute names in file order. */
  onnxAttrOrder?: string[];
  /** Node: doc_string of each attribute. */
  attrDocs?: Record<string, string>;
  /** Node: device_configurations, as encoded messages. */
  deviceConfigurations?: Uint8Array[];
  /** Graph: quantization_annotation, as encoded messages. */
  quantizationAnnotation?: Uint8Array[];
  /** Node: how many inputs the NodeProto lists (captures are appended after them). */
  onnxInputCount?: number;
  /** Body parameter standing for an outer value (bound to a capture input of the node). */
  onnxCapture?: boolean;
  /** Graph input that also has an initializer (an overridable default). */
  onnxInitializerDefault?: boolean;
  /** Sparse initializer, as its encoded SparseTensorProto. */
  onnxSparseInitializer?: Uint8Array;
  /** The TypeProto as read, when ovir's type loses something of it (written back verbatim)… */
  onnxTypeProto?: Uint8Array;
  /** …as long as the value's type is still this one. */
  onnxTypeFor?: ValueType | null;
  /** Initializer: the type value_info declared for it (its tensor's own type is used). */
  declaredType?: ValueType | null;

  // ── reading ─────────────────────────────────────────────────────────────────────────────────
  /** Root graph: what reading the file found and did not stop at (warnings). */
  diagnostics?: Diagnostic[];

  // ── conversion (src/convert) ────────────────────────────────────────────────────────────────
  /**
   * Body graph: an If branch the conversion fed relaxed captures (src/convert/relax-if.ts,
   * SHAPE_BRANCH_RELAXED): typed as for any input, not as the source types it with its shapes.
   */
  relaxedBranch?: boolean;
}

/** The meta of every node and value without one, for reading (`metaView`; an empty object costs 56 bytes each). */
export const NO_META: Readonly<Meta> = Object.freeze({});

/**
 * What nodes and values share: a Meta created on first access (most decoded nodes and values
 * carry none), and `metaView` to read without creating one.
 */
export abstract class Annotated {
  private metaObj: Meta | null = null;

  /** What the node or value carries beside its structure; created on first access. */
  get meta(): Meta {
    return (this.metaObj ??= {});
  }

  set meta(m: Meta) {
    this.metaObj = m;
  }

  /** The meta for reading only: a shared, frozen empty one while there is none. */
  get metaView(): Readonly<Meta> {
    return this.metaObj ?? NO_META;
  }
}

/** An XML element carried through unchanged (IR rt_info, unknown layer children). */
export interface XmlElement {
  readonly tag: string;
  readonly attrs: Record<string, string>;
  readonly children: XmlElement[];
  text: string;
}
