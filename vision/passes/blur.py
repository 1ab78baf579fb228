"""Whether the photo is blurred [blurred]: measured once, after the reads that change the picture (balanced,
two-colour) and before those that answer blur (sharpened, stretched). Its warning goes on whatever read is kept."""
from __future__ import annotations

import time
from dataclasses import replace

import numpy as np

from vision.cards import IndexReading
from vision.messages import BLURRED_WARNING
from vision.motion import MotionLine
from vision.passes import Photo, ReadSoFar
from vision.sharpness import BLURRED_BELOW, index_sharpness

# Marks named at least this surely measure whether the photo is blurred (fainter ones are often art or text).
SHARPNESS_MIN_PROBABILITY = 0.3


def measured(so_far: ReadSoFar, photo: Photo) -> ReadSoFar:
    """The read so far with its blur warning (None for a sharp photo), timed into "sharpness" (with the motion
    line)."""
    start = time.perf_counter()
    blurred = blur_warning(so_far.picture, so_far.result.readings, photo.line)
    photo.timings["sharpness"] = photo.timings.get("sharpness", 0.0) + (time.perf_counter() - start) * 1000
    return replace(so_far, blurred=blurred)


def warned(so_far: ReadSoFar) -> ReadSoFar:
    """The read so far with its blur warning (if any) among the kept read's warnings."""
    if not so_far.blurred:
        return so_far
    result = so_far.result
    return replace(so_far, result=replace(result, warnings=[*result.warnings, so_far.blurred]))


def blur_warning(image: np.ndarray, readings: list[IndexReading], line: MotionLine | None) -> str | None:
    """The warning when the indices look blurred, whatever the read: on real blurred photos a quarter of the photos
    read wrong had every mark sure (docs/reader.md), and the player's remedy, a steadier, closer photo, differs
    from checking a card or two. When no mark is named surely enough to measure, every mark is measured: a photo
    blurred past reading names none surely, and the player still needs the remedy. A photo whose indices pass
    but that shows a moved camera's `line` is blurred too: half the moved photos pass the sharpness measure
    (their edges along the smear stay steep) and some of those were read wrong without a warning [blurred]."""
    named = [r.box for r in readings if r.probability >= SHARPNESS_MIN_PROBABILITY]
    sharpness = index_sharpness(image, named or [r.box for r in readings])
    if sharpness is not None and sharpness < BLURRED_BELOW:
        return (f"{BLURRED_WARNING} (index sharpness {sharpness:.1f}, sharp photos {BLURRED_BELOW:.0f} or more): "
                "check every card, or retake it steadier, in focus and closer")
    if line is not None:
        return (f"{BLURRED_WARNING} (the camera moved: a smear of {line.length:.0f} px): check every card, or "
                "retake it holding the phone still")
    return None
