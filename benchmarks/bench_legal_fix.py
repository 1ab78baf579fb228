"""legal_fix and foul_reason speed: milliseconds per hand, one hand per call (nothing amortised).

    .venv/bin/python benchmarks/bench_legal_fix.py [--hands N] [--seed S] [--rules hk,fujian,...]

Per preset, deals N random 13-card hands laid at random (about two in three are fouled) and N laid
"biggest rank groups and high cards first" (most fouled, some needing 5-6 cards moved); times each call with
time.perf_counter (wall) and time.process_time (this process's CPU: the steadier figure on a machine
shared with other jobs) after one warm-up call per preset (the split table and odds tables are built
once per process: printed separately).  Prints the load average, median, p95 and max per hand and how
many cards the fixes moved; asserts nothing about speed.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import scoring  # noqa: E402
from scoring.cards import CODES, RANKS  # noqa: E402
from scoring.splits import split_table  # noqa: E402
from scoring.row_odds import odds_table  # noqa: E402

ROWS = ("front", "middle", "back")


def deal(rng: random.Random, grouped: bool) -> dict:
    deck = list(CODES)
    rng.shuffle(deck)
    cards = deck[:13]
    if grouped:
        groups = Counter(card[0] for card in cards)
        cards.sort(key=lambda card: (-groups[card[0]], -RANKS.index(card[0])))
    return {"front": cards[:3], "middle": cards[3:8], "back": cards[8:]}


def percentile(sorted_values: list[float], share: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(share * len(sorted_values)))]


def line(label: str, timings: list[tuple[float, float]]) -> str:
    """Wall and CPU milliseconds per hand: median, p95 (and the wall maximum)."""
    millis, cpu = sorted(t[0] for t in timings), sorted(t[1] for t in timings)
    return (f"  {label:<28} {len(millis):>5} hands  wall median {statistics.median(millis):6.3f} ms  "
            f"p95 {percentile(millis, 0.95):6.3f} ms  max {millis[-1]:6.3f} ms | CPU median "
            f"{statistics.median(cpu):6.3f} ms  p95 {percentile(cpu, 0.95):6.3f} ms")


def timed(call) -> tuple[tuple[float, float], object]:
    """((wall ms, CPU ms), result) of one call."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = call()
    return (1000 * (time.perf_counter() - wall), 1000 * (time.process_time() - cpu)), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=1000, help="hands of each kind per preset (default 1000)")
    parser.add_argument("--seed", type=int, default=68)
    parser.add_argument("--rules", default="hk,fujian,2-4,low-middle,eleven-point",
                        help="presets, comma-separated")
    args = parser.parse_args()
    print(f"legal_fix / foul_reason, {platform.python_version()} on {platform.machine()}, "
          f"{os.cpu_count()} CPUs, load average {' '.join(f'{load:.1f}' for load in os.getloadavg())}")
    start = time.perf_counter()
    split_table()
    for wheel_second in (False, True):
        odds_table(3, wheel_second), odds_table(5, wheel_second)
    print(f"  one-off tables (splits, row odds): {1000 * (time.perf_counter() - start):.0f} ms")
    for rules in args.rules.split(","):
        print(f"{rules}:")
        rng = random.Random(f"{args.seed}{rules}")
        scoring.legal_fix(deal(rng, True), rules), scoring.foul_reason(deal(rng, True), rules)   # warm-up
        for kind, grouped in (("laid at random", False), ("biggest groups first", True)):
            hands = [deal(rng, grouped) for _ in range(args.hands)]
            fix_all, fix_fouled, reasons, moved = [], [], [], Counter()
            for hand in hands:
                checked = {**hand, "natural": False}   # the row order only, as legal_fix sees it
                timing, reason = timed(lambda: scoring.foul_reason(checked, rules))
                reasons.append(timing)
                fouled = reason is not None
                timing, fixed = timed(lambda: scoring.legal_fix(hand, rules))
                fix_all.append(timing)
                if fouled:
                    fix_fouled.append(timing)
                    moved[sum(card not in hand[row] for row in ROWS for card in fixed[row])] += 1
            print(f" hands {kind}:")
            print(line("legal_fix, every hand", fix_all))
            print(line("legal_fix, fouled hands", fix_fouled))
            print(line("foul_reason, every hand", reasons))
            print(f"    cards moved by the fixes: {dict(sorted(moved.items()))}")

if __name__ == "__main__":
    main()
