"""Classifiers scored at the reader's own boxes (vision.training.reader_box_scores)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.classifier import ROTATION_VOTE_BELOW, IndexClassifier
from vision.crops import CLASS_NAMES, CROP_SCALE, CROP_SIZE, index_crop
from vision.reader import CardReader
from vision.training.reader_box_scores import (NONE_INDEX, ReaderBoxes, cut, main, perfect_probabilities,
                                               reader_vote, score, truth_of, turned_probabilities)

from drawn_layouts import ColourClassifier, MarkerDetector, deal
from test_evaluation import write_scene

MODELS = Path(__file__).resolve().parents[2] / "models"
N = len(CLASS_NAMES)


def two_photos() -> ReaderBoxes:
    """Photo 0: two labelled indices (2S, 3H), both boxed, and a box on no index; photo 1: one labelled AD, boxed."""
    labelled_boxes = np.array([[0, 0, 10, 20], [50, 0, 60, 20], [0, 0, 10, 20]], float)
    labelled_codes = np.array([CLASS_NAMES.index(c) for c in ("2S", "3H", "AD")])
    boxes = np.array([[0, 0, 10, 20], [50, 1, 60, 21], [100, 100, 110, 120], [1, 0, 11, 20]], float)
    return ReaderBoxes(crops=np.zeros((4, CROP_SIZE, CROP_SIZE, 3), np.uint8),
                       truth=np.array([labelled_codes[0], labelled_codes[1], NONE_INDEX, labelled_codes[2]]),
                       detector_scores=np.array([0.9, 0.8, 0.7, 0.95]), photos=np.array([0, 0, 0, 1]), boxes=boxes,
                       labelled_photos=np.array([0, 0, 1]), labelled_boxes=labelled_boxes,
                       labelled_codes=labelled_codes)


def test_a_box_takes_the_code_of_the_labelled_index_it_overlaps_by_half_or_more():
    labelled = np.array([[0, 0, 10, 20], [50, 0, 60, 20]], float)
    codes = np.array([4, 9])
    boxes = np.array([[0, 1, 10, 21], [55, 0, 65, 20], [200, 0, 210, 20]], float)  # IoU 0.9, 0.33, 0
    assert list(truth_of(boxes, labelled, codes)) == [4, NONE_INDEX, NONE_INDEX]
    assert truth_of(np.zeros((0, 4)), labelled, codes).shape == (0,)


def test_a_perfect_classifier_scores_one_and_a_wrong_name_costs_its_class():
    boxes = two_photos()
    perfect = score(boxes, perfect_probabilities(boxes))
    assert perfect.map50 == pytest.approx(1.0) and perfect.top1 == 1.0
    assert (perfect.sure_right, perfect.sure_wrong) == (3, 0)  # the box on no index is named `none`: right, dropped
    wrong = perfect_probabilities(boxes)
    wrong[1] = 0.0
    wrong[1, CLASS_NAMES.index("3D")] = 0.75  # 3H named 3D surely
    result = score(boxes, wrong)
    assert result.map50 < 1.0 and result.top1 == pytest.approx(2 / 3)
    assert (result.sure_right, result.sure_wrong) == (2, 1)
    unsure = perfect_probabilities(boxes)
    unsure[3] = 0.0
    unsure[3, CLASS_NAMES.index("AD")] = 0.5  # right but unsure: still a reading, not counted sure
    assert score(boxes, unsure).map50 == pytest.approx(1.0)
    assert score(boxes, unsure).sure_right == 2


def test_boxes_survive_a_save_and_load(tmp_path):
    boxes = two_photos()
    boxes.save(tmp_path / "boxes.npz")
    loaded = ReaderBoxes.load(tmp_path / "boxes.npz")
    for name in ReaderBoxes.__dataclass_fields__:
        np.testing.assert_array_equal(getattr(loaded, name), getattr(boxes, name))


def test_the_vote_takes_the_turns_mean_for_unsure_crops_and_for_checked_ones_that_change_class():
    turns = np.full((4, 3, N), 0.0, np.float32)
    turns[:, 0, 0] = 0.95                      # sure: never turned
    turns[0, 0, 1] = 0.05
    turns[1:, 0, 1] = 0.95                     # (its turns would name class 1)
    turns[0, 1, 2], turns[0, 1, 3] = 0.6, 0.4  # unsure: takes the mean whatever it names
    turns[1:, 1, 2], turns[1:, 1, 3] = 0.7, 0.3
    turns[0, 2, 4], turns[0, 2, 5] = 0.85, 0.15  # checked: the turns name class 5, so the mean (5 wins) is taken
    turns[1:, 2, 5] = 1.0
    voted = reader_vote(turns)
    np.testing.assert_allclose(voted[0], turns[0, 0])
    np.testing.assert_allclose(voted[1], turns[:, 1].mean(axis=0))
    np.testing.assert_allclose(voted[2], turns[:, 2].mean(axis=0))
    turns[1:, 2, 5], turns[1:, 2, 4] = 0.0, 1.0  # the turns agree with the crop: the crop's own answer stays
    np.testing.assert_allclose(reader_vote(turns)[2], turns[0, 2])


def test_the_emulated_vote_gives_the_readers_probabilities_for_the_same_crops():
    rng = np.random.default_rng(57)
    tiles = [rng.integers(0, 256, (CROP_SIZE, CROP_SIZE, 3), np.uint8) for _ in range(5)]
    tiles += [np.full((CROP_SIZE, CROP_SIZE, 3), value, np.uint8) for value in (20, 235)]
    image = np.hstack(tiles)
    side = CROP_SIZE / CROP_SCALE
    centres = [(k * CROP_SIZE + CROP_SIZE / 2 + 0.25, CROP_SIZE / 2 + 0.25) for k in range(len(tiles))]  # off the
    # pixel edge, so that rounding cannot move the window
    boxes = np.array([[x - side / 2, y - side / 2, x + side / 2, y + side / 2] for x, y in centres])
    crops = np.array([index_crop(image, box) for box in boxes])
    np.testing.assert_array_equal(crops, np.array(tiles))  # the boxes cut exactly the tiles
    model = MODELS / "cards_cls.onnx"
    reader_probabilities = IndexClassifier(model)._turned_vote(image, boxes, ROTATION_VOTE_BELOW)
    assert (reader_probabilities.max(axis=1) < ROTATION_VOTE_BELOW).any()  # some crops were voted on
    np.testing.assert_allclose(reader_vote(turned_probabilities(model, crops)), reader_probabilities, atol=1e-5)


def test_cut_keeps_each_box_the_reader_named_with_its_truth(tmp_path):
    rows = [list(r) for r in deal(3)]
    write_scene(tmp_path, "0000", rows, 0)
    write_scene(tmp_path, "0001", [list(r) for r in deal(4)], 90)
    reader = CardReader(detector=MarkerDetector(), classifier=ColourClassifier())
    boxes = cut(reader, tmp_path)
    assert boxes.crops.shape[1:] == (CROP_SIZE, CROP_SIZE, 3) and len(boxes.crops) == len(boxes.truth)
    assert set(boxes.photos) == {0, 1} and len(boxes.labelled_codes) == len(boxes.labelled_photos)
    first_photo = {CLASS_NAMES[k] for k in boxes.labelled_codes[boxes.labelled_photos == 0]}
    assert first_photo == {code for row in rows for code in row}
    assert (boxes.truth != NONE_INDEX).sum() == len(boxes.labelled_codes)  # every drawn index found and matched
    assert score(boxes, perfect_probabilities(boxes)).map50 == pytest.approx(1.0)


def test_bad_input_is_a_clear_error(tmp_path, capsys):
    assert main(["score", str(tmp_path / "absent.npz"), str(MODELS / "cards_cls.onnx")]) == 2
    assert "absent.npz" in capsys.readouterr().err
    two_photos().save(tmp_path / "boxes.npz")
    assert main(["score", str(tmp_path / "boxes.npz"), str(tmp_path / "absent.onnx")]) == 2
    assert "model file not found" in capsys.readouterr().err
    assert main(["cut", str(tmp_path), str(tmp_path / "out.npz")]) == 2  # a folder without labelled photos
    assert "no labelled photos" in capsys.readouterr().err


def test_the_command_scores_a_perfect_classifier_and_the_shipped_pair(tmp_path, capsys):
    two_photos().save(tmp_path / "boxes.npz")
    pair = f"{MODELS / 'cards_cls.onnx'}+{MODELS / 'cards_cls_partner.onnx'}"
    assert main(["score", str(tmp_path / "boxes.npz"), pair]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("a perfect classifier: mAP50 1.0000") and lines[1].startswith(pair + ": mAP50 ")
