"""A WebP's RIFF structure checked before any decoder sees it: the RIFF size is the file's, every chunk lies within
it, the image chunk's header (VP8 lossy or VP8L lossless) is well formed and, in the extended format (VP8X), its size
is the canvas's. Lossy and lossless WebP data carry no checksum: damage inside them that libwebp's decoder does not
stumble on decodes into wrong pixels (docs/reader.md, hostile images)."""
from __future__ import annotations

import struct

from vision.errors import CorruptImage, UnsupportedImage
from vision.formats.header import ImageHeader, exif_orientation

MAX_CHUNKS = 64  # a still WebP has 1-6 (VP8X, ICCP, ALPH, the image, EXIF, XMP)
VP8_START_CODE = b"\x9d\x01\x2a"
VP8L_SIGNATURE = 0x2F
VP8X_ANIMATION = 0x02


def read_webp(data: bytes) -> ImageHeader:
    """The header of a structurally sound still WebP; CorruptImage or UnsupportedImage otherwise."""
    if len(data) < 20:
        raise CorruptImage("the WebP image is truncated")
    (riff_size,) = struct.unpack_from("<I", data, 4)
    if riff_size + 8 > len(data):
        raise CorruptImage("the WebP image is truncated")
    if riff_size + 8 != len(data):
        raise CorruptImage("the WebP image is damaged (its RIFF size is not the file's)")
    chunks = _chunks(data)
    names = [name for name, _ in chunks]
    if b"ANIM" in names or b"ANMF" in names:
        raise UnsupportedImage("animated WebPs are not supported; send a photo")
    images = [(name, body) for name, body in chunks if name in (b"VP8 ", b"VP8L")]
    if len(images) != 1:
        raise CorruptImage("the WebP image is damaged (it should hold exactly one image)")
    name, body = images[0]
    width, height = _vp8_size(body) if name == b"VP8 " else _vp8l_size(body)
    if names[0] == b"VP8X":
        canvas = _vp8x_canvas(chunks[0][1])
        if canvas != (width, height):
            raise CorruptImage(f"the WebP image is damaged (its image is {width}x{height}, its canvas "
                               f"{canvas[0]}x{canvas[1]})")
    elif names[0] != name:
        raise CorruptImage("the WebP image is damaged (it does not start with its image)")
    if b"ALPH" in names and (name != b"VP8 " or names.index(b"ALPH") > names.index(name)):
        raise CorruptImage("the WebP image is damaged (an alpha chunk out of place)")
    exif = next((body for chunk, body in chunks if chunk == b"EXIF"), b"")
    orientation = exif_orientation(exif[6:] if exif.startswith(b"Exif\x00\x00") else exif)
    return ImageHeader("webp", width, height, orientation)


def _chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    """(name, body) of every chunk after the RIFF header, each checked to lie within the file."""
    chunks, pos = [], 12
    while pos < len(data):
        if pos + 8 > len(data):
            raise CorruptImage("the WebP image is damaged (a chunk header past the end of the file)")
        name, length = struct.unpack_from("<4sI", data, pos)
        if pos + 8 + length > len(data):
            raise CorruptImage(f"the WebP image is truncated or damaged (a chunk claims {length} bytes, past the "
                               "end of the file)")
        chunks.append((name, data[pos + 8:pos + 8 + length]))
        if len(chunks) > MAX_CHUNKS:
            raise CorruptImage(f"the WebP image has more than {MAX_CHUNKS} chunks")
        pos += 8 + length + (length & 1)
    if not chunks:
        raise CorruptImage("the WebP image is empty")
    return chunks


def _vp8_size(body: bytes) -> tuple[int, int]:
    """Width and height from a lossy key frame's header (its frame tag checked against the chunk)."""
    if len(body) < 10:
        raise CorruptImage("the WebP image is damaged (short VP8 header)")
    tag = int.from_bytes(body[:3], "little")
    key_frame, version, shown, first_partition = not tag & 1, (tag >> 1) & 7, (tag >> 4) & 1, tag >> 5
    if not key_frame or version > 3 or not shown or first_partition > len(body) - 10 \
            or body[3:6] != VP8_START_CODE:
        raise CorruptImage("the WebP image is damaged (bad VP8 frame header)")
    width, height = (v & 0x3FFF for v in struct.unpack_from("<HH", body, 6))
    if width == 0 or height == 0:
        raise CorruptImage("the WebP image has a zero width or height")
    return width, height


def _vp8l_size(body: bytes) -> tuple[int, int]:
    """Width and height from a lossless image's header (signature and version checked)."""
    if len(body) < 5 or body[0] != VP8L_SIGNATURE:
        raise CorruptImage("the WebP image is damaged (bad VP8L header)")
    (bits,) = struct.unpack_from("<I", body, 1)
    if bits >> 29:  # version: 0 is the only one
        raise CorruptImage("the WebP image is damaged (bad VP8L version)")
    return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1


def _vp8x_canvas(body: bytes) -> tuple[int, int]:
    """The extended format's canvas size (animation refused)."""
    if len(body) != 10:
        raise CorruptImage("the WebP image is damaged (bad VP8X header)")
    if body[0] & VP8X_ANIMATION:
        raise UnsupportedImage("animated WebPs are not supported; send a photo")
    return int.from_bytes(body[4:7], "little") + 1, int.from_bytes(body[7:10], "little") + 1
