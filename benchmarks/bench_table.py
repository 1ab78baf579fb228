"""Speed of one end-to-end read of a 12-megapixel whole-table photo (decode → every hand in its seat, with rows).

    .venv/bin/python benchmarks/bench_table.py [--photo PATH] [--runs 10] [--loose]

The photo (default: tests/vision/data/table_four_hands.jpg, four hands) is upscaled to 4000 × 3000 unless it is that
large already, and saved as a JPEG (quality 92) like a phone would; the bench prints median / p95 milliseconds of
`vision.table` end to end and of its grouping and closer looks (the rest is the loose read), and the process's peak
resident memory. Target (issue 67): ≤ 1 s on 2 cores. The single-hand figure is benchmarks/bench_reader.py's.
"""
from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from pathlib import Path

import cv2

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from vision.decode import check_limits  # noqa: E402
from vision.reader import CardReader  # noqa: E402
from vision.table import photo_size, table_of  # noqa: E402
from vision.table_closer import closer_looks  # noqa: E402

PHOTO_SIZE = (4000, 3000)
DEFAULT_PHOTO = REPO / "tests" / "vision" / "data" / "table_four_hands.jpg"


def twelve_megapixels(path: Path) -> bytes:
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    h, w = image.shape[:2]
    size = PHOTO_SIZE if w >= h else PHOTO_SIZE[::-1]
    if (w, h) != size:
        image = cv2.resize(image, size, interpolation=cv2.INTER_CUBIC)
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    assert ok
    return data.tobytes()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--photo", type=Path, default=DEFAULT_PHOTO)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--loose", action="store_true", help="Big Two: each seat's cards without rows")
    args = parser.parse_args()
    data = twelve_megapixels(args.photo)
    reader = CardReader()
    reader.warm_up()
    whole, grouping, cpu = [], [], []
    table = {}
    for _ in range(args.runs + 1):  # the first run warms the caches up and is not counted
        start, cpu_start = time.perf_counter(), time.process_time()
        size = photo_size(check_limits(data))
        read = reader.read(data, loose=True)
        grouped = time.perf_counter()
        table = table_of(read, size, loose=args.loose)
        table = closer_looks(reader, data, table, args.loose)  # as vision.table.table_read
        end = time.perf_counter()
        whole.append((end - start) * 1000)
        grouping.append((end - grouped) * 1000)
        cpu.append((time.process_time() - cpu_start) * 1000)
    whole, grouping, cpu = whole[1:], grouping[1:], cpu[1:]
    p95 = sorted(whole)[min(len(whole) - 1, round(0.95 * (len(whole) - 1)))]
    print(f"photo: {args.photo.name} as {PHOTO_SIZE[0]}x{PHOTO_SIZE[1]} JPEG ({len(data) / 1e6:.1f} MB); "
          f"hands {[(hand['seat'], len(hand['cards'])) for hand in table['hands']]}")
    print(f"12 MP table photo, every hand in its seat: {statistics.median(whole):.0f} ms median "
          f"(p95 {p95:.0f}) over {len(whole)} runs; grouping and closer looks {statistics.median(grouping):.1f} ms; "
          f"target 1000 ms")
    print(f"CPU time per read {statistics.median(cpu):.0f} ms (both cores together: wall time on a busy machine "
          "overstates)")
    print(f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
