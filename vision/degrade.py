"""Image degradations shared by the evaluation's blurred views, the classifier's training augmentation and the
detector's blurred training tiles."""
from __future__ import annotations

import math

import cv2
import numpy as np


def motion_blur(image: np.ndarray, length: float, angle_degrees: float) -> np.ndarray:
    """The image smeared along a line `length` pixels long at `angle_degrees` (a phone moved while the shutter
    was open); lengths under 1.5 px leave it as it is."""
    if length < 1.5:
        return image
    size = int(math.ceil(length)) | 1
    return cv2.filter2D(image, -1, line_kernel(length, angle_degrees, size), borderType=cv2.BORDER_REPLICATE)


def line_kernel(length: float, angle_degrees: float, size: int) -> np.ndarray:
    """A `size`-square kernel of a line `length` pixels long at `angle_degrees` through its centre, summing to 1 (a
    moved camera's point spread; vision.deblur undoes it)."""
    kernel = np.zeros((size, size), np.float32)
    centre = size // 2
    dx = math.cos(math.radians(angle_degrees)) * (length - 1) / 2
    dy = math.sin(math.radians(angle_degrees)) * (length - 1) / 2
    cv2.line(kernel, (round(centre - dx), round(centre - dy)), (round(centre + dx), round(centre + dy)), 1.0, 1,
             cv2.LINE_AA)
    return kernel / kernel.sum()


def unsteady_blur(image: np.ndarray, rng: np.random.Generator, sigma_range: tuple[float, float],
                  length_range: tuple[float, float]) -> np.ndarray:
    """The image as an unsteady phone takes it: half the time out of focus (a Gaussian of sigma in `sigma_range`),
    otherwise moved (a motion line of length in `length_range` at any angle); pixels of `image`."""
    if rng.random() < 0.5:
        return cv2.GaussianBlur(image, (0, 0), float(rng.uniform(*sigma_range)))
    return motion_blur(image, float(rng.uniform(*length_range)), float(rng.uniform(0.0, 180.0)))
