"""Stretched read [stretched read]: a hand read short is looked at again in its region stretched vertically
(vision.unsqueeze): a steep view squeezes indices flatter than the models were trained on. Only the region, one
closer look, fused with the read so far's marks (session 26's whole second read took twice as long for about the
same cards, session 27). Kept when it names more cards surely (a hand: or as many with fewer warnings). Loose cards
have no count to check against and stretched flat photos named wrong cards surely, so a loose read is stretched only
when the photo is called blurred, and kept only when every card it adds is named at least LOOSE_STRETCH_MIN_ADDED."""
from __future__ import annotations

import time
from dataclasses import replace

import numpy as np

from vision.cards import readings_into, readings_out_of
from vision.passes import Photo, ReadSoFar, common
from vision.scales import fuse_sizes
from vision.unsqueeze import stretched_vertically
from vision.zoom import layout_region

NAME = "stretched read"
LOOSE_STRETCH_MIN_ADDED = 0.9


def wanted(so_far: ReadSoFar, photo: Photo) -> bool | None:
    read = so_far.result
    short = common.is_short(photo, read) or (photo.loose and bool(so_far.blurred))
    return True if photo.config.unsqueeze_short_reads and read.readings and short else None


def read(so_far: ReadSoFar, photo: Photo, reason: bool) -> ReadSoFar:
    start = time.perf_counter()
    image, readings = so_far.picture, so_far.result.readings
    boxes = np.array([r.box for r in readings], np.float64)
    index_size = float(np.median([r.size for r in readings]))
    x1, y1, x2, y2 = layout_region(boxes, index_size, image.shape)
    region = stretched_vertically(image[y1:y2, x1:x2])
    factor = region.shape[0] / (y2 - y1)
    timings = {"detect": 0.0, "classify": 0.0}
    found, size, _ = photo.looks.zoomed(region, readings_into(readings, (x1, y1), (1.0, factor)), timings)
    fused = fuse_sizes([readings, readings_out_of(found, (x1, y1), (1.0, factor))])
    second = common.result(photo, fused, image.shape, timings, size)
    photo.timings[NAME] = (time.perf_counter() - start) * 1000
    return replace(so_far, result=second)


def better(so_far: ReadSoFar, second: ReadSoFar, photo: Photo, reason: bool) -> ReadSoFar:
    first, stretched = so_far.result, second.result
    if common.preference(photo, stretched) > common.preference(photo, first) and (
            not photo.loose or adds_only_plain_cards(first, stretched)):
        return replace(so_far, result=common.kept(stretched, first, NAME))
    return so_far


def adds_only_plain_cards(first, second) -> bool:
    """Whether every card `second` names that `first` does not is named at least LOOSE_STRETCH_MIN_ADDED."""
    named = {card.code for card in first.cards}
    return all(card.confidence >= LOOSE_STRETCH_MIN_ADDED for card in second.cards if card.code not in named)
