"""The int8 quantisation tool's pure parts (the quantisation itself needs onnx and sympy: the test and training extras)."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.training.quantize_detector import calibration_inputs, head_prefix


def test_head_is_the_highest_numbered_module():
    names = ["/model.0/conv/Conv", "/model.9/m/Add", "/model.23/cv2.0/Conv", "/model.23/dfl/Softmax", "Concat_1"]
    assert head_prefix(names) == "/model.23/"
    with pytest.raises(ValueError, match="not an ultralytics"):
        head_prefix(["Conv_0", "Relu_1"])


def test_calibration_inputs_are_letterboxed_network_inputs(tmp_path):
    tile = np.full((320, 320, 3), 200, np.uint8)
    photo = np.full((1500, 2000, 3), 50, np.uint8)
    cv2.imwrite(str(tmp_path / "tile.png"), tile)
    cv2.imwrite(str(tmp_path / "photo.jpg"), photo)
    (tmp_path / "broken.jpg").write_bytes(b"not an image")
    inputs = calibration_inputs([tmp_path / "tile.png", tmp_path / "broken.jpg"], [tmp_path / "photo.jpg"], 640)
    assert [x.shape for x in inputs] == [(1, 3, 320, 320), (1, 3, 480, 640)]
    assert all(x.dtype == np.float32 and 0.0 <= x.min() and x.max() <= 1.0 for x in inputs)
    assert inputs[0][0, 0, 0, 0] == pytest.approx(200 / 255, abs=1e-6)


def test_quantize_keeps_the_head_in_float(tmp_path):
    onnx = pytest.importorskip("onnx", reason="onnx comes with the test and training extras")
    from onnx import TensorProto, helper, numpy_helper

    from vision.training.quantize_detector import quantize

    rng = np.random.default_rng(0)
    w0 = numpy_helper.from_array(rng.normal(0, 0.3, (4, 3, 3, 3)).astype(np.float32), "w0")
    w1 = numpy_helper.from_array(rng.normal(0, 0.3, (5, 4, 1, 1)).astype(np.float32), "w1")
    graph = helper.make_graph(
        [helper.make_node("Conv", ["images", "w0"], ["a"], name="/model.0/conv/Conv", pads=[1, 1, 1, 1]),
         helper.make_node("Relu", ["a"], ["b"], name="/model.0/act/Relu"),
         helper.make_node("Conv", ["b", "w1"], ["output0"], name="/model.1/head/Conv")],
        "tiny", [helper.make_tensor_value_info("images", TensorProto.FLOAT, [1, 3, 32, 32])],
        [helper.make_tensor_value_info("output0", TensorProto.FLOAT, [1, 5, 32, 32])], [w0, w1])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    onnx.save(model, tmp_path / "tiny.onnx")
    inputs = [rng.random((1, 3, 32, 32), dtype=np.float32) for _ in range(4)]
    kept = quantize(tmp_path / "tiny.onnx", tmp_path / "tiny-int8.onnx", inputs)
    assert kept == ["/model.1/head/Conv"]
    nodes = onnx.load(tmp_path / "tiny-int8.onnx").graph.node
    producers = {out: n for n in nodes for out in n.output}
    head = next(n for n in nodes if n.name == "/model.1/head/Conv")
    assert head.input[1] == "w1"  # float weights, no DequantizeLinear in front
    body = next(n for n in nodes if n.name == "/model.0/conv/Conv")
    assert producers[body.input[1]].op_type == "DequantizeLinear"  # int8 weights
