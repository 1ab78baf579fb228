"""Sharpened read [sharpened read]: a photo called blurred (passes.blur) is read again restored (vision.deblur:
deconvolved along a moved camera's line, else unsharp-masked); kept when it names more cards surely (a hand: or as
many with fewer warnings)."""
from __future__ import annotations

import time
from dataclasses import replace

from vision.deblur import restored
from vision.passes import Photo, ReadSoFar, common

NAME = "sharpened read"


def wanted(so_far: ReadSoFar, photo: Photo) -> bool | None:
    return True if so_far.blurred and photo.config.sharpen_blurred else None


def read(so_far: ReadSoFar, photo: Photo, reason: bool) -> ReadSoFar:
    start = time.perf_counter()
    second = common.read_picture(photo, restored(so_far.picture, photo.line))
    photo.timings[NAME] = (time.perf_counter() - start) * 1000
    return replace(so_far, result=second)


def better(so_far: ReadSoFar, second: ReadSoFar, photo: Photo, reason: bool) -> ReadSoFar:
    if common.preference(photo, second.result) > common.preference(photo, so_far.result):
        return replace(so_far, result=common.kept(second.result, so_far.result, NAME))
    return so_far
