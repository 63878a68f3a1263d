"""Builds the ONNX models of test/conformance/ml-ops.test.ts: classic ai.onnx.ml ops as
skl2onnx / onnxmltools write them, with seeded random attributes.

Usage: ml-ops.py OUT_DIR → writes OUT_DIR/<case>.onnx and prints one JSON list:
[{"name", "onnx", "inputs": {name: {"dtype", "shape", "hex"}}, "refused": bool}].

Tree ensembles: several trees of depth 3-6 (random shapes, node ids permuted, the root listed
first and the other nodes shuffled), every branch mode, thresholds and inputs on one grid (so EQ
and NEQ decide), NaN inputs where nodes track missing values, targets / classes on every leaf or
on some, repeated weights on a leaf, base values, every aggregate function and post_transform,
ml opsets 1 and 3 (the *_as_tensor attributes), float, double and int64 inputs.
Also ONNX's TfIdfVectorizer over integer tokens (the featurizer of text pipelines; cases at the end).
"""
import json
import os
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper

OUT = sys.argv[1]
ML = "ai.onnx.ml"
MODES = ["BRANCH_LEQ", "BRANCH_LT", "BRANCH_GTE", "BRANCH_GT", "BRANCH_EQ", "BRANCH_NEQ"]
GRID = np.arange(-6, 7) * 0.25
F = 5
cases = []


def tensor_json(a):
    dt = {np.float32: "f32", np.float64: "f64", np.int64: "i64", np.int32: "i32"}[a.dtype.type]
    return {"dtype": dt, "shape": list(a.shape), "hex": np.ascontiguousarray(a).tobytes().hex()}


def save(name, node, x, outputs, opset_ml, refused=False, x_elem=TensorProto.FLOAT):
    save_inputs(name, node, {"X": x}, outputs, opset_ml, refused)


ELEM = {np.float32: TensorProto.FLOAT, np.float64: TensorProto.DOUBLE, np.int64: TensorProto.INT64, np.int32: TensorProto.INT32}


def save_inputs(name, node, xs, outputs, opset_ml, refused=False):
    ins = [helper.make_tensor_value_info(k, ELEM[v.dtype.type], list(v.shape)) for k, v in xs.items()]
    graph = helper.make_graph([node], name, ins, outputs)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid(ML, opset_ml)])
    model.ir_version = 8
    path = os.path.join(OUT, name + ".onnx")
    with open(path, "wb") as f:
        f.write(model.SerializeToString())
    cases.append({"name": name, "onnx": path, "inputs": {k: tensor_json(v) for k, v in xs.items()}, "refused": refused})


def make_trees(rng, n_trees, modes=MODES, tracks=False, single_leaf=False):
    """Listing of nodes: dict of lists (treeids, nodeids, featureids, modes, values, true, false, tracks) and leaves [(tree, node)]."""
    cols = {k: [] for k in ["treeids", "nodeids", "featureids", "modes", "values", "true", "false", "tracks"]}
    leaves = []
    for t in range(n_trees):
        depth = int(rng.integers(3, 7))
        nodes = []  # (local index, kind, children)

        def grow(d):
            k = len(nodes)
            nodes.append(None)
            if (single_leaf and t == 1) or d == depth or (d >= 2 and rng.random() < 0.3):
                nodes[k] = ("leaf", None, None)
            else:
                a = grow(d + 1)
                b = grow(d + 1)
                nodes[k] = ("branch", a, b)
            return k
        grow(0)
        ids = rng.permutation(len(nodes)) + int(rng.integers(0, 3))
        order = [0] + list(rng.permutation(np.arange(1, len(nodes))))
        for k in order:
            kind, a, b = nodes[k]
            cols["treeids"].append(t + 10 * (t % 2))
            cols["nodeids"].append(int(ids[k]))
            if kind == "leaf":
                cols["featureids"].append(0)
                cols["modes"].append("LEAF")
                cols["values"].append(0.0)
                cols["true"].append(0)
                cols["false"].append(0)
                cols["tracks"].append(0)
                leaves.append((t + 10 * (t % 2), int(ids[k])))
            else:
                cols["featureids"].append(int(rng.integers(0, F)))
                cols["modes"].append(str(rng.choice(modes)))
                cols["values"].append(float(rng.choice(GRID)))
                cols["true"].append(int(ids[a]))
                cols["false"].append(int(ids[b]))
                cols["tracks"].append(int(rng.random() < 0.5) if tracks else 0)
    return cols, leaves


def inputs(rng, n, nan=False, dtype=np.float32):
    x = rng.choice(GRID, size=(n, F)) + (rng.random((n, F)) < 0.3) * 0.1
    if nan:
        x[rng.random((n, F)) < 0.15] = np.nan
    return x.astype(dtype)


def weights(rng, leaves, targets, every=True, repeat=False, scale=1.0, positive=False, only=None):
    ids, nodes, trees, ws = [], [], [], []
    for (t, nd) in leaves:
        chosen = [only] if only is not None else [k for k in range(targets) if every or rng.random() < 0.6]
        if not chosen:
            chosen = [int(rng.integers(0, targets))]
        for k in chosen:
            for _ in range(2 if repeat and rng.random() < 0.3 else 1):
                ids.append(k); nodes.append(nd); trees.append(t)
                w = rng.standard_normal() * scale
                ws.append(float(abs(w) if positive else w))
    return ids, nodes, trees, ws


def node_attrs(cols, tensor=None):
    a = dict(nodes_treeids=cols["treeids"], nodes_nodeids=cols["nodeids"], nodes_featureids=cols["featureids"],
             nodes_modes=cols["modes"], nodes_truenodeids=cols["true"], nodes_falsenodeids=cols["false"],
             nodes_hitrates=[1.0] * len(cols["modes"]))
    if any(cols["tracks"]):
        a["nodes_missing_value_tracks_true"] = cols["tracks"]
    if tensor is None:
        a["nodes_values"] = cols["values"]
    else:
        a["nodes_values_as_tensor"] = numpy_helper.from_array(np.array(cols["values"], dtype=tensor))
    return a


def regressor(name, seed, targets=1, agg="SUM", post="NONE", base=None, every=True, repeat=False, tracks=False, n=9,
              opset=1, tensor=None, dtype=np.float32, scale=1.0, positive=False, single_leaf=False, rank1=False):
    rng = np.random.default_rng(seed)
    cols, leaves = make_trees(rng, int(rng.integers(3, 6)), tracks=tracks, single_leaf=single_leaf)
    ids, nodes, trees, ws = weights(rng, leaves, targets, every, repeat, scale, positive)
    attrs = node_attrs(cols, tensor)
    attrs.update(n_targets=targets, aggregate_function=agg, post_transform=post, target_ids=ids, target_nodeids=nodes, target_treeids=trees)
    if tensor is None:
        attrs["target_weights"] = ws
        if base is not None:
            attrs["base_values"] = base
    else:
        attrs["target_weights_as_tensor"] = numpy_helper.from_array(np.array(ws, dtype=tensor))
        if base is not None:
            attrs["base_values_as_tensor"] = numpy_helper.from_array(np.array(base, dtype=tensor))
    node = helper.make_node("TreeEnsembleRegressor", ["X"], ["Y"], domain=ML, **attrs)
    x = inputs(rng, n, tracks, np.float32 if dtype == np.int64 else dtype)
    if dtype == np.int64:
        x = np.nan_to_num(x * 4).astype(np.int64)
    if rank1:
        x = x[0]
    elem = {np.float32: TensorProto.FLOAT, np.float64: TensorProto.DOUBLE, np.int64: TensorProto.INT64}[dtype]
    save(name, node, x, [helper.make_tensor_value_info("Y", TensorProto.FLOAT, None)], opset, x_elem=elem)


def classifier(name, seed, labels, post="NONE", base=None, every=True, repeat=False, tracks=False, n=9, opset=1, tensor=None,
               scale=1.0, positive=False, only=None, refused=False, strings=False):
    rng = np.random.default_rng(seed)
    cols, leaves = make_trees(rng, int(rng.integers(3, 6)), tracks=tracks)
    ids, nodes, trees, ws = weights(rng, leaves, len(labels), every, repeat, scale, positive, only)
    attrs = node_attrs(cols, tensor)
    attrs.update(post_transform=post, class_ids=ids, class_nodeids=nodes, class_treeids=trees)
    if strings:
        attrs["classlabels_strings"] = [str(k) for k in labels]
    else:
        attrs["classlabels_int64s"] = labels
    if tensor is None:
        attrs["class_weights"] = ws
        if base is not None:
            attrs["base_values"] = base
    else:
        attrs["class_weights_as_tensor"] = numpy_helper.from_array(np.array(ws, dtype=tensor))
        if base is not None:
            attrs["base_values_as_tensor"] = numpy_helper.from_array(np.array(base, dtype=tensor))
    node = helper.make_node("TreeEnsembleClassifier", ["X"], ["Y", "Z"], domain=ML, **attrs)
    x = inputs(rng, n, tracks)
    outs = [helper.make_tensor_value_info("Y", TensorProto.STRING if strings else TensorProto.INT64, None),
            helper.make_tensor_value_info("Z", TensorProto.FLOAT, None)]
    save(name, node, x, outs, opset, refused=refused)


# TreeEnsembleRegressor
regressor("ter_sum_1", 1, base=[0.5])
regressor("ter_sum_3_base", 2, targets=3, base=[0.5, -1.0, 2.0])
regressor("ter_average_2", 3, targets=2, agg="AVERAGE", base=[1.0, 2.0])
regressor("ter_average_1", 4, agg="AVERAGE", base=[-0.25])
regressor("ter_min_1", 5, agg="MIN", base=[0.5])
regressor("ter_max_1", 6, agg="MAX")
regressor("ter_min_3", 7, targets=3, agg="MIN", base=[0.1, 0.2, 0.3])
regressor("ter_max_3", 8, targets=3, agg="MAX")
regressor("ter_sum_sparse_targets", 9, targets=3, every=False, base=[1.0, 2.0, 3.0])
regressor("ter_max_sparse_targets", 10, targets=4, agg="MAX", every=False, base=[1.0, 2.0, 3.0, 4.0])
regressor("ter_repeated_weights", 11, targets=2, repeat=True)
regressor("ter_repeated_weights_1", 12, repeat=True)
regressor("ter_missing_tracks_true", 13, targets=2, tracks=True)
regressor("ter_missing_tracks_3", 109, targets=3, tracks=True)
regressor("ter_logistic_3", 14, targets=3, post="LOGISTIC", scale=4.0)
regressor("ter_softmax_3", 15, targets=3, post="SOFTMAX")
regressor("ter_softmax_zero_3", 16, targets=3, post="SOFTMAX_ZERO", every=False)
regressor("ter_probit_3", 17, targets=3, post="PROBIT", scale=0.05, positive=True, base=[0.3, 0.4, 0.5])
regressor("ter_probit_1", 18, post="PROBIT", scale=0.05, positive=True, base=[0.4])
regressor("ter_logistic_1_ignored", 19, post="LOGISTIC")
regressor("ter_opset3_as_tensor", 20, targets=2, opset=3, tensor=np.float32, base=[0.5, 0.25])
regressor("ter_double", 21, targets=2, opset=3, tensor=np.float64, dtype=np.float64, base=[0.5, 0.25])
regressor("ter_double_float_attrs", 22, dtype=np.float64)
regressor("ter_batch_64", 24, targets=2, n=64)
regressor("ter_batch_64_1", 25, n=64)
regressor("ter_single_leaf_tree", 26, targets=2, single_leaf=True)


def tree_ensemble5(name, seed, targets, post, agg=1):
    """TreeEnsemble-5 (ml opset 5) from the same random trees: branches and leaves in their own tables, one target per leaf."""
    rng = np.random.default_rng(seed)
    cols, _ = make_trees(rng, int(rng.integers(3, 6)))
    n = len(cols["modes"])
    key = [(cols["treeids"][i], cols["nodeids"][i]) for i in range(n)]
    branch = [i for i in range(n) if cols["modes"][i] != "LEAF"]
    leaf = [i for i in range(n) if cols["modes"][i] == "LEAF"]
    bpos = {key[i]: k for k, i in enumerate(branch)}
    lpos = {key[i]: k for k, i in enumerate(leaf)}
    roots = [i for i in range(n) if i == 0 or cols["treeids"][i] != cols["treeids"][i - 1]]
    if any(cols["modes"][r] == "LEAF" for r in roots):
        raise ValueError("a one-leaf tree")
    mode = {m: k for k, m in enumerate(MODES)}

    def child(i, side):
        k = (cols["treeids"][i], cols[side][i])
        return (bpos[k], 0) if k in bpos else (lpos[k], 1)
    t = [child(i, "true") for i in branch]
    f = [child(i, "false") for i in branch]
    attrs = dict(n_targets=targets, aggregate_function=agg, post_transform=post, tree_roots=[bpos[key[r]] for r in roots],
                 nodes_featureids=[cols["featureids"][i] for i in branch],
                 nodes_modes=numpy_helper.from_array(np.array([mode[cols["modes"][i]] for i in branch], np.uint8)),
                 nodes_splits=numpy_helper.from_array(np.array([cols["values"][i] for i in branch], np.float32)),
                 nodes_truenodeids=[a for a, _ in t], nodes_trueleafs=[b for _, b in t], nodes_falsenodeids=[a for a, _ in f], nodes_falseleafs=[b for _, b in f],
                 leaf_targetids=[int(rng.integers(0, targets)) for _ in leaf], leaf_weights=numpy_helper.from_array(rng.standard_normal(len(leaf)).astype(np.float32)))
    node = helper.make_node("TreeEnsemble", ["X"], ["Y"], domain=ML, **attrs)
    inp = helper.make_tensor_value_info("X", TensorProto.FLOAT, [9, F])
    model = helper.make_model(helper.make_graph([node], name, [inp], [helper.make_tensor_value_info("Y", TensorProto.FLOAT, None)]),
                              opset_imports=[helper.make_opsetid("", 21), helper.make_opsetid(ML, 5)])
    model.ir_version = 10
    path = os.path.join(OUT, name + ".onnx")
    with open(path, "wb") as fh:
        fh.write(model.SerializeToString())
    cases.append({"name": name, "onnx": path, "inputs": {"X": tensor_json(inputs(rng, 9))}, "refused": False})


# TreeEnsemble-5's post_transform as onnxruntime reads it (1 LOGISTIC, 2 SOFTMAX, 3 SOFTMAX_ZERO, 4 PROBIT; one target: PROBIT only)
for post in range(5):
    tree_ensemble5(f"te5_post_{post}_3targets", 400 + post, 3, post)
tree_ensemble5("te5_post_1_1target", 410, 1, 1)
tree_ensemble5("te5_post_2_average", 411, 3, 2, agg=0)

# TreeEnsembleClassifier
classifier("tec_multi", 101, [10, 20, 30, 40])
classifier("tec_multi_softmax", 102, [0, 1, 2], post="SOFTMAX")
classifier("tec_multi_logistic", 103, [0, 1, 2], post="LOGISTIC", scale=3.0)
classifier("tec_multi_softmax_zero", 104, [5, 6, 7], post="SOFTMAX_ZERO", every=False)
classifier("tec_multi_probit", 105, [0, 1, 2], post="PROBIT", scale=0.05, positive=True, base=[0.3, 0.4, 0.5])
classifier("tec_multi_base", 106, [3, 1, 2, 0], base=[0.5, -0.5, 0.25, 0.0])
classifier("tec_multi_sparse", 107, [0, 1, 2, 3], every=False)
classifier("tec_multi_sparse_base", 108, [0, 1, 2, 3], every=False, base=[0.1, -0.2, 0.0, 0.3])
classifier("tec_multi_repeated", 109, [0, 1, 2], repeat=True, tracks=True)
classifier("tec_multi_missing_tracks", 200, [0, 1, 2], tracks=True)
classifier("tec_multi_opset3", 110, [7, 8, 9], opset=3, tensor=np.float32, base=[0.1, 0.2, 0.3])
classifier("tec_multi_batch_64", 111, [0, 1, 2], n=64, post="SOFTMAX")
classifier("tec_binary_both_positive", 120, [0, 1], positive=True, scale=0.3)
classifier("tec_binary_both_mixed", 121, [4, 9])
classifier("tec_binary_both_logistic", 122, [0, 1], post="LOGISTIC")
classifier("tec_binary_class1_positive", 123, [0, 1], positive=True, only=1, scale=0.3)
classifier("tec_binary_class1_mixed_logistic", 124, [2, 5], only=1, post="LOGISTIC")
classifier("tec_binary_class0_mixed_logistic_base1", 125, [0, 1], only=0, post="LOGISTIC", base=[0.3])
classifier("tec_binary_class0_mixed", 126, [0, 1], only=0)
classifier("tec_binary_class0_positive", 127, [0, 1], only=0, positive=True, scale=0.3)
classifier("tec_binary_class1_base2", 128, [0, 1], only=1, base=[0.2, 0.7])
classifier("tec_binary_class0_base2", 129, [0, 1], only=0, base=[0.2, 0.7], post="LOGISTIC")
classifier("tec_binary_sparse_base2", 130, [0, 1], every=False, base=[0.2, 0.7])
classifier("tec_binary_sparse", 131, [0, 1], every=False)
classifier("tec_binary_probit_class1", 132, [0, 1], only=1, post="PROBIT", scale=0.05, positive=True)
# refused: string labels; PROBIT where a sample may reach no weight of class 1 (onnxruntime leaves Z[:, 1] unwritten)
classifier("tec_refused_strings", 140, [0, 1, 2], strings=True, refused=True)
classifier("tec_refused_probit_one_score", 141, [0, 1], only=0, post="PROBIT", refused=True)


def single(name, op, x, attrs, outputs=(("Y", TensorProto.FLOAT),), refused=False):
    node = helper.make_node(op, ["X"], [o for o, _ in outputs], domain=ML, **attrs)
    save(name, node, x, [helper.make_tensor_value_info(o, t, None) for o, t in outputs], 1, refused=refused)


rng = np.random.default_rng(300)
F6 = (rng.standard_normal((7, 6)) * 1.5).astype(np.float32)
LABELS = (("Y", TensorProto.INT64), ("Z", TensorProto.FLOAT))


def coef(outputs, features=6, scale=0.7):
    return [float(v) for v in rng.standard_normal(outputs * features) * scale]


# LinearRegressor
single("lr_1", "LinearRegressor", F6, dict(coefficients=coef(1), intercepts=[0.25]))
single("lr_3", "LinearRegressor", F6, dict(coefficients=coef(3), intercepts=[0.5, -1.0, 2.0], targets=3))
single("lr_3_no_intercepts", "LinearRegressor", F6, dict(coefficients=coef(3), targets=3))
single("lr_3_logistic", "LinearRegressor", F6, dict(coefficients=coef(3, scale=3), intercepts=[0.5, -1.0, 2.0], targets=3, post_transform="LOGISTIC"))
single("lr_3_softmax", "LinearRegressor", F6, dict(coefficients=coef(3), targets=3, post_transform="SOFTMAX"))
single("lr_3_softmax_zero", "LinearRegressor", F6, dict(coefficients=coef(3), targets=3, post_transform="SOFTMAX_ZERO"))
single("lr_3_probit", "LinearRegressor", np.abs(F6) / 10, dict(coefficients=[abs(v) / 8 for v in coef(3)], intercepts=[0.1, 0.2, 0.05], targets=3, post_transform="PROBIT"))
single("lr_1_probit", "LinearRegressor", np.abs(F6) / 10, dict(coefficients=[abs(v) / 8 for v in coef(1)], intercepts=[0.2], post_transform="PROBIT"))
single("lr_1_logistic_ignored", "LinearRegressor", F6, dict(coefficients=coef(1), post_transform="LOGISTIC"))
single("lr_rank1", "LinearRegressor", F6[0], dict(coefficients=coef(2), targets=2, intercepts=[1.0, 2.0]))

# LinearClassifier
single("lc_multi", "LinearClassifier", F6, dict(coefficients=coef(3), intercepts=[0.1, 0.2, -0.3], classlabels_ints=[10, 20, 30]), LABELS)
single("lc_multi_logistic", "LinearClassifier", F6, dict(coefficients=coef(4), intercepts=[0.1, 0.2, -0.3, 0.0], classlabels_ints=[0, 1, 2, 3], post_transform="LOGISTIC"), LABELS)
single("lc_multi_softmax", "LinearClassifier", F6, dict(coefficients=coef(3), intercepts=[0.1, 0.2, -0.3], classlabels_ints=[0, 1, 2], post_transform="SOFTMAX", multi_class=1), LABELS)
single("lc_multi_softmax_zero", "LinearClassifier", F6, dict(coefficients=coef(3), intercepts=[0.1, 0.2, -0.3], classlabels_ints=[0, 1, 2], post_transform="SOFTMAX_ZERO"), LABELS)
single("lc_multi_probit", "LinearClassifier", np.abs(F6) / 10, dict(coefficients=[abs(v) / 8 for v in coef(3)], intercepts=[0.1, 0.2, 0.05], classlabels_ints=[0, 1, 2], post_transform="PROBIT"), LABELS)
single("lc_two_classes", "LinearClassifier", F6, dict(coefficients=coef(2), intercepts=[0.1, -0.1], classlabels_ints=[3, 7], post_transform="LOGISTIC"), LABELS)
single("lc_binary_widened", "LinearClassifier", F6, dict(coefficients=coef(1), intercepts=[0.1], classlabels_ints=[3, 7]), LABELS)
single("lc_binary_widened_logistic", "LinearClassifier", F6, dict(coefficients=coef(1), intercepts=[0.1], classlabels_ints=[0, 1], post_transform="LOGISTIC"), LABELS)
single("lc_binary_widened_softmax", "LinearClassifier", F6, dict(coefficients=coef(1), intercepts=[0.1], classlabels_ints=[0, 1], post_transform="SOFTMAX"), LABELS)
single("lc_int64_input", "LinearClassifier", (F6 * 3).astype(np.int64), dict(coefficients=coef(3), intercepts=[0.1, 0.2, -0.3], classlabels_ints=[0, 1, 2]), LABELS)
single("lc_double_input", "LinearClassifier", F6.astype(np.float64), dict(coefficients=coef(3), intercepts=[0.1, 0.2, -0.3], classlabels_ints=[0, 1, 2]), LABELS)
single("lc_refused_strings", "LinearClassifier", F6, dict(coefficients=coef(2), intercepts=[0.1, 0.2], classlabels_strings=["a", "b"]), (("Y", TensorProto.STRING), ("Z", TensorProto.FLOAT)), refused=True)
single("lc_refused_widened_probit", "LinearClassifier", F6, dict(coefficients=coef(1), intercepts=[0.1], classlabels_ints=[0, 1], post_transform="PROBIT"), LABELS, refused=True)

# Scaler, Normalizer, Imputer, OneHotEncoder
single("scaler_per_feature", "Scaler", F6, dict(offset=coef(1, scale=1), scale=coef(1, scale=2)))
single("scaler_one", "Scaler", F6, dict(offset=[0.5], scale=[-2.0]))
single("scaler_double", "Scaler", F6.astype(np.float64), dict(offset=coef(1, scale=1), scale=coef(1, scale=2)))
single("scaler_int64", "Scaler", (F6 * 3).astype(np.int64), dict(offset=coef(1, scale=1), scale=coef(1, scale=2)))
ZROW = F6.copy(); ZROW[2] = 0
for norm in ["MAX", "L1", "L2"]:
    single(f"normalizer_{norm.lower()}", "Normalizer", ZROW, dict(norm=norm))
single("normalizer_l2_int64", "Normalizer", (ZROW * 3).astype(np.int64), dict(norm="L2"))
single("normalizer_max_negative", "Normalizer", -np.abs(ZROW) - 0.1, dict(norm="MAX"))
single("normalizer_l1_rank1", "Normalizer", F6[0], dict(norm="L1"))
NANS = F6.copy(); NANS[rng.random(F6.shape) < 0.3] = np.nan
single("imputer_nan_per_feature", "Imputer", NANS, dict(imputed_value_floats=coef(1, scale=1), replaced_value_float=float("nan")))
ZEROS = np.round(F6); single("imputer_zero_one_value", "Imputer", ZEROS, dict(imputed_value_floats=[9.5], replaced_value_float=0.0))
single("imputer_int64", "Imputer", np.round(F6).astype(np.int64), dict(imputed_value_int64s=[7, 8, 9, 10, 11, 12], replaced_value_int64=1), (("Y", TensorProto.INT64),))
CATS = rng.integers(-2, 5, size=(5, 3)).astype(np.int64)
single("one_hot_int64", "OneHotEncoder", CATS, dict(cats_int64s=[3, -1, 0, 4, 1], zeros=1))
single("one_hot_float_truncated", "OneHotEncoder", (CATS + rng.uniform(-0.9, 0.9, CATS.shape)).astype(np.float32), dict(cats_int64s=[3, -1, 0, 4, 1]))
single("one_hot_repeated_category", "OneHotEncoder", CATS, dict(cats_int64s=[3, 0, 3, 1]))
single("one_hot_double_rank1", "OneHotEncoder", CATS[0].astype(np.float64), dict(cats_int64s=[0, 1, 2, 3, 4]))
single("one_hot_refused_strings", "OneHotEncoder", CATS, dict(cats_strings=["a", "b"]), refused=True)

# FeatureVectorizer
fv = helper.make_node("FeatureVectorizer", ["A", "B", "C"], ["Y"], domain=ML, inputdimensions=[3, 4, 2])
save_inputs("feature_vectorizer", fv, {"A": F6[:, :3].copy(), "B": F6[:, :2] * 4, "C": F6[:, 1:].copy()},
            [helper.make_tensor_value_info("Y", TensorProto.FLOAT, None)], 1)
fv1 = helper.make_node("FeatureVectorizer", ["A"], ["Y"], domain=ML, inputdimensions=[6])
save_inputs("feature_vectorizer_one_int32", fv1, {"A": np.round(F6 * 3).astype(np.int32)}, [helper.make_tensor_value_info("Y", TensorProto.FLOAT, None)], 1)
fv2 = helper.make_node("FeatureVectorizer", ["A", "B"], ["Y"], domain=ML, inputdimensions=[4, 3])
save_inputs("feature_vectorizer_double", fv2, {"A": F6.astype(np.float64), "B": F6[:, :2].astype(np.float64)}, [helper.make_tensor_value_info("Y", TensorProto.FLOAT, None)], 1)

# SVMRegressor / SVMClassifier
SVX = (rng.standard_normal((6, 4)) * 0.8).astype(np.float32)
KP = {"LINEAR": [0.0, 0.0, 0.0], "POLY": [0.4, 0.5, 3.0], "POLY2": [0.3, -0.2, 2.0], "POLY4": [0.3, 0.5, 4.0], "RBF": [0.3, 0.0, 0.0], "SIGMOID": [0.2, 0.1, 0.0]}


def svm_attrs(kind):
    return dict(kernel_type=kind.rstrip("0123456789"), kernel_params=KP[kind])


for kind in KP:
    single(f"svr_{kind.lower()}", "SVMRegressor", SVX, dict(coefficients=coef(1, 5), n_supports=5, support_vectors=coef(5, 4), rho=[0.3], **svm_attrs(kind)))
single("svr_one_class_rbf", "SVMRegressor", SVX, dict(coefficients=coef(1, 7), n_supports=7, support_vectors=coef(7, 4), rho=[-0.2], one_class=1, **svm_attrs("RBF")))
single("svr_liblinear", "SVMRegressor", SVX, dict(coefficients=coef(1, 4), n_supports=0, rho=[0.7], kernel_type="RBF", kernel_params=[0.1, 0.0, 0.0]))
single("svr_rank1", "SVMRegressor", SVX[0], dict(coefficients=coef(1, 5), n_supports=5, support_vectors=coef(5, 4), rho=[0.3], **svm_attrs("RBF")))
for kind in ["LINEAR", "POLY", "RBF", "SIGMOID"]:
    single(f"svc_multi_{kind.lower()}", "SVMClassifier", SVX, dict(classlabels_ints=[4, 5, 6, 7], vectors_per_class=[2, 3, 1, 2], support_vectors=coef(8, 4),
           coefficients=coef(3, 8), rho=coef(6, 1), **svm_attrs(kind)), LABELS)
single("svc_multi_softmax", "SVMClassifier", SVX, dict(classlabels_ints=[0, 1, 2], vectors_per_class=[2, 2, 3], support_vectors=coef(7, 4),
       coefficients=coef(2, 7), rho=coef(3, 1), post_transform="SOFTMAX", **svm_attrs("RBF")), LABELS)
single("svc_multi_logistic", "SVMClassifier", SVX, dict(classlabels_ints=[0, 1, 2], vectors_per_class=[2, 2, 3], support_vectors=coef(7, 4),
       coefficients=coef(2, 7), rho=coef(3, 1), post_transform="LOGISTIC", **svm_attrs("POLY")), LABELS)
single("svc_binary_rbf", "SVMClassifier", SVX, dict(classlabels_ints=[2, 9], vectors_per_class=[3, 2], support_vectors=coef(5, 4),
       coefficients=coef(1, 5), rho=[0.1], **svm_attrs("RBF")), LABELS)
single("svc_binary_logistic", "SVMClassifier", SVX, dict(classlabels_ints=[0, 1], vectors_per_class=[3, 2], support_vectors=coef(5, 4),
       coefficients=coef(1, 5), rho=[0.1], post_transform="LOGISTIC", **svm_attrs("LINEAR")), LABELS)
single("svc_binary_softmax", "SVMClassifier", SVX, dict(classlabels_ints=[0, 1], vectors_per_class=[2, 2], support_vectors=coef(4, 4),
       coefficients=coef(1, 4), rho=[-0.1], post_transform="SOFTMAX", **svm_attrs("SIGMOID")), LABELS)
single("svc_liblinear_multi", "SVMClassifier", SVX, dict(classlabels_ints=[1, 2, 3], coefficients=coef(3, 4), rho=[0.2], **svm_attrs("LINEAR")), LABELS)
single("svc_liblinear_binary", "SVMClassifier", SVX, dict(classlabels_ints=[1, 2], coefficients=coef(2, 4), rho=[0.2], **svm_attrs("LINEAR")), LABELS)
single("svc_liblinear_binary_positive", "SVMClassifier", np.abs(SVX), dict(classlabels_ints=[1, 2], coefficients=[abs(v) * 0.3 for v in coef(2, 4)], rho=[0.0], **svm_attrs("LINEAR")), LABELS)
single("svc_prob_rbf", "SVMClassifier", SVX, dict(classlabels_ints=[0, 1, 2], vectors_per_class=[2, 2, 3], support_vectors=coef(7, 4),
       coefficients=coef(2, 7), rho=coef(3, 1), prob_a=[-1.5, -2.0, -0.7], prob_b=[0.1, -0.2, 0.0], **svm_attrs("RBF")), LABELS)
single("svc_prob_softmax_4", "SVMClassifier", SVX, dict(classlabels_ints=[3, 5, 7, 9], vectors_per_class=[1, 2, 2, 1], support_vectors=coef(6, 4),
       coefficients=coef(3, 6), rho=coef(6, 1), prob_a=[-1.0, -3.0, -0.5, -2.0, -1.2, -0.8], prob_b=[0.0, 0.3, -0.1, 0.2, 0.0, 0.1],
       post_transform="SOFTMAX", **svm_attrs("POLY")), LABELS)
single("svc_prob_binary", "SVMClassifier", SVX, dict(classlabels_ints=[2, 9], vectors_per_class=[3, 2], support_vectors=coef(5, 4),
       coefficients=coef(1, 5), rho=[0.1], prob_a=[-2.5], prob_b=[0.05], **svm_attrs("LINEAR")), LABELS)


# TfIdfVectorizer (ai.onnx, the featurizer of text pipelines) over integer tokens: every mode with
# and without weights, n-grams of 1-3 tokens at several skip distances, a pool with sizes outside
# [min_gram_length, max_gram_length], columns shared by several n-grams (onnxruntime refuses a repeated
# n-gram and weights of another length than ngram_indexes; its IDF/TFIDF weight is by column), int32
# and int64 tokens, rows shorter than some n-gram spans, rank 1 and 2.
def tfidf(name, x, refused=False, **attrs):
    node = helper.make_node("TfIdfVectorizer", ["X"], ["Y"], **attrs)
    save(name, node, x, [helper.make_tensor_value_info("Y", TensorProto.FLOAT, None)], 1, refused=refused)


TOK = np.random.default_rng(301).integers(0, 6, size=(4, 12))
POOL = dict(ngram_counts=[0, 4, 10], pool_int64s=[2, 3, 5, 4, 5, 6, 7, 8, 6, 7, 1, 2, 3, 4, 5, 0],
            ngram_indexes=[0, 1, 2, 3, 4, 5, 6, 7, 8, 9])  # 4 unigrams, 3 bigrams, 2 trigrams, ...
POOL3 = dict(ngram_counts=[0, 4, 10], pool_int64s=[2, 3, 5, 4, 5, 0, 1, 2, 3, 4, 1, 2, 3, 4, 5, 0], ngram_indexes=list(range(10)))
for mode in ["TF", "IDF", "TFIDF"]:
    tfidf(f"tfidf_{mode.lower()}_uni_bi_tri_skip2", TOK, mode=mode, min_gram_length=1, max_gram_length=3, max_skip_count=2, **POOL3)
    tfidf(f"tfidf_{mode.lower()}_weights", TOK.astype(np.int32), mode=mode, min_gram_length=1, max_gram_length=2, max_skip_count=1,
          weights=[0.5, 1.5, 2.0, 0.25, 3.0, 1.0, 0.75, 2.5, 0.1, 4.0], **POOL3)
tfidf("tfidf_bigrams_only_rank1", TOK[0], mode="TF", min_gram_length=2, max_gram_length=2, max_skip_count=3, **POOL3)
tfidf("tfidf_shared_columns", TOK, mode="TFIDF", min_gram_length=1, max_gram_length=2, max_skip_count=0,
      ngram_counts=[0, 3], pool_int64s=[1, 2, 3, 0, 1, 2, 3, 1, 0], ngram_indexes=[0, 2, 1, 2, 0, 3], weights=[1.0, 2.0, 3.0, 4.0, 0.5, 0.25])
tfidf("tfidf_idf_weights_shared_column", TOK, refused=True, mode="IDF", min_gram_length=1, max_gram_length=1, max_skip_count=0,
      ngram_counts=[0], pool_int64s=[1, 2, 3, 0], ngram_indexes=[0, 0, 1, 1], weights=[1.0, 2.0, 3.0, 4.0])
tfidf("tfidf_short_rows_skip5", TOK[:, :4].astype(np.int32), mode="TF", min_gram_length=2, max_gram_length=3, max_skip_count=5, **POOL3)
# (tokens near the int32 limits: OpenVINO's CPU plugin computes int64 in 32 bits)
BIG = np.array([[2**31 - 1, 7, 2**31 - 1, 7, -2**31], [7, -2**31, 2**31 - 1, 2**31 - 1, 7]], dtype=np.int64)
tfidf("tfidf_int64_permuted_columns", BIG, mode="IDF", min_gram_length=1, max_gram_length=2, max_skip_count=1,
      ngram_counts=[0, 2], pool_int64s=[2**31 - 1, -2**31, 2**31 - 1, 7, 7, -2**31], ngram_indexes=[3, 0, 1, 2], weights=[0.5, 0.25, 2.0, 1.5])

print(json.dumps(cases))
