"""Speed and memory of one end-to-end read of a 12-megapixel phone photo (decode → rows).

    .venv/bin/python benchmarks/bench_reader.py [--photo PATH | --rendered] [--models DIR] [--runs 20]
        [--megapixels 12] [--format jpg|png|webp] [--blur SIGMA] [--move LENGTH] [--squeeze SHARE] [--loose]

The photo (default: the first image in sample_images/) is upscaled to 4000x3000 (or to --megapixels at 4:3) and
saved as a JPEG (quality 92) like a phone would (or as a PNG / WebP); the bench prints median / p95 milliseconds, a
per-stage breakdown, the detector looks a read takes, the model file sizes and the process's peak resident memory.
`--rendered` takes a rendered phone scene instead (the first photo of the newest synth-vN/photos/val whose
3/5/5 layout, seen in perspective, shows 8 to 13 cards): a real-like phone photo. Targets (issue 66): ≤ 150 ms when
one detector look reads the photo, ≤ 300 ms otherwise; ≤ 15 MB, ≤ 500 MB.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from vision.decode import MAX_PIXELS, MAX_SINGLE_SCAN_JPEG_PIXELS  # noqa: E402
from vision.degrade import motion_blur  # noqa: E402
from vision.looks import DETECTION_SIZES, FAINT_BOX_SCORE  # noqa: E402
from vision.reader import CLASSIFIER_FILE, DETECTOR_FILE, MODELS_DIR, PARTNER_CLASSIFIER_FILE, CardReader  # noqa: E402
from vision.second_opinion import SECOND_CLASSIFIER_FILE  # noqa: E402

PHOTO_SIZE = (4000, 3000)
MOVE_ANGLE = 30.0  # degrees, as vision.evaluation.views' moved view


def default_photo() -> np.ndarray:
    for pattern in ("*.jpg", "*.png", "*.jpeg"):
        found = sorted((REPO / "sample_images").glob(pattern))
        if found:
            print(f"photo: {found[0].relative_to(REPO)}, upscaled")
            return cv2.imread(str(found[0]), cv2.IMREAD_COLOR)
    print("photo: no sample_images yet; a noisy green table is used (timing only)")
    rng = np.random.default_rng(0)
    return np.clip(rng.normal((40, 100, 40), 20, (750, 1000, 3)), 0, 255).astype(np.uint8)


def rendered_phone_scene(data_root: Path = Path("/work/data")) -> np.ndarray | None:
    """The first rendered 3/5/5 photo (newest synth-vN/photos/val) showing 8 to 13 cards, or None."""
    roots = sorted(data_root.glob("synth-v*/photos/val"), key=lambda p: int(p.parts[-3].removeprefix("synth-v") or 0))
    for label in sorted(roots[-1].glob("*.json")) if roots else []:
        truth = json.loads(label.read_text())
        shown = sum(bool(card.get("indices")) for card in truth.get("cards", []))
        if truth.get("rows") and 8 <= shown <= 13 and label.with_suffix(".jpg").is_file():
            print(f"photo: {label.with_suffix('.jpg')} (rendered 3/5/5 scene, {shown} cards), upscaled")
            return cv2.imread(str(label.with_suffix(".jpg")), cv2.IMREAD_COLOR)
    return None


def squeezed(image: np.ndarray, share: float) -> np.ndarray:
    """The picture as a steep view leaves it: its content `share` as tall, the table around it continued to the
    picture's height (0.5 is a phone tilted to about 30°)."""
    h, w = image.shape[:2]
    flat = cv2.resize(image, (w, max(1, round(h * share))), interpolation=cv2.INTER_AREA)
    top = (h - flat.shape[0]) // 2
    return cv2.copyMakeBorder(flat, top, h - flat.shape[0] - top, 0, 0, cv2.BORDER_REPLICATE)


def phone_photo(image: np.ndarray, size: tuple[int, int], blur_sigma: float = 0.0, fmt: str = "jpg",
                move_length: float = 0.0) -> bytes:
    """The image upscaled to `size` (w, h; turned to the image's orientation), maybe blurred (out of focus, or moved
    along a line at MOVE_ANGLE), encoded as `fmt`."""
    h, w = image.shape[:2]
    size = size if w >= h else size[::-1]
    big = cv2.resize(image, size, interpolation=cv2.INTER_CUBIC)
    if blur_sigma > 0:
        big = cv2.GaussianBlur(big, (0, 0), blur_sigma)
    big = motion_blur(big, move_length, MOVE_ANGLE)
    params = {"jpg": [cv2.IMWRITE_JPEG_QUALITY, 92], "png": [cv2.IMWRITE_PNG_COMPRESSION, 9],
              "webp": [cv2.IMWRITE_WEBP_QUALITY, 92]}[fmt]
    ok, data = cv2.imencode("." + fmt, big, params)
    assert ok
    return data.tobytes()


def counting_looks(reader: CardReader) -> list[tuple[int, int, int]]:
    """A list that gets (width, height, detector input side) of every picture the reader's detector is shown; each
    look is a detector run, the largest part of a read's time."""
    looks: list[tuple[int, int, int]] = []
    detect = reader.detector.detect

    def counted(image, long_side, **kwargs):
        looks.append((image.shape[1], image.shape[0], long_side))
        return detect(image, long_side, **kwargs)

    reader.detector.detect = counted
    return looks


def percentile(values: list[float], q: float) -> float:
    return float(np.percentile(values, q))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photo", help="photo to upscale to 12 MP (default: first of sample_images/)")
    parser.add_argument("--rendered", action="store_true",
                        help="a rendered phone scene (newest synth-vN/photos/val, 8-13 cards in perspective)")
    parser.add_argument("--models", default=str(MODELS_DIR))
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--loose", action="store_true")
    parser.add_argument("--detection-size", type=int, default=None, help="detector long side (default: reader's)")
    parser.add_argument("--faint-box-score", type=float, default=FAINT_BOX_SCORE,
                        help="the reader's faint-box score (0.25 or more: faint boxes off, as before session 30)")
    parser.add_argument("--blur", type=float, default=0.0, metavar="SIGMA",
                        help="blur the 12 MP photo (Gaussian sigma in its pixels) to time a read of a blurred photo, "
                             "which the reader reads twice (the second time sharpened)")
    parser.add_argument("--move", type=float, default=0.0, metavar="LENGTH",
                        help="smear the 12 MP photo along a line LENGTH pixels long (a moved camera; 60 is 1.5 %% of "
                             "its long side) to time a read the reader repeats deconvolved")
    parser.add_argument("--squeeze", type=float, default=1.0, metavar="SHARE",
                        help="squeeze the photo's content to SHARE of its height (a steep view; 0.5 ~ 30°) to time a "
                             "read the reader may repeat stretched")
    parser.add_argument("--megapixels", type=float, default=PHOTO_SIZE[0] * PHOTO_SIZE[1] / 1e6,
                        help="photo size at 4:3 (default 12: 4000x3000)")
    parser.add_argument("--format", choices=("jpg", "png", "webp"), default="jpg", help="how the photo is encoded")
    parser.add_argument("--save", metavar="PATH", help="write the photo made here to PATH and stop (making a large "
                                                      "photo raises this process's peak memory: time it with --as-is)")
    parser.add_argument("--as-is", action="store_true", help="read --photo's bytes unchanged (no upscaling)")
    args = parser.parse_args()
    if args.as_is and not args.photo:
        parser.error("--as-is needs --photo")
    if not 0 < args.squeeze <= 1:
        parser.error(f"--squeeze takes a share in (0, 1], got {args.squeeze}")
    limit = (MAX_SINGLE_SCAN_JPEG_PIXELS if args.format == "jpg" else MAX_PIXELS) / 1e6
    if not 0.1 <= args.megapixels <= limit:
        parser.error(f"--megapixels takes 0.1 to {limit:.0f} for a {args.format} (the reader's limit), "
                     f"got {args.megapixels}")
    width = round((args.megapixels * 1e6 * 4 / 3) ** 0.5)
    size = (width, round(width * 3 / 4))

    if args.as_is:
        data = Path(args.photo).read_bytes()
        print(f"photo: {args.photo} as it is, {len(data) / 1e6:.1f} MB")
    else:
        image = (cv2.imread(args.photo, cv2.IMREAD_COLOR) if args.photo
                 else rendered_phone_scene() if args.rendered else default_photo())
        if image is None:
            parser.error("no rendered scene found (bash scripts/eval_data.sh makes synth-v5)")
        if args.squeeze < 1:
            image = squeezed(image, args.squeeze)
        data = phone_photo(image, size, args.blur, args.format, args.move)
        del image
        print(f"{args.format.upper()}: {len(data) / 1e6:.1f} MB, {size[0]}x{size[1]} "
              f"({size[0] * size[1] / 1e6:.0f} MP)")
        if args.save:
            Path(args.save).write_bytes(data)
            print(f"saved to {args.save}")
            return
    models = Path(args.models)
    shipped = [n for n in (DETECTOR_FILE, CLASSIFIER_FILE, PARTNER_CLASSIFIER_FILE, SECOND_CLASSIFIER_FILE)
               if (models / n).is_file()]
    for name in shipped:
        print(f"model {name}: {(models / name).stat().st_size / 1e6:.2f} MB")
    total_mb = sum((models / n).stat().st_size for n in shipped) / 1e6
    print(f"models together: {total_mb:.2f} MB (target ≤ 15 MB)")

    start = time.perf_counter()
    sizes = DETECTION_SIZES if args.detection_size is None else (args.detection_size,) + tuple(
        s for s in DETECTION_SIZES if s < args.detection_size)
    reader = CardReader(models, detection_sizes=sizes, faint_box_score=args.faint_box_score)
    print(f"model load: {1000 * (time.perf_counter() - start):.0f} ms")
    looks = counting_looks(reader)
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    for _ in range(2):  # warm-up
        result = reader.read(data, loose=args.loose)
    totals, stages = [], {}
    for _ in range(args.runs):
        looks.clear()
        start = time.perf_counter()
        result = reader.read(data, loose=args.loose)
        totals.append(1000 * (time.perf_counter() - start))
        for stage, ms in result.timings_ms.items():
            stages.setdefault(stage, []).append(ms)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"cards found: {len(result.cards)}, detection size {result.detection_size}, warnings: {result.warnings}")
    print(f"detector looks in a read: {len(looks)} (" + ", ".join(f"{w}x{h} at {side}" for w, h, side in looks) + ")")
    target = 150 if len(looks) == 1 else 300
    print(f"end to end over {args.runs} runs: median {statistics.median(totals):.0f} ms, "
          f"p95 {percentile(totals, 95):.0f} ms, fastest {min(totals):.0f} ms, {len(looks)} look(s) "
          f"(target ≤ {target} ms with {'one look' if len(looks) == 1 else 'more looks'})")
    for stage, values in stages.items():
        print(f"  {stage:<14} median {statistics.median(values):6.1f} ms, fastest {min(values):6.1f} ms")
    print(f"load average while measuring: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores "
          "(other jobs slow every figure down)")
    print(f"peak RSS: {peak:.0f} MB (after model load {rss_before:.0f} MB; target ≤ 500 MB)")


if __name__ == "__main__":
    main()
