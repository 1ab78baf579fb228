"""A classifier's partner (vision.classifier, docs/reader.md; the measurements in CHANGELOG.md): its probabilities are
averaged with the classifier's on every crop, and the reader loads it from the models folder where it is shipped."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.classifier import IndexClassifier
from vision.crops import CLASS_NAMES
from vision.detector import IndexDetector
from vision.errors import ModelError
from vision.reader import CLASSIFIER_FILE, DETECTOR_FILE, PARTNER_CLASSIFIER_FILE, CardReader
from vision.second_opinion import SECOND_CLASSIFIER_FILE

from conftest import MODELS

SAMPLE = MODELS.parent / "sample_images" / "layout_p1.jpg"


def test_the_partner_s_probabilities_are_averaged_with_the_classifier_s_on_every_crop():
    image = cv2.imread(str(SAMPLE), cv2.IMREAD_COLOR)
    boxes, _ = IndexDetector(MODELS / DETECTOR_FILE).detect(image, 640)  # real index crops for the classifiers
    assert len(boxes) >= 13
    # any two classifiers of the same classes show the rule; the second opinion's network is one
    first, other = MODELS / CLASSIFIER_FILE, MODELS / SECOND_CLASSIFIER_FILE
    alone = IndexClassifier(first).probabilities(image, boxes, rotation_vote_below=0)
    theirs = IndexClassifier(other).probabilities(image, boxes, rotation_vote_below=0)
    paired = IndexClassifier(first, partner_path=other).probabilities(image, boxes, rotation_vote_below=0)
    assert paired.shape == (len(boxes), len(CLASS_NAMES))
    np.testing.assert_allclose(paired, (alone + theirs) / 2, atol=1e-6)
    np.testing.assert_allclose(paired.sum(axis=1), 1.0, atol=1e-5)
    assert not np.allclose(paired, alone, atol=1e-3)  # the partner changed something


def test_a_partner_that_is_not_a_classifier_of_the_same_classes_is_a_typed_error(tmp_path):
    broken = tmp_path / PARTNER_CLASSIFIER_FILE
    broken.write_bytes(b"not a model")
    with pytest.raises(ModelError, match=PARTNER_CLASSIFIER_FILE):
        IndexClassifier(MODELS / CLASSIFIER_FILE, partner_path=broken)


def _models_folder(tmp_path, with_partner: bool):
    for name in (DETECTOR_FILE, CLASSIFIER_FILE):
        (tmp_path / name).symlink_to(MODELS / name)
    if with_partner:  # the second opinion's network stands in for a partner
        (tmp_path / PARTNER_CLASSIFIER_FILE).symlink_to(MODELS / SECOND_CLASSIFIER_FILE)
    return tmp_path


def test_the_reader_pairs_the_classifier_with_the_models_folder_s_partner_unless_told_not_to(tmp_path):
    folder = _models_folder(tmp_path, with_partner=True)
    assert CardReader(folder).classifier.partner is not None
    assert CardReader(folder, partner_classifier=False).classifier.partner is None


def test_without_a_partner_file_the_classifier_reads_alone(tmp_path):
    assert CardReader(_models_folder(tmp_path, with_partner=False)).classifier.partner is None


def test_the_shipped_models_folder_pairs_its_classifier(shipped_reader):
    assert (MODELS / PARTNER_CLASSIFIER_FILE).is_file()
    assert shipped_reader.classifier.partner is not None
