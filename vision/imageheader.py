"""Read what an image's header promises (format, size, EXIF orientation) without decoding pixels.

Why: a decompression bomb must be refused before OpenCV allocates its pixels, truncated JPEGs
must be caught (libjpeg silently fills them with gray), and EXIF orientation is applied by us so
that it works the same for JPEG, PNG and WebP and with reduced-size decoding.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass

from vision.errors import CorruptImage, EmptyImage, NotAnImage, UnsupportedImage

ORIENTATION_TAG = 0x0112
# Start-of-frame markers carry the image size (C4 = DHT, C8 = JPG extension, CC = DAC are not frames).
JPEG_SOF_MARKERS = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}
JPEG_SEQUENTIAL_HUFFMAN_MARKERS = {0xC0, 0xC1}  # baseline and extended sequential
JPEG_STANDALONE_MARKERS = {0x01, *range(0xD0, 0xD8)}
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
OTHER_IMAGE_SIGNATURES = {
    b"GIF87a": "GIF", b"GIF89a": "GIF", b"BM": "BMP", b"II*\x00": "TIFF", b"MM\x00*": "TIFF",
    b"\x00\x00\x01\x00": "ICO", b"8BPS": "PSD", b"\xff\x0a": "JPEG XL", b"P6": "PPM", b"P5": "PGM",
}


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


def read_header(data: bytes) -> ImageHeader:
    """Format, stored size and EXIF orientation of JPEG/PNG/WebP bytes; typed error otherwise."""
    if not data:
        raise EmptyImage("the photo is empty (0 bytes)")
    if data.startswith(b"\xff\xd8\xff"):
        return _read_jpeg(data)
    if data.startswith(PNG_SIGNATURE):
        return _read_png(data)
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return _read_webp(data)
    for signature, name in OTHER_IMAGE_SIGNATURES.items():
        if data.startswith(signature):
            raise UnsupportedImage(f"{name} images are not supported; send a JPEG, PNG or WebP photo")
    if data[4:12] in (b"ftypheic", b"ftypheix", b"ftypmif1", b"ftypavif", b"ftyphevc"):
        raise UnsupportedImage("HEIC/AVIF images are not supported; send a JPEG, PNG or WebP photo")
    raise NotAnImage("the file is not an image (expected JPEG, PNG or WebP)")


def exif_orientation(tiff: bytes) -> int:
    """Orientation tag (1..8) from a TIFF-structured EXIF block; 1 when absent or unreadable."""
    if len(tiff) < 8 or tiff[:2] not in (b"II", b"MM"):
        return 1
    endian = "<" if tiff[:2] == b"II" else ">"
    try:
        (ifd_offset,) = struct.unpack_from(endian + "I", tiff, 4)
        (count,) = struct.unpack_from(endian + "H", tiff, ifd_offset)
        for i in range(count):
            tag, kind, _, value = struct.unpack_from(endian + "HHI4s", tiff, ifd_offset + 2 + 12 * i)
            if tag == ORIENTATION_TAG and kind == 3:  # SHORT
                (orientation,) = struct.unpack_from(endian + "H", value, 0)
                return orientation if 1 <= orientation <= 8 else 1
    except struct.error:
        return 1
    return 1


def _read_jpeg(data: bytes) -> ImageHeader:
    pos, size, orientation = 2, None, 1
    frame_marker, frame_components, scan_components = None, 0, 0
    while True:
        if pos + 4 > len(data):
            raise CorruptImage("the JPEG photo is truncated (ends inside its header)")
        if data[pos] != 0xFF:
            raise CorruptImage("the JPEG photo is damaged (bad segment marker)")
        marker = data[pos + 1]
        if marker == 0xFF:  # fill byte
            pos += 1
            continue
        if marker in JPEG_STANDALONE_MARKERS:
            pos += 2
            continue
        (length,) = struct.unpack_from(">H", data, pos + 2)
        segment = data[pos + 4:pos + 2 + length]
        if length < 2 or len(segment) < length - 2:
            raise CorruptImage("the JPEG photo is truncated (ends inside its header)")
        if marker in JPEG_SOF_MARKERS and len(segment) >= 5:
            height, width = struct.unpack_from(">HH", segment, 1)
            size = (width, height)
            frame_marker, frame_components = marker, segment[5] if len(segment) > 5 else 0
        elif marker == 0xE1 and segment.startswith(b"Exif\x00\x00") and orientation == 1:
            orientation = exif_orientation(segment[6:])
        elif marker == 0xDA:  # start of scan: pixel data follows
            scan_components = segment[0] if segment else 0
            break
        pos += 2 + length
    if size is None or size[0] == 0 or size[1] == 0:
        raise CorruptImage("the JPEG photo has no usable frame size")
    # A complete JPEG ends with EOI after its scan data; a cut-off upload does not.
    if data.rfind(b"\xff\xd9") < pos:
        raise CorruptImage("the JPEG photo is truncated (no end-of-image marker)")
    single_scan = frame_marker in JPEG_SEQUENTIAL_HUFFMAN_MARKERS and 0 < frame_components == scan_components
    return ImageHeader("jpeg", size[0], size[1], orientation, single_scan)


def _read_png(data: bytes) -> ImageHeader:
    if len(data) < 33 or data[12:16] != b"IHDR":
        raise CorruptImage("the PNG image is truncated or has no IHDR header")
    width, height = struct.unpack_from(">II", data, 16)
    if width == 0 or height == 0:
        raise CorruptImage("the PNG image has a zero width or height")
    orientation, pos = 1, 8
    while pos + 8 <= len(data):
        length, kind = struct.unpack_from(">I4s", data, pos)
        if kind == b"eXIf":
            orientation = exif_orientation(data[pos + 8:pos + 8 + length])
        if kind in (b"IDAT", b"IEND"):
            break
        pos += 12 + length
    if data.rfind(b"IEND") < 0:
        raise CorruptImage("the PNG image is truncated (no IEND chunk)")
    return ImageHeader("png", width, height, orientation)


def _read_webp(data: bytes) -> ImageHeader:
    (riff_size,) = struct.unpack_from("<I", data, 4)
    if len(data) < riff_size + 8 or len(data) < 30:
        raise CorruptImage("the WebP image is truncated")
    kind = data[12:16]
    chunk = data[20:]
    if kind == b"VP8 ":
        if chunk[3:6] != b"\x9d\x01\x2a":
            raise CorruptImage("the WebP image is damaged (bad VP8 frame)")
        width, height = (v & 0x3FFF for v in struct.unpack_from("<HH", chunk, 6))
    elif kind == b"VP8L":
        if chunk[0] != 0x2F:
            raise CorruptImage("the WebP image is damaged (bad VP8L header)")
        (bits,) = struct.unpack_from("<I", chunk, 1)
        width, height = (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    elif kind == b"VP8X":
        width = int.from_bytes(chunk[4:7], "little") + 1
        height = int.from_bytes(chunk[7:10], "little") + 1
    else:
        raise CorruptImage("the WebP image has an unknown first chunk")
    if width == 0 or height == 0:
        raise CorruptImage("the WebP image has a zero width or height")
    orientation, pos = 1, 12
    while pos + 8 <= len(data):
        name, length = struct.unpack_from("<4sI", data, pos)
        if name == b"EXIF":
            block = data[pos + 8:pos + 8 + length]
            orientation = exif_orientation(block[6:] if block.startswith(b"Exif\x00\x00") else block)
            break
        pos += 8 + length + (length & 1)
    return ImageHeader("webp", width, height, orientation)
