"""Builds scoring/advisor_rows.npz, the advisor's opponent model, by self-play: ``python -m scoring.advisor_build``.

For each preset: deal random four-player rounds from one shuffled deck, set every hand with the advisor
(scoring.advisor.best_split), record each row's strength, and count how often one set hand scoops
another (all three rows, or 辗过 where the preset counts it).  The first pass sets hands against random
rows; each later pass against the rows of all earlier passes but the first, pooled (fictitious play:
a plain "previous pass" oscillates, the advisor over-correcting for the last table).  That pool still
carries its early passes (set against near-random rows: too few pairs in front), so ``--refine`` more
passes follow, the first against it and each next against the refinement passes so far, pooled; the
shipped table pools the refinement passes alone, so that the rows the advisor lays with it are, near
enough, the rows it expects (the reference check's opponents are this same advisor).  Seeded: the same
arguments build the same file.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Optional, Sequence

import numpy as np

from .advisor import TOTAL_OFFSET, best_split
from .advisor_model import MOST_WINNERS, ROW_NAMES, TABLE_FILE, TABLE_OF, TOTALS, OpponentModel, random_rows_model, row_model
from .row_order import LOW_FLIP
from .rules import Rules, presets, resolve_rules


def _model_from(rules: Rules, strengths: np.ndarray, scoop_rate: float, overall, source: str) -> OpponentModel:
    rows = []
    for row in range(3):
        known, counts = np.unique(strengths[:, row], return_counts=True)
        rows.append(row_model(known, counts.astype(np.float64), 3 if row == 0 else 5, rules.wheel_second,
                              rules.low_middle and row == 1))
    top, others = overall if overall is not None else (None, None)
    return OpponentModel(tuple(rows), scoop_rate, source, top, others)  # type: ignore[arg-type]


def self_play(preset: str, rounds: int, model: OpponentModel, seed: int):
    """(strengths of every set hand (4 * rounds, 3), share of ordered hand pairs where one scoops the
    other, the 11-point game's overall tables or None)."""
    rules = resolve_rules(preset)
    opponents = 1 if rules.banker_mode else 3
    generator = np.random.default_rng(seed)
    strengths = np.zeros((4 * rounds, 3), dtype=np.int64)
    for deal in range(rounds):
        deck = generator.permutation(52)
        for seat in range(4):
            _, rows, _ = best_split(deck[13 * seat:13 * seat + 13].astype(np.int64), rules, opponents, model)
            strengths[4 * deal + seat] = rows
    keys = strengths.copy()
    if rules.low_middle:
        keys[:, 1] ^= LOW_FLIP
    by_deal = keys.reshape(rounds, 4, 3)
    scoops = pairs = 0
    results = np.zeros((rounds, 4, 4), dtype=np.int64)   # rows won minus rows lost, seat against seat
    swept = np.zeros((rounds, 4, 4), dtype=bool)
    for first in range(4):
        for second in range(4):
            if first != second:
                signs = np.sign(by_deal[:, first] - by_deal[:, second])
                wins, losses = (signs > 0).sum(axis=1), (signs < 0).sum(axis=1)
                scooped = (wins == 3) | (rules.scoop_includes_no_loss & (wins > 0) & (losses == 0))
                scoops += int(scooped.sum())
                pairs += rounds
                results[:, first, second] = wins - losses
                swept[:, first, second] = wins == 3
    overall = _overall_tables(rules, results, swept) if rules.overall_bonus else None
    return strengths, scoops / pairs, overall


def _overall_tables(rules: Rules, results: np.ndarray, swept: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """[players - 2, row total + 9, winners - 1] -> share of hands at that row total that were among the
    top (``top``) or saw others top (``others``), at tables of the deals' first 2, 3 and 4 seats."""
    top = np.zeros((3, TOTALS, MOST_WINNERS))
    others = np.zeros((3, TOTALS, MOST_WINNERS))
    seen = np.zeros((3, TOTALS))
    for players in (2, 3, 4):
        table = results[:, :players, :players]
        row_totals = table.sum(axis=2)
        totals = row_totals.astype(np.float64)
        if rules.fourth_point != "none" and players >= rules.fourth_point_min_players:
            sweeps = swept[:, :players, :players]
            if rules.fourth_point == "per-scoop":
                totals = totals + sweeps.sum(axis=2) - sweeps.sum(axis=1)
            else:
                everyone = sweeps.sum(axis=2) == players - 1
                totals = totals + everyone * (players - 1) - (everyone.sum(axis=1, keepdims=True) - everyone)
        best = totals.max(axis=1, keepdims=True)
        is_top = totals == best
        winners = is_top.sum(axis=1, keepdims=True) + np.zeros_like(totals, dtype=np.int64)
        index = row_totals + TOTAL_OFFSET
        np.add.at(seen[players - 2], index.ravel(), 1)
        np.add.at(top[players - 2], (index[is_top], winners[is_top] - 1), 1)
        np.add.at(others[players - 2], (index[~is_top], winners[~is_top] - 1), 1)
    for players in range(3):
        filled = np.flatnonzero(seen[players])
        top[players, filled] /= seen[players, filled, None]
        others[players, filled] /= seen[players, filled, None]
        for total in np.flatnonzero(seen[players] == 0).tolist():   # never seen: the nearest seen total's
            source = filled[np.abs(filled - total).argmin()]
            top[players, total], others[players, total] = top[players, source], others[players, source]
    return top, others


def _pooled_model(rules: Rules, pooled: list, rates: list, tables: list, source: str) -> OpponentModel:
    overall = None if tables[0] is None else tuple(np.mean([t[i] for t in tables], axis=0) for i in range(2))
    return _model_from(rules, np.concatenate(pooled), float(np.mean(rates)), overall, source)


def build(preset_ids: Sequence[str], rounds: int, passes: int, seed: int, out: Path, refine: int = 0,
          refine_rounds: int = 0) -> None:
    arrays: dict[str, np.ndarray] = {}
    if out.is_file():   # keep the presets not rebuilt
        with np.load(out) as old:
            arrays = {key: old[key] for key in old.files if key.split("_", 1)[0] not in preset_ids}
    for preset in preset_ids:
        rules = resolve_rules(preset)
        model = random_rows_model(rules.wheel_second, rules.low_middle)
        started = time.perf_counter()
        pooled, rates, tables = [], [], []
        for number in range(passes):
            strengths, scoop_rate, overall = self_play(preset, rounds, model, seed + number)
            if number == 0 and passes > 1:   # against random rows: only a start
                model = _model_from(rules, strengths, scoop_rate, overall, "pass 1")
                continue
            pooled.append(strengths)
            rates.append(scoop_rate)
            tables.append(overall)
            model = _pooled_model(rules, pooled, rates, tables, f"passes 2-{number + 1}")
        if refine:
            pooled, rates, tables = [], [], []
        for number in range(passes, passes + refine):
            strengths, scoop_rate, overall = self_play(preset, refine_rounds or rounds, model, seed + number)
            pooled.append(strengths)
            rates.append(scoop_rate)
            tables.append(overall)
            model = _pooled_model(rules, pooled, rates, tables, f"passes {passes + 1}-{number + 1}")
        strengths = np.concatenate(pooled)
        for row, name in enumerate(ROW_NAMES):
            known, counts = np.unique(strengths[:, row], return_counts=True)
            arrays[f"{preset}_{name}_strength"] = known.astype(np.int32)
            arrays[f"{preset}_{name}_count"] = counts.astype(np.int32)
        arrays[f"{preset}_hands"] = np.array(len(strengths))
        arrays[f"{preset}_scoop_rate"] = np.array(model.scoop_rate)
        if rules.low_middle:
            arrays[f"{preset}_low_middle"] = np.array(True)
        if model.top is not None:
            arrays[f"{preset}_overall_top"] = model.top.astype(np.float32)
            arrays[f"{preset}_overall_others_top"] = model.others_top.astype(np.float32)
        print(f"{preset}: {passes} passes of {4 * rounds:,} hands and {refine} of {4 * (refine_rounds or rounds):,}, "
              f"the table pools {len(strengths):,}, scoop rate "
              f"{model.scoop_rate:.3f}, {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
        np.savez_compressed(out, **arrays)   # after each preset: a long build can be stopped


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1000, help="four-player deals a pass per preset")
    parser.add_argument("--passes", type=int, default=5)
    parser.add_argument("--refine", type=int, default=2,
                        help="passes after the fictitious play, each against the refinement passes before it; "
                             "the table pools these alone (0: the fictitious play's pool, passes 2 onwards)")
    parser.add_argument("--refine-rounds", type=int, default=2000, help="four-player deals a refinement pass")
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--presets", nargs="*", default=None,
                        help="default: every Chinese-poker preset with a table of its own (not criss-cross, which "
                             "plays 2-4's rows: scoring.advisor_model.TABLE_OF)")
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name(TABLE_FILE))
    args = parser.parse_args(argv)
    build(args.presets or sorted(set(presets()) - set(TABLE_OF)), args.rounds, args.passes, args.seed, args.out,
          args.refine, args.refine_rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
