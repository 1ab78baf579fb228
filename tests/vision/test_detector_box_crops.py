"""Crops cut at the detector's boxes on synthetic photos, labelled by the truth (vision.training.detector_box_crops)."""
from __future__ import annotations

import json

import numpy as np

from conftest import TEST_TRAIN_DECK, TEST_VAL_DECK, needs_decks
from vision.crops import CLASS_NAMES, CROP_SIZE, NONE_CLASS
from vision.training.detector_box_crops import NONE_PER_PHOTO, SIZES, label_detections, main, photo_crops

TRUTH = [("KH", (100.0, 100.0, 120.0, 130.0), True),    # a visible index
         ("7S", (300.0, 300.0, 320.0, 330.0), False)]   # a covered one


def test_a_box_is_the_index_it_covers_none_where_it_touches_none_and_skipped_in_between():
    boxes = np.array([
        [101, 102, 121, 131],   # on the visible KH: KH
        [500, 500, 520, 530],   # on the table: none
        [300, 300, 320, 330],   # on the covered 7S: its name is unclear, skipped
        [110, 115, 140, 150],   # half on KH: skipped
        [112, 120, 140, 150],   # over a corner of KH: not `none` either
    ], np.float64)
    assert label_detections(boxes, TRUTH) == ["KH", NONE_CLASS, None, None, None]


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
                 str(real_models), "--decks", TEST_TRAIN_DECK, "--val-decks", TEST_VAL_DECK, "--cache",
                 str(cache)]) == 0
    manifest = json.loads((out / "manifest-train.json").read_text())
    on_disk = {name: len(list((out / "crops" / "train" / name).glob("*.png"))) for name in CLASS_NAMES}
    assert on_disk == manifest["per_class"]
    assert manifest["total"] > 0 and sum(v for k, v in on_disk.items() if k != NONE_CLASS) > 0
