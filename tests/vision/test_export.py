"""Exporting the classifier to ONNX (training code: needs torch and onnx, which the server and CI venv do not have)."""
from __future__ import annotations

import json

import pytest

torch = pytest.importorskip("torch", reason="torch is only in the training environment (pip install .[train])")
onnx = pytest.importorskip("onnx", reason="onnx is only in the training environment (pip install .[train])")

from vision.crops import CLASS_NAMES  # noqa: E402
from vision.training.classifier_model import build_classifier  # noqa: E402
from vision.training.export import export_classifier  # noqa: E402


@pytest.mark.parametrize("val_top1, recorded", [(None, "nan"), (0.86071, "0.8607")])
def test_a_classifier_exports_with_its_val_top1_or_nan_for_a_soup_without_one(tmp_path, val_top1, recorded):
    torch.manual_seed(0)
    # None as export itself saves it for a soup (the shipped cards_cls.pt holds "val_top1": None)
    checkpoint = {"model": build_classifier(8).state_dict(), "classes": CLASS_NAMES, "width": 8, "val_top1": val_top1}
    torch.save(checkpoint, tmp_path / "soup.pt")
    result = export_classifier(tmp_path / "soup.pt", tmp_path / "models")
    assert result["max_abs_diff"] < 1e-4
    metadata = {p.key: p.value for p in onnx.load(str(tmp_path / "models" / "cards_cls.onnx")).metadata_props}
    assert metadata["val_top1"] == recorded and json.loads(metadata["classes"]) == CLASS_NAMES
    assert torch.load(tmp_path / "models" / "cards_cls.pt", weights_only=False)["val_top1"] == val_top1


def test_a_classifier_exported_with_half_weights_is_half_the_size_and_still_matches_torch(tmp_path):
    torch.manual_seed(1)
    checkpoint = {"model": build_classifier(16).state_dict(), "classes": CLASS_NAMES, "width": 16, "val_top1": 0.5}
    torch.save(checkpoint, tmp_path / "c.pt")
    full = export_classifier(tmp_path / "c.pt", tmp_path / "full")
    half = export_classifier(tmp_path / "c.pt", tmp_path / "half", half=True)
    assert half["onnx_bytes"] == full["onnx_bytes"] and half["half_onnx_bytes"] < 0.6 * full["onnx_bytes"]
    assert (tmp_path / "half" / "cards_cls.onnx").stat().st_size == half["half_onnx_bytes"]
    assert full["max_abs_diff"] < half["half_max_abs_diff"] < 1e-2  # float16 rounding, nothing more
    types = {t.data_type for t in onnx.load(str(tmp_path / "half" / "cards_cls.onnx")).graph.initializer}
    assert onnx.TensorProto.FLOAT16 in types
    metadata = {p.key: p.value for p in onnx.load(str(tmp_path / "half" / "cards_cls.onnx")).metadata_props}
    assert json.loads(metadata["classes"]) == CLASS_NAMES  # the reader still checks the class order
