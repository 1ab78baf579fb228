"""The classifier quantisation tool (vision.training.quantize_classifier): its crop sample and calibration input;
the quantisation itself needs onnx and sympy (the test and training extras)."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.training.quantize_classifier import calibration_batches, sample_crops


def test_the_sample_draws_up_to_n_crops_from_each_folder_the_same_for_a_seed(tmp_path):
    for folder, count in (("a", 5), ("b", 2)):
        for k in range(count):
            (tmp_path / folder / "2S").mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(tmp_path / folder / "2S" / f"{k}.png"), np.full((48, 48, 3), k, np.uint8))
    (tmp_path / "a" / "notes.txt").write_text("not a crop")
    drawn = sample_crops([tmp_path / "a", tmp_path / "b"], 3, seed=53)
    assert [p.parent.parent.name for p in drawn] == ["a"] * 3 + ["b"] * 2 and len(set(drawn)) == 5
    assert drawn == sample_crops([tmp_path / "a", tmp_path / "b"], 3, seed=53)


def test_calibration_batches_are_the_classifiers_input_skipping_broken_files(tmp_path):
    paths = []
    for k in range(5):
        paths.append(tmp_path / f"{k}.png")
        cv2.imwrite(str(paths[-1]), np.full((48, 48, 3), 51 * k, np.uint8))
    broken = tmp_path / "broken.png"
    broken.write_bytes(b"not an image")
    batches = calibration_batches(paths[:2] + [broken] + paths[2:], batch=2)
    assert [b.shape for b in batches] == [(2, 3, 48, 48), (2, 3, 48, 48), (1, 3, 48, 48)]
    assert batches[0].dtype == np.float32 and batches[2][0, 0, 0, 0] == pytest.approx(204 / 255, abs=1e-6)


def test_quantize_writes_int8_weights_and_keeps_the_class_order(tmp_path):
    onnx = pytest.importorskip("onnx", reason="onnx comes with the test and training extras")
    from onnx import TensorProto, helper, numpy_helper

    from vision.training.quantize_classifier import quantize

    rng = np.random.default_rng(0)
    w = numpy_helper.from_array(rng.normal(0, 0.3, (53, 3, 48, 48)).astype(np.float32), "w")
    graph = helper.make_graph(
        [helper.make_node("Conv", ["x", "w"], ["c"], name="conv"),
         helper.make_node("Flatten", ["c"], ["logits"], name="flat")],
        "tiny", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [None, 3, 48, 48])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [None, 53])], [w])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    model.metadata_props.add(key="classes", value='["2S"]')
    onnx.save(model, tmp_path / "tiny.onnx")
    quantize(tmp_path / "tiny.onnx", tmp_path / "tiny-int8.onnx",
             [rng.random((4, 3, 48, 48), dtype=np.float32) for _ in range(3)])
    quantized = onnx.load(tmp_path / "tiny-int8.onnx")
    assert {p.key: p.value for p in quantized.metadata_props}["classes"] == '["2S"]'
    producers = {out: n for n in quantized.graph.node for out in n.output}
    conv = next(n for n in quantized.graph.node if n.op_type == "Conv")
    assert producers[conv.input[1]].op_type == "DequantizeLinear"
