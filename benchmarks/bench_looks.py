"""How many detector looks the reader spends on each photo of a set, and what a read costs per number of looks
(issue 66 item 5: one look where one suffices).

    .venv/bin/python benchmarks/bench_looks.py [--sets phone,edje,webcam,rendered,rows] [--limit N] [--models DIR]
                                               [--all-looks]

Sets: `phone` (../shared/dev-photos/phone-singles: real 2016x1512 phone photos), `edje` (dev-photos/edje-multi:
real small phone and webcam photos of 1-5 cards), `webcam` (dev-photos/webcam-singles, the evaluation's held-out
quarter: 800x600, one card each), `rendered` (newest /work/data/synth-vN/photos/val: rendered photos
of every kind on decks no model trained on), `rows` (the same, 3/5/5 layouts only). Each photo is read once as it is
(rows mode for layouts, loose otherwise) and the looks are counted with bench_reader's counter; the figures printed
are the share of photos read in one look, the looks histogram, the median milliseconds per number of looks, and the
second reads kept (a look that changed the reading). Timings are as loaded as the machine is (load printed).
`--all-looks` reads with ReaderConfig.spare_looks off (every look the reader made before issue 66 spared some).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from bench_reader import counting_looks  # noqa: E402
from vision.evaluation.datasets import DEFAULT_DATA_ROOT, is_heldout_webcam  # noqa: E402
from vision.reader import MODELS_DIR, CardReader  # noqa: E402

DEV_PHOTOS = REPO.parent / "shared" / "dev-photos"


def newest_rendered_val(data_root: Path = DEFAULT_DATA_ROOT) -> Path | None:
    roots = sorted(data_root.glob("synth-v*/photos/val"),
                   key=lambda p: int(p.parts[-3].removeprefix("synth-v") or 0))
    return roots[-1] if roots else None


def photo_set(name: str) -> list[tuple[Path, bool]]:
    """(photo, loose) for every photo of the named set; [] when its folder is absent."""
    if name in ("phone", "edje"):
        folder = DEV_PHOTOS / ("phone-singles" if name == "phone" else "edje-multi")
        return [(p, True) for p in sorted(folder.glob("*.[jJ][pP]*[gG]"))]
    if name == "webcam":
        folder = DEV_PHOTOS / "webcam-singles"
        return [(p, True) for p in sorted(folder.glob("*.jp*g")) if is_heldout_webcam(p.name)]
    val = newest_rendered_val()
    if val is None:
        return []
    photos = []
    for label in sorted(val.glob("*.json")):
        rows = bool(json.loads(label.read_text()).get("rows"))
        if (rows or name == "rendered") and label.with_suffix(".jpg").is_file():
            photos.append((label.with_suffix(".jpg"), not rows))
    return photos


def measure(reader: CardReader, photos: list[tuple[Path, bool]]) -> tuple[Counter, dict[int, list[float]], Counter]:
    looks = counting_looks(reader)
    histogram: Counter = Counter()
    milliseconds: dict[int, list[float]] = {}
    kept: Counter = Counter()
    for path, loose in photos:
        data = path.read_bytes()
        looks.clear()
        start = time.perf_counter()
        result = reader.read(data, loose=loose)
        spent = 1000 * (time.perf_counter() - start)
        histogram[len(looks)] += 1
        milliseconds.setdefault(len(looks), []).append(spent)
        kept.update(result.kept_reads)
    return histogram, milliseconds, kept


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default="phone,webcam,edje,rendered,rows")
    parser.add_argument("--limit", type=int, default=0, help="at most this many photos per set (0: all)")
    parser.add_argument("--models", default=str(MODELS_DIR))
    parser.add_argument("--all-looks", action="store_true", help="ReaderConfig.spare_looks off")
    args = parser.parse_args()
    reader = CardReader(Path(args.models), spare_looks=not args.all_looks)
    for name in args.sets.split(","):
        photos = photo_set(name)[: args.limit or None]
        if not photos:
            print(f"{name}: no photos (folder absent)")
            continue
        reader.read(photos[0][0].read_bytes(), loose=photos[0][1])  # warm-up
        histogram, milliseconds, kept = measure(reader, photos)
        one = histogram[1] / len(photos)
        print(f"{name}: {len(photos)} photos, read in one look {one:.0%}; looks "
              + ", ".join(f"{n}: {histogram[n]}" for n in sorted(histogram)))
        for n in sorted(milliseconds):
            print(f"  {n} look(s): median {statistics.median(milliseconds[n]):.0f} ms, "
                  f"max {max(milliseconds[n]):.0f} ms over {len(milliseconds[n])} photos")
        print("  second reads kept: " + (", ".join(f"{k} {v}" for k, v in kept.most_common()) or "none"))
    print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
