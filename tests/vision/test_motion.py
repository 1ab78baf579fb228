"""Measuring a moved camera's blur line from a photo (vision.motion)."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.degrade import motion_blur
from vision.motion import MIN_DEPTH, MIN_LENGTH_PX, edge_anisotropy, measuring_shrink, motion_line

from glyph_pages import glyph_page


def _angle_apart(a: float, b: float) -> float:
    difference = abs(a - b) % 180.0
    return min(difference, 180.0 - difference)


@pytest.mark.parametrize("length, angle", [(8, 0), (12, 30), (10, 75), (15, 120), (18, 160), (9, 90)])
def test_the_line_of_a_moved_camera_is_measured_in_length_and_direction(length, angle):
    line = motion_line(motion_blur(glyph_page(), length, angle))
    assert line is not None
    assert abs(line.length - length) <= 1.5
    assert _angle_apart(line.angle, angle) <= 8


@pytest.mark.parametrize("length, angle", [(20, 10), (22, 100), (24, 150)])
def test_a_long_smear_is_measured_too(length, angle):
    """Smears of 2-4 % of the side: measured at 512 px, this page's steep spectral slope along them put a false,
    short line near the cepstrum's centre."""
    line = motion_line(motion_blur(glyph_page(), length, angle))
    assert line is not None
    assert abs(line.length - length) <= 3
    assert _angle_apart(line.angle, angle) <= 8


@pytest.mark.parametrize("length, angle", [(23.3, 37), (28.6, 112), (31.0, 163), (26.0, 58)])
def test_a_line_between_the_cepstrum_pixels_is_placed_between_them(length, angle):
    """Measured at 384 px, one cepstrum pixel is 3.1 px of this 1200 px page: the peak's sub-pixel fit finds the
    direction within about 2 degrees (whole pixels alone: 2.8-4.5 degrees off on these four)."""
    large = cv2.resize(glyph_page(), None, fx=1.5, fy=1.5, interpolation=cv2.INTER_CUBIC)
    line = motion_line(motion_blur(large, length, angle))
    assert line is not None
    assert abs(line.length - length) <= 0.07 * length
    assert _angle_apart(line.angle, angle) <= 2.2


@pytest.mark.parametrize("long_side, measured", [(300, 300), (504, 384), (1536, 384), (1800, 450), (2000, 500),
                                                 (4000, 512)])
def test_small_photos_are_measured_at_384_px_and_large_ones_at_a_quarter_of_their_side_up_to_512(long_side, measured):
    assert long_side * measuring_shrink(long_side) == pytest.approx(measured)


def test_a_large_photo_is_measured_shrunk_and_the_line_given_in_its_own_pixels():
    large = cv2.resize(glyph_page(), None, fx=3, fy=3, interpolation=cv2.INTER_CUBIC)  # 2400 px long side
    line = motion_line(motion_blur(large, 36, 45))
    assert line is not None
    assert abs(line.length - 36) <= 6  # measured at a fifth of the size, then scaled back
    assert _angle_apart(line.angle, 45) <= 8


@pytest.mark.parametrize("picture", ["sharp", "out of focus", "flat", "tiny", "short smear"])
def test_no_line_is_reported_where_the_camera_did_not_move_or_nothing_shows(picture):
    page = glyph_page()
    image = {"sharp": page,
             "out of focus": cv2.GaussianBlur(page, (0, 0), 3.0),
             "flat": np.full((400, 400, 3), 128, np.uint8),
             "tiny": page[:40, :50],
             "short smear": motion_blur(page, MIN_LENGTH_PX - 1.5, 30)}[picture]
    assert motion_line(image) is None


def test_a_grey_image_is_measured_as_its_colour_one_is():
    moved = motion_blur(glyph_page(), 12, 30)
    assert motion_line(cv2.cvtColor(moved, cv2.COLOR_BGR2GRAY)) == motion_line(moved)


@pytest.mark.parametrize("sigma, quality", [(4, 40), (5, 30)])
def test_jpeg_blocks_of_a_blurred_featureless_photo_are_not_taken_for_a_moved_camera(monkeypatch, sigma, quality):
    """JPEG's 8 px blocks put cepstral peaks on the axes at multiples of 8 px; on a photo blurred past most of its
    detail they are the deepest points. They need a plainer peak than any other place to count as a line."""
    blurred = cv2.GaussianBlur(glyph_page(size=(288, 384)), (0, 0), sigma)  # measured at its own size: blocks of 8 px
    compressed = cv2.imdecode(cv2.imencode(".jpg", blurred, [cv2.IMWRITE_JPEG_QUALITY, quality])[1],
                              cv2.IMREAD_COLOR)
    monkeypatch.setattr("vision.motion.MIN_ANISOTROPY", 0.0)  # the grid rule alone
    assert motion_line(compressed) is None
    monkeypatch.setattr("vision.motion.MIN_DEPTH_ON_BLOCK_GRID", MIN_DEPTH)
    line = motion_line(compressed)  # a block-grid peak: 8 px out on an axis, within the sub-pixel fit's half pixel
    assert line is not None and abs(line.length - 8 * round(line.length / 8)) <= 0.75
    assert min(_angle_apart(line.angle, 0.0), _angle_apart(line.angle, 90.0)) <= 5


def test_a_peak_the_glyphs_imitate_is_refused_because_edges_across_it_are_no_steeper(monkeypatch):
    sharp = glyph_page(seed=4, size=(480, 640))
    assert motion_line(sharp) is None
    monkeypatch.setattr("vision.motion.MIN_ANISOTROPY", 0.0)
    imitation = motion_line(sharp)  # this page's strokes make a cepstral peak of their own
    assert imitation is not None
    moved = motion_blur(sharp, 12, imitation.angle)
    grey = cv2.cvtColor(sharp, cv2.COLOR_BGR2GRAY)
    assert edge_anisotropy(grey, imitation.angle) < 1.15 < edge_anisotropy(cv2.cvtColor(moved, cv2.COLOR_BGR2GRAY),
                                                                           imitation.angle)


def test_the_windows_spectra_shared_between_worker_threads_are_those_of_one_pass():
    """Each window's log spectrum is its own, so splitting the windows between threads changes no bit of their mean."""
    from vision.motion import MIN_WINDOW_STD, WINDOW, _mean_log_spectrum

    grey = cv2.cvtColor(motion_blur(glyph_page(5, (300, 384)), 12.0, 40.0), cv2.COLOR_BGR2GRAY).astype(np.float32)
    step = WINDOW // 2
    windows = np.lib.stride_tricks.sliding_window_view(grey, (WINDOW, WINDOW))[::step, ::step].reshape(-1, WINDOW,
                                                                                                         WINDOW)
    windows = windows[windows.std(axis=(1, 2)) >= MIN_WINDOW_STD]
    taper = np.outer(np.hanning(WINDOW), np.hanning(WINDOW)).astype(np.float32)
    one_pass = np.log(np.abs(np.fft.rfft2((windows - windows.mean(axis=(1, 2), keepdims=True)) * taper)) + 1e-3)
    assert len(windows) >= 3 and np.array_equal(_mean_log_spectrum(grey), one_pass.mean(axis=0))
