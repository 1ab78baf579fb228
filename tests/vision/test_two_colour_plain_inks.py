"""The two-colour read keeps the first read's surer naming of red indices (vision.passes.two_colour, session 49)."""
from __future__ import annotations

import numpy as np
import pytest

from vision.cards import IndexReading
from vision.passes import Photo, two_colour
from vision.results import result_of

SHAPE = (1000, 1000, 3)


def _reading(x: float, code: str, probability: float) -> IndexReading:
    return IndexReading((x, 100.0, x + 20.0, 130.0), code, probability, 0.9)


def _read(readings: list[IndexReading]):
    return result_of(readings, SHAPE, 1.0, True, {}, 640)


@pytest.fixture(scope="module")
def reader(shipped_reader):
    return shipped_reader


def _kept(reader, turned, first, inks):
    photo = Photo(np.zeros(SHAPE, np.uint8), 1.0, True, None, reader.looks, reader.config)
    return two_colour.with_plain_inks_kept(photo, turned, first, inks, SHAPE)


def _codes(result) -> dict[str, float]:
    return {card.code: round(card.confidence, 2) for card in result.cards}


def test_a_red_index_named_alike_but_less_surely_on_the_turned_picture_keeps_the_first_reads_probability(reader):
    first = _read([_reading(100, "JH", 0.94), _reading(400, "KS", 0.90)])
    turned = _read([_reading(101, "JH", 0.66), _reading(401, "KS", 0.88)])
    kept = _kept(reader, turned, first, ["red", "black"])
    assert _codes(turned) == {"KS": 0.88}  # JH at 0.66 is left out as unsure there
    assert _codes(kept) == {"JH": 0.94, "KS": 0.88}  # the black KS as the turned read named it


def test_another_code_or_an_ink_other_than_red_leaves_the_turned_read_as_it_is(reader):
    # a navy diamond or a dark green club can measure black, and both reads can then name it alike and wrongly
    # (session 49: a blue 9D's corner named 9C, unsure only on the turned picture): black is not trusted either
    first = _read([_reading(100, "5S", 0.95), _reading(400, "KS", 0.96), _reading(700, "3C", 0.9),
                   _reading(900, "9C", 0.92)])
    turned = _read([_reading(100, "5D", 0.72), _reading(400, "KD", 0.75), _reading(700, "3C", 0.8),
                    _reading(900, "9C", 0.5)])
    kept = _kept(reader, turned, first, ["red", "blue", "green", "black"])
    assert kept is turned and _codes(kept) == {"5D": 0.72, "KD": 0.75, "3C": 0.8}


def test_a_first_reading_elsewhere_is_not_added(reader):
    first = _read([_reading(100, "JH", 0.94), _reading(600, "9H", 0.95)])
    turned = _read([_reading(100, "JH", 0.90)])
    kept = _kept(reader, turned, first, ["red", "red"])
    assert _codes(kept) == {"JH": 0.94}  # the 9H the turned read did not find stays out: only agreeing namings
