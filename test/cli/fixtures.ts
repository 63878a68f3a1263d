import { A, Graph, Model, defaultOnnxInfo, sym, tensorFromFloat32, tensorType, type Dialect, type Value } from '../../src/graph/index.js';

/**
 * A small model with `depth` nested Ifs, in either dialect, built on the graph API:
 *
 *   main:  c = Constant/Const [1] f32;  s = Add(x, c);  y = If_0(cond, s)
 *   If_k(cond, s, cond):  then: If_{k+1}(cond, s, cond)   (the innermost: Relu(s))
 *          else: Neg(s)
 *
 * x is f32 [N,3], cond boolean []. ONNX: Constant is a node, branches capture cond and s (body
 * parameters named as the outer values). IR: Const is an initializer, bodies have Parameters
 * bound through the port maps, every port typed.
 */
export function nestedIfModel(dialect: Dialect, depth: number): Model {
  const ov = dialect === 'ov';
  const model = new Model(dialect);
  if (ov) model.ir = { name: 'nested_if', version: 11, rtInfo: null };
  else model.onnx = defaultOnnxInfo(17);
  const g = model.graph;
  const t = tensorType('f32', [sym('N'), 3]);
  const bool = tensorType('boolean', []);
  const cond = g.addInput(bool, ['cond']);
  const x = g.addInput(t, ['x']);
  if (ov) { cond.meta['layerName'] = 'cond'; x.meta['layerName'] = 'x'; }
  let c: Value;
  if (ov) {
    c = g.addInitializer(tensorFromFloat32([0.5], [1]), ['c']);
  } else {
    const k = g.addNode({ dialect, op: 'Constant', version: '17', name: 'c_const' });
    k.attrs.set('value', A.tensor(tensorFromFloat32([0.5], [1])));
    c = k.addOutput(tensorType('f32', [1]), ['c']);
  }
  const add = g.addNode({ dialect, op: 'Add', version: ov ? 'opset1' : '17', name: 'add' });
  add.addInput(x);
  add.addInput(c);
  const s = add.addOutput(t, ['s']);
  const y = addIf(g, dialect, cond, s, 0, depth);
  y.names = ['y'];
  g.outputs.push(y);
  if (ov) g.meta['resultNames'] = ['y/sink_port_0'];
  return model;
}

function addIf(g: Graph, dialect: Dialect, cond: Value, s: Value, level: number, depth: number): Value {
  const ov = dialect === 'ov';
  const t = tensorType('f32', [sym('N'), 3]);
  const node = g.addNode({ dialect, op: 'If', version: ov ? 'opset8' : '17', name: `If_${level}` });
  node.addInput(cond);
  node.addInput(s);
  // The branches read cond too: as a capture (ONNX, only where a nested If reads it) or a
  // port-mapped input (IR), never through input 0.
  const capturesCond = ov || level + 1 < depth;
  if (capturesCond) node.addInput(cond);
  const out = node.addOutput(t, [`if_${level}_out`]);
  for (const [branch, key] of [['then', ov ? 'then_body' : 'then_branch'], ['else', ov ? 'else_body' : 'else_branch']] as const) {
    const body = g.addBody(node, key);
    const b = body.graph;
    const readsCond = capturesCond && (ov || branch === 'then');
    const pc = readsCond ? b.addInput(tensorType('boolean', []), [ov ? `${branch}_${level}_cond` : cond.name]) : null;
    const ps = b.addInput(t, [ov ? `${branch}_${level}_s` : s.name]);
    if (ov) { pc!.meta['layerName'] = pc!.names[0]; ps.meta['layerName'] = ps.names[0]; }
    if (pc) body.inputs.push({ param: pc, from: 2 });
    body.inputs.push({ param: ps, from: 1 });
    let r: Value;
    if (branch === 'then' && level + 1 < depth) {
      r = addIf(b, dialect, pc!, ps, level + 1, depth);
    } else {
      const op = branch === 'then' ? 'Relu' : ov ? 'Negative' : 'Neg';
      const n = b.addNode({ dialect, op, version: ov ? 'opset1' : '17', name: `${op}_${level}` });
      if (ov && op === 'Relu') n.meta['irType'] = 'ReLU';
      n.addInput(ps);
      r = n.addOutput(t, [`${branch}_${level}_r`]);
    }
    b.outputs.push(r);
    body.outputs.push({ result: 0, to: 0 });
    if (ov) b.meta['resultNames'] = [`${branch}_${level}_result`];
  }
  return out;
}
