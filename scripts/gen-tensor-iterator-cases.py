"""TensorIterator-1 IRs built with OpenVINO's own Python API, for the engine-judged suite
test/conformance/tensor-iterator-loop.test.ts: every port-map form (sliced inputs with every
start/end/stride/part_size combination OpenVINO runs, merged and invariant inputs, concatenated
outputs forward and reverse, last values of carried and non-carried Results, no sliced input),
run-time lengths, and nesting with If-8 (a TensorIterator inside an If, an If inside a
TensorIterator).

usage: python scripts/gen-tensor-iterator-cases.py OUT_DIR
writes OUT_DIR/<case>.xml/.bin and OUT_DIR/cases.json: [{name, inputs: {name: [shape, dtype]}}]
"""
import json
import sys
from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset1 as o1
import openvino.opset8 as o8

F32 = np.float32


def ti_outputs(x, s0, w, c=None, dim=6, axis=1, sl=(0, -1, 1, 1), concat=((0, -1, 1, 1),),
               concat_s=(), last_y=False, sliced=True, concat_axis=None):
    """The TensorIterator over x ([2, dim, 3] with dim moved to `axis`); its body:
    s' = s + ReduceSum(part) * w, y = part * 10 + s' (through an If on c when c is given: -y or 2y).
    Outputs: the final s, y concatenated per `concat`, s' per `concat_s` (each (start, end, stride,
    part_size)), optionally the last y."""
    part = [2, dim, 3]
    part[1], part[axis] = part[axis], part[1]
    if sliced:
        part[axis] = sl[3]
    xp = o1.parameter(part, F32, name='xp')
    sp = o1.parameter([1, 1, 1], F32, name='sp')
    wp = o1.parameter([1], F32, name='wp')
    red = o1.reduce_sum(xp, np.array([0, 1, 2]), True)
    s1 = o1.add(sp, o1.multiply(red, wp))
    y = o1.add(o1.multiply(xp, o1.constant(F32(10))), s1)
    params = [xp, sp, wp]
    if c is not None:
        cp = o1.parameter([], np.bool_, name='cp')
        params.append(cp)
        ty = o1.parameter(part, F32, name='ty')
        then = ov.Model([o1.result(o1.negative(ty))], [ty], 'then')
        ey = o1.parameter(part, F32, name='ey')
        els = ov.Model([o1.result(o1.multiply(ey, o1.constant(F32(2))))], [ey], 'else')
        iff = o8.if_op(cp)
        iff.set_then_body(then)
        iff.set_else_body(els)
        iff.set_input(y.output(0), ty, ey)
        y = iff.set_output(then.get_results()[0], els.get_results()[0])
    r_s = o1.result(s1)
    r_y = o1.result(y)
    body = ov.Model([r_s, r_y], params, 'body')
    ti = o1.tensor_iterator()
    ti.set_body(body)
    pa = axis  # (OpenVINO's IR reader refuses a negative port-map axis)
    if sliced:
        ti.set_sliced_input(xp, x.output(0), sl[0], sl[2], sl[3], sl[1], pa)
    else:
        ti.set_invariant_input(xp, x.output(0))
    ti.set_merged_input(sp, s0.output(0), r_s.output(0))
    ti.set_invariant_input(wp, w.output(0))
    if c is not None:
        ti.set_invariant_input(cp, c.output(0))
    outs = [ti.get_iter_value(r_s.output(0), -1)]
    for (st, en, sd, pt) in concat:
        outs.append(ti.get_concatenated_slices(r_y.output(0), st, sd, pt, en, pa if concat_axis is None else concat_axis))
    for (st, en, sd, pt) in concat_s:
        outs.append(ti.get_concatenated_slices(r_s.output(0), st, sd, pt, en, 0))
    if last_y:
        outs.append(ti.get_iter_value(r_y.output(0), -1))
    ti.validate_and_infer_types()
    return outs


def named(outputs, inputs, name):
    results = [o1.result(o) for o in outputs]
    for k, r in enumerate(results):
        r.output(0).get_tensor().set_names({f'out{k}'})
    return ov.Model(results, inputs, name)


def ti_model(name, dim=6, axis=1, dynamic=False, if_inside=False, **kw):
    shape = [2, dim, 3]
    shape[1], shape[axis] = shape[axis], shape[1]
    if dynamic:
        shape[axis] = -1
    x = o1.parameter(shape, F32, name='x')
    s0 = o1.parameter([1, 1, 1], F32, name='s0')
    w = o1.parameter([1], F32, name='w')
    inputs = [x, s0, w]
    c = None
    if if_inside:
        c = o1.parameter([], np.bool_, name='c')
        inputs.append(c)
    return named(ti_outputs(x, s0, w, c, dim=dim, axis=axis, **kw), inputs, name)


def ti_in_if(name):
    """An If whose then-branch holds a TensorIterator that is no Scan (parts of 2) and whose
    else-branch doubles its inputs."""
    x = o1.parameter([2, 6, 3], F32, name='x')
    s0 = o1.parameter([1, 1, 1], F32, name='s0')
    w = o1.parameter([1], F32, name='w')
    c = o1.parameter([], np.bool_, name='c')
    tx = o1.parameter([2, 6, 3], F32, name='tx')
    ts = o1.parameter([1, 1, 1], F32, name='ts')
    tw = o1.parameter([1], F32, name='tw')
    then = ov.Model([o1.result(o) for o in ti_outputs(tx, ts, tw, sl=(0, -1, 2, 2), concat=((0, -1, 2, 2),))], [tx, ts, tw], 'then')
    ex = o1.parameter([2, 6, 3], F32, name='ex')
    es = o1.parameter([1, 1, 1], F32, name='es')
    els = ov.Model([o1.result(o1.multiply(es, o1.constant(F32(2)))), o1.result(o1.multiply(ex, o1.constant(F32(2))))], [ex, es], 'else')
    iff = o8.if_op(c)
    iff.set_then_body(then)
    iff.set_else_body(els)
    iff.set_input(x.output(0), tx, ex)
    iff.set_input(s0.output(0), ts, es)
    iff.set_input(w.output(0), tw, None)
    outs = [iff.set_output(then.get_results()[k], els.get_results()[k]) for k in range(2)]
    return named(outs, [x, s0, w, c], name)


CASES = {
    # parts of 2 (stride 2), forward and reverse, concatenated both ways
    'part2': dict(sl=(0, -1, 2, 2), concat=((0, -1, 2, 2),)),
    'part2-reverse': dict(sl=(-1, 0, -2, 2), concat=((-1, 0, -2, 2),)),
    'part2-reverse-join': dict(sl=(0, -1, 2, 2), concat=((-1, 0, -2, 2), (0, -1, 2, 2))),
    'part3-axis2': dict(axis=2, dim=6, sl=(0, -1, 3, 3), concat=((0, -1, 3, 3),)),
    'part2-axis0': dict(axis=0, dim=4, sl=(0, -1, 2, 2), concat=((0, -1, 2, 2),)),
    # partial ranges
    'partial-end': dict(sl=(0, -3, 1, 1), concat=((0, -1, 1, 1),)),
    'partial-end-part2': dict(dim=7, sl=(0, -2, 2, 2), concat=((0, -1, 2, 2),)),
    'partial-reverse': dict(sl=(-1, 2, -1, 1), concat=((-1, 0, -1, 1),)),
    'partial-reverse-part2-odd': dict(dim=7, sl=(-1, 1, -2, 2), concat=((-1, 0, -2, 2),)),
    'start-1': dict(sl=(1, -1, 1, 1), concat=((0, -1, 1, 1),)),
    # last values of a Result that is no back-edge source
    'last-y': dict(concat=(), last_y=True),
    'last-y-part2': dict(sl=(0, -1, 2, 2), concat=((0, -1, 2, 2),), last_y=True),
    # run-time lengths
    'dynamic-part2': dict(dynamic=True, sl=(0, -1, 2, 2), concat=((0, -1, 2, 2),)),
    'dynamic-partial-reverse': dict(dynamic=True, sl=(-1, 2, -1, 1), concat=((-1, 0, -1, 1),), last_y=True),
    # no sliced input: the count is |end - start| / part_size of the first concatenation, else 1
    'unsliced-3': dict(sliced=False, concat=(), concat_s=((0, 3, 1, 1),)),
    'unsliced-reverse-2': dict(sliced=False, concat=(), concat_s=((2, 0, -1, 1),)),
    'unsliced-none': dict(sliced=False, concat=()),
    # nesting
    'if-inside': dict(sl=(0, -1, 2, 2), concat=((0, -1, 2, 2),), if_inside=True),
}


def loop_model(name, iter_type=np.int64, iter_shape=(), cond_shape=(), trip=3, cond_value=None, body_cond='computed'):
    """A Loop-5 whose current_iteration Parameter is `iter_type` of `iter_shape` and whose body
    condition Result has `cond_shape` (OpenVINO accepts i32/i64, [] or [1]; ONNX's iteration_num
    is an i64 scalar): s' = s + x * (i + 1), cond' = s'[0] < 100 (or a constant `body_cond`);
    outputs: the final s and every s' stacked. trip: a constant trip count (None: the input M);
    cond_value: a constant execution condition (None: the input c)."""
    x = o1.parameter([2], F32, name='x')
    s0 = o1.parameter([2], F32, name='s0')
    inputs = [x, s0]
    if trip is None:
        m = o1.parameter([], np.int64, name='M')
        inputs.append(m)
    else:
        m = o1.constant(np.int64(trip))
    if cond_value is None:
        c = o1.parameter([], np.bool_, name='c')
        inputs.append(c)
    else:
        c = o1.constant(np.bool_(cond_value))
    it = o1.parameter(list(iter_shape), iter_type, name='it')
    xp = o1.parameter([2], F32, name='xp')
    sp = o1.parameter([2], F32, name='sp')
    k = o1.add(o1.convert(it, 'f32'), o1.constant(F32(1)))
    s1 = o1.add(sp, o1.multiply(xp, k))
    if body_cond == 'computed':
        first = o1.gather(s1, o1.constant(np.int64(0)), o1.constant(np.int64(0)))
        cond = o1.less(first, o1.constant(F32(100)))
    else:
        cond = o1.constant(np.bool_(body_cond))
    if cond_shape:
        cond = o1.reshape(cond, o1.constant(np.array(cond_shape, np.int64)), False)
    r_c = o1.result(cond)
    r_s = o1.result(s1)
    r_st = o1.result(o1.unsqueeze(s1, o1.constant(np.int64(0))))
    body = ov.Model([r_c, r_s, r_st], [it, xp, sp], 'body')
    loop = ov.opset5.loop(m, c)
    loop.set_function(body)
    loop.set_special_body_ports([0, 0])
    loop.set_invariant_input(xp, x.output(0))
    loop.set_merged_input(sp, s0.output(0), r_s.output(0))
    outs = [loop.get_iter_value(r_s.output(0), -1), loop.get_concatenated_slices(r_st.output(0), 0, 1, 1, -1, 0)]
    loop.validate_and_infer_types()
    return named(outs, inputs, name)


LOOPS = {
    'loop-iter-i32': dict(iter_type=np.int32),
    'loop-iter-i32-1d': dict(iter_type=np.int32, iter_shape=(1,)),
    'loop-iter-i64-1d-cond-1d': dict(iter_shape=(1,), cond_shape=(1,)),
    'loop-trip-0': dict(trip=0),
    'loop-trip-input': dict(trip=None),
    'loop-cond-input': dict(cond_value=None),  # (a constant false one: OpenVINO 2026.4 fails to run it)
    'loop-body-cond-false': dict(body_cond=False, cond_value=True),
}


def main():
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    listing = []
    models = {name: ti_model(name, **kw) for name, kw in CASES.items()}
    models['ti-in-if'] = ti_in_if('ti-in-if')
    models.update({name: loop_model(name, **kw) for name, kw in LOOPS.items()})
    for name, m in models.items():
        ov.save_model(m, str(out / f'{name}.xml'), compress_to_fp16=False)
        ins = {}
        for p in m.get_parameters():
            ps = p.get_partial_shape()
            shape = [d.get_length() if d.is_static else 6 for d in ps]
            et = p.get_element_type()
            ins[p.get_friendly_name()] = [shape, 'boolean' if et == ov.Type.boolean else 'i64' if et == ov.Type.i64 else 'f32']
        listing.append({'name': name, 'inputs': ins})
    (out / 'cases.json').write_text(json.dumps(listing, indent=1))


if __name__ == '__main__':
    main()
