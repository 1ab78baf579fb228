"""What a checked image header tells: format, stored size, EXIF orientation; and the EXIF orientation reader the
three formats share."""
from __future__ import annotations

import struct
from dataclasses import dataclass

ORIENTATION_TAG = 0x0112
TIFF_ENTRY_SIZE = 12
MAX_TIFF_ENTRIES = 1000  # a photo's first directory has 10-60; 65,535 would cost the loop ~30 ms


@dataclass(frozen=True)
class ImageHeader:
    format: str  # "jpeg" | "png" | "webp"
    width: int  # as stored, before EXIF orientation
    height: int
    orientation: int = 1  # EXIF orientation 1..8 (1 = as stored)
    # A sequential JPEG whose first scan holds every colour component (what cameras write): libjpeg decodes it a strip
    # at a time, so a reduced decode never holds the whole image. Progressive and multi-scan JPEGs buffer every
    # coefficient of the full image first (~3 bytes a pixel), as PNG and WebP decode whole.
    single_scan: bool = False
    components: int = 3  # a JPEG's colour components (1 grey, 3 YCbCr/RGB, 4 CMYK/YCCK); PNG and WebP: 3


def exif_orientation(tiff: bytes) -> int:
    """Orientation tag (1..8) from a TIFF-structured EXIF block; 1 when absent, odd or unreadable.

    Only the first directory is read, and only as far as the block holds its entries: a looping or huge directory
    costs nothing."""
    if len(tiff) < 8 or tiff[:2] not in (b"II", b"MM"):
        return 1
    endian = "<" if tiff[:2] == b"II" else ">"
    try:
        (ifd_offset,) = struct.unpack_from(endian + "I", tiff, 4)
        (count,) = struct.unpack_from(endian + "H", tiff, ifd_offset)
        count = min(count, (len(tiff) - ifd_offset - 2) // TIFF_ENTRY_SIZE, MAX_TIFF_ENTRIES)
        for i in range(count):
            tag, kind, _, value = struct.unpack_from(endian + "HHI4s", tiff, ifd_offset + 2 + TIFF_ENTRY_SIZE * i)
            if tag == ORIENTATION_TAG and kind == 3:  # SHORT
                (orientation,) = struct.unpack_from(endian + "H", value, 0)
                return orientation if 1 <= orientation <= 8 else 1
    except struct.error:
        return 1
    return 1
