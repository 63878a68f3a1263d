import { blobOf } from '../ir/blob-helpers.js';
import { bodyXml, netXml, type EdgeSpec, type LayerSpec } from '../ir/build.js';

/**
 * A Loop-5 as OpenVINO's TensorFlow frontend writes tf.while_loop / tf.scan: no current_iteration
 * Parameter, no Parameter bound to the execution condition, TensorFlow's own i32 counter carried
 * (back edge), an invariant input between carried ones and fed to two ports (ONNX captures it
 * once), outer values without port names. The body:
 *
 *   counter' = counter + 1                 (carried, i32; the condition is counter' < 5)
 *   acc'     = acc · inv + inv_again       (carried, f32[3]; its last value is output y)
 *   prod'    = prod · inv                  (carried, f32[3]; its last value is output p)
 *
 * with inv (= inv_again) = Relu(x), acc from Sigmoid(x), prod from Tanh(x). The options write the
 * same loop otherwise (`order`, `renamed`, `namedFeeders`) or another loop (`feeds`, `crossed`).
 */
export interface TfLoopOptions {
  /** The body Parameters in declaration order; Parameter k is bound to Loop port 2 + k. */
  order?: readonly Param[];
  /** Body Parameter names as another writer gives them (`p0`…): nothing pairs by name. */
  renamed?: boolean;
  /** The outer values feeding the Loop carry port names (`inv`, `acc0`, `prod0`). */
  namedFeeders?: boolean;
  /** Which outer value feeds each Parameter, where not TensorFlow's. */
  feeds?: Partial<Record<Param, Outer>>;
  /** The back edges of acc and prod exchanged: acc is fed back prod's next value and the other way round. */
  crossed?: boolean;
  /** The Loop's outputs unnamed, the graph's outputs y and p their Abs: only the data flow reaches the Loop. */
  through?: boolean;
}

export type Param = 'counter' | 'inv' | 'acc' | 'invAgain' | 'prod';
export type Outer = 'counter0' | 'inv' | 'acc0' | 'prod0' | 'z';

const TF_ORDER: readonly Param[] = ['counter', 'inv', 'acc', 'invAgain', 'prod'];
const TF_FEEDS: Record<Param, Outer> = { counter: 'counter0', inv: 'inv', acc: 'acc0', invAgain: 'inv', prod: 'prod0' };

/** Body layer ids of the Parameters, and their TensorFlow-frontend names. */
const PARAMS: Record<Param, { id: number; name: string; i32?: boolean }> = {
  counter: { id: 0, name: 'loop_counter', i32: true },
  inv: { id: 1, name: 'inv_in' },
  acc: { id: 2, name: 'acc_in' },
  invAgain: { id: 11, name: 'inv_again' },
  prod: { id: 13, name: 'prod_in' },
};

/** Main-graph layer ids of the outer values. */
const OUTER: Record<Outer, number> = { counter0: 4, inv: 1, acc0: 2, prod0: 8, z: 9 };

export function tfLoop(opts: TfLoopOptions = {}): { xml: string; bin: Uint8Array } {
  const order = opts.order ?? TF_ORDER;
  const feeds = { ...TF_FEEDS, ...opts.feeds };
  const { bin, at } = blobOf({ zero: new Int32Array([0]), one: new Int32Array([1]), five: new Int32Array([5]), trip: new BigInt64Array([10n]), yes: new Uint8Array([1]) });
  const c = (id: number, name: string, elem: string, key: keyof typeof at, size: number, precision: string): LayerSpec =>
    ({ id, name, type: 'Const', data: { element_type: elem, shape: '', offset: String(at[key]), size: String(size) }, outputs: [{ precision }] });
  const f3 = { precision: 'FP32', dims: [3] };
  const i32 = { precision: 'I32' };
  const params: LayerSpec[] = order.map((p, k) => {
    const { id, name, i32: int } = PARAMS[p];
    const layer = opts.renamed ? `p${k}` : name;
    return int
      ? { id, name: layer, type: 'Parameter', data: { shape: '', element_type: 'i32' }, outputs: [i32] }
      : { id, name: layer, type: 'Parameter', data: { shape: '3', element_type: 'f32' }, outputs: [f3] };
  });
  const body = bodyXml([
    ...params,
    c(3, 'one', 'i32', 'one', 4, 'I32'),
    { id: 4, name: 'next', type: 'Add', data: { auto_broadcast: 'numpy' }, inputs: [i32, i32], outputs: [i32] },
    { id: 5, name: 'acc', type: 'Multiply', data: { auto_broadcast: 'numpy' }, inputs: [f3, f3], outputs: [f3] },
    { id: 12, name: 'acc_plus', type: 'Add', data: { auto_broadcast: 'numpy' }, inputs: [f3, f3], outputs: [f3] },
    { id: 14, name: 'prod_next', type: 'Multiply', data: { auto_broadcast: 'numpy' }, inputs: [f3, f3], outputs: [f3] },
    c(6, 'five', 'i32', 'five', 4, 'I32'),
    { id: 7, name: 'more', type: 'Less', data: { auto_broadcast: 'numpy' }, inputs: [i32, i32], outputs: [{ precision: 'BOOL' }] },
    { id: 8, name: 'next_res', type: 'Result', inputs: [i32] },
    { id: 9, name: 'acc_res', type: 'Result', inputs: [f3] },
    { id: 15, name: 'prod_res', type: 'Result', inputs: [f3] },
    { id: 10, name: 'cond_res', type: 'Result', inputs: [{ precision: 'BOOL' }] },
  ], [
    [0, 0, 4, 0], [3, 0, 4, 1], [2, 0, 5, 0], [1, 0, 5, 1], [4, 2, 7, 0], [6, 0, 7, 1], [4, 2, 8, 0],
    [5, 2, 12, 0], [11, 0, 12, 1], [12, 2, 9, 0], [13, 0, 14, 0], [1, 0, 14, 1], [14, 2, 15, 0], [7, 2, 10, 0],
  ]);
  const n = order.length;
  const port = (p: Param): number => 2 + order.indexOf(p);
  const [accFrom, prodFrom] = opts.crossed ? [15, 9] : [9, 15];
  const loop: LayerSpec = {
    id: 5, name: 'while', type: 'Loop', version: 'opset5',
    inputs: [{ precision: 'I64' }, { precision: 'BOOL' }, ...order.map((p) => (PARAMS[p].i32 ? i32 : f3))],
    outputs: opts.through ? [i32, f3, f3] : [i32, { ...f3, names: 'y' }, { ...f3, names: 'p' }],
    inner: `<port_map>
      ${order.map((p) => `<input external_port_id="${port(p)}" internal_layer_id="${PARAMS[p].id}"/>`).join('')}
      <output external_port_id="${2 + n}" internal_layer_id="8"/>
      <output external_port_id="${3 + n}" internal_layer_id="9"/>
      <output external_port_id="${4 + n}" internal_layer_id="15"/>
      <output external_port_id="-1" internal_layer_id="10" purpose="execution_condition"/>
    </port_map><back_edges><edge from-layer="8" to-layer="0"/><edge from-layer="${accFrom}" to-layer="2"/><edge from-layer="${prodFrom}" to-layer="13"/></back_edges><body>${body}</body>`,
  };
  const named = (name: string) => (opts.namedFeeders ? { ...f3, names: name } : f3);
  const edges: EdgeSpec[] = [[0, 0, 1, 0], [0, 0, 2, 0], [0, 0, 8, 0], [3, 0, 5, 0], [6, 0, 5, 1]];
  // the graph's outputs: the Loop's, or their Abs (layers 11 and 12)
  if (opts.through) edges.push([5, 3 + n, 11, 0], [5, 4 + n, 12, 0], [11, 1, 7, 0], [12, 1, 10, 0]);
  else edges.push([5, 3 + n, 7, 0], [5, 4 + n, 10, 0]);
  for (const p of order) {
    const from = OUTER[feeds[p]];
    edges.push([from, from === OUTER.counter0 || from === OUTER.z ? 0 : 1, 5, port(p)]);
  }
  const xml = netXml([
    { id: 0, name: 'x', type: 'Parameter', data: { shape: '3', element_type: 'f32' }, outputs: [{ ...f3, names: 'x' }] },
    { id: 9, name: 'z', type: 'Parameter', data: { shape: '1', element_type: 'f32' }, outputs: [{ precision: 'FP32', dims: [1], names: 'z' }] },
    { id: 1, name: 'inv', type: 'Relu', inputs: [f3], outputs: [named('inv')] },
    { id: 2, name: 'acc0', type: 'Sigmoid', inputs: [f3], outputs: [named('acc0')] },
    { id: 8, name: 'prod0', type: 'Tanh', inputs: [f3], outputs: [named('prod0')] },
    c(3, 'trip', 'i64', 'trip', 8, 'I64'),
    c(4, 'counter0', 'i32', 'zero', 4, 'I32'),
    c(6, 'yes', 'boolean', 'yes', 1, 'BOOL'),
    loop,
    ...(opts.through ? [
      { id: 11, name: 'y', type: 'Abs', inputs: [f3], outputs: [{ ...f3, names: 'y' }] },
      { id: 12, name: 'p', type: 'Abs', inputs: [f3], outputs: [{ ...f3, names: 'p' }] },
    ] : []),
    { id: 7, name: 'out_y', type: 'Result', inputs: [f3] },
    { id: 10, name: 'out_p', type: 'Result', inputs: [f3] },
  ], edges);
  return { xml, bin };
}
