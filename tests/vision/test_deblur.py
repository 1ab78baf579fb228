"""The restorations the reader applies to a photo it found blurred: deconvolution along a moved camera's line, else
an unsharp mask."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.deblur import motion_deblurred, noise_to_signal_for, restored, unsharp_masked
from vision.degrade import motion_blur
from vision.motion import MotionLine, motion_line
from vision.sharpness import crop_sharpness

from glyph_pages import glyph_page


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


def _detail_likeness(image: np.ndarray, reference: np.ndarray) -> float:
    """Correlation of the two images' fine detail (Laplacian of the lightly smoothed grey): 1 for the same glyph
    edges in the same places, whatever the overall brightness."""
    def detail(picture: np.ndarray) -> np.ndarray:
        grey = cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY).astype(np.float32)
        return cv2.Laplacian(cv2.GaussianBlur(grey, (0, 0), 1.0), cv2.CV_32F).ravel()
    return float(np.corrcoef(detail(image), detail(reference))[0, 1])


@pytest.mark.parametrize("length, angle", [(9, 0), (14, 30), (12, 100), (20, 150)])
def test_deconvolving_along_the_line_brings_a_moved_photo_back_towards_the_sharp_one(length, angle):
    sharp = glyph_page(seed=5, size=(480, 640))
    moved = motion_blur(sharp, length, angle)
    restored_photo = motion_deblurred(moved, MotionLine(length, angle, depth=10.0))
    assert restored_photo.shape == moved.shape and restored_photo.dtype == np.uint8
    before = _detail_likeness(moved, sharp)
    after = _detail_likeness(restored_photo, sharp)
    assert after > 0.75 and after > before + 0.25
    assert _detail_likeness(unsharp_masked(moved), sharp) < after - 0.25  # a mask cannot undo a long smear
    # a line across the true one restores nothing
    assert _detail_likeness(motion_deblurred(moved, MotionLine(length, angle + 90, depth=10.0)), sharp) < before
    # flat table stays as it was (the filter keeps the mean brightness)
    corner = (slice(0, 8), slice(0, 8))
    assert np.abs(restored_photo[corner].astype(int) - moved[corner]).max() <= 2


def test_a_photo_is_restored_along_its_measured_line_when_it_shows_one_and_unsharp_masked_otherwise():
    sharp = glyph_page(seed=5, size=(480, 640))
    moved = motion_blur(sharp, 14, 60)
    line = motion_line(moved)
    assert line is not None
    assert np.array_equal(restored(moved, line), motion_deblurred(moved, line, noise_to_signal_for(line)))
    long_line = MotionLine(length=30.0, angle=line.angle, depth=line.depth)  # undone harder than the default 0.01
    assert not np.array_equal(restored(moved, long_line), motion_deblurred(moved, long_line))
    out_of_focus = cv2.GaussianBlur(sharp, (0, 0), 2.5)
    assert motion_line(out_of_focus) is None
    assert np.array_equal(restored(out_of_focus, None), unsharp_masked(out_of_focus))


@pytest.mark.parametrize("length, expected", [(4.0, 0.01), (15.0, 0.01), (20.0, 0.0075), (30.0, 0.005), (90.0, 0.005)])
def test_long_lines_are_undone_harder(length, expected):
    """Short lines (a small photo's) at 0.01, a 12 MP photo's 30 px ones at 0.005, falling as 1 / length between."""
    assert noise_to_signal_for(MotionLine(length=length, angle=30.0, depth=5.0)) == pytest.approx(expected)


@pytest.mark.parametrize("length, noise_to_signal", [(0.0, 0.01), (-3.0, 0.01), (10.0, 0.0)])
def test_impossible_deconvolution_settings_are_refused(length, noise_to_signal):
    with pytest.raises(ValueError, match="motion deblurring"):
        motion_deblurred(np.zeros((40, 40, 3), np.uint8), MotionLine(length, 0.0, 5.0), noise_to_signal)


@pytest.mark.parametrize("height, width", [(100, 80), (30, 500), (5, 5)])
def test_a_photo_smaller_than_the_filter_reaches_keeps_its_shape(height, width):
    """The mirrored margins are wider than such a photo; the filter still runs and gives back the photo's size."""
    photo = (np.random.default_rng(1).random((height, width, 3)) * 255).astype(np.uint8)
    restored_photo = motion_deblurred(photo, MotionLine(20.0, 30.0, depth=5.0))
    assert restored_photo.shape == photo.shape and restored_photo.dtype == np.uint8


@pytest.mark.parametrize("length, angle", [(9.0, 20.0), (17.5, 115.0)])
def test_the_deconvolution_is_the_wiener_filter_applied_by_complex_ffts(length, angle):
    """The filter's packed spectrum (worked out on a worker thread) times the photo's, against the same circular
    convolution of the mirrored brightness with the filter by NumPy's complex FFTs: within a grey level."""
    from vision.deblur import filter_reach, wiener_kernel

    photo = motion_blur(glyph_page(4, (240, 320)), length, angle)
    line = MotionLine(length, angle, depth=5.0)
    found = motion_deblurred(photo, line, 0.01)
    kernel = wiener_kernel(line, 0.01)
    reach = filter_reach(line)
    margin = reach // 2 + 1
    height, width = photo.shape[:2]
    rows, cols = cv2.getOptimalDFTSize(height + 2 * margin), cv2.getOptimalDFTSize(width + 2 * margin)
    ycrcb = cv2.cvtColor(photo, cv2.COLOR_BGR2YCrCb)
    padded = cv2.copyMakeBorder(ycrcb[:, :, 0], margin, rows - height - margin, margin, cols - width - margin,
                                cv2.BORDER_REFLECT).astype(np.float64)
    placed = np.zeros((rows, cols))
    placed[:reach, :reach] = kernel
    placed = np.roll(placed, (-(reach // 2), -(reach // 2)), axis=(0, 1))
    sharp = np.real(np.fft.ifft2(np.fft.fft2(padded) * np.fft.fft2(placed)))
    ycrcb[:, :, 0] = np.clip(sharp[margin:margin + height, margin:margin + width] + 0.5, 0, 255).astype(np.uint8)
    expected = cv2.cvtColor(ycrcb, cv2.COLOR_YCrCb2BGR)
    assert (found != photo).any()
    assert np.abs(found.astype(int) - expected.astype(int)).max() <= 2
