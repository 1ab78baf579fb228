"""A moved camera's blur line (length and direction) measured from a photo's cepstrum: the reader calls a photo that
shows one blurred and reads it again with the line undone (vision.deblur; figures in docs/reader-decisions.md@538d56c
[motion line], [blurred]).

A line blur of length L multiplies the photo's spectrum by a sinc whose zeros repeat every 1/L along the line, so the
cepstrum (the inverse transform of the log spectrum) has a sharp negative peak L pixels from its centre, in the line's
direction, whatever the photo shows. Averaging the log spectra of many windows keeps the peak and smooths the rest.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.threads import WORKER_THREADS, workers

# A photo up to 4 x 384 px is measured at this long side (see measuring_shrink): a smear of 0.9-5.5 % of the photo's
# side falls between MIN_LENGTH_PX and WINDOW / 3, where the window's cepstrum can place it. Measured as they are
# (504 px, not shrunk), edje's long smears showed faintly or not at all (2.5 %: found in 58 of 91, 86 at 384) and a
# blurred page's broad spectral slope put false peaks near the centre; at 256 short smears fall under MIN_LENGTH_PX
# [motion line].
MEASURE_LONG_SIDE = 384
# ...and a photo of more than 4 x 384 px at a quarter of its side, up to 512: shrunk that much it still averages
# away its noise and JPEG blocks, and a 2000 px photo's 1-1.5 % smears are found more often and placed better
# (session 35: synthetic moved photos' card recall 0.784 -> 0.876 at 1.5 %) [motion line].
MEASURE_SHRINK = 4
MEASURE_LONG_SIDE_LARGE = 512
WINDOW = 64
MIN_LENGTH_PX = 3.5  # shorter smears read as well unrestored [motion line]
# Peak depth in standard deviations of the cepstrum around it: measured at 512 px, edje photos out of focus (no line)
# reach 2.8 at their 95th percentile, moved ones 2.2-3.2 at their 5th [motion line].
MIN_DEPTH = 2.5
# Edges across the line stay steeper than along it, by this much at the 99th percentile: a check on the cepstrum's
# peak, which content (a font's strokes) can imitate but not its effect on edges [motion line].
MIN_ANISOTROPY = 1.15
MIN_WINDOW_STD = 4.0  # grey levels: flat windows (table, card backs) carry no spectrum, only noise
# JPEG's 8 px blocks put peaks of their own on the axes at multiples of 8 px (at the measured scale): blurred,
# featureless photos showed them at depth 2.1-3.0, a moved camera's line there 2.8-7.0 (both at 512 px) [motion line]
JPEG_BLOCK_PX = 8
MIN_DEPTH_ON_BLOCK_GRID = 4.0


@dataclass(frozen=True)
class MotionLine:
    length: float  # pixels of the image measured
    angle: float  # degrees in [0, 180), from the image's x axis towards its y axis (downwards)
    depth: float  # the cepstrum's peak in standard deviations: how plainly the line shows


def motion_line(image: np.ndarray) -> MotionLine | None:
    """The line a moved camera smeared `image` (BGR or grey) along, or None when no line shows plainly."""
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    shrink = measuring_shrink(max(grey.shape[:2]))
    if min(round(side * shrink) for side in grey.shape[:2]) < WINDOW:
        return None  # too thin to hold one window once shrunk (cv2.resize would refuse a side shrunk to nothing)
    if shrink < 1.0:
        grey = cv2.resize(grey, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
    spectrum = _mean_log_spectrum(grey.astype(np.float32))
    if spectrum is None:
        return None
    # the log spectrum of a real picture is real and even, so the half that rfft2 gives is all of it
    cepstrum = np.fft.fftshift(np.fft.irfft2(spectrum, s=(WINDOW, WINDOW)))
    centre = WINDOW // 2
    dy, dx = np.mgrid[:WINDOW, :WINDOW] - centre
    radius = np.hypot(dx, dy)
    around = (radius >= MIN_LENGTH_PX - 1) & (radius <= WINDOW / 3)
    depths = -cepstrum / (cepstrum[around].std() + 1e-9)
    needed = np.where(_on_block_grid(dx, dy, JPEG_BLOCK_PX * shrink), MIN_DEPTH_ON_BLOCK_GRID, MIN_DEPTH)
    candidates = around & (depths >= needed)
    if not candidates.any():
        return None
    peak = np.unravel_index(np.argmax(np.where(candidates, depths, -np.inf)), depths.shape)
    depth = float(depths[peak])
    if float(radius[peak]) < MIN_LENGTH_PX:
        return None
    if edge_anisotropy(grey, math.degrees(math.atan2(dy[peak], dx[peak])) % 180.0) < MIN_ANISOTROPY:
        return None
    # the line itself from the peak between cepstrum pixels: one pixel is ~5 px of a 2000 px photo and several
    # degrees of a line's direction, and a Wiener filter along a line that far off undoes it badly [motion line]
    x = dx[peak] + _peak_offset(depths[peak[0], peak[1] - 1:peak[1] + 2])
    y = dy[peak] + _peak_offset(depths[peak[0] - 1:peak[0] + 2, peak[1]])
    return MotionLine(math.hypot(x, y) / shrink, math.degrees(math.atan2(y, x)) % 180.0, depth)


def _peak_offset(values: np.ndarray) -> float:
    """Where a parabola through three values around their middle, the largest, peaks (-0.5..0.5 of a pixel)."""
    before, middle, after = (float(v) for v in values)
    curvature = before - 2.0 * middle + after
    return 0.0 if curvature >= 0 else float(np.clip(0.5 * (before - after) / curvature, -0.5, 0.5))


def measuring_shrink(long_side: int) -> float:
    """The factor a photo of this long side is shrunk by to measure its line (1.0: measured as it is)."""
    measured = max(MEASURE_LONG_SIDE, min(MEASURE_LONG_SIDE_LARGE, long_side / MEASURE_SHRINK))
    return min(1.0, measured / long_side)


def _on_block_grid(dx: np.ndarray, dy: np.ndarray, period: float) -> np.ndarray:
    """Cepstrum offsets along an axis at a multiple of `period` (within 0.75 px): where a compressed photo's block
    edges, not a moved camera, put a peak."""
    along_axis = np.hypot(dx, dy) * ((dx == 0) | (dy == 0))
    multiple = np.round(along_axis / period)
    return (multiple >= 1) & (np.abs(along_axis - multiple * period) <= 0.75)


def edge_anisotropy(grey: np.ndarray, angle: float) -> float:
    """How much steeper the grey image's steepest edges are across the direction `angle` (degrees) than along it:
    the ratio of the 99th percentiles of the grey slope in the two directions."""
    grey = grey.astype(np.float32)
    slope_x = cv2.Sobel(grey, cv2.CV_32F, 1, 0)
    slope_y = cv2.Sobel(grey, cv2.CV_32F, 0, 1)
    cos, sin = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    along = np.percentile(np.abs(slope_x * cos + slope_y * sin), 99)
    across = np.percentile(np.abs(slope_y * cos - slope_x * sin), 99)
    return float(across / max(along, 1e-6))


def _mean_log_spectrum(grey: np.ndarray) -> np.ndarray | None:
    """The mean log magnitude spectrum of the half-overlapping, Hann-tapered WINDOW-square windows that are not
    flat (its non-negative horizontal frequencies, as rfft2 gives them); None when every window is."""
    if min(grey.shape) < WINDOW:
        return None
    step = WINDOW // 2
    windows = np.lib.stride_tricks.sliding_window_view(grey, (WINDOW, WINDOW))[::step, ::step].reshape(-1, WINDOW,
                                                                                                         WINDOW)
    windows = windows[windows.std(axis=(1, 2)) >= MIN_WINDOW_STD]
    if not len(windows):
        return None
    # each window's spectrum is its own, so the worker threads share the windows: NumPy's FFT uses one core
    # (docs/reader-decisions.md@538d56c, "speed")
    parts = workers().map(_log_spectra, np.array_split(windows, WORKER_THREADS))
    return np.concatenate(list(parts)).mean(axis=0)


def _log_spectra(windows: np.ndarray) -> np.ndarray:
    """The log magnitude spectra of WINDOW-square windows, each made mean-free and Hann-tapered first."""
    taper = np.outer(np.hanning(WINDOW), np.hanning(WINDOW)).astype(np.float32)
    centred = (windows - windows.mean(axis=(1, 2), keepdims=True)) * taper
    # rfft2: a real window's spectrum is symmetric, and its half costs a quarter of fft2's time here (session 42)
    return np.log(np.abs(np.fft.rfft2(centred)) + 1e-3)
