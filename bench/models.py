"""The synthetic models of `npm run bench` (bench/compare.js), written with onnx's own helpers.

python bench/models.py DIR NAME...   NAME: chain10k | chain100k | chain1m | ifs2000 | weights400 | weights2560

- chainN (10k, 100k, 1m: the linearity table): x f32 [1, 64] through N nodes of Add(h, w) -> Relu -> Mul(h, s) (one shared w, one scalar s).
- ifs2000: 1,000 outer Ifs in a chain, each then-branch holding an inner If (2 levels, 2,000 Ifs);
  every branch reads 8 values of its enclosing scopes (captures) besides the running value.
- weights400: x f32 [1, 1024] through 100 blocks MatMul(h, W_k [1024, 1024]) -> Add(b_k) -> Relu,
  every W_k its own 4 MiB initializer: 400 MiB of f32 weights.
- weights2560 (opt-in: `--only weights2560`): the same with 640 blocks, 2.5 GiB of f32 weights, past
  protobuf's 2 GB limit: the .onnx holds the graph and the weights are its external data
  (`weights2560.onnx.data`, one file, as onnx.save_model writes it); the IR's .bin is 2.5 GiB.
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = [helper.make_opsetid("", 17)]


def save(model, path):
    if sum(len(t.raw_data) for t in model.graph.initializer) > 2**31 - 2**20:
        name = path.rsplit("/", 1)[-1] + ".data"
        onnx.save_model(model, path, save_as_external_data=True, all_tensors_to_one_file=True, location=name, size_threshold=1024)
    else:
        onnx.save_model(model, path)


def chain(n):
    width = 64
    nodes = []
    h = "x"
    ops = [("Add", "w"), ("Relu", None), ("Mul", "s")]
    for i in range(n):
        op, operand = ops[i % 3]
        out = f"h{i}"
        nodes.append(helper.make_node(op, [h, operand] if operand else [h], [out], name=f"{op}_{i}"))
        h = out
    w = numpy_helper.from_array((np.arange(width, dtype=np.float32) % 7 / 1000.0).reshape(1, width), "w")
    s = numpy_helper.from_array(np.array([0.999], dtype=np.float32), "s")
    g = helper.make_graph(
        nodes, f"chain{n}",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, width])],
        [helper.make_tensor_value_info(h, TensorProto.FLOAT, [1, width])],
        [w, s])
    return helper.make_model(g, opset_imports=OPSET, producer_name="ovir-bench")


def ifs(outer=1000, captures=8):
    width = 16
    vi = lambda name: helper.make_tensor_value_info(name, TensorProto.FLOAT, [1, width])
    caps = [f"c{k}" for k in range(captures)]
    inits = [numpy_helper.from_array(np.full((1, width), 1.0 + k / 100.0, dtype=np.float32), c) for k, c in enumerate(caps)]
    ops = ["Add", "Mul"]

    def branch(prefix, h, inner):
        """A body reading h and all 8 captures (one Add/Mul each); optionally ending in an inner If."""
        nodes = []
        cur = h
        for k, c in enumerate(caps):
            out = f"{prefix}_t{k}"
            nodes.append(helper.make_node(ops[k % 2], [cur, c], [out], name=f"{prefix}_{ops[k % 2]}_{k}"))
            cur = out
        if inner:
            then_g = branch(f"{prefix}_it", cur, False)
            else_g = branch(f"{prefix}_ie", cur, False)
            out = f"{prefix}_if"
            nodes.append(helper.make_node("If", ["cond"], [out], name=f"{prefix}_If", then_branch=then_g, else_branch=else_g))
            cur = out
        res = f"{prefix}_out"
        nodes.append(helper.make_node("Identity", [cur], [res], name=f"{prefix}_Identity"))
        return helper.make_graph(nodes, prefix, [], [vi(res)])

    nodes = []
    h = "x"
    for i in range(outer):
        out = f"h{i}"
        nodes.append(helper.make_node("If", ["cond"], [out], name=f"If_{i}",
                                      then_branch=branch(f"b{i}_then", h, True),
                                      else_branch=branch(f"b{i}_else", h, False)))
        h = out
    g = helper.make_graph(
        nodes, "ifs2000",
        [helper.make_tensor_value_info("cond", TensorProto.BOOL, []), vi("x")],
        [vi(h)], inits)
    return helper.make_model(g, opset_imports=OPSET, producer_name="ovir-bench")


def weights(mib=400, name="weights400"):
    width = 1024
    blocks = mib * 1024 * 1024 // (width * width * 4)
    rng = np.random.default_rng(7)
    nodes, inits = [], []
    h = "x"
    for k in range(blocks):
        w = (rng.standard_normal((width, width), dtype=np.float32) / 32.0)
        b = np.full((width,), 0.01, dtype=np.float32)
        inits += [numpy_helper.from_array(w, f"W{k}"), numpy_helper.from_array(b, f"b{k}")]
        nodes += [helper.make_node("MatMul", [h, f"W{k}"], [f"m{k}"], name=f"MatMul_{k}"),
                  helper.make_node("Add", [f"m{k}", f"b{k}"], [f"a{k}"], name=f"Add_{k}"),
                  helper.make_node("Relu", [f"a{k}"], [f"r{k}"], name=f"Relu_{k}")]
        h = f"r{k}"
    g = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, width])],
        [helper.make_tensor_value_info(h, TensorProto.FLOAT, [1, width])], inits)
    return helper.make_model(g, opset_imports=OPSET, producer_name="ovir-bench")


BUILDERS = {
    "chain100k": lambda: chain(100_000),
    "chain1m": lambda: chain(1_000_000),
    "chain10k": lambda: chain(10_000),
    "ifs2000": ifs,
    "weights400": weights,
    "weights2560": lambda: weights(2560, "weights2560"),
}

if __name__ == "__main__":
    out = sys.argv[1]
    for name in sys.argv[2:]:
        save(BUILDERS[name](), f"{out}/{name}.onnx")
