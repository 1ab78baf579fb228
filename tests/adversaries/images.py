"""Malformed and odd images, seeded: the kinds of upload that broke the reader in issue 64, kept as a generator that
the regression tests (tests/vision/test_hostile_images.py) and the server benchmark share.

`malformed_images(seed, count)` yields `(class name, bytes)`, the classes in turn (CLASSES), each class's images
varied by the seed. Everything is made here from NumPy and OpenCV (no files), small, in well under a second per
thousand images.
"""
from __future__ import annotations

import struct
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import cv2
import numpy as np
import simplejpeg

Maker = Callable[[np.random.Generator, "Bases", int], bytes]

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# The shapes that escaped as a 500 or were called damaged (issue 64), and two just past the reader's 10 : 1 bound.
EXTREME_SHAPES = [(40000, 1), (1, 1000), (2, 8000), (16, 16000), (30, 60000), (1100, 100), (64, 660)]
WEBP_MAX_SIDE = 16383


@dataclass(frozen=True)
class Bases:
    """Sound images of one small picture, the material most classes damage."""
    picture: np.ndarray  # BGR
    jpegs: tuple[bytes, ...]  # baseline, progressive, with restart markers
    pngs: tuple[bytes, ...]  # RGB, 16-bit RGB, palette
    webps: tuple[bytes, ...]  # lossy, lossless, lossless with alpha
    odd_pixels: tuple[bytes, ...] = ()  # sound images of odd kinds (_odd_pixel_images)
    wrong_formats: tuple[bytes, ...] = ()  # other formats and non-images (_wrong_formats)
    extreme_shapes: tuple[bytes, ...] = ()  # EXTREME_SHAPES as JPEG, PNG and WebP in turn


def malformed_images(seed: int, count: int) -> Iterator[tuple[str, bytes]]:
    """`count` malformed or odd images, (class name, bytes), the classes of CLASSES in turn; the same for a seed."""
    rng = np.random.default_rng(seed)
    bases = make_bases(rng)
    makers = list(CLASSES.items())
    for i in range(count):
        name, make = makers[i % len(makers)]
        yield name, make(rng, bases, i // len(makers))


# --- encoding helpers -------------------------------------------------------------------------------------------

def encoded(ext: str, image: np.ndarray, params: list[int] | None = None) -> bytes:
    ok, data = cv2.imencode(ext, image, params or [])
    if not ok:
        raise ValueError(f"OpenCV could not encode a {image.shape} image as {ext}")
    return data.tobytes()


def png_chunk(kind: bytes, body: bytes, length: int | None = None) -> bytes:
    """A PNG chunk with a correct CRC; `length` overrides the length field (a chunk-length bomb)."""
    size = len(body) if length is None else length
    return struct.pack(">I", size) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def png_of(width: int, height: int, colour_type: int, depth: int, rows: bytes, palette: bytes = b"",
           extra: bytes = b"") -> bytes:
    """A PNG built by hand (OpenCV writes no palette, grey+alpha or 1-4 bit PNGs): `rows` are the raw scanlines,
    each behind its filter byte; `extra` chunks go before the image data."""
    ihdr = struct.pack(">IIBBBBB", width, height, depth, colour_type, 0, 0, 0)
    plte = png_chunk(b"PLTE", palette) if palette else b""
    return (PNG_SIGNATURE + png_chunk(b"IHDR", ihdr) + plte + extra + png_chunk(b"IDAT", zlib.compress(rows))
            + png_chunk(b"IEND", b""))


def scanlines(pixels: np.ndarray, bits: int = 8) -> bytes:
    """Rows of `pixels` (height x samples, integers) packed at `bits` a sample (1, 2, 4, 8 or 16), filter 0."""
    rows = []
    for row in pixels:
        if bits == 16:
            packed = row.astype(">u2").tobytes()
        elif bits == 8:
            packed = row.astype(np.uint8).tobytes()
        else:
            value = 0
            for sample in row:
                value = value << bits | int(sample)
            padding = (-len(row) * bits) % 8
            packed = (value << padding).to_bytes((len(row) * bits + padding) // 8, "big")
        rows.append(b"\x00" + packed)
    return b"".join(rows)


def riff(chunks: bytes) -> bytes:
    return b"RIFF" + struct.pack("<I", 4 + len(chunks)) + b"WEBP" + chunks


def webp_chunk(name: bytes, body: bytes) -> bytes:
    return name + struct.pack("<I", len(body)) + body + b"\x00" * (len(body) & 1)


def exif_tiff(orientation: int, *, endian: str = "<", kind: int = 3, count: int | None = None,
              ifd_offset: int = 8, next_ifd: int = 0) -> bytes:
    """A TIFF block whose first directory holds one Orientation entry (kind 3: SHORT), with odd variants: another
    entry count, directory offset or next-directory offset (a loop when it points back)."""
    mark = b"II" if endian == "<" else b"MM"
    value = struct.pack(endian + "H", orientation & 0xFFFF) + b"\x00\x00" if kind == 3 else struct.pack(
        endian + "I", orientation)
    entry = struct.pack(endian + "HHI", 0x0112, kind, 1) + value
    directory = struct.pack(endian + "H", 1 if count is None else count) + entry + struct.pack(endian + "I", next_ifd)
    return mark + struct.pack(endian + "H", 42) + struct.pack(endian + "I", ifd_offset) + directory


def jpeg_with_segment(jpeg: bytes, marker: int, body: bytes) -> bytes:
    """The JPEG with one more segment right after its start-of-image marker."""
    return jpeg[:2] + bytes([0xFF, marker]) + struct.pack(">H", len(body) + 2) + body + jpeg[2:]


def sof_offset(jpeg: bytes) -> int:
    """Where the JPEG's frame header (its 0xFF 0xCn marker) starts."""
    for marker in (b"\xff\xc0", b"\xff\xc2", b"\xff\xc1"):
        found = jpeg.find(marker)
        if found >= 0:
            return found
    raise ValueError("no frame header")


def scan_data_start(jpeg: bytes) -> int:
    sos = jpeg.find(b"\xff\xda")
    return sos + 2 + struct.unpack_from(">H", jpeg, sos + 2)[0]


def webp_vp8l_body(webp_lossless: bytes) -> bytes:
    """The VP8L chunk's body of a simple lossless WebP (as OpenCV writes it)."""
    assert webp_lossless[12:16] == b"VP8L"
    (size,) = struct.unpack_from("<I", webp_lossless, 16)
    return webp_lossless[20:20 + size]


def extended_webp(width: int, height: int, image_chunk: bytes, *, flags: int = 0, before: bytes = b"",
                  after: bytes = b"") -> bytes:
    """An extended-format (VP8X) WebP around an image chunk."""
    vp8x = bytes([flags, 0, 0, 0]) + (width - 1).to_bytes(3, "little") + (height - 1).to_bytes(3, "little")
    return riff(webp_chunk(b"VP8X", vp8x) + before + image_chunk + after)


# --- the sound material -------------------------------------------------------------------------------------------

def table_picture(rng: np.random.Generator, width: int = 128, height: int = 96) -> np.ndarray:
    """A green table with a few white cards and dark marks, different for each seed."""
    image = np.zeros((height, width, 3), np.uint8)
    image[:] = (40 + rng.integers(0, 30), 110 + rng.integers(0, 40), 40)
    for _ in range(4):
        x, y = int(rng.integers(0, width - 30)), int(rng.integers(0, height - 40))
        cv2.rectangle(image, (x, y), (x + 28, y + 38), (245, 245, 245), -1)
        cv2.putText(image, "AKQJ"[int(rng.integers(0, 4))], (x + 3, y + 14), cv2.FONT_HERSHEY_SIMPLEX, 0.45,
                    (30, 30, 200) if rng.random() < 0.5 else (20, 20, 20), 1)
    noise = rng.normal(0, 6, image.shape)
    return np.clip(image + noise, 0, 255).astype(np.uint8)


def make_bases(rng: np.random.Generator) -> Bases:
    picture = table_picture(rng)
    grey = cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY)
    palette_indices = (grey // 16).astype(np.uint8)
    palette = bytes(np.repeat(np.arange(16, dtype=np.uint8) * 17, 3))
    jpegs = (encoded(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, 90]),
             encoded(".jpg", picture, [cv2.IMWRITE_JPEG_PROGRESSIVE, 1]),
             encoded(".jpg", picture, [cv2.IMWRITE_JPEG_RST_INTERVAL, 2]))
    pngs = (encoded(".png", picture), encoded(".png", picture.astype(np.uint16) * 257),
            png_of(picture.shape[1], picture.shape[0], 3, 8, scanlines(palette_indices), palette))
    alpha = np.dstack([picture, np.full(picture.shape[:2], 200, np.uint8)])
    webps = (encoded(".webp", picture, [cv2.IMWRITE_WEBP_QUALITY, 80]),
             encoded(".webp", picture, [cv2.IMWRITE_WEBP_QUALITY, 101]),
             encoded(".webp", alpha, [cv2.IMWRITE_WEBP_QUALITY, 101]))
    bases = Bases(picture, jpegs, pngs, webps)
    shapes = tuple(_extreme_shape(rng, width, height, ext) for width, height in EXTREME_SHAPES
                   for ext in (".jpg", ".png", ".webp"))
    return Bases(picture, jpegs, pngs, webps, tuple(_odd_pixel_images(bases)), tuple(_wrong_formats(bases)), shapes)


# --- the classes --------------------------------------------------------------------------------------------------

FIXED_CUTS = (1, 2, 3, 4, 6, 8, 11, 12, 16, 20, 24, 26, 30, 33, 37, 41, 50, 64, 100)


def _cut(data: bytes, rng: np.random.Generator, k: int) -> bytes:
    """The file cut short: at fixed early points (inside the headers) first, then anywhere."""
    cut = FIXED_CUTS[k] if k < len(FIXED_CUTS) else int(rng.integers(1, len(data)))
    return data[:min(cut, len(data) - 1)]


def truncated_jpeg(rng, bases, k):
    return _cut(bases.jpegs[k % len(bases.jpegs)], rng, k)


def truncated_png(rng, bases, k):
    return _cut(bases.pngs[k % len(bases.pngs)], rng, k)


def truncated_webp(rng, bases, k):
    return _cut(bases.webps[k % len(bases.webps)], rng, k)


def padded_jpeg(rng, bases, k):
    """A JPEG cut inside its scan data, padded with random bytes and given an end-of-image marker (issue 64)."""
    jpeg = bases.jpegs[k % len(bases.jpegs)]
    start = scan_data_start(jpeg)
    cut = int(rng.integers(start, len(jpeg) - 2))
    padding = rng.integers(0, 256, int(rng.integers(1, 2000)), dtype=np.uint8).tobytes()
    return jpeg[:cut] + padding + b"\xff\xd9"


def _mutated(data: bytes, rng: np.random.Generator) -> bytes:
    """1-8 bytes anywhere past the signature's first four set to random values."""
    damaged = bytearray(data)
    for _ in range(int(rng.integers(1, 9))):
        damaged[int(rng.integers(4, len(damaged)))] = int(rng.integers(0, 256))
    return bytes(damaged)


def mutated_jpeg(rng, bases, k):
    return _mutated(bases.jpegs[k % len(bases.jpegs)], rng)


def mutated_png(rng, bases, k):
    return _mutated(bases.pngs[k % len(bases.pngs)], rng)


def mutated_webp(rng, bases, k):
    return _mutated(bases.webps[k % len(bases.webps)], rng)


def _wrong_formats(bases: Bases) -> list[bytes]:
    gif = (b"GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00"
           b"\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;")
    return [
        b"Dear player,\nthese are my cards: AS KS QS.\n",
        b"%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n",
        b"PK\x03\x04\x14\x00\x00\x00\x08\x00" + b"\x00" * 20 + b"photo.jpg" + b"\x00" * 40,
        b"<!DOCTYPE html><html><body><img src=x onerror=alert(1)></body></html>",
        b'<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect/></svg>',
        gif, encoded(".bmp", bases.picture), encoded(".tiff", bases.picture), encoded(".ppm", bases.picture),
        b"\x00\x00\x01\x00\x01\x00\x10\x10" + b"\x00" * 60,  # ICO
        b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + b"\x00" * 40,
        b"\x00\x00\x00\x1cftypavif\x00\x00\x00\x00avifmif1miaf" + b"\x00" * 40,
        b"RIFF\x24\x00\x00\x00AVI LIST" + b"\x00" * 40,  # a RIFF that is not a WebP
        b'{"cards": ["AS", "KS"]}',
        b"\x1f\x8b\x08\x00" + b"\x00" * 30,  # gzip
        b"\x7fELF\x02\x01\x01" + b"\x00" * 60,
        b"\xff\x0a\xfa\x7f" + b"\x00" * 30,  # JPEG XL
        b"",
        b"\x00" * 256,
        b"\xff\xd8",  # a JPEG's first two bytes and nothing else
    ]


def wrong_format(rng, bases, k):
    """Something that is not a JPEG, PNG or WebP, sent as one; random bytes every other time round."""
    formats = bases.wrong_formats
    if k % (len(formats) + 1) == len(formats):
        return rng.integers(0, 256, int(rng.integers(1, 5000)), dtype=np.uint8).tobytes()
    return formats[k % (len(formats) + 1)]


def _png_with_size(png: bytes, width: int, height: int) -> bytes:
    ihdr = struct.pack(">II", width, height) + png[24:29]
    return png[:8] + png_chunk(b"IHDR", ihdr) + png[33:]


def header_bomb(rng, bases, k):
    """A sound file whose header claims a huge size (a decompression bomb): JPEG, PNG and WebP in turn."""
    # over every limit: 50 megapixels, 210 for a single-scan JPEG
    sizes = [(65535, 65535), (60000, 60000), (20000, 15000), (30000, 30000), (14600, 14600), (16000, 16000)]
    width, height = sizes[(k // 3) % len(sizes)]
    which = k % 3
    if which == 0:
        jpeg = bytearray(bases.jpegs[(k // 3) % len(bases.jpegs)])
        sof = sof_offset(bytes(jpeg))
        jpeg[sof + 5:sof + 9] = struct.pack(">HH", height, width)
        return bytes(jpeg)
    if which == 1:
        return _png_with_size(bases.pngs[(k // 3) % len(bases.pngs)], width, height)
    side = min(WEBP_MAX_SIDE + 1, width)
    lossless = bytearray(webp_vp8l_body(bases.webps[1]))
    lossless[1:5] = struct.pack("<I", (side - 1) | (side - 1) << 14)
    return extended_webp(side, side, webp_chunk(b"VP8L", bytes(lossless)))


def chunk_length_bomb(rng, bases, k):
    """A chunk or segment claiming far more bytes than the file holds, or far too many of them."""
    variant = k % 9
    if variant == 0:  # issue 64's 56-byte PNG: a tEXt chunk claiming 2 GB
        ihdr = png_chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0))
        return PNG_SIGNATURE + ihdr + struct.pack(">I", 0x7FFFFFFF) + b"tEXtabc" + png_chunk(b"IEND", b"")
    if variant == 1:  # any chunk of a real PNG, before its image data, claiming a huge length
        png = bases.pngs[(k // 9) % len(bases.pngs)]
        kind = [b"tEXt", b"zTXt", b"iCCP", b"eXIf", b"ruSt", b"IDAT"][(k // 9) % 6]
        length = [0x7FFFFFFF, 0xFFFFFFFF, 0x10000000, len(png)][(k // 27) % 4]
        return png[:33] + png_chunk(kind, b"x" * 16, length=length) + png[33:]
    if variant == 2:  # a JPEG segment claiming 64 KB in a smaller file
        jpeg = bases.jpegs[0][:int(rng.integers(30, 200))]
        marker = [0xE0, 0xE1, 0xFE, 0xDB, 0xC4][(k // 9) % 5]
        return jpeg[:2] + bytes([0xFF, marker, 0xFF, 0xFF]) + jpeg[2:] + b"\xff\xd9"
    if variant == 3:  # a WebP whose RIFF size or chunk size runs past the file
        webp = bytearray(bases.webps[(k // 9) % len(bases.webps)])
        field = 4 if (k // 9) % 2 == 0 else 16
        webp[field:field + 4] = struct.pack("<I", [0xFFFFFFFF, 0x7FFFFFF0, len(webp) * 4][(k // 18) % 3])
        return bytes(webp)
    if variant == 4:  # a VP8 frame whose first partition claims more than its chunk
        webp = bytearray(bases.webps[0])
        tag = int.from_bytes(webp[20:23], "little")
        webp[20:23] = ((tag & 0x1F) | (0x7FFFF << 5)).to_bytes(3, "little")
        return bytes(webp)
    if variant == 5:  # 30,000 tiny text chunks: a walk of the file costs per chunk
        png = bases.pngs[0]
        return png[:33] + png_chunk(b"tEXt", b"k\x00v") * 30_000 + png[33:]
    if variant == 6:  # a JPEG of 300 scans (each costs libjpeg a pass)
        jpeg = bases.jpegs[1]
        sos = jpeg.find(b"\xff\xda")
        scan = jpeg[sos:scan_data_start(jpeg)] + b"\x00" * 4
        return jpeg[:sos] + scan * 300 + b"\xff\xd9"
    if variant == 7:  # 5,000 empty comment segments: a walk of the markers costs per segment
        return bases.jpegs[0][:2] + b"\xff\xfe\x00\x02" * 5000 + bases.jpegs[0][2:]
    # a PNG whose IEND is missing but whose last chunk claims the rest of a 2 GB file
    png = bases.pngs[(k // 9) % len(bases.pngs)]
    end = png.rfind(b"IEND") - 4
    return png[:end] + struct.pack(">I", 0x7FFFFFF0) + b"IDAT" + b"\x00" * 8


def _extreme_shape(rng: np.random.Generator, width: int, height: int, ext: str) -> bytes:
    """A flat picture with stripes (quick to encode at 30 x 60000) of the shape, WebP's kept as thin within its
    16383-pixel sides."""
    if ext == ".webp":
        scale = min(1.0, WEBP_MAX_SIDE / max(width, height))
        width, height = max(1, int(width * scale)), max(1, int(height * scale))
    image = np.full((height, width, 3), int(rng.integers(0, 256)), np.uint8)
    image[::7] = 255
    return encoded(ext, image)


def extreme_aspect(rng, bases, k):
    """A sound image too long and thin to be a photo of cards (EXTREME_SHAPES), as JPEG, PNG and WebP in turn."""
    return bases.extreme_shapes[k % len(bases.extreme_shapes)]


def odd_exif(rng, bases, k):
    """A sound image whose EXIF is odd: orientations out of range, huge or looping directories, wrong types, junk."""
    variants = [
        exif_tiff(0), exif_tiff(9), exif_tiff(255), exif_tiff(65535), exif_tiff(6), exif_tiff(3, endian=">"),
        exif_tiff(6, kind=4), exif_tiff(8, count=65535), exif_tiff(6, ifd_offset=0xFFFFFFF0),
        exif_tiff(6, next_ifd=8), exif_tiff(5, next_ifd=0xFFFFFFFF),
        b"II*\x00" + rng.integers(0, 256, 60000, dtype=np.uint8).tobytes(),
        b"MM\x00*\x00\x00\x00\x08" + b"\xff\xff" + b"\x01" * 3000, b"", b"II",
    ]
    tiff = variants[(k // 3) % len(variants)]
    which = k % 3
    if which == 0:
        jpeg = jpeg_with_segment(bases.jpegs[(k // 3) % 2], 0xE1, b"Exif\x00\x00" + tiff[:65000])
        return jpeg_with_segment(jpeg, 0xE1, b"Exif\x00\x00" + exif_tiff(7)) if k % 7 == 0 else jpeg
    if which == 1:
        png = bases.pngs[(k // 3) % len(bases.pngs)]
        return png[:33] + png_chunk(b"eXIf", tiff) + png[33:]
    height, width = bases.picture.shape[:2]
    image = webp_chunk(b"VP8L", webp_vp8l_body(bases.webps[1]))
    return extended_webp(width, height, image, flags=0x08, after=webp_chunk(b"EXIF", tiff))


def _odd_pixel_images(bases: Bases) -> list[bytes]:
    picture = bases.picture
    height, width = picture.shape[:2]
    grey = cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY)
    cmyk = np.dstack([255 - picture[..., 2], 255 - picture[..., 1], 255 - picture[..., 0], np.full_like(grey, 40)])
    alpha = np.dstack([picture, np.linspace(0, 255, width, dtype=np.uint8)[None, :].repeat(height, 0)])
    grey_alpha = np.dstack([grey, 255 - grey]).reshape(height, -1)
    return [
        encoded(".jpg", grey), simplejpeg.encode_jpeg(np.ascontiguousarray(cmyk), colorspace="CMYK"),
        encoded(".jpg", picture, [cv2.IMWRITE_JPEG_SAMPLING_FACTOR, cv2.IMWRITE_JPEG_SAMPLING_FACTOR_444]),
        encoded(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, 1]),
        encoded(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, 100]),
        bases.jpegs[0] + b"\x00\x00\x00\x18ftypmp42" + b"\x00" * 500,  # a motion photo's video after the image
        jpeg_with_segment(bases.jpegs[0], 0xFE, b"a comment"),
        bases.jpegs[0][:2] + b"\xff\xff\xff" + bases.jpegs[0][2:],  # fill bytes before a marker
        *bases.jpegs[1:], *bases.pngs,
        encoded(".png", grey), encoded(".png", grey.astype(np.uint16) * 257), encoded(".png", alpha),
        encoded(".png", alpha.astype(np.uint16) * 257),
        png_of(width, height, 4, 8, scanlines(grey_alpha)),
        png_of(width, height, 0, 1, scanlines(grey // 128, 1)), png_of(width, height, 0, 4, scanlines(grey // 16, 4)),
        png_of(width, height, 3, 2, scanlines(grey // 64, 2), bytes(range(0, 256, 22))[:12]),
        png_of(width, height, 2, 8, scanlines(picture[..., ::-1].reshape(height, -1)),
               extra=png_chunk(b"tEXt", b"Comment\x00hello") + png_chunk(b"zTXt", b"k\x00\x00" + zlib.compress(
                   b"x" * 5000))),
        bases.pngs[0] + b"trailing bytes after IEND",
        *bases.webps, encoded(".webp", alpha, [cv2.IMWRITE_WEBP_QUALITY, 60]), encoded(".webp", grey),
        encoded(".jpg", picture[:1, :1]), encoded(".png", picture[:2, :2]), encoded(".webp", picture[:8, :8]),
        encoded(".jpg", cv2.resize(picture, (640, 64))), encoded(".png", cv2.resize(picture, (64, 640))),
    ]


def odd_pixels(rng, bases, k):
    """A sound image of an odd kind: grey, CMYK, 16-bit, alpha, palette, 1-4 bit, progressive, tiny, 10 : 1, with
    trailing data."""
    return bases.odd_pixels[k % len(bases.odd_pixels)]


def unsupported_jpeg(rng, bases, k):
    """A JPEG whose coding the reader refuses (arithmetic, lossless, 12-bit) or whose markers are out of order."""
    jpeg = bases.jpegs[k % 2]
    sof = sof_offset(jpeg)
    sos = jpeg.find(b"\xff\xda")
    variant = (k // 2) % 11
    if variant < 3:  # issue 64: an arithmetic-coded frame header over Huffman-coded data (SOF9, SOF10, SOF11)
        return jpeg[:sof + 1] + bytes([0xC9 + variant]) + jpeg[sof + 2:]
    if variant == 3:  # lossless and hierarchical frames
        return jpeg[:sof + 1] + bytes([0xC3 + 2 * ((k // 22) % 2)]) + jpeg[sof + 2:]
    if variant == 4:  # 12 bits a sample
        return jpeg[:sof + 4] + b"\x0c" + jpeg[sof + 5:]
    if variant == 5:  # two frame headers
        length = struct.unpack_from(">H", jpeg, sof + 2)[0]
        return jpeg[:sof] + jpeg[sof:sof + 2 + length] + jpeg[sof:]
    if variant == 6:  # the scan before the frame
        return jpeg[:2] + jpeg[sos:]
    if variant == 7:  # no scan at all
        return jpeg[:sos] + b"\xff\xd9"
    if variant == 8:  # a frame with two components, or a zero height (a DNL marker's job)
        damaged = bytearray(jpeg)
        if (k // 22) % 2:
            damaged[sof + 5:sof + 7] = b"\x00\x00"
        else:
            damaged[sof + 9] = 2
        return bytes(damaged)
    if variant == 9:  # an arithmetic-conditioning segment
        return jpeg[:sos] + b"\xff\xcc\x00\x04\x00\x11" + jpeg[sos:]
    return jpeg[:2] + b"\xff\xd8" + jpeg[2:]  # two start-of-image markers


CLASSES: dict[str, Maker] = {
    "truncated-jpeg": truncated_jpeg,
    "truncated-png": truncated_png,
    "truncated-webp": truncated_webp,
    "padded-jpeg": padded_jpeg,
    "mutated-jpeg": mutated_jpeg,
    "mutated-png": mutated_png,
    "mutated-webp": mutated_webp,
    "wrong-format": wrong_format,
    "header-bomb": header_bomb,
    "chunk-length-bomb": chunk_length_bomb,
    "extreme-aspect": extreme_aspect,
    "odd-exif": odd_exif,
    "odd-pixels": odd_pixels,
    "unsupported-jpeg": unsupported_jpeg,
}
