"""Bytes → BGR image, after checking the file's structure and header (size and shape limits, truncation;
vision.imageheader) and with EXIF orientation applied, optionally decoded at 1/2, 1/4 or 1/8 size for speed and
memory (JPEG: DCT scaling; PNG / WebP: OpenCV decodes whole and shrinks at once, so only the reduced copy is kept).

JPEGs are decoded by libjpeg-turbo through simplejpeg with strict=True, which turns libjpeg's corrupt-data warnings
(damaged entropy-coded data, which OpenCV decodes into grey or smeared blocks without a word) into errors; its pixels
are OpenCV's (the same library, the same DCT scaling; a test compares them). Every exception a decoder raises
becomes an `ImageError` subclass."""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
import simplejpeg

from vision.errors import CorruptImage, ExtremeShape, ImageTooLarge
from vision.imageheader import ImageHeader, read_header

MAX_BYTES = 40 * 1024 * 1024
MAX_PIXELS = 50_000_000  # the most pixels ever decoded at once (a photo over it is decoded reduced or refused)
# Phones' 64, 108 and 200 MP modes write single-scan JPEGs, decoded reduced a strip at a time: a 200 MP one at 1/8
# took 335 ms and 21 MB more than the process had, a progressive one 1.6 s and 582 MB (session 50,
# docs/reader-decisions.md@538d56c "huge phone photos"), so only single-scan JPEGs may claim more than MAX_PIXELS.
MAX_SINGLE_SCAN_JPEG_PIXELS = 210_000_000  # 200 MP sensors write up to 16384 x 12288 (201 MP)
# A long side more than this many times the short one is no photo of cards (phones' panoramas stay under it); such
# shapes also broke the reader's shrinking steps (a 40000x1 image shrunk to zero rows: issue 64).
MAX_ASPECT_RATIO = 10
REDUCED_FLAGS = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4,
                 8: cv2.IMREAD_REDUCED_COLOR_8}


@dataclass(frozen=True)
class DecodedPhoto:
    image: np.ndarray  # BGR uint8, upright (EXIF orientation applied)
    reduction: int  # 1, 2, 4 or 8: the photo's full size is `reduction` times the image's
    header: ImageHeader


def check_limits(data: bytes, *, max_bytes: int = MAX_BYTES, max_pixels: int = MAX_PIXELS,
                 max_single_scan_pixels: int = MAX_SINGLE_SCAN_JPEG_PIXELS) -> ImageHeader:
    """Header of the photo, or a typed error when it is empty, not an image, damaged in its structure, too large or
    too long and thin (ExtremeShape). No decoder has seen the bytes yet."""
    if len(data) > max_bytes:
        raise ImageTooLarge(f"the photo is {len(data) / 1e6:.1f} MB; the limit is {max_bytes / 1e6:.0f} MB")
    header = read_header(data)
    single_scan_limit = max(max_pixels, max_single_scan_pixels)
    limit = single_scan_limit if header.single_scan else max_pixels
    if header.width * header.height > limit:
        # a photo refused under the lower limit is told the higher one a camera's JPEG would have
        other = ("" if limit == single_scan_limit
                 else f" ({single_scan_limit / 1e6:.0f} for a camera's single-scan JPEG)")
        raise ImageTooLarge(f"the photo claims {header.width}x{header.height} pixels; the limit is "
                            f"{limit / 1e6:.0f} megapixels{other}")
    if max(header.width, header.height) > MAX_ASPECT_RATIO * min(header.width, header.height):
        raise ExtremeShape(f"the image is {header.width}x{header.height} pixels: too long and thin to be a photo of "
                           f"cards (the long side may be at most {MAX_ASPECT_RATIO} times the short one)")
    return header


def choose_reduction(header: ImageHeader, min_long_side: int, max_pixels: int = MAX_PIXELS) -> int:
    """Largest reduction (1/2, 1/4, 1/8) that keeps the long side at least `min_long_side`, for every format: a
    49-megapixel PNG read whole took 1.5-1.6 s and peaked at 538-579 MB, over the 500 MB target (session 27,
    docs/measurements.md@538d56c; JPEGs were already reduced); and at least enough to decode no more than `max_pixels`
    (a single-scan JPEG may claim more, check_limits)."""
    factor = 1
    if min_long_side > 0:
        long_side = max(header.width, header.height)
        factor = next((f for f in (8, 4, 2) if long_side // f >= min_long_side), 1)
    while factor < 8 and -(-header.width // factor) * -(-header.height // factor) > max_pixels:
        factor *= 2
    return factor


def apply_orientation(image: np.ndarray, orientation: int) -> np.ndarray:
    """Turn stored pixels upright according to the EXIF orientation value (1..8)."""
    if orientation == 2:
        return cv2.flip(image, 1)
    if orientation == 3:
        return cv2.rotate(image, cv2.ROTATE_180)
    if orientation == 4:
        return cv2.flip(image, 0)
    if orientation == 5:
        return cv2.transpose(image)
    if orientation == 6:
        return cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)
    if orientation == 7:
        return cv2.flip(cv2.transpose(image), -1)
    if orientation == 8:
        return cv2.rotate(image, cv2.ROTATE_90_COUNTERCLOCKWISE)
    return image


def decode_photo(data: bytes, *, min_long_side: int = 0, max_bytes: int = MAX_BYTES,
                 max_pixels: int = MAX_PIXELS, max_single_scan_pixels: int = MAX_SINGLE_SCAN_JPEG_PIXELS
                 ) -> DecodedPhoto:
    """Decode JPEG/PNG/WebP bytes to an upright BGR image.

    `min_long_side` > 0 allows a reduced decode whose long side stays at least that long; a single-scan JPEG of more
    than `max_pixels` (up to `max_single_scan_pixels`) is always decoded reduced to at most `max_pixels`.
    Raises an `ImageError` subclass for anything that is not a readable photo within the limits.
    """
    header = check_limits(data, max_bytes=max_bytes, max_pixels=max_pixels,
                          max_single_scan_pixels=max_single_scan_pixels)
    reduction = choose_reduction(header, min_long_side, max_pixels)
    try:
        if header.format == "jpeg":
            image = _decoded_jpeg(data, header, reduction)
        else:
            image = cv2.imdecode(np.frombuffer(data, dtype=np.uint8),
                                 REDUCED_FLAGS[reduction] | cv2.IMREAD_IGNORE_ORIENTATION)
    except MemoryError as err:
        raise ImageTooLarge(f"the {header.format.upper()} image needs more memory than is free to decode") from err
    except cv2.error as err:
        if "CV_IO_MAX_IMAGE" in str(err):  # OpenCV's own pixel bound (vision/__init__.py)
            raise ImageTooLarge(f"the {header.format.upper()} image is too large for the decoder") from err
        raise CorruptImage(f"the {header.format.upper()} image is damaged ({_first_line(err)})") from err
    except (ValueError, OverflowError, SystemError) as err:
        raise CorruptImage(f"the {header.format.upper()} image is damaged ({_first_line(err)})") from err
    if image is None or image.size == 0:
        raise CorruptImage(f"the {header.format.upper()} image could not be decoded (damaged data)")
    return DecodedPhoto(apply_orientation(image, header.orientation), reduction, header)


def _decoded_jpeg(data: bytes, header: ImageHeader, reduction: int) -> np.ndarray:
    """The JPEG decoded strictly (any corrupt-data warning is an error) at 1/`reduction` size, BGR. libjpeg-turbo
    rounds a scaled side up, as OpenCV's reduced decode does."""
    size = {"min_height": math.ceil(header.height / reduction), "min_width": math.ceil(header.width / reduction)}
    if header.components != 4:
        return simplejpeg.decode_jpeg(data, colorspace="BGR", strict=True, **size)
    # CMYK / YCCK (print files): libjpeg-turbo gives the (Adobe-inverted) inks; turned to BGR as OpenCV does
    ink = simplejpeg.decode_jpeg(data, colorspace="CMYK", strict=True, **size).astype(np.int32)
    key = ink[..., 3:]
    bgr = key - (((255 - ink[..., 2::-1]) * key) >> 8)
    return np.ascontiguousarray(bgr, dtype=np.uint8)


def _first_line(err: BaseException) -> str:
    """A decoder's message as one short line (OpenCV's: its reason, without the source file and line)."""
    text = getattr(err, "err", None) or str(err)
    return (text.strip().splitlines() or [type(err).__name__])[0][:160]
