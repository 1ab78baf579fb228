"""A PNG's chunks checked before any decoder sees them: every length within the file, every CRC, IHDR first and
consistent, IDAT present and together, IEND. libpng trusts a chunk's length and allocates it: a 56-byte file whose
tEXt chunk claimed 2 GB made OpenCV allocate 2 GB (issue 64)."""
from __future__ import annotations

import struct
import zlib

from vision.errors import CorruptImage, UnsupportedImage
from vision.formats.header import ImageHeader, exif_orientation

SIGNATURE = b"\x89PNG\r\n\x1a\n"
MAX_CHUNK_LENGTH = 2**31 - 1  # the PNG specification's limit
# Encoders split the image data into chunks of 8-64 KB: a 40 MB file (the byte limit) in 8 KB chunks has ~5,000.
# More than this is no photo, and each chunk costs the walk a few microseconds of Python.
MAX_CHUNKS = 20_000
BIT_DEPTHS = {0: {1, 2, 4, 8, 16}, 2: {8, 16}, 3: {1, 2, 4, 8}, 4: {8, 16}, 6: {8, 16}}  # by colour type
ANIMATION_CHUNKS = {b"acTL", b"fcTL", b"fdAT"}


def read_png(data: bytes) -> ImageHeader:
    """The header of a PNG whose chunks are all whole and intact; CorruptImage or UnsupportedImage otherwise."""
    view = memoryview(data)
    pos, chunks, orientation = len(SIGNATURE), 0, 1
    width = height = colour_type = 0
    seen: set[bytes] = set()
    previous = b""
    while True:
        if pos + 12 > len(data):
            raise CorruptImage("the PNG image is truncated (no IEND chunk)")
        length, kind = struct.unpack_from(">I4s", data, pos)
        if not kind.isalpha():
            raise CorruptImage("the PNG image is damaged (a chunk with a bad name)")
        name = kind.decode("ascii")
        if length > MAX_CHUNK_LENGTH or pos + 12 + length > len(data):
            raise CorruptImage(f"the PNG image is truncated or damaged (its {name} chunk claims {length} bytes, "
                               "past the end of the file)")
        (crc,) = struct.unpack_from(">I", data, pos + 8 + length)
        if zlib.crc32(view[pos + 4:pos + 8 + length]) != crc:
            raise CorruptImage(f"the PNG image is damaged (its {name} chunk fails its checksum)")
        body = view[pos + 8:pos + 8 + length]
        chunks += 1
        if chunks > MAX_CHUNKS:
            raise CorruptImage(f"the PNG image has more than {MAX_CHUNKS} chunks")
        if chunks == 1:
            if kind != b"IHDR":
                raise CorruptImage("the PNG image does not start with its IHDR header")
            width, height, colour_type = _ihdr(bytes(body))
        elif kind == b"IHDR":
            raise CorruptImage("the PNG image is damaged (two IHDR headers)")
        elif kind in ANIMATION_CHUNKS:
            raise UnsupportedImage("animated PNGs are not supported; send a photo")
        elif kind == b"IDAT" and b"IDAT" in seen and previous != b"IDAT":
            raise CorruptImage("the PNG image is damaged (its image data is split by other chunks)")
        elif kind == b"PLTE" and b"IDAT" in seen:
            raise CorruptImage("the PNG image is damaged (a palette after the image data)")
        elif kind == b"eXIf" and b"eXIf" not in seen:
            orientation = exif_orientation(bytes(body))
        elif kind == b"IEND":
            break
        seen.add(kind)
        previous = kind
        pos += 12 + length
    if b"IDAT" not in seen:
        raise CorruptImage("the PNG image has no image data")
    if colour_type == 3 and b"PLTE" not in seen:
        raise CorruptImage("the PNG image is damaged (a palette image without its palette)")
    return ImageHeader("png", width, height, orientation)


def _ihdr(body: bytes) -> tuple[int, int, int]:
    """Width, height and colour type of a consistent IHDR chunk."""
    if len(body) != 13:
        raise CorruptImage("the PNG image is damaged (bad IHDR header)")
    width, height, depth, colour_type, compression, filtering, interlace = struct.unpack(">IIBBBBB", body)
    if width == 0 or height == 0:
        raise CorruptImage("the PNG image has a zero width or height")
    if width > MAX_CHUNK_LENGTH or height > MAX_CHUNK_LENGTH:
        raise CorruptImage("the PNG image is damaged (impossible size)")
    if depth not in BIT_DEPTHS.get(colour_type, ()) or compression or filtering or interlace > 1:
        raise CorruptImage("the PNG image is damaged (bad IHDR header)")
    return width, height, colour_type
