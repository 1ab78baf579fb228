"""Hostile images (issue 64): every malformed, bomb or odd image of the seeded corpus (tests/adversaries/images.py)
gets a typed one-line `ImageError` or a reading, never another exception, within a memory bound; each of the issue's
numbered repros (2, 3, 10) explicitly."""
from __future__ import annotations

import json
import math
import struct
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

import cv2
import numpy as np
import pytest
import simplejpeg

import vision
from vision.decode import MAX_PIXELS, decode_photo
from vision.errors import (CorruptImage, EmptyImage, ExtremeShape, ImageError, ImageTooLarge, NotAnImage,
                           UnsupportedImage)
from vision.imageheader import read_header
from vision.motion import motion_line
from vision.reader_config import CROP_SOURCE_LONG_SIDE

from adversaries.images import (CLASSES, EXTREME_SHAPES, PNG_SIGNATURE, chunk_length_bomb, encoded, make_bases,
                                malformed_images, padded_jpeg, png_chunk, scan_data_start, table_picture)

REPO = Path(__file__).resolve().parents[2]
SEED, COUNT = 64, 1120  # 80 of each of the 14 classes
# Peak resident memory a hostile image may add to the process that checks and decodes it (docs/reader.md, hostile
# images); measured 0-1 MB for every class (a 2 GB allocation before issue 64's fix).
HOSTILE_MEMORY_BOUND_MB = 32
DECODED = "decoded"
# What each class may come to: refused with one of these errors, or DECODED (a sound image, or damage no decoder
# can see). Refused classes are refused by the structure and header checks alone, before any decoder runs.
OUTCOMES: dict[str, set] = {
    "truncated-jpeg": {CorruptImage, NotAnImage},  # NotAnImage: cut inside the 3-byte signature
    "truncated-png": {CorruptImage, NotAnImage},
    "truncated-webp": {CorruptImage, NotAnImage},
    "padded-jpeg": {CorruptImage},
    "mutated-jpeg": {CorruptImage, NotAnImage, UnsupportedImage, ImageTooLarge, ExtremeShape, DECODED},
    "mutated-png": {CorruptImage, NotAnImage, UnsupportedImage},  # every chunk has a CRC
    "mutated-webp": {CorruptImage, NotAnImage, UnsupportedImage, ImageTooLarge, ExtremeShape, DECODED},
    "wrong-format": {NotAnImage, UnsupportedImage, EmptyImage},
    "header-bomb": {ImageTooLarge},
    "chunk-length-bomb": {CorruptImage},
    "extreme-aspect": {ExtremeShape},
    "odd-exif": {DECODED},
    "odd-pixels": {DECODED},
    "unsupported-jpeg": {UnsupportedImage, CorruptImage},
}
REFUSED_BEFORE_DECODING = {"truncated-jpeg", "truncated-png", "truncated-webp", "wrong-format", "header-bomb",
                           "chunk-length-bomb", "extreme-aspect", "unsupported-jpeg"}


@pytest.fixture(scope="module")
def corpus() -> list[tuple[str, bytes]]:
    return list(malformed_images(SEED, COUNT))


def outcome(data: bytes) -> tuple[object, object]:
    """(DECODED, the photo) or (the error's class, the error), as the reader decodes it."""
    try:
        return DECODED, decode_photo(data, min_long_side=CROP_SOURCE_LONG_SIDE)
    except ImageError as err:
        return type(err), err


def test_the_corpus_has_a_thousand_images_of_every_class_and_is_seeded(corpus):
    counts = Counter(name for name, _ in corpus)
    assert len(corpus) >= 1000 and set(counts) == set(CLASSES) and min(counts.values()) >= 70
    again = list(malformed_images(SEED, 60))
    assert again == corpus[:60]
    assert [data for _, data in malformed_images(SEED + 1, 60)] != [data for _, data in again]


def test_every_image_is_refused_with_a_typed_one_line_error_or_decoded(corpus):
    outcomes: dict[str, Counter] = defaultdict(Counter)
    for name, data in corpus:
        kind, result = outcome(data)  # anything but an ImageError fails the test here
        outcomes[name][kind if kind == DECODED else kind.__name__] += 1
        assert kind in OUTCOMES[name], (name, kind, result)
        if kind == DECODED:
            header = result.header
            stored = result.image.shape[:2] if header.orientation < 5 else result.image.shape[1::-1]
            assert stored == (math.ceil(header.height / result.reduction), math.ceil(header.width / result.reduction))
        else:
            message = str(result)
            assert message and "\n" not in message and len(message) < 240, message
    print("\ncorpus outcomes:", json.dumps(outcomes, sort_keys=True))


def test_refused_classes_are_refused_before_any_decoder_sees_them(corpus, monkeypatch):
    def no_decoding(*args, **kwargs):
        raise AssertionError("a decoder saw an image the checks should have refused")

    monkeypatch.setattr(cv2, "imdecode", no_decoding)
    monkeypatch.setattr(simplejpeg, "decode_jpeg", no_decoding)
    for name, data in corpus:
        if name in REFUSED_BEFORE_DECODING:
            with pytest.raises(ImageError):
                decode_photo(data, min_long_side=CROP_SOURCE_LONG_SIDE)


def _memory_kb(field: str) -> int:
    """VmRSS (resident now) or VmHWM (the peak since the last reset) of this process, in kB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise LookupError(field)


def _peak_growth_mb(action) -> float:
    """How far the process's resident memory rose above where it stood while `action` ran (Linux: the peak is
    reset through /proc/self/clear_refs first, so earlier peaks hide nothing)."""
    Path("/proc/self/clear_refs").write_text("5")
    before = _memory_kb("VmRSS")
    action()
    return (_memory_kb("VmHWM") - before) / 1024


def _decode_or_refuse(data: bytes) -> None:
    try:
        decode_photo(data, min_long_side=CROP_SOURCE_LONG_SIDE)
    except ImageError:
        pass


@pytest.mark.skipif(not Path("/proc/self/clear_refs").exists(), reason="needs Linux's resettable peak memory")
def test_bombs_and_damaged_images_stay_within_the_memory_bound(corpus):
    bases = make_bases(np.random.default_rng(0))
    for data in (*bases.jpegs, *bases.pngs, *bases.webps):  # the decoders' first use costs them their tables
        decode_photo(data)
    assert _peak_growth_mb(lambda: np.ones(64 << 20, np.uint8)) >= 60  # the measure sees 64 MB touched
    growth: dict[str, float] = defaultdict(float)
    for name, data in corpus:
        if name not in ("odd-pixels", "odd-exif"):  # sound images: their decode is their size's
            growth[name] = max(growth[name], _peak_growth_mb(lambda data=data: _decode_or_refuse(data)))
    print("\nlargest peak RSS growth (MB) of one image, by class:", {k: round(v, 1) for k, v in growth.items()})
    assert max(growth.values()) <= HOSTILE_MEMORY_BOUND_MB


def test_read_photo_answers_a_sample_with_a_reading_or_a_typed_error(corpus, real_models):
    """The whole reader on the valid-but-odd images (grey, CMYK, 16-bit, alpha, palette, tiny, 10 : 1, odd EXIF) and
    some of the rest: a reading or an ImageError, never another exception."""
    picked: dict[bytes, str] = {}
    for name, data in corpus:
        wanted = {"odd-pixels": 40, "odd-exif": 8, "mutated-jpeg": 4, "mutated-webp": 4, "extreme-aspect": 3,
                  "chunk-length-bomb": 2, "padded-jpeg": 2}.get(name, 0)
        if sum(1 for kind in picked.values() if kind == name) < wanted:
            picked.setdefault(data, name)
    read = Counter()
    for data, name in picked.items():
        try:
            reading = vision.read_photo(data)
        except ImageError as err:
            assert "\n" not in str(err) and name not in ("odd-pixels", "odd-exif"), (name, err)
            read[name, "refused"] += 1
        else:
            assert isinstance(reading["cards"], list) and isinstance(reading["warnings"], list)
            read[name, "read"] += 1
    odd_kinds = len({data for name, data in corpus if name == "odd-pixels"})
    assert read["odd-pixels", "read"] == odd_kinds >= 30 and read["odd-exif", "read"] == 8


# --- issue 64, item 2: a 56-byte PNG made OpenCV allocate 2 GB ----------------------------------------------------

def test_the_56_byte_png_whose_text_chunk_claims_2_gb_is_refused_unread():
    data = chunk_length_bomb(np.random.default_rng(0), make_bases(np.random.default_rng(0)), 0)
    assert len(data) == 56 and struct.unpack_from(">I", data, 33) == (0x7FFFFFFF,)
    with pytest.raises(CorruptImage, match="tEXt chunk claims 2147483647 bytes"):
        vision.read_photo(data)


def test_every_png_chunk_is_checked_against_the_file_and_its_crc():
    png = encoded(".png", table_picture(np.random.default_rng(1)))
    end = png.rfind(b"IEND") - 4
    with pytest.raises(CorruptImage, match="IDAT chunk claims"):
        read_header(png[:33] + struct.pack(">I", len(png)) + png[37:])
    damaged = bytearray(png)
    damaged[60] ^= 0x01  # inside the image data
    with pytest.raises(CorruptImage, match="checksum"):
        read_header(bytes(damaged))
    with pytest.raises(CorruptImage, match="IHDR"):
        read_header(PNG_SIGNATURE + png_chunk(b"tEXt", b"k\x00v") + png[8:])
    with pytest.raises(CorruptImage, match="IEND"):
        read_header(png[:end])
    assert read_header(png + b"after the end").width == 128  # bytes after IEND are not read by any decoder


def test_the_structure_walks_are_bounded_in_steps():
    bases = make_bases(np.random.default_rng(2))
    jpeg, png = bases.jpegs[0], bases.pngs[0]
    with pytest.raises(CorruptImage, match="more than 1000 segments"):
        read_header(jpeg[:2] + b"\xff\xfe\x00\x02" * 5000 + jpeg[2:])
    with pytest.raises(CorruptImage, match="more than 20000 chunks"):
        read_header(png[:33] + png_chunk(b"tEXt", b"k\x00v") * 20_001 + png[33:])
    sos = bases.jpegs[1].find(b"\xff\xda")
    scan = bases.jpegs[1][sos:scan_data_start(bases.jpegs[1])] + b"\x00" * 4
    with pytest.raises(CorruptImage, match="more than 100 scans"):
        read_header(bases.jpegs[1][:sos] + scan * 101 + b"\xff\xd9")
    # a million fill bytes before a marker are legal, and skipped in one step
    assert decode_photo(jpeg[:2] + b"\xff" * 1_000_000 + jpeg[2:]).image.shape == (96, 128, 3)


# --- issue 64, item 3: extreme aspect ratios escaped as cv2.error (500) or were called damaged ----------------

@pytest.mark.parametrize("width, height", EXTREME_SHAPES[:5])
@pytest.mark.parametrize("ext", [".jpg", ".png", ".webp"])
def test_extreme_shapes_are_refused_as_not_a_photo_of_cards(width, height, ext):
    if ext == ".webp" and max(width, height) > 16383:
        width, height = (max(1, width * 16383 // max(width, height)), max(1, height * 16383 // max(width, height)))
    data = encoded(ext, np.full((height, width, 3), 90, np.uint8))
    with pytest.raises(ExtremeShape, match="photo of cards") as err:
        vision.read_photo(data)
    assert not isinstance(err.value, CorruptImage) and f"{width}x{height}" in str(err.value)


def test_shapes_up_to_ten_to_one_are_read():
    for width, height in [(640, 64), (64, 640), (1, 1)]:
        assert decode_photo(encoded(".png", np.full((height, width, 3), 90, np.uint8))).image.shape == (height, width,
                                                                                                         3)


@pytest.mark.parametrize("height, width", [(1, 40000), (1000, 1), (8000, 2), (16000, 16), (3, 5000)])
def test_motion_line_measures_no_line_on_pictures_too_thin_to_shrink(height, width):
    assert motion_line(np.full((height, width), 90, np.uint8)) is None


# --- issue 64, item 10: damaged images were accepted and stored ------------------------------------------------

def test_mutated_jpegs_are_refused_by_the_strict_decode_where_opencv_accepts_them():
    bases = make_bases(np.random.default_rng(10))
    rng = np.random.default_rng(11)
    opencv_accepts = refused = 0
    for _ in range(96):
        damaged = bytearray(bases.jpegs[0])
        for _ in range(int(rng.integers(1, 9))):
            damaged[int(rng.integers(4, len(damaged)))] = int(rng.integers(0, 256))
        data = bytes(damaged)
        opencv_accepts += cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR) is not None
        kind, _ = outcome(data)
        refused += kind != DECODED
    # the server stored 80 of 96; libjpeg decodes them all, its warnings now errors
    assert opencv_accepts >= 80 and refused >= 60, (opencv_accepts, refused)


def test_a_jpeg_cut_short_padded_with_random_bytes_and_an_end_marker_is_refused():
    bases = make_bases(np.random.default_rng(12))
    rng = np.random.default_rng(13)
    for k in range(30):
        with pytest.raises(CorruptImage):
            decode_photo(padded_jpeg(rng, bases, k))
    # the same without the structure's help: padding free of 0xFF bytes reaches libjpeg, whose warning refuses it
    jpeg = bases.jpegs[0]
    cut = (scan_data_start(jpeg) + len(jpeg)) // 2
    data = jpeg[:cut] + rng.integers(0, 255, 400, dtype=np.uint8).tobytes() + b"\xff\xd9"
    assert read_header(data).width == 128 and cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR) is not None
    with pytest.raises(CorruptImage, match="Corrupt JPEG data"):
        decode_photo(data)


def test_an_arithmetic_coded_frame_over_huffman_data_is_refused_as_such():
    jpeg = make_bases(np.random.default_rng(14)).jpegs[0]
    sof = jpeg.find(b"\xff\xc0")
    with pytest.raises(UnsupportedImage, match="arithmetic-coded"):
        vision.read_photo(jpeg[:sof + 1] + b"\xc9" + jpeg[sof + 2:])


def test_webp_sizes_are_checked_against_the_file():
    webp = make_bases(np.random.default_rng(15)).webps[0]
    with pytest.raises(CorruptImage, match="RIFF size"):
        read_header(webp + b"\x00\x00")
    with pytest.raises(CorruptImage, match="past the end"):
        read_header(webp[:16] + struct.pack("<I", len(webp)) + webp[20:])
    with pytest.raises(CorruptImage, match="VP8 frame"):
        read_header(webp[:23] + b"\x00\x00\x00" + webp[26:])  # no start code


# --- the strict decode changes no pixel ----------------------------------------------------------------------

@pytest.mark.parametrize("params", [[], [cv2.IMWRITE_JPEG_PROGRESSIVE, 1], [cv2.IMWRITE_JPEG_RST_INTERVAL, 3],
                                    [cv2.IMWRITE_JPEG_SAMPLING_FACTOR, cv2.IMWRITE_JPEG_SAMPLING_FACTOR_444], "grey"])
def test_jpegs_decode_to_opencvs_pixels_at_every_reduction(params):
    picture = cv2.resize(table_picture(np.random.default_rng(16)), (333, 250))
    data = encoded(".jpg", cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY)) if params == "grey" else encoded(
        ".jpg", picture, params)
    flags = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4,
             8: cv2.IMREAD_REDUCED_COLOR_8}
    for min_long_side, reduction in ((0, 1), (160, 2), (80, 4), (40, 8)):
        photo = decode_photo(data, min_long_side=min_long_side)
        assert photo.reduction == reduction
        theirs = cv2.imdecode(np.frombuffer(data, np.uint8), flags[reduction] | cv2.IMREAD_IGNORE_ORIENTATION)
        assert np.array_equal(photo.image, theirs)


def test_cmyk_jpegs_decode_to_opencvs_colours():
    picture = table_picture(np.random.default_rng(17))
    inks = np.dstack([255 - picture[..., ::-1], np.full(picture.shape[:2], 60, np.uint8)])
    data = simplejpeg.encode_jpeg(np.ascontiguousarray(inks), colorspace="CMYK")
    assert read_header(data).components == 4
    theirs = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    assert np.array_equal(decode_photo(data).image, theirs)


@pytest.mark.parametrize("first_import", ["vision", "webapp.webcam"])  # the reader's, and the web app's first cv2
def test_opencvs_own_pixel_bound_is_set_before_it_loads(first_import):
    # a PNG header claiming 7100 x 7100 (50.4 MP): OpenCV refuses it itself once vision has set its bound
    ihdr = png_chunk(b"IHDR", struct.pack(">IIBBBBB", 7100, 7100, 8, 0, 0, 0, 0))
    data = PNG_SIGNATURE + ihdr + png_chunk(b"IDAT", b"x") + png_chunk(b"IEND", b"")
    script = (f"import {first_import}, os, cv2, numpy as np\n"
              f"assert os.environ['OPENCV_IO_MAX_IMAGE_PIXELS'] == '{MAX_PIXELS}'\n"
              f"try:\n    cv2.imdecode(np.frombuffer({data!r}, np.uint8), cv2.IMREAD_COLOR)\n"
              "except cv2.error as err:\n    print('refused' if 'CV_IO_MAX_IMAGE_PIXELS' in str(err) else err)\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=REPO, timeout=60,
                            env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"})
    assert result.stdout.strip() == "refused", result.stderr[-1000:]
