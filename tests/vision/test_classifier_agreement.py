"""Where two classifiers' failures meet (vision.training.classifier_agreement)."""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.crops import CLASS_NAMES
from vision.training.classifier_agreement import agreement, load_crop_folder, main

MODELS = Path(__file__).resolve().parents[2] / "models"


def one_hot(indices: list[int]) -> np.ndarray:
    probabilities = np.full((len(indices), len(CLASS_NAMES)), 0.01, np.float32)
    probabilities[np.arange(len(indices)), indices] = 0.5
    return probabilities


def test_agreement_counts_shared_and_separate_failures_and_the_means_answers():
    truth = np.array([0, 1, 2, 3])
    first = one_hot([0, 5, 5, 3])    # wrong on crops 1 and 2
    other = one_hot([0, 1, 6, 7])    # wrong on crops 2 and 3
    other[1, 1] = 0.6                # surer than the first's wrong answer on crop 1
    other[3, 3] = 0.45               # ...and nearly right on crop 3: the mean names both right
    result = agreement(truth, first, other)
    assert (result.first_top1, result.other_top1) == (0.5, 0.5)
    assert (result.both_wrong, result.only_first_wrong, result.only_other_wrong) == (1, 1, 1)
    assert result.mean_top1 == 0.75


def test_the_crop_folder_skips_folders_and_files_that_are_not_crops(tmp_path):
    for code, values in (("2S", (10, 20)), ("none", (30,))):
        (tmp_path / code).mkdir()
        for k, value in enumerate(values):
            cv2.imwrite(str(tmp_path / code / f"{k}.png"), np.full((48, 48, 3), value, np.uint8))
    (tmp_path / "notes").mkdir()
    (tmp_path / "2S" / "broken.png").write_bytes(b"not an image")
    batch, truth = load_crop_folder(tmp_path)
    assert batch.shape == (3, 3, 48, 48)
    assert list(truth) == [CLASS_NAMES.index("2S")] * 2 + [CLASS_NAMES.index("none")]
    assert batch[2, 0, 0, 0] == pytest.approx(30 / 255, abs=1e-6)
    cv2.imwrite(str(tmp_path / "2S" / "large.png"), np.zeros((64, 64, 3), np.uint8))
    with pytest.raises(ValueError, match="not a 48x48 colour crop"):
        load_crop_folder(tmp_path)


def test_an_empty_crop_folder_or_a_missing_model_is_a_clear_error(tmp_path, capsys):
    assert main([str(tmp_path), str(MODELS / "cards_cls.onnx"), str(MODELS / "cards_cls_second.onnx")]) == 2
    assert "no crops" in capsys.readouterr().err
    (tmp_path / "2S").mkdir()
    cv2.imwrite(str(tmp_path / "2S" / "0.png"), np.zeros((48, 48, 3), np.uint8))
    assert main([str(tmp_path), str(MODELS / "cards_cls.onnx"), str(tmp_path / "absent.onnx")]) == 2
    assert "model file not found" in capsys.readouterr().err


def test_the_command_compares_the_shipped_classifiers_on_rendered_crops(tmp_path, capsys):
    # noise crops: whatever the models answer, the three counts cannot exceed the crops
    rng = np.random.default_rng(54)
    (tmp_path / "none").mkdir()
    for k in range(4):
        cv2.imwrite(str(tmp_path / "none" / f"{k}.png"), rng.integers(0, 256, (48, 48, 3), dtype=np.uint8))
    assert main([str(tmp_path), str(MODELS / "cards_cls.onnx"), str(MODELS / "cards_cls_second.onnx")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and "on 4 crops" in lines[0]
    counts = [int(word.rstrip(",;")) for word in lines[1].split() if word.rstrip(",;").isdigit()]
    assert len(counts) == 3 and sum(counts) <= 4
