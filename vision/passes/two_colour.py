"""Two-colour read [four-colour decks]: when the indices found show a four-colour deck's inks (vision.inks), the
photo turned two-colour around them is read again. It is kept when its blue indices are named diamonds and green
ones clubs (inks_agree: a two-colour deck seen bluish is named as its own suits) and it names at least as many cards
surely (the first read names blue diamonds as spades just as surely; loose cards: or as many marks) — or the read so
far names its sure indices against their inks (inks_contradict: it is wrong there, and a card the two-colour read
names less surely is left unsure, warned). Under a colour cast (passes.balanced, kept or not) the inks are measured
and the view made on the balanced picture: under the lamp itself a four-colour deck's black ink measured blue or red
and its blue diamonds stayed spades (session 47); and inks near the lamp's hue must be more coloured to count
(vision.inks.ink_name; session 48)."""
from __future__ import annotations

import time
from dataclasses import dataclass, replace

import numpy as np

from vision.cards import same_index
from vision.inks import inks_agree, inks_contradict, shows_four_colours, survey_inks, two_colour_view
from vision.passes import Photo, ReadSoFar, common
from vision.results import ReadResult

NAME = "two-colour read"
# An ink the two-colour view leaves as it is: where the first read named an index of it as the turned read does, but
# more surely, its reading is kept (not black: a navy or dark green index can measure black) [four-colour decks].
PLAIN_INKS = ("red",)


@dataclass(frozen=True)
class Inks:
    """The inks of the read so far's indices, measured on `picture` (the balanced one under a cast)."""
    names: list[str | None]
    paper: np.ndarray
    picture: np.ndarray
    cast_hue: float | None


def wanted(so_far: ReadSoFar, photo: Photo) -> Inks | None:
    if not photo.config.read_four_colours:
        return None
    start = time.perf_counter()
    picture, hue = so_far.cast if so_far.cast is not None else (so_far.picture, None)
    readings = so_far.result.readings
    names, paper = survey_inks(picture, [r.box for r in readings], hue)
    photo.timings["inks"] = (time.perf_counter() - start) * 1000
    if paper is None or not shows_four_colours(names, [r.probability for r in readings]):
        return None
    return Inks(names, paper, picture, hue)


def read(so_far: ReadSoFar, photo: Photo, inks: Inks) -> ReadSoFar:
    start = time.perf_counter()
    recoloured = two_colour_view(inks.picture, inks.paper, [r.box for r in so_far.result.readings])
    second = common.read_picture(photo, recoloured, second_look=not photo.restore_follows)
    second = with_plain_inks_kept(photo, second, so_far.result, inks.names, recoloured.shape)
    photo.timings[NAME] = (time.perf_counter() - start) * 1000
    return replace(so_far, result=second, picture=recoloured)


def better(so_far: ReadSoFar, second: ReadSoFar, photo: Photo, inks: Inks) -> ReadSoFar:
    first, turned = so_far.result, second.result
    agree = inks_agree(survey_inks(inks.picture, [r.box for r in turned.readings], inks.cast_hue)[0],
                       [r.code for r in turned.readings])
    sure = [(name, r.code) for name, r in zip(inks.names, first.readings)
            if r.probability >= photo.config.min_card_confidence]
    read_so_far_contradicts = inks_contradict([name for name, _ in sure], [code for _, code in sure])
    if not agree or (names_fewer(photo, turned, first) and not read_so_far_contradicts):
        return so_far
    return replace(second, result=common.kept(turned, first, NAME))


def with_plain_inks_kept(photo: Photo, second: ReadResult, first: ReadResult, inks: list[str | None],
                         shape: tuple[int, ...]) -> ReadResult:
    """`second` (the two-colour read) where the first read named an index of red ink (PLAIN_INKS) as the turned
    read does but more surely, with the first read's reading of it: turning the photo two-colour leaves red ink
    as it was, yet the turned picture's crops are sometimes named less surely (session 49: val decks' four-colour
    layouts refused for naming fewer cards surely). Only agreeing codes, and not black ink: a navy diamond or a
    dark green club can measure black, and both reads then named a blue 9D's corner 9C, only the turned one
    unsure."""
    plain = [r for ink, r in zip(inks, first.readings) if ink in PLAIN_INKS]
    readings, changed = [], False
    for reading in second.readings:
        surer = max((r for r in plain if r.code == reading.code and r.probability > reading.probability
                     and same_index(r, reading)), key=lambda r: r.probability, default=None)
        readings.append(surer or reading)
        changed = changed or surer is not None
    if not changed:
        return second
    return common.result(photo, readings, shape, second.timings_ms, second.detection_size)


def names_fewer(photo: Photo, second: ReadResult, first: ReadResult) -> bool:
    """Whether `second` names fewer cards surely than `first` (a hand counts at most its 13). Loose cards have no
    count to fill, and one card's two corners named two codes (a blue ten of diamonds' corners TD and TS) count as
    two cards there where a read naming them alike counts one: for them, fewer cards and fewer marks surely too
    (session 47: the real decks in four colours, loose photos read wrong without any warning 0.077 -> 0.066)."""
    fewer_cards = common.preference(photo, second)[0] < common.preference(photo, first)[0]
    return fewer_cards and (not photo.loose or common.sure_marks(photo, second) < common.sure_marks(photo, first))
