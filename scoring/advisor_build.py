"""Builds scoring/advisor_rows.npz, the advisor's opponent model, by self-play: ``python -m scoring.advisor_build``.

For each preset: deal random four-player rounds from one shuffled deck, set every hand with the advisor
(scoring.advisor.best_split), record each row's strength, and count how often one set hand scoops
another (all three rows, or 辗过 where the preset counts it).  The first pass sets hands against random
rows; each later pass against the previous pass's table (two passes by default), so the table describes
hands set by a player who expects well-set opponents.  Seeded: the same arguments build the same file.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Optional, Sequence

import numpy as np

from .advisor import best_split
from .advisor_model import ROW_NAMES, TABLE_FILE, OpponentModel, RowModel, random_rows_model
from .rules import presets, resolve_rules


def _model_from(strengths: np.ndarray, scoop_rate: float, source: str) -> OpponentModel:
    rows = []
    for row in range(3):
        known, counts = np.unique(strengths[:, row], return_counts=True)
        rows.append(RowModel(known.astype(np.int64), counts / counts.sum()))
    return OpponentModel(tuple(rows), scoop_rate, source)  # type: ignore[arg-type]


def self_play(preset: str, rounds: int, model: OpponentModel, seed: int) -> tuple[np.ndarray, float]:
    """(strengths of every set hand (4 * rounds, 3), share of ordered hand pairs where one scoops the other)."""
    rules = resolve_rules(preset)
    opponents = 1 if rules.banker_mode else 3
    generator = np.random.default_rng(seed)
    strengths = np.zeros((4 * rounds, 3), dtype=np.int64)
    for deal in range(rounds):
        deck = generator.permutation(52)
        for seat in range(4):
            _, rows, _ = best_split(deck[13 * seat:13 * seat + 13].astype(np.int64), rules, opponents, model)
            strengths[4 * deal + seat] = rows
    by_deal = strengths.reshape(rounds, 4, 3)
    scoops = pairs = 0
    for first in range(4):
        for second in range(4):
            if first != second:
                results = np.sign(by_deal[:, first] - by_deal[:, second])
                wins, losses = (results > 0).sum(axis=1), (results < 0).sum(axis=1)
                scooped = (wins == 3) | (rules.scoop_includes_no_loss & (wins > 0) & (losses == 0))
                scoops += int(scooped.sum())
                pairs += rounds
    return strengths, scoops / pairs


def build(preset_ids: Sequence[str], rounds: int, passes: int, seed: int, out: Path) -> None:
    arrays: dict[str, np.ndarray] = {}
    for preset in preset_ids:
        rules = resolve_rules(preset)
        model = random_rows_model(rules.wheel_second)
        started = time.perf_counter()
        for number in range(passes):
            strengths, scoop_rate = self_play(preset, rounds, model, seed + number)
            model = _model_from(strengths, scoop_rate, f"pass {number + 1}")
        for row, row_model in zip(ROW_NAMES, model.rows):
            arrays[f"{preset}_{row}_strength"] = row_model.strengths.astype(np.int32)
            arrays[f"{preset}_{row}_count"] = np.round(row_model.probability * len(strengths)).astype(np.int32)
        arrays[f"{preset}_hands"] = np.array(len(strengths))
        arrays[f"{preset}_scoop_rate"] = np.array(model.scoop_rate)
        print(f"{preset}: {len(strengths):,} hands a pass, {passes} passes, scoop rate {model.scoop_rate:.3f}, "
              f"{time.perf_counter() - started:.0f} s", file=sys.stderr)
    np.savez_compressed(out, **arrays)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1500, help="four-player deals a pass per preset")
    parser.add_argument("--passes", type=int, default=2)
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--presets", nargs="*", default=None, help="default: every Chinese-poker preset")
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name(TABLE_FILE))
    args = parser.parse_args(argv)
    build(args.presets or sorted(presets()), args.rounds, args.passes, args.seed, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
