"""What several passes share: reading a picture, comparing two reads, keeping one. No pass logic lives here."""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.cards import EXPECTED_CARDS, IndexReading
from vision.passes import Photo
from vision.results import ReadResult, result_of


def result(photo: Photo, readings: list[IndexReading], shape: tuple[int, ...], timings: dict[str, float],
           size: int) -> ReadResult:
    """vision.results.result_of with the photo's settings."""
    return result_of(readings, shape, photo.reduction, photo.loose, timings, size,
                     min_card_confidence=photo.config.min_card_confidence,
                     fill_min_confidence=photo.config.fill_min_confidence)


def read_picture(photo: Photo, picture: np.ndarray, second_look: bool = True) -> ReadResult:
    """A whole read of one picture made from the photo (its own timings): the looks, the larger look unless
    `second_look` is off, then cards, rows and warnings."""
    timings: dict[str, float] = {}
    readings, size, scale = photo.looks.find(picture, timings)
    if second_look:
        readings = photo.looks.second_look(picture, readings, photo.loose, scale, timings)
    return result(photo, readings, picture.shape, timings, size)


def kept(second: ReadResult, first: ReadResult, name: str) -> ReadResult:
    """`second`, the read named `name`, kept in place of `first`: it carries the photo's timings (all of them are
    recorded in `first`'s) and the list of second reads kept so far."""
    return replace(second, timings_ms=first.timings_ms, kept_reads=[*first.kept_reads, name])


def count_sure(photo: Photo, read: ReadResult) -> int:
    """How many cards the read names at least as surely as the unsure threshold."""
    return photo.looks.count_sure(read.cards)


def sure_marks(photo: Photo, read: ReadResult) -> int:
    """How many index marks the read names at least as surely as the unsure threshold."""
    return sum(r.probability >= photo.config.min_card_confidence for r in read.readings)


def preference(photo: Photo, read: ReadResult) -> tuple[int, int]:
    """How good a read looks without knowing the cards: how many it names surely (a hand counts at most its 13),
    then, for a hand, how few warnings it has (rows ambiguous, a card seen twice, low confidence)."""
    sure = count_sure(photo, read)
    return (sure, 0) if photo.loose else (min(sure, EXPECTED_CARDS), -len(read.warnings))


def is_short(photo: Photo, read: ReadResult) -> bool:
    """Whether a hand's read may have missed cards (fewer than 13 named surely); loose cards have no count."""
    return not photo.loose and count_sure(photo, read) < EXPECTED_CARDS
