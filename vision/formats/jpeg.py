"""A JPEG's marker structure walked from start to end-of-image before any decoder sees it.

Every segment's length must lie within the file; exactly one frame, of a kind libjpeg decodes as cameras write it
(baseline, extended sequential or progressive Huffman coding, 8 bits a sample); every scan names the frame's
components and its entropy-coded data runs to a marker that may follow it; the file reaches its end-of-image
marker. What the walk cannot see, damage inside the entropy-coded data, is left to the strict decode
(vision.decode). Bytes after the end-of-image marker are ignored, as decoders do: phones append motion-photo videos
and maker data there.
"""
from __future__ import annotations

import re
import struct

from vision.errors import CorruptImage, UnsupportedImage
from vision.formats.header import ImageHeader, exif_orientation

SEQUENTIAL_HUFFMAN = {0xC0, 0xC1}  # baseline and extended sequential
PROGRESSIVE_HUFFMAN = 0xC2
LOSSLESS_OR_HIERARCHICAL = {0xC3, 0xC5, 0xC6, 0xC7}
ARITHMETIC = {0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF, 0xCC}  # arithmetic-coded frames, and DAC (their conditioning)
FRAMES_AND_CONDITIONING = {*SEQUENTIAL_HUFFMAN, PROGRESSIVE_HUFFMAN, *LOSSLESS_OR_HIERARCHICAL, *ARITHMETIC}
TABLES_AND_MISC = {0xC4, 0xDB, 0xDD, 0xDC, 0xFE, *range(0xE0, 0xF0)}  # DHT, DQT, DRI, DNL, COM, APPn
SOI, EOI, SOS = 0xD8, 0xD9, 0xDA
# Progressive files have ~10 scans; thousands of tiny ones make libjpeg work for seconds on a small file.
MAX_SCANS = 100
# A camera's JPEG has 10-40 segments (a progressive one two more a scan); each costs the walk a step of Python, and
# 10 million 4-byte ones (a 40 MB file) took 6.5 s.
MAX_SEGMENTS = 1000
# In entropy-coded data 0xFF is followed by 0x00 (a stuffed byte) or a restart marker; anything else (0xFF fill
# bytes included) begins the next marker.
_NEXT_MARKER = re.compile(rb"\xff[^\x00\xd0-\xd7]")
_FILL = re.compile(rb"\xff+")  # any number of 0xFF fill bytes may precede a marker: skipped in one step


def read_jpeg(data: bytes) -> ImageHeader:
    """The header of a structurally complete JPEG; CorruptImage or UnsupportedImage otherwise."""
    pos, orientation = 2, 1
    frame: tuple[int, int, int, list[int]] | None = None  # marker, width, height, component ids
    first_scan_components, scans, segments = 0, 0, 0
    while True:
        if pos + 2 > len(data):
            raise CorruptImage("the JPEG photo is truncated (no end-of-image marker)")
        if data[pos] != 0xFF:
            raise CorruptImage("the JPEG photo is damaged (bad segment marker)")
        pos = _FILL.match(data, pos).end() - 1
        if pos + 2 > len(data):
            raise CorruptImage("the JPEG photo is truncated (no end-of-image marker)")
        marker = data[pos + 1]
        segments += 1
        if segments > MAX_SEGMENTS:
            raise CorruptImage(f"the JPEG photo has more than {MAX_SEGMENTS} segments")
        if marker == EOI:
            break
        if marker == SOI or marker == 0x00 or 0xD0 <= marker <= 0xD7:
            raise CorruptImage(f"the JPEG photo is damaged (marker 0x{marker:02X} out of place)")
        if pos + 4 > len(data):
            raise CorruptImage("the JPEG photo is truncated (ends inside its header)")
        (length,) = struct.unpack_from(">H", data, pos + 2)
        if length < 2 or pos + 2 + length > len(data):
            raise CorruptImage("the JPEG photo is truncated or damaged (a segment runs past the end of the file)")
        segment = data[pos + 4:pos + 2 + length]
        pos += 2 + length
        if marker in FRAMES_AND_CONDITIONING:
            if frame is not None:  # after a Huffman-coded frame, any frame header is damage, not another coding
                raise CorruptImage("the JPEG photo is damaged (a second frame header)")
            if marker in ARITHMETIC:
                raise UnsupportedImage("arithmetic-coded JPEGs are not supported; save the photo as an ordinary "
                                       "(Huffman-coded) JPEG")
            if marker in LOSSLESS_OR_HIERARCHICAL:
                raise UnsupportedImage("lossless and hierarchical JPEGs are not supported; send a camera's JPEG")
            frame = (marker, *_frame(segment))
        elif marker == SOS:
            if frame is None:
                raise CorruptImage("the JPEG photo is damaged (a scan before its frame header)")
            components = _scan_components(segment, frame[3])
            scans += 1
            if scans > MAX_SCANS:
                raise CorruptImage(f"the JPEG photo has more than {MAX_SCANS} scans")
            first_scan_components = first_scan_components or components
            found = _NEXT_MARKER.search(data, pos)
            if found is None:
                raise CorruptImage("the JPEG photo is truncated (no end-of-image marker)")
            pos = found.start()
        elif marker == 0xE1 and segment.startswith(b"Exif\x00\x00") and orientation == 1:
            orientation = exif_orientation(segment[6:])
        elif marker not in TABLES_AND_MISC:
            raise CorruptImage(f"the JPEG photo is damaged (unknown marker 0x{marker:02X})")
    if frame is None or scans == 0:
        raise CorruptImage("the JPEG photo ends before its image data")
    marker, width, height, ids = frame
    single_scan = marker in SEQUENTIAL_HUFFMAN and scans == 1 and first_scan_components == len(ids)
    return ImageHeader("jpeg", width, height, orientation, single_scan, len(ids))


def _frame(segment: bytes) -> tuple[int, int, list[int]]:
    """Width, height and component ids of a Huffman-coded frame header (SOF0-2)."""
    if len(segment) < 6:
        raise CorruptImage("the JPEG photo is damaged (short frame header)")
    precision, height, width, count = struct.unpack_from(">BHHB", segment, 0)
    if precision != 8:
        raise UnsupportedImage(f"{precision}-bit JPEGs are not supported; send an ordinary 8-bit JPEG")
    if width == 0 or height == 0:
        raise CorruptImage("the JPEG photo has no usable frame size")
    if count not in (1, 3, 4) or len(segment) != 6 + 3 * count:
        raise CorruptImage("the JPEG photo is damaged (bad frame header)")
    ids = []
    for i in range(count):
        component, sampling, table = segment[6 + 3 * i:9 + 3 * i]
        if not (1 <= sampling >> 4 <= 4 and 1 <= sampling & 15 <= 4) or table > 3 or component in ids:
            raise CorruptImage("the JPEG photo is damaged (bad frame header)")
        ids.append(component)
    return width, height, ids


def _scan_components(segment: bytes, frame_ids: list[int]) -> int:
    """How many of the frame's components a scan header names (checked to be the frame's, each once)."""
    count = segment[0] if segment else 0
    if not 1 <= count <= 4 or len(segment) != 4 + 2 * count:
        raise CorruptImage("the JPEG photo is damaged (bad scan header)")
    named = [segment[1 + 2 * i] for i in range(count)]
    if len(set(named)) != count or not set(named) <= set(frame_ids):
        raise CorruptImage("the JPEG photo is damaged (a scan names components its frame does not have)")
    return count
