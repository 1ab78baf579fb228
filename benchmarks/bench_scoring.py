"""Scoring speed: 5-card rows evaluated per second (batch and one by one, beside treys on the same
rows) and 4-player rounds settled per second (one at a time with and without the audit, and in bulk
with scoring.settle_many); Big Two hands (one winner, three losers with 1-13 cards left) settled per
second under each Big Two preset.

    .venv/bin/python benchmarks/bench_scoring.py [--rows N] [--rounds N] [--repeat K]

Prints figures only (best of K runs; wall clock and this process's CPU time); it asserts nothing
about speed.  Hands for the rounds are dealt at random and arranged legally before timing starts.
"""

from __future__ import annotations

import argparse
import itertools
import os
import platform
import sys
import time
from pathlib import Path
from typing import Callable

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import scoring  # noqa: E402
from scoring.cards import CODES  # noqa: E402
from scoring.evaluate import evaluate_five, evaluate_five_batch, five_card_array, five_card_tables  # noqa: E402

FIVE_OF_13 = np.array(list(itertools.combinations(range(13), 5)))
FIVE_OF_8 = np.array(list(itertools.combinations(range(8), 5)))
NAMES = ("Ann", "Bob", "Cy", "Dee")


def best_rate(count: int, run: Callable[[], object], repeat: int) -> tuple[float, float]:
    """(items per wall second, items per CPU second), best of ``repeat`` runs."""
    wall, cpu = [], []
    for _ in range(repeat):
        start_wall, start_cpu = time.perf_counter(), time.process_time()
        run()
        wall.append(time.perf_counter() - start_wall)
        cpu.append(time.process_time() - start_cpu)
    return count / min(wall), count / max(min(cpu), 1e-9)


def legal_arrangement(cards: np.ndarray) -> str:
    """Best five at the back, best five of the rest in the middle: always a legal hand."""
    back = FIVE_OF_13[int(np.argmax(evaluate_five_batch(cards[FIVE_OF_13])))]
    rest = np.delete(cards, back)
    middle = FIVE_OF_8[int(np.argmax(evaluate_five_batch(rest[FIVE_OF_8])))]
    front = np.delete(rest, middle)
    rows = (front, rest[middle], cards[back])
    return " / ".join(" ".join(CODES[card] for card in row) for row in rows)


def random_rounds(count: int, seed: int) -> list[dict]:
    rng = np.random.default_rng(seed)
    rounds = []
    for _ in range(count):
        deck = rng.permutation(52)
        rounds.append({name: legal_arrangement(deck[i * 13:(i + 1) * 13]) for i, name in enumerate(NAMES)})
    return rounds


def bench_rows(count: int, repeat: int) -> None:
    rng = np.random.default_rng(1)
    rows = np.argsort(rng.random((count, 52)), axis=1)[:, :5].astype(np.int8)
    five_card_array(), five_card_tables()   # build the tables before timing
    wall, cpu = best_rate(count, lambda: evaluate_five_batch(rows), repeat)
    print(f"rows, numpy batch        {wall:>12,.0f} rows/s   (CPU {cpu:,.0f}/s, {count:,} random 5-card rows)")
    sample = rows[:min(count, 200_000)].tolist()
    wall, cpu = best_rate(len(sample), lambda: [evaluate_five(row) for row in sample], repeat)
    print(f"rows, one at a time      {wall:>12,.0f} rows/s   (CPU {cpu:,.0f}/s, {len(sample):,} rows)")
    try:
        import treys
    except ImportError:
        print("treys not installed: pip install treys to compare")
        return
    evaluator = treys.Evaluator()
    treys_cards = [[treys.Card.new(CODES[card][0] + CODES[card][1].lower()) for card in row] for row in sample]
    wall, cpu = best_rate(len(sample), lambda: [evaluator.evaluate(row[:2], row[2:]) for row in treys_cards],
                          repeat)
    print(f"rows, treys one at a time{wall:>12,.0f} rows/s   (CPU {cpu:,.0f}/s, same {len(sample):,} rows)")
    ours = evaluate_five_batch(rows[:len(sample)])
    theirs = np.array([evaluator.evaluate(row[:2], row[2:]) for row in treys_cards[:20_000]])
    agree = np.all(np.sign(np.diff(ours[:20_000].astype(np.int64))) == -np.sign(np.diff(theirs)))
    print(f"rows, order agrees with treys on 20,000 rows: {bool(agree)}")


def _settle_all(rounds: list[dict], audit: bool) -> None:
    for round_ in rounds:   # results are dropped, as a server would after sending them
        scoring.settle(round_, audit=audit)


def machine_yardstick() -> float:
    """Millions of Python dict look-ups per second right now: compare runs taken under different load."""
    table = {i: i for i in range(100)}
    keys = list(range(100)) * 1000
    start = time.process_time()
    for _ in range(5):
        for key in keys:
            table[key]
    return 5 * len(keys) / (time.process_time() - start) / 1e6


def bench_rounds(count: int, repeat: int, presets: list[str]) -> None:
    deals = random_rounds(count, seed=2)
    for preset in presets:
        banker = {"banker": "Ann"} if scoring.list_presets()[preset]["options"]["mode"]["default"] == "banker" else {}
        rounds = [{"rules": preset, "players": deal, **banker} for deal in deals]
        for round_ in rounds[:50]:
            scoring.settle(round_)   # warm the caches (rules, hand names)
        wall, cpu = best_rate(count, lambda: _settle_all(rounds, True), repeat)
        print(f"rounds, {preset:<13} full audit  {wall:>9,.0f} rounds/s   (CPU {cpu:,.0f}/s)")
        wall, cpu = best_rate(count, lambda: _settle_all(rounds, False), repeat)
        print(f"rounds, {preset:<13} numbers only{wall:>9,.0f} rounds/s   (CPU {cpu:,.0f}/s)")
        same = scoring.settle_many(rounds) == [scoring.settle(round_, audit=False) for round_ in rounds]
        wall, cpu = best_rate(count, lambda: scoring.settle_many(rounds), repeat)
        print(f"rounds, {preset:<13} settle_many {wall:>9,.0f} rounds/s   (CPU {cpu:,.0f}/s, "
              f"{count:,} rounds per call; equals settle(audit=False): {same})")


def random_bigtwo_hands(count: int, seed: int) -> list[dict[str, str]]:
    """One winner with no cards, three losers holding 1-13 cards each of one dealt deck."""
    rng = np.random.default_rng(seed)
    hands = []
    for _ in range(count):
        deck = rng.permutation(52)
        winner = NAMES[int(rng.integers(len(NAMES)))]
        hand = {}
        for i, name in enumerate(NAMES):
            left = 0 if name == winner else int(rng.integers(1, 14))
            hand[name] = " ".join(CODES[card] for card in deck[i * 13:i * 13 + left])
        hands.append(hand)
    return hands


def bench_bigtwo(count: int, repeat: int) -> None:
    deals = random_bigtwo_hands(count, seed=3)
    presets = [name for name, preset in scoring.list_presets().items()
               if preset.get("game") == "bigtwo" and name != "bigtwo-rank"]
    for preset in presets:
        rounds = [{"game": "bigtwo", "rules": preset, "players": deal} for deal in deals]
        for round_ in rounds[:50]:
            scoring.settle(round_)
        wall, cpu = best_rate(count, lambda: _settle_all(rounds, True), repeat)
        print(f"big two, {preset:<13} full audit  {wall:>8,.0f} hands/s   (CPU {cpu:,.0f}/s)")
        wall, cpu = best_rate(count, lambda: _settle_all(rounds, False), repeat)
        print(f"big two, {preset:<13} numbers only{wall:>8,.0f} hands/s   (CPU {cpu:,.0f}/s)")
    order = [{"game": "bigtwo", "rules": "bigtwo-rank", "players": list(NAMES),
              "order": list(np.random.default_rng(i).permutation(NAMES))} for i in range(count)]
    wall, cpu = best_rate(count, lambda: _settle_all(order, True), repeat)
    print(f"big two, {'bigtwo-rank':<13} full audit  {wall:>8,.0f} hands/s   (CPU {cpu:,.0f}/s, finishing order)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=5_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--presets", default="taiwan,fujian,hk,2-4,1-6,points,taiwan-banker")
    args = parser.parse_args()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"python {platform.python_version()}, numpy {np.__version__}, {os.cpu_count()} CPUs, "
          f"load average {load:.1f} at start")
    print(f"yardstick: {machine_yardstick():.1f} M dict look-ups per CPU second")
    bench_rows(args.rows, args.repeat)
    bench_rounds(args.rounds, args.repeat, args.presets.split(","))
    bench_bigtwo(args.rounds, args.repeat)
    print(f"yardstick: {machine_yardstick():.1f} M dict look-ups per CPU second; "
          f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
