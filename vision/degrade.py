"""Image degradations shared by the evaluation's blurred views and the classifier's training augmentation."""
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
    centre = size // 2
    dx = math.cos(math.radians(angle_degrees)) * (length - 1) / 2
    dy = math.sin(math.radians(angle_degrees)) * (length - 1) / 2
    kernel = np.zeros((size, size), np.float32)
    cv2.line(kernel, (round(centre - dx), round(centre - dy)), (round(centre + dx), round(centre + dy)), 1.0, 1,
             cv2.LINE_AA)
    return cv2.filter2D(image, -1, kernel / kernel.sum(), borderType=cv2.BORDER_REPLICATE)
