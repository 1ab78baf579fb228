"""Confusion matrices drawn with OpenCV (no plotting library at run time)."""
from __future__ import annotations

from collections import Counter

import cv2
import numpy as np

FONT = cv2.FONT_HERSHEY_SIMPLEX


def draw_confusion(confusion: Counter, rows: list[str], cols: list[str], title: str, cell: int = 16) -> np.ndarray:
    """Picture of a confusion matrix: rows = truth, columns = prediction, darker = more (row-normalised)."""
    matrix = np.array([[confusion[(r, c)] for c in cols] for r in rows], dtype=np.float64)
    share = matrix / np.maximum(matrix.sum(axis=1, keepdims=True), 1)
    margin_left, margin_top = 60, 70
    h, w = margin_top + cell * len(rows) + 30, margin_left + cell * len(cols) + 20
    image = np.full((h, w, 3), 255, np.uint8)
    cv2.putText(image, title, (6, 18), FONT, 0.5, (0, 0, 0), 1, cv2.LINE_AA)
    scale = 0.3 if cell < 20 else 0.4
    for i, r in enumerate(rows):
        y = margin_top + i * cell
        cv2.putText(image, r, (4, y + cell - 4), FONT, scale, (0, 0, 0), 1, cv2.LINE_AA)
        for j, c in enumerate(cols):
            x = margin_left + j * cell
            if matrix[i, j]:
                shade = int(230 - 200 * share[i, j])
                colour = (shade, shade, 255) if r != c else (shade, 255 - (230 - shade) // 3, shade)
                cv2.rectangle(image, (x, y), (x + cell - 1, y + cell - 1), colour, -1)
            cv2.rectangle(image, (x, y), (x + cell - 1, y + cell - 1), (220, 220, 220), 1)
    for j, c in enumerate(cols):
        x = margin_left + j * cell
        label = np.full((cell, margin_top - 26, 3), 255, np.uint8)
        cv2.putText(label, c, (2, cell - 4), FONT, scale, (0, 0, 0), 1, cv2.LINE_AA)
        image[26:margin_top, x:x + cell] = cv2.rotate(label, cv2.ROTATE_90_COUNTERCLOCKWISE)[:margin_top - 26, :cell]
    cv2.putText(image, "rows: truth, columns: prediction; green = correct, red = wrong",
                (6, h - 10), FONT, 0.35, (80, 80, 80), 1, cv2.LINE_AA)
    return image


def side_by_side(images: list[np.ndarray], gap: int = 20) -> np.ndarray:
    """Panels next to each other on white, top-aligned."""
    height = max(im.shape[0] for im in images)
    padded = [cv2.copyMakeBorder(im, 0, height - im.shape[0], 0, gap, cv2.BORDER_CONSTANT, value=(255, 255, 255))
              for im in images]
    return np.hstack(padded)
