"""Crops cut at the detector's boxes on synthetic photos, labelled by the truth (vision.training.detector_box_crops),
and how a classifier names such crops (vision.training.crop_naming)."""
from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from conftest import TEST_TRAIN_DECK, TEST_VAL_DECK, needs_decks
from vision.crops import CLASS_NAMES, CROP_SIZE, NONE_CLASS, index_crop
from vision.training.crop_naming import crop_naming
from vision.training.detector_box_crops import (NONE_PER_PHOTO, SIZES, IndexTruth, label_detections, main,
                                                photo_crops)

TRUTH = [IndexTruth("KH", (100.0, 100.0, 120.0, 130.0), True),    # a visible index
         IndexTruth("7S", (300.0, 300.0, 320.0, 330.0), False)]   # a covered one


def test_a_box_is_the_index_it_covers_none_where_it_touches_none_and_skipped_in_between():
    boxes = np.array([
        [101, 102, 121, 131],   # on the visible KH: KH
        [500, 500, 520, 530],   # on the table: none
        [300, 300, 320, 330],   # on the covered 7S: its name is unclear, skipped
        [110, 115, 140, 150],   # half on KH: skipped
        [112, 120, 140, 150],   # over a corner of KH: not `none` either
    ], np.float64)
    assert label_detections(boxes, TRUTH) == ["KH", NONE_CLASS, None, None, None]


def test_with_suit_hidden_none_a_box_on_an_index_whose_suit_is_covered_is_none_visible_or_not():
    truth = [IndexTruth("QH", (100.0, 100.0, 120.0, 130.0), True, suit_hidden=True),
             IndexTruth("7S", (300.0, 300.0, 320.0, 330.0), False, suit_hidden=True),
             IndexTruth("KD", (500.0, 100.0, 520.0, 130.0), True)]
    boxes = np.array([[101, 101, 121, 131], [300, 301, 320, 331], [500, 101, 520, 131]], np.float64)
    assert label_detections(boxes, truth) == ["QH", None, "KD"]  # as before: named when visible enough
    assert label_detections(boxes, truth, suit_hidden_none=True) == [NONE_CLASS, NONE_CLASS, "KD"]


def test_every_box_is_none_on_a_photo_without_indices_and_no_boxes_give_no_labels():
    assert label_detections(np.array([[0, 0, 10, 10]], np.float64), []) == [NONE_CLASS]
    assert label_detections(np.zeros((0, 4)), TRUTH) == []


class StandInDetector:
    """Finds the KH index and many table boxes at every size, as a detector firing on pips would."""

    def __init__(self):
        self.sizes: list[int] = []

    def detect(self, image, long_side):
        self.sizes.append(long_side)
        table = [[400 + 25 * k, 400, 420 + 25 * k, 430] for k in range(10)]
        return np.array([[101, 102, 121, 131]] + table, np.float32), np.full(11, 0.9, np.float32)


def test_photo_crops_cut_the_readers_crops_at_every_size_and_cap_the_none_crops():
    image = np.full((800, 1000, 3), 200, np.uint8)
    detector = StandInDetector()
    crops = photo_crops(image, TRUTH, detector, np.random.default_rng(0))
    assert detector.sizes == list(SIZES)
    names = [name for name, _ in crops]
    assert names.count("KH") == len(SIZES)
    assert names.count(NONE_CLASS) == NONE_PER_PHOTO
    assert all(crop.shape == (CROP_SIZE, CROP_SIZE, 3) for _, crop in crops)


@needs_decks
def test_the_command_writes_labelled_crops_and_a_manifest_that_counts_them(cache, tmp_path, real_models):
    out = tmp_path / "detcrops"
    assert main(["--out", str(out), "--photos", "2", "--seed", "3", "--blur-share", "0.5", "--models",
                 str(real_models), "--decks", f"{TEST_TRAIN_DECK},{TEST_VAL_DECK}", "--val-decks", TEST_VAL_DECK, "--cache",
                 str(cache)]) == 0
    manifest = json.loads((out / "manifest-train.json").read_text())
    on_disk = {name: len(list((out / "crops" / "train" / name).glob("*.png"))) for name in CLASS_NAMES}
    assert on_disk == manifest["per_class"]
    assert manifest["total"] > 0 and sum(v for k, v in on_disk.items() if k != NONE_CLASS) > 0
    assert sum(manifest["kinds"].values()) == 2


@needs_decks
def test_the_command_mines_only_the_photo_kinds_asked_for(cache, tmp_path, real_models):
    out = tmp_path / "hands"
    assert main(["--out", str(out), "--photos", "2", "--seed", "4", "--blur-share", "0", "--models", str(real_models),
                 "--decks", f"{TEST_TRAIN_DECK},{TEST_VAL_DECK}", "--val-decks", TEST_VAL_DECK, "--cache", str(cache),
                 "--photo-kinds", "hand=1"]) == 0
    assert json.loads((out / "manifest-train.json").read_text())["kinds"] == {"hand": 2}


@needs_decks
def test_the_command_mines_photos_seen_from_the_tilts_asked_for(cache, tmp_path, real_models, monkeypatch):
    from vision.synth import scene

    tilts = []
    make_camera = scene.make_camera

    def recording_camera(*args, **kwargs):
        tilts.append(kwargs.get("elevation"))
        return make_camera(*args, **kwargs)

    monkeypatch.setattr(scene, "make_camera", recording_camera)
    out = tmp_path / "steep"
    assert main(["--out", str(out), "--photos", "3", "--seed", "5", "--blur-share", "0", "--models", str(real_models),
                 "--decks", f"{TEST_TRAIN_DECK},{TEST_VAL_DECK}", "--val-decks", TEST_VAL_DECK, "--cache", str(cache),
                 "--photo-elevation", "30,40"]) == 0
    assert len(tilts) == 3 and all(30 <= t <= 40 for t in tilts) and len(set(tilts)) == 3
    assert json.loads((out / "manifest-train.json").read_text())["elevation"] == [30, 40]


@pytest.mark.parametrize("args, message", [
    (["--decks", "no_such_deck"], "unknown or missing decks: no_such_deck"),
    (["--blur-share", "1.5"], "--blur-share must be between 0 and 1"),
    (["--photo-kinds", "fan=1"], "--photo-kinds: 'fan=1' is not KIND=WEIGHT"),
    (["--photo-elevation", "20,50"], "--photo-elevation: '20,50' is not LOW,HIGH"),
    (["--photo-elevation", "60,40"], "--photo-elevation: '60,40' is not LOW,HIGH"),
    (["--photo-elevation", "steep"], "--photo-elevation: 'steep' is not LOW,HIGH"),
])
def test_the_command_refuses_unknown_decks_kinds_tilts_and_a_blur_share_outside_0_1(tmp_path, capsys, args, message):
    with pytest.raises(SystemExit) as exit_info:
        main(["--out", str(tmp_path / "out"), "--photos", "1"] + args)
    assert exit_info.value.code == 2 and message in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


class StandInClassifier:
    """Names a crop by its mean grey: dark -> KH at 0.9, mid -> 2C at 0.5, light -> none at 0.95."""

    def probabilities(self, image, boxes):
        assert np.allclose(index_crop(image, boxes[0]), image, atol=1)  # the box gives back the crop itself
        prob = np.zeros((1, len(CLASS_NAMES)), np.float32)
        grey = image.mean()
        name, p = ("KH", 0.9) if grey < 80 else ("2C", 0.5) if grey < 160 else (NONE_CLASS, 0.95)
        prob[0, CLASS_NAMES.index(name)] = p
        return prob


def test_crop_naming_counts_right_and_surely_wrong_names_per_kind(tmp_path):
    def write(cls, k, grey):
        (tmp_path / cls).mkdir(exist_ok=True)
        cv2.imwrite(str(tmp_path / cls / f"{k}.png"), np.full((CROP_SIZE, CROP_SIZE, 3), grey, np.uint8))

    write("KH", 0, 40)    # right
    write("KH", 1, 120)   # wrong but unsure (2C at 0.5)
    write("QS", 2, 40)    # wrong and sure (KH at 0.9)
    write("none", 3, 220)  # right
    write("none", 4, 40)  # wrong and sure
    figures = crop_naming(StandInClassifier(), tmp_path, sure=0.65)
    assert figures["cards"] == {"crops": 3, "right": pytest.approx(1 / 3), "wrong_and_sure": pytest.approx(1 / 3)}
    assert figures["none"] == {"crops": 2, "right": 0.5, "wrong_and_sure": 0.5}
