"""Restoring a photo the reader found blurred, for its second read (vision.reader [sharpened read]): deconvolved
along a moved camera's line where the photo shows one (vision.motion), otherwise unsharp-masked."""
from __future__ import annotations

import math

import cv2
import numpy as np

from vision.degrade import line_kernel
from vision.motion import MotionLine
from vision.threads import workers

# Chosen on the real edje-multi photos made blurred (`vision evaluate --sets edje-blur`), amount / sigma 0.7 / 1.5,
# 1.0 / 2.0, 1.5 / 2.0, 1.0 / 3.0, 2.0 / 3.0: rank recall 0.899 / 0.902 / 0.900 / 0.901 / 0.900 (0.881 unsharpened),
# precision 0.986 / 0.986 / 0.984 / 0.986 / 0.983 (0.988). Sigma is in working-image pixels (docs/reader.md).
SHARPEN_AMOUNT = 1.0
SHARPEN_SIGMA_PX = 2.0
# Wiener's noise-to-signal ratio: lower undoes more of the line and amplifies more noise. Short lines (a small
# photo's, ~8 px) read best at 0.01, a 12 MP photo's 30 px lines at 0.005; between them it falls as 1 / length from
# LONG_LINE_FROM_PX [motion line].
MOTION_NOISE_TO_SIGNAL = 0.01
LONG_LINE_NOISE_TO_SIGNAL = 0.005
LONG_LINE_FROM_PX = 15.0
WIENER_REACH = 8  # the filter kernel's side in line lengths


def restored(image: np.ndarray, line: MotionLine | None) -> np.ndarray:
    """`image` deconvolved along `line` (vision.motion.motion_line's measure of it) when it shows one, else
    unsharp-masked."""
    return unsharp_masked(image) if line is None else motion_deblurred(image, line, noise_to_signal_for(line))


def noise_to_signal_for(line: MotionLine) -> float:
    """The Wiener noise-to-signal ratio for a line of its length (working-image pixels)."""
    falling = MOTION_NOISE_TO_SIGNAL * LONG_LINE_FROM_PX / max(line.length, 1e-9)
    return max(LONG_LINE_NOISE_TO_SIGNAL, min(MOTION_NOISE_TO_SIGNAL, falling))


def unsharp_masked(image: np.ndarray, amount: float = SHARPEN_AMOUNT, sigma: float = SHARPEN_SIGMA_PX) -> np.ndarray:
    """The image with its detail (the image minus a Gaussian blur of it) added `amount` times more; uint8 clipped."""
    if amount < 0 or sigma <= 0:
        raise ValueError(f"unsharp mask needs amount >= 0 and sigma > 0, got {amount} and {sigma}")
    blurred = cv2.GaussianBlur(image, (0, 0), sigma)
    return cv2.addWeighted(image, 1.0 + amount, blurred, -amount, 0)


def motion_deblurred(image: np.ndarray, line: MotionLine,
                     noise_to_signal: float = MOTION_NOISE_TO_SIGNAL) -> np.ndarray:
    """The BGR image with `line`'s smear undone by a Wiener filter on its brightness (colour is left smeared: it only
    tells red suits from black); uint8 clipped, same shape."""
    if line.length <= 0 or noise_to_signal <= 0:
        raise ValueError(f"motion deblurring needs a length > 0 and a noise-to-signal ratio > 0, got {line.length} "
                         f"and {noise_to_signal}")
    reach = filter_reach(line)
    height, width = image.shape[:2]
    # mirrored margins as wide as the filter's reach keep the photo's edges from ringing; DFT-friendly size
    margin = reach // 2 + 1
    rows = cv2.getOptimalDFTSize(height + 2 * margin)
    cols = cv2.getOptimalDFTSize(width + 2 * margin)
    # the filter's spectrum is worked out by a worker thread while this one transforms the photo: OpenCV's DFT uses
    # one core (docs/reader-decisions.md@538d56c, "speed")
    filter_spectrum = workers().submit(_placed_spectrum, line, noise_to_signal, (rows, cols))
    ycrcb = cv2.cvtColor(image, cv2.COLOR_BGR2YCrCb)
    padded = cv2.copyMakeBorder(ycrcb[:, :, 0], margin, rows - height - margin, margin, cols - width - margin,
                                cv2.BORDER_REFLECT).astype(np.float32)
    # packed (CCS) spectra: a fifth of the time of complex ones on a 12 MP photo's working image
    spectrum = cv2.mulSpectrums(cv2.dft(padded), filter_spectrum.result(), 0)
    sharp = cv2.idft(spectrum, flags=cv2.DFT_SCALE | cv2.DFT_REAL_OUTPUT)
    ycrcb[:, :, 0] = np.clip(sharp[margin:margin + height, margin:margin + width], 0, 255).astype(np.uint8)
    return cv2.cvtColor(ycrcb, cv2.COLOR_YCrCb2BGR)


def _placed_spectrum(line: MotionLine, noise_to_signal: float, shape: tuple[int, int]) -> np.ndarray:
    """The packed (CCS) spectrum of wiener_kernel placed in an array of `shape`, centred on pixel (0, 0)."""
    filter_kernel = wiener_kernel(line, noise_to_signal)
    reach = filter_kernel.shape[0]
    placed = np.zeros(shape, np.float32)
    placed[:reach, :reach] = filter_kernel
    return cv2.dft(np.roll(placed, (-(reach // 2), -(reach // 2)), axis=(0, 1)))


def filter_reach(line: MotionLine) -> int:
    """The side of wiener_kernel's square for `line`: WIENER_REACH line lengths, DFT-friendly."""
    return cv2.getOptimalDFTSize(int(WIENER_REACH * line.length) + 1)


def wiener_kernel(line: MotionLine, noise_to_signal: float) -> np.ndarray:
    """The spatial Wiener filter conj(H) / (|H|^2 + NSR) of `line`'s blur H, centred in a square WIENER_REACH line
    lengths wide (its ringing has died down there: the restored photo is within 2 grey levels of an unbounded
    filter's)."""
    reach = filter_reach(line)
    size = int(math.ceil(line.length)) | 1
    blur = np.zeros((reach, reach), np.float32)
    blur[:size, :size] = line_kernel(line.length, line.angle, size)
    spectrum = np.fft.fft2(np.roll(blur, (-(size // 2), -(size // 2)), axis=(0, 1)))
    kernel = np.real(np.fft.ifft2(np.conj(spectrum) / (np.abs(spectrum) ** 2 + noise_to_signal)))
    kernel /= kernel.sum()  # Wiener damps the mean brightness by 1 / (1 + NSR); flat areas stay as they are
    return np.fft.fftshift(kernel).astype(np.float32)
