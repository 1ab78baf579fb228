"""The unsharp mask the reader applies to a photo it found blurred."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.deblur import unsharp_masked
from vision.sharpness import crop_sharpness


def _glyph(text: str) -> np.ndarray:
    crop = np.full((48, 48, 3), 235, np.uint8)
    cv2.putText(crop, text, (6, 38), cv2.FONT_HERSHEY_SIMPLEX, 1.3, (20, 20, 20), 3, cv2.LINE_AA)
    return crop


@pytest.mark.parametrize("text", ["Q", "10", "A", "7"])
def test_sharpening_a_blurred_index_steepens_its_edges_and_keeps_it_in_place(text):
    sharp = _glyph(text)
    blurred = cv2.GaussianBlur(sharp, (0, 0), 1.5)
    restored = unsharp_masked(blurred)
    assert restored.shape == blurred.shape and restored.dtype == np.uint8
    assert crop_sharpness(restored) > 1.1 * crop_sharpness(blurred)
    # closer to the sharp glyph than the blurred one was, not just noisier
    assert np.abs(restored.astype(int) - sharp).mean() < np.abs(blurred.astype(int) - sharp).mean()


def test_a_flat_image_is_left_as_it_is_and_amount_zero_changes_nothing():
    flat = np.full((40, 60, 3), 128, np.uint8)
    assert np.array_equal(unsharp_masked(flat), flat)
    blurred = cv2.GaussianBlur(_glyph("K"), (0, 0), 1.5)
    assert np.array_equal(unsharp_masked(blurred, amount=0.0), blurred)


@pytest.mark.parametrize("amount, sigma", [(-0.5, 2.0), (1.0, 0.0), (1.0, -1.0)])
def test_impossible_settings_are_refused(amount, sigma):
    with pytest.raises(ValueError, match="unsharp mask"):
        unsharp_masked(np.zeros((10, 10, 3), np.uint8), amount, sigma)
