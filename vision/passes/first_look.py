"""The first look: detect → classify at the detection sizes (vision.looks.find), the larger look where a hand is
short (vision.looks.second_look), then cards, rows and warnings (vision.results)."""
from __future__ import annotations

import time
from functools import partial

from vision.cards import EXPECTED_CARDS
from vision.inks import shows_four_colours, survey_inks
from vision.passes import FirstLook, Photo, ReadSoFar, common


def read(photo: Photo) -> ReadSoFar:
    """The photo's first read. Its larger look is skipped when the sharpened read follows (that read makes its own),
    and put off (passes.put_off_look) when the indices show a four-colour deck's inks: the two-colour read that
    follows makes its own, and the first read's is needed only when that read is not kept [speed]."""
    image, timings = photo.image, photo.timings
    readings, size, scale = photo.looks.find(image, timings, None if photo.loose else partial(_whole, photo, image))
    start = time.perf_counter()
    put_off = not photo.restore_follows and photo.config.read_four_colours and _shows_four_colours(image, readings)
    timings["four-colour check"] = (time.perf_counter() - start) * 1000
    looked = readings
    if not photo.restore_follows and not put_off:
        looked = photo.looks.second_look(image, readings, photo.loose, scale, timings)
    first = common.result(photo, looked, image.shape, timings, size)
    return ReadSoFar(first, image, FirstLook(readings, size, scale, first, put_off))


def _whole(photo: Photo, image, readings, size: int) -> bool:
    """Whether readings of a hand read it whole: 13 cards named surely and nothing to warn of (rows clear, no mark
    left out). Such a read needs no closer look (vision.looks.find, ReaderConfig.spare_looks)."""
    read = common.result(photo, readings, image.shape, {}, size)
    return len(read.cards) == EXPECTED_CARDS and common.count_sure(photo, read) == EXPECTED_CARDS and not read.warnings


def _shows_four_colours(image, readings) -> bool:
    """Whether a look's indices show a four-colour deck's inks, measured as the two-colour read measures them
    without a colour cast."""
    names, paper = survey_inks(image, [r.box for r in readings])
    return paper is not None and shows_four_colours(names, [r.probability for r in readings])
