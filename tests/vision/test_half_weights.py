"""The half-size weights tool (vision.training.half_weights): weights stored float16 and cast back where used, so
ONNX Runtime runs the same float32 network from a file about half the size. Needs onnx (the test and training
extras); the shipped models it made are read by every reader test."""
from __future__ import annotations

import numpy as np
import pytest

from vision.onnx_session import create_session


def _tiny_conv_model(rng: np.random.Generator):
    onnx = pytest.importorskip("onnx", reason="onnx comes with the test and training extras")
    from onnx import TensorProto, helper, numpy_helper

    weights = numpy_helper.from_array(rng.normal(0, 0.3, (16, 3, 5, 5)).astype(np.float32), "w")
    bias = numpy_helper.from_array(rng.normal(0, 0.1, 16).astype(np.float32), "b")  # under MIN_ELEMENTS: kept
    graph = helper.make_graph(
        [helper.make_node("Conv", ["x", "w", "b"], ["y"], name="conv")], "tiny",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [None, 3, 12, 12])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [None, 16, 8, 8])], [weights, bias])
    return onnx, helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def test_half_weights_stores_large_float_tensors_as_float16_and_runs_the_same_network(tmp_path):
    from vision.training.half_weights import half_weights

    rng = np.random.default_rng(56)
    onnx, model = _tiny_conv_model(rng)
    onnx.save(model, tmp_path / "float.onnx")
    assert half_weights(model) == 1
    onnx.save(model, tmp_path / "half.onnx")
    types = {t.name: t.data_type for t in onnx.load(tmp_path / "half.onnx").graph.initializer}
    assert types == {"w_float16": onnx.TensorProto.FLOAT16, "b": onnx.TensorProto.FLOAT}
    assert (tmp_path / "half.onnx").stat().st_size < 0.7 * (tmp_path / "float.onnx").stat().st_size
    x = rng.random((2, 3, 12, 12), dtype=np.float32)
    before = create_session(tmp_path / "float.onnx").run(None, {"x": x})[0]
    after = create_session(tmp_path / "half.onnx").run(None, {"x": x})[0]
    assert after.dtype == np.float32 and after.shape == (2, 16, 8, 8)
    assert np.abs(after - before).max() < 2e-3 * np.abs(before).max()
    assert np.abs(after - before).max() > 0  # the weights were rounded: a copy of the float file would not differ


def test_half_weights_refuses_values_float16_cannot_hold():
    from vision.training.half_weights import half_weights

    onnx, model = _tiny_conv_model(np.random.default_rng(0))
    from onnx import numpy_helper

    huge = numpy_helper.from_array(np.full((16, 3, 5, 5), 1e6, np.float32), "w")
    model.graph.initializer[0].CopyFrom(huge)
    with pytest.raises(ValueError, match="too large for float16"):
        half_weights(model)


def test_the_command_writes_the_half_size_file_and_reports_bad_input(tmp_path, capsys):
    from vision.training.half_weights import main

    onnx, model = _tiny_conv_model(np.random.default_rng(1))
    onnx.save(model, tmp_path / "float.onnx")
    assert main([str(tmp_path / "float.onnx"), "--out", str(tmp_path / "half.onnx")]) == 0
    assert "1 weight tensors stored as float16" in capsys.readouterr().out
    (tmp_path / "broken.onnx").write_bytes(b"not a model")
    assert main([str(tmp_path / "broken.onnx"), "--out", str(tmp_path / "x.onnx")]) == 2
    assert "broken.onnx" in capsys.readouterr().err and not (tmp_path / "x.onnx").exists()


def test_an_initializer_that_is_also_a_graph_input_stays_float32():
    from vision.training.half_weights import half_weights

    onnx, model = _tiny_conv_model(np.random.default_rng(2))
    model.graph.input.append(onnx.helper.make_tensor_value_info("w", onnx.TensorProto.FLOAT, [16, 3, 5, 5]))
    assert half_weights(model) == 0  # a caller may feed "w": a Cast under its name would clash with the input
    assert {t.name: t.data_type for t in model.graph.initializer}["w"] == onnx.TensorProto.FLOAT
