/** One row of the ONNX operator schema table (src/onnx/schemas.data.ts). */
export interface OnnxFormalParam {
  readonly name: string;
  readonly option: 'single' | 'optional' | 'variadic';
  /** A type constraint parameter ('T') or a fixed type (ovir's element name, e.g. 'i64'). */
  readonly type: string;
  /** A variadic parameter whose elements may each have their own type (Loop's state values). */
  readonly heterogeneous?: boolean;
}

export interface OnnxSchemaRow {
  readonly op: string;
  /** The opset this version of the op appeared in (it holds until the op's next row). */
  readonly since: number;
  readonly deprecated?: boolean;
  /** Attribute name → AttributeProto type, lowercase ('int', 'ints', 'float', 'tensor', 'graph'…). */
  readonly attrs: Readonly<Record<string, string>>;
  /** The attributes a node must have (absent: none). */
  readonly required?: readonly string[];
  readonly inputs: readonly OnnxFormalParam[];
  readonly outputs: readonly OnnxFormalParam[];
  readonly minInputs: number;
  /** -1: unbounded (a variadic last input). */
  readonly maxInputs: number;
  /** The number of outputs a node must have, and may have (-1: unbounded), as onnx's OpSchema counts them. */
  readonly minOutputs: number;
  readonly maxOutputs: number;
  /** Type constraint parameter → allowed types (ovir element names; seq(...)/optional(...) as written). */
  readonly types: Readonly<Record<string, readonly string[]>>;
}
