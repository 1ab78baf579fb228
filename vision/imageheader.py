"""Read what an image's header promises (format, size, EXIF orientation) without decoding pixels, after checking the
file's structure against its length (vision.formats: one module a format).

Why: a decompression bomb must be refused before OpenCV allocates its pixels, a chunk or segment claiming more bytes
than the file holds must never reach a decoder (libpng allocates what a chunk claims), truncated files must be caught
(libjpeg silently fills them with gray), and EXIF orientation is applied by us so that it works the same for JPEG,
PNG and WebP and with reduced-size decoding.
"""
from __future__ import annotations

from vision.errors import EmptyImage, NotAnImage, UnsupportedImage
from vision.formats.header import ImageHeader, exif_orientation
from vision.formats.jpeg import read_jpeg
from vision.formats.png import SIGNATURE as PNG_SIGNATURE
from vision.formats.png import read_png
from vision.formats.webp import read_webp

__all__ = ["ImageHeader", "exif_orientation", "read_header"]

OTHER_IMAGE_SIGNATURES = {
    b"GIF87a": "GIF", b"GIF89a": "GIF", b"BM": "BMP", b"II*\x00": "TIFF", b"MM\x00*": "TIFF",
    b"\x00\x00\x01\x00": "ICO", b"8BPS": "PSD", b"\xff\x0a": "JPEG XL", b"P6": "PPM", b"P5": "PGM",
    b"\x00\x00\x00\x0cjXL ": "JPEG XL", b"\x00\x00\x00\x0cjP  ": "JPEG 2000", b"\xff\x4f\xff\x51": "JPEG 2000",
    b"%PDF": "PDF", b"qoif": "QOI",
}


def read_header(data: bytes) -> ImageHeader:
    """Format, stored size and EXIF orientation of structurally sound JPEG/PNG/WebP bytes; typed error otherwise."""
    if not data:
        raise EmptyImage("the photo is empty (0 bytes)")
    if data.startswith(b"\xff\xd8\xff"):
        return read_jpeg(data)
    if data.startswith(PNG_SIGNATURE):
        return read_png(data)
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return read_webp(data)
    for signature, name in OTHER_IMAGE_SIGNATURES.items():
        if data.startswith(signature):
            kind = "files" if name == "PDF" else "images"
            raise UnsupportedImage(f"{name} {kind} are not supported; send a JPEG, PNG or WebP photo")
    if data[4:12] in (b"ftypheic", b"ftypheix", b"ftypmif1", b"ftypavif", b"ftyphevc"):
        raise UnsupportedImage("HEIC/AVIF images are not supported; send a JPEG, PNG or WebP photo")
    raise NotAnImage("the file is not an image (expected JPEG, PNG or WebP)")
