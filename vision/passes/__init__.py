"""The reader's passes (vision.reader runs them in order). Every second-read pass is a module of one shape:

    NAME                                   the read's name in ReadResult.kept_reads and timings_ms
    wanted(so_far, photo) -> reason|None   whether the read so far calls for it (None: skip), and why
    read(so_far, photo, reason) -> ReadSoFar   the second read, made from the picture so far
    better(so_far, second, photo, reason) -> ReadSoFar   the read kept (so_far unless its rule prefers second)

A pass owns its constants and its switch (a ReaderConfig field); it reads through vision.passes.common and the
picture modules (vision.casts, vision.inks, vision.deblur, ...) and never calls the reader or another pass. What
flows from one to the next is plain data: the Photo (measured once) and the ReadSoFar."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from vision.cards import IndexReading
from vision.casts import Cast
from vision.looks import IndexLooks
from vision.motion import MotionLine
from vision.reader_config import ReaderConfig
from vision.results import ReadResult


@dataclass(frozen=True)
class Photo:
    """One photo being read: its decoded working image and what is measured of it once."""
    image: np.ndarray  # the working image as decoded
    reduction: float  # photo pixels per working-image pixel (JPEG reduced decoding)
    loose: bool  # loose cards (no rows, no count of 13)
    line: MotionLine | None  # a moved camera's line (vision.motion), None for a still one
    looks: IndexLooks  # the models' looks
    config: ReaderConfig
    timings: dict[str, float] = field(default_factory=dict)  # the photo's timings (the kept result carries them)

    @property
    def restore_follows(self) -> bool:
        """Whether the sharpened read will follow (a moved camera's line): earlier reads then skip their larger look,
        which the sharpened read makes of its own (a 12 MP photo's would cost ~140 ms for nothing) [motion line]."""
        return self.line is not None and self.config.sharpen_blurred


@dataclass(frozen=True)
class FirstLook:
    """The first look's readings before they became a result, kept for the larger look it may have put off."""
    readings: list[IndexReading]
    size: int  # detector input size of the look
    scale: float  # detector pixels per image pixel
    result: ReadResult  # the first read
    larger_look_put_off: bool  # a four-colour photo's larger look waits for the two-colour read (passes.put_off_look)


@dataclass(frozen=True)
class ReadSoFar:
    """The read as it stands after each pass."""
    result: ReadResult
    picture: np.ndarray  # what later passes read from: the photo, or its balanced / two-colour picture once kept
    first: FirstLook
    cast: Cast | None = None  # the paper's colour cast and the photo balanced to it (passes.balanced), kept or not
    blurred: str | None = None  # the blur warning (passes.blur), measured before the sharpened read
