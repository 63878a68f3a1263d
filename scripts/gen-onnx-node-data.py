#!/usr/bin/env python3
"""Writes the onnx package's own node test cases (onnx.backend.test.case.node, the newest opsets,
If-21/23 among them) in the backend test layout the conformance suite reads:

    <out>/node/<case>/model.onnx
    <out>/node/<case>/test_data_set_<k>/input_<j>.pb, output_<j>.pb

The onnx wheel ships only the model-level data (simple, pytorch-*); its node data is generated
from these Python cases, as `onnx.backend.test.cmd_tools generate-data` does for model cases.
Usage: python scripts/gen-onnx-node-data.py <out-dir>
"""
import os
import shutil
import sys
import warnings


def main():
    out = sys.argv[1]
    warnings.simplefilter("ignore")
    import numpy as np
    from onnx import TensorProto, numpy_helper
    from onnx.backend.test.case import node

    np.seterr(all="ignore")
    cases = node.collect_testcases(None)
    tmp = out + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    root = os.path.join(tmp, "node")
    os.makedirs(root)

    def proto(value, vi):
        t = vi.type
        if t.HasField("map_type"):
            return numpy_helper.from_dict(value, vi.name)
        if t.HasField("sequence_type"):
            return numpy_helper.from_list(value, vi.name)
        if t.HasField("optional_type"):
            return numpy_helper.from_optional(value, vi.name)
        if isinstance(value, TensorProto):
            return value
        return numpy_helper.from_array(value, vi.name)

    written = 0
    for case in cases:
        d = os.path.join(root, case.name)
        os.makedirs(d)
        with open(os.path.join(d, "model.onnx"), "wb") as f:
            f.write(case.model.SerializeToString())
        g = case.model.graph
        for k, (inputs, outputs) in enumerate(case.data_sets):
            sd = os.path.join(d, f"test_data_set_{k}")
            os.makedirs(sd)
            for j, value in enumerate(inputs):
                with open(os.path.join(sd, f"input_{j}.pb"), "wb") as f:
                    f.write(proto(value, g.input[j]).SerializeToString())
            for j, value in enumerate(outputs):
                with open(os.path.join(sd, f"output_{j}.pb"), "wb") as f:
                    f.write(proto(value, g.output[j]).SerializeToString())
        written += 1
    shutil.rmtree(out, ignore_errors=True)
    os.rename(tmp, out)
    print(f"onnx node test data: {written} cases in {out}")


if __name__ == "__main__":
    main()
