"""Balanced read [coloured light]: when the paper at the indices found shows a strong colour cast (a red or deep
blue lamp, vision.casts), the photo balanced to its paper is read again, kept unless fewer of its marks are named
surely. Marks, not cards: under the cast the first read names red indices black just as surely, and one card's two
corners named two codes count as two cards where the balanced read merges them into one. The cast is recorded
whether or not the read is kept: the two-colour read measures inks on the balanced picture."""
from __future__ import annotations

import time
from dataclasses import replace

import numpy as np

from vision.casts import PAPER_MIN_PROBABILITY, Cast, balanced_to_paper, cast_hue, paper_colour, shows_cast
from vision.passes import Photo, ReadSoFar, common

NAME = "balanced read"


def wanted(so_far: ReadSoFar, photo: Photo) -> np.ndarray | None:
    """The paper's colour when it shows a cast (and the pass is on), else None."""
    if not photo.config.balance_casts:
        return None
    start = time.perf_counter()
    boxes = [r.box for r in so_far.result.readings if r.probability >= PAPER_MIN_PROBABILITY]
    paper = paper_colour(so_far.picture, boxes)
    photo.timings["paper cast"] = (time.perf_counter() - start) * 1000
    return paper if shows_cast(paper) else None


def read(so_far: ReadSoFar, photo: Photo, paper: np.ndarray) -> ReadSoFar:
    start = time.perf_counter()
    balanced = balanced_to_paper(so_far.picture, paper)
    second = common.read_picture(photo, balanced, second_look=not photo.restore_follows)
    photo.timings[NAME] = (time.perf_counter() - start) * 1000
    return replace(so_far, result=second, picture=balanced, cast=Cast(balanced, cast_hue(paper)))


def better(so_far: ReadSoFar, second: ReadSoFar, photo: Photo, paper: np.ndarray) -> ReadSoFar:
    if common.sure_marks(photo, second.result) < common.sure_marks(photo, so_far.result):
        return replace(so_far, cast=second.cast)
    return replace(second, result=common.kept(second.result, so_far.result, NAME))
