"""Averaging classifier checkpoints (training code: needs torch, which the server and CI venv do not have)."""
from __future__ import annotations

import pytest

torch = pytest.importorskip("torch", reason="torch is only in the training environment (pip install .[train])")

from vision.training.average_weights import main as average_weights  # noqa: E402
from vision.training.classifier_model import build_classifier  # noqa: E402


def _checkpoint(path, seed: int, width: int = 16) -> dict:
    torch.manual_seed(seed)
    checkpoint = {"model": build_classifier(width).state_dict(), "optimizer": {"state": {}}, "width": width, "epoch": seed,
                  "val_top1": 0.5}
    torch.save(checkpoint, path)
    return checkpoint


def test_classifier_checkpoints_average_element_wise_and_keep_the_second_ones_other_fields(tmp_path):
    a = _checkpoint(tmp_path / "a.pt", 1)
    b = _checkpoint(tmp_path / "b.pt", 2)
    assert average_weights([str(tmp_path / "a.pt"), str(tmp_path / "b.pt"), str(tmp_path / "mean.pt")]) == 0
    mean = torch.load(tmp_path / "mean.pt", map_location="cpu", weights_only=False)
    assert mean["epoch"] == 2 and mean["width"] == 16 and "optimizer" not in mean and "val_top1" not in mean
    for key, value in mean["model"].items():
        if value.is_floating_point():
            assert torch.allclose(value, (a["model"][key] + b["model"][key]) / 2)
        else:
            assert torch.equal(value, b["model"][key])
    model = build_classifier(16)
    model.load_state_dict(mean["model"])  # loads as a classifier of that width


def test_checkpoints_of_different_widths_are_refused(tmp_path):
    _checkpoint(tmp_path / "a.pt", 1, width=16)
    _checkpoint(tmp_path / "b.pt", 2, width=24)
    with pytest.raises(SystemExit, match="same architecture"):
        average_weights([str(tmp_path / "a.pt"), str(tmp_path / "b.pt"), str(tmp_path / "mean.pt")])


def test_three_checkpoints_average_uniformly(tmp_path):
    states = [_checkpoint(tmp_path / f"{i}.pt", i)["model"] for i in (1, 2, 3)]
    paths = [str(tmp_path / f"{i}.pt") for i in (1, 2, 3)]
    assert average_weights([*paths, str(tmp_path / "mean.pt")]) == 0
    mean = torch.load(tmp_path / "mean.pt", map_location="cpu", weights_only=False)
    assert mean["epoch"] == 3
    for key, value in mean["model"].items():
        if value.is_floating_point():
            assert torch.allclose(value, (states[0][key] + states[1][key] + states[2][key]) / 3, atol=1e-6)


def test_fewer_than_two_inputs_are_refused(tmp_path):
    _checkpoint(tmp_path / "a.pt", 1)
    with pytest.raises(SystemExit):
        average_weights([str(tmp_path / "a.pt"), str(tmp_path / "mean.pt")])
