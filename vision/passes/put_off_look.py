"""The first look's larger look, put off (passes.first_look) while a four-colour photo's two-colour read might make
its own: made now, on the photo as taken, when no second read so far was kept. It completes the first read rather
than competing with it, so it is always kept and is no entry of kept_reads [speed]."""
from __future__ import annotations

from dataclasses import replace

from vision.passes import Photo, ReadSoFar, common

NAME = "put-off larger look"


def wanted(so_far: ReadSoFar, photo: Photo) -> bool | None:
    return True if so_far.first.larger_look_put_off and so_far.result is so_far.first.result else None


def read(so_far: ReadSoFar, photo: Photo, reason: bool) -> ReadSoFar:
    first = so_far.first
    readings = photo.looks.second_look(so_far.picture, first.readings, photo.loose, first.scale, photo.timings)
    return replace(so_far, result=common.result(photo, readings, so_far.picture.shape, photo.timings, first.size))


def better(so_far: ReadSoFar, second: ReadSoFar, photo: Photo, reason: bool) -> ReadSoFar:
    return second
