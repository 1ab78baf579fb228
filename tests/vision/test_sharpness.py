"""Index sharpness: the blur hint's measure."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.degrade import motion_blur
from vision.sharpness import BLURRED_BELOW, crop_sharpness, index_sharpness


def _glyph(text: str, ink: int = 20, paper: int = 235, thickness: int = 3) -> np.ndarray:
    crop = np.full((48, 48, 3), paper, np.uint8)
    cv2.putText(crop, text, (6, 38), cv2.FONT_HERSHEY_SIMPLEX, 1.3, (ink, ink, ink), thickness, cv2.LINE_AA)
    return crop


@pytest.mark.parametrize("text", ["Q", "10", "A", "7"])
def test_a_sharp_index_scores_above_the_threshold_whatever_its_glyph_ink_or_light(text):
    for crop in (_glyph(text), _glyph(text, ink=60, paper=120), _glyph(text, thickness=2)):
        assert crop_sharpness(crop) > 1.5 * BLURRED_BELOW


@pytest.mark.parametrize("text", ["Q", "10", "A", "7"])
def test_blur_lowers_sharpness_step_by_step(text):
    sharp = _glyph(text)
    scores = [crop_sharpness(cv2.GaussianBlur(sharp, (0, 0), sigma)) for sigma in (1.0, 2.0, 3.0)]
    assert crop_sharpness(sharp) > scores[0] > scores[1] > scores[2]
    assert scores[2] < BLURRED_BELOW
    assert crop_sharpness(motion_blur(sharp, 10, 30)) < 0.6 * crop_sharpness(sharp)


@pytest.mark.parametrize("text", ["Q", "10", "A", "7"])
def test_a_moved_camera_lowers_sharpness_whatever_the_direction_of_its_motion(text):
    # the edges along the motion stay steep, so a measure of the steepest edge alone would miss it
    sharp = crop_sharpness(_glyph(text))
    moved = [crop_sharpness(motion_blur(_glyph(text), 16, angle)) for angle in (0, 45, 90, 135)]
    assert np.mean(moved) < 0.45 * sharp
    assert max(moved) < 0.65 * sharp


def test_a_flat_crop_tells_nothing():
    flat = np.full((48, 48, 3), 128, np.uint8)
    assert crop_sharpness(flat) is None
    assert index_sharpness(np.full((100, 100, 3), 128, np.uint8), [(10, 10, 40, 40)]) is None


def test_index_sharpness_is_the_median_over_boxes_and_none_without_boxes():
    image = np.full((200, 300, 3), 235, np.uint8)
    cv2.putText(image, "K", (20, 80), cv2.FONT_HERSHEY_SIMPLEX, 1.5, (20, 20, 20), 3, cv2.LINE_AA)
    image[:, 150:] = cv2.GaussianBlur(image, (0, 0), 3)[:, 150:]
    cv2.putText(image, "K", (170, 80), cv2.FONT_HERSHEY_SIMPLEX, 1.5, (20, 20, 20), 3, cv2.LINE_AA)
    image[:, 150:] = cv2.GaussianBlur(image[:, 150:], (0, 0), 3)
    sharp_box, blurred_box = (15, 40, 55, 90), (165, 40, 205, 90)
    assert index_sharpness(image, []) is None
    sharp, blurred = index_sharpness(image, [sharp_box]), index_sharpness(image, [blurred_box])
    assert sharp > BLURRED_BELOW > blurred
    assert index_sharpness(image, [sharp_box, blurred_box, blurred_box]) == pytest.approx(blurred)
