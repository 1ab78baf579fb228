"""Decoding photos: every kind of bad input gets its typed error; EXIF orientation is honoured."""
from __future__ import annotations

import struct

import cv2
import numpy as np
import pytest

import vision
from vision.decode import apply_orientation, choose_reduction, decode_photo
from vision.errors import CorruptImage, EmptyImage, ImageError, ImageTooLarge, NotAnImage, UnsupportedImage
from vision.imageheader import read_header

from conftest import jpeg_with_orientation, marker_image, png_chunk, png_with_orientation


def encode(ext: str, image: np.ndarray) -> bytes:
    ok, data = cv2.imencode(ext, image)
    assert ok
    return data.tobytes()


# Expected upright picture for each EXIF orientation, built from numpy operations (independent of OpenCV).
NUMPY_ORIENT = {
    1: lambda a: a,
    2: lambda a: a[:, ::-1],
    3: lambda a: a[::-1, ::-1],
    4: lambda a: a[::-1],
    5: lambda a: a.transpose(1, 0, 2),
    6: lambda a: np.rot90(a, k=-1),
    7: lambda a: np.rot90(a, k=-1)[::-1],
    8: lambda a: np.rot90(a, k=1),
}


def test_all_errors_are_value_errors_with_one_line_messages():
    for cls in (EmptyImage, NotAnImage, UnsupportedImage, CorruptImage, ImageTooLarge):
        assert issubclass(cls, vision.ImageError) and issubclass(cls, ValueError)
    with pytest.raises(ImageError) as err:
        decode_photo(b"hello")
    assert "\n" not in str(err.value) and str(err.value)


@pytest.mark.parametrize("data, error", [
    (b"", EmptyImage),
    (bytes(np.random.default_rng(1).integers(0, 256, 5000, dtype=np.uint8)), NotAnImage),
    ("Dear player,\nthese are my cards.\n".encode(), NotAnImage),
    (b"<html><body>not a photo</body></html>", NotAnImage),
    (b"GIF89a" + b"\x00" * 100, UnsupportedImage),
    (b"BM" + b"\x00" * 100, UnsupportedImage),
    (b"II*\x00" + b"\x00" * 100, UnsupportedImage),
])
def test_non_images_get_typed_errors(data, error):
    with pytest.raises(error):
        decode_photo(data)


@pytest.mark.parametrize("cut", [3, 20, 200, 0.5, 0.9, -2])
def test_truncated_jpeg_is_corrupt(cut):
    data = encode(".jpg", np.random.default_rng(2).integers(0, 256, (120, 160, 3), dtype=np.uint8))
    end = int(len(data) * cut) if isinstance(cut, float) else cut
    with pytest.raises(CorruptImage):
        decode_photo(data[:end])


@pytest.mark.parametrize("cut", [20, 40, 0.5, -12])
def test_truncated_png_is_corrupt(cut):
    data = encode(".png", np.random.default_rng(3).integers(0, 256, (80, 80, 3), dtype=np.uint8))
    end = int(len(data) * cut) if isinstance(cut, float) else cut
    with pytest.raises(CorruptImage):
        decode_photo(data[:end])


def test_truncated_webp_is_corrupt():
    data = encode(".webp", marker_image())
    with pytest.raises(CorruptImage):
        decode_photo(data[: len(data) // 2])


def test_damaged_jpeg_scan_data_is_corrupt_or_still_an_image():
    """Garbage inside the scan: either a typed error or a picture of the right size, never a crash."""
    data = bytearray(encode(".jpg", marker_image(120, 160)))
    header_len = data.find(b"\xff\xda") + 20
    rng = np.random.default_rng(4)
    data[header_len:-2] = bytes(rng.integers(0, 256, len(data) - header_len - 2, dtype=np.uint8))
    try:
        image = decode_photo(bytes(data)).image
    except ImageError:
        return
    assert image.shape == (120, 160, 3)


def test_png_bomb_header_is_refused_before_decoding():
    ihdr = struct.pack(">IIBBBBB", 100_000, 100_000, 8, 2, 0, 0, 0)
    data = b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + png_chunk(b"IDAT", b"x" * 10) + png_chunk(b"IEND", b"")
    with pytest.raises(ImageTooLarge, match="100000x100000"):
        decode_photo(data)


def test_jpeg_bomb_header_is_refused():
    data = bytearray(encode(".jpg", marker_image(64, 64)))
    sof = data.find(b"\xff\xc0")
    data[sof + 5:sof + 9] = struct.pack(">HH", 60_000, 60_000)
    with pytest.raises(ImageTooLarge):
        decode_photo(bytes(data))


def test_webp_bomb_header_is_refused():
    vp8x = b"VP8X" + struct.pack("<I", 10) + b"\x00\x00\x00\x00" + (16383).to_bytes(3, "little") * 2
    lossless = b"\x2f" + struct.pack("<I", 16383 | 16383 << 14)  # the image as large as its canvas
    body = b"WEBP" + vp8x + b"VP8L" + struct.pack("<I", 5) + lossless + b"\x00"
    data = b"RIFF" + struct.pack("<I", len(body)) + body
    with pytest.raises(ImageTooLarge):
        decode_photo(data)


def test_pixel_limit_is_configurable():
    data = encode(".png", marker_image(100, 100))
    with pytest.raises(ImageTooLarge):
        decode_photo(data, max_pixels=9_999)
    assert decode_photo(data, max_pixels=10_000).image.shape == (100, 100, 3)


def test_single_scan_jpeg_is_told_from_progressive_and_png():
    image = marker_image(64, 48)
    assert read_header(encode(".jpg", image)).single_scan
    ok, progressive = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_PROGRESSIVE, 1])
    assert ok and not read_header(progressive.tobytes()).single_scan
    assert not read_header(encode(".png", image)).single_scan


def _photo_400x300() -> np.ndarray:
    """A phone's 64-200 MP photo in miniature, for limits of 40,000 pixels a whole decode."""
    return cv2.resize(marker_image(100, 100), (400, 300), interpolation=cv2.INTER_NEAREST)


def test_single_scan_jpeg_over_the_pixel_limit_is_decoded_reduced_under_it():
    data = encode(".jpg", _photo_400x300())
    photo = decode_photo(data, max_pixels=40_000, max_single_scan_pixels=120_000)
    assert photo.reduction == 2 and photo.image.shape == (150, 200, 3)  # 30,000 pixels
    with pytest.raises(ImageTooLarge, match="400x300"):
        decode_photo(data, max_pixels=40_000, max_single_scan_pixels=100_000)


def uniform_grey_jpeg(width: int, height: int) -> bytes:
    """A whole, valid greyscale JPEG of any size without encoding its pixels: every 8x8 block of grey 128 is the same
    six bits under the standard Huffman tables (DC difference 0: 00, end of block: 1010)."""
    small = encode(".jpg", np.full((16, 16), 128, np.uint8))
    scan = small.find(b"\xff\xda")
    head = bytearray(small[:scan + 2 + struct.unpack_from(">H", small, scan + 2)[0]])
    sof = head.find(b"\xff\xc0")
    head[sof + 5:sof + 9] = struct.pack(">HH", height, width)
    blocks = -(-width // 8) * -(-height // 8)
    bits = "001010" * (blocks % 4)
    tail = int(bits.ljust(-(-len(bits) // 8) * 8, "1"), 2).to_bytes(-(-len(bits) // 8), "big") if bits else b""
    return bytes(head) + b"\x28\xa2\x8a" * (blocks // 4) + tail + b"\xff\xd9"


def test_a_single_scan_jpeg_of_200_megapixels_never_holds_them():
    # a 192 MP phone photo: decoded reduced to 1/8 (what the reader asks for), or refused when it claims more than
    # the single-scan limit
    data = uniform_grey_jpeg(16000, 12000)
    photo = decode_photo(data, min_long_side=1920)
    assert photo.reduction == 8 and photo.image.shape == (1500, 2000, 3) and (photo.image == 128).all()
    assert choose_reduction(read_header(data), 0) == 2  # asked for the whole photo: 48 MP, under 50
    with pytest.raises(ImageTooLarge, match="210 megapixels"):
        decode_photo(uniform_grey_jpeg(20000, 15000))


def test_progressive_jpeg_over_the_pixel_limit_is_refused():
    # libjpeg holds every coefficient of a progressive JPEG (~3 bytes a pixel) whatever the reduction
    ok, data = cv2.imencode(".jpg", _photo_400x300(), [cv2.IMWRITE_JPEG_PROGRESSIVE, 1])
    assert ok
    with pytest.raises(ImageTooLarge, match="single-scan JPEG"):
        decode_photo(data.tobytes(), max_pixels=40_000, max_single_scan_pixels=120_000)


def test_byte_limit():
    data = encode(".png", marker_image(100, 100))
    with pytest.raises(ImageTooLarge, match="MB"):
        decode_photo(data, max_bytes=len(data) - 1)


@pytest.mark.parametrize("ext", [".jpg", ".png", ".webp"])
def test_supported_formats_decode_to_bgr(ext):
    image = marker_image(60, 90)
    decoded = decode_photo(encode(ext, image))
    assert decoded.image.shape == (60, 90, 3) and decoded.image.dtype == np.uint8
    assert decoded.header.format == {".jpg": "jpeg", ".png": "png", ".webp": "webp"}[ext]
    assert np.abs(decoded.image.astype(int) - image).mean() < 8  # lossy WebP/JPEG stay close


@pytest.mark.parametrize("orientation", range(1, 9))
def test_jpeg_exif_orientation(orientation):
    image = marker_image(60, 90)
    data = jpeg_with_orientation(image, orientation, quality=100)
    assert read_header(data).orientation == orientation
    decoded = decode_photo(data).image
    expected = NUMPY_ORIENT[orientation](image)
    assert decoded.shape == expected.shape
    assert np.abs(decoded.astype(int) - expected).mean() < 4


@pytest.mark.parametrize("orientation", [3, 6, 8])
def test_exif_orientation_with_reduced_jpeg_decoding(orientation):
    image = cv2.resize(marker_image(60, 90), (900, 600), interpolation=cv2.INTER_NEAREST)
    data = jpeg_with_orientation(image, orientation, quality=100)
    decoded = decode_photo(data, min_long_side=400)
    assert decoded.reduction == 2
    expected = NUMPY_ORIENT[orientation](cv2.resize(image, (450, 300), interpolation=cv2.INTER_AREA))
    assert decoded.image.shape == expected.shape
    assert np.abs(decoded.image.astype(int) - expected).mean() < 6


@pytest.mark.parametrize("ext, orientation", [(".png", 1), (".png", 6), (".webp", 1)])
def test_png_and_webp_are_decoded_reduced_too(ext, orientation):
    image = cv2.resize(marker_image(60, 90), (1800, 1200), interpolation=cv2.INTER_NEAREST)
    data = png_with_orientation(image, orientation) if ext == ".png" else encode(ext, image)
    decoded = decode_photo(data, min_long_side=400)
    assert decoded.reduction == 4  # 1800 / 4 = 450 is still at least 400; 1800 / 8 is not
    upright = NUMPY_ORIENT[orientation](cv2.resize(image, (450, 300), interpolation=cv2.INTER_AREA))
    assert decoded.image.shape == upright.shape
    assert np.abs(decoded.image.astype(int) - upright).mean() < 6
    assert decode_photo(data).reduction == 1 and decode_photo(data).image.shape[:2] == NUMPY_ORIENT[orientation](
        image).shape[:2]  # no reduction unless asked for


def test_our_exif_handling_agrees_with_opencv():
    image = marker_image(60, 90)
    for orientation in range(1, 9):
        data = jpeg_with_orientation(image, orientation, quality=100)
        theirs = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        assert np.array_equal(decode_photo(data).image, theirs)


def test_png_exif_orientation():
    image = marker_image(60, 90)
    decoded = decode_photo(png_with_orientation(image, 6)).image
    assert np.array_equal(decoded, NUMPY_ORIENT[6](image))


def test_apply_orientation_inverts_numpy_reference():
    image = marker_image(30, 50)
    for orientation, reference in NUMPY_ORIENT.items():
        assert np.array_equal(apply_orientation(image, orientation), reference(image))


def test_read_photo_refuses_bad_input_even_without_models():
    with pytest.raises(EmptyImage):
        vision.read_photo(b"")
    with pytest.raises(NotAnImage):
        vision.read_photo(b"just text")
    with pytest.raises(TypeError):
        vision.read_photo("photo.jpg")
