"""Stretching a steep view's photo vertically (vision.unsqueeze) and mapping what is found in a region of it back
(vision.cards.readings_out_of; the mapping helpers' own round trip is in test_cards.py)."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.cards import IndexReading, readings_out_of
from vision.unsqueeze import stretched_vertically


def test_the_stretch_makes_the_image_taller_and_keeps_its_width():
    image = np.zeros((300, 500, 3), np.uint8)
    assert stretched_vertically(image, 1.6).shape == (480, 500, 3)
    assert stretched_vertically(image, 1.0).shape == image.shape


@pytest.mark.parametrize("factor", [1.3, 1.6, 2.0])
@pytest.mark.parametrize("origin", [(0, 0), (150, 90)])
def test_a_box_found_in_the_stretched_region_maps_back_onto_the_original(factor, origin):
    image = np.full((400, 600, 3), 40, np.uint8)
    cv2.rectangle(image, (210, 130), (251, 161), (255, 255, 255), -1)  # a flat mark, as a steep view leaves an index
    x, y = origin
    stretched = stretched_vertically(image[y:, x:], factor)
    ys, xs = np.nonzero(stretched[..., 0] > 128)
    found = IndexReading((float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1)), "AS", 0.9, 0.8)
    (back,) = readings_out_of([found], origin, (1.0, stretched.shape[0] / (image.shape[0] - y)))
    assert np.allclose(back.box, (210, 130, 252, 162), atol=1.0)
    assert (back.code, back.probability, back.detector_score) == ("AS", 0.9, 0.8)
    # in the stretched region the mark is as much taller as asked: what the detector gets to see
    assert (found.box[3] - found.box[1]) == pytest.approx(32 * factor, abs=1.5)


@pytest.mark.parametrize("factor", [0.5, 0.0, -1.0, float("nan")])
def test_a_shrinking_or_impossible_factor_is_refused(factor):
    with pytest.raises(ValueError, match="factor of 1 or more"):
        stretched_vertically(np.zeros((10, 10, 3), np.uint8), factor)
