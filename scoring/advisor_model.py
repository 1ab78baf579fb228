"""The advisor's opponent: how strong each row of a well-set hand is, per preset (scoring/advisor_rows.npz).

For every preset the file holds, per row, the strengths of the rows that the advisor itself laid on
random hands (self-play, ``python -m scoring.advisor_build``) and how often each came up, plus how
often one such hand scooped another (and, for the 11-point game, how the round's overall winner fell
by a player's row total).  A preset without a table plays against random rows (every C(52, 5) or
C(52, 3) row equally likely), the model the first self-play pass starts from.

Card removal: the opponents' cards come from the 39 the player does not hold, so each row strength's
chance is reweighted, per hand, by the chance that a row of that strength avoids the player's cards:
for a row holding m cards of rank r when the player holds k of them, C(4 - k, m) / C(4, m), multiplied
over the row's ranks; for a flush, the share of the four suits in which the player holds none of its
ranks (Bayes' rule, suits taken as uniform within a strength).  From the reweighted table a row of
comparison key x gets its chances against an opponent's row: win (lower key), tie, lose, and the
opponent's expected row points when they win it.  Keys are the strengths, except a deuce-to-seven
middle's, which are flipped (scoring.row_order) so that the higher key always wins.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from math import comb
from typing import Optional

import numpy as np

from .row_odds import _counts_by_strength, rank_shapes
from .row_order import LOW_FLIP
from .rules import Rules

TABLE_FILE = "advisor_rows.npz"
ROW_NAMES = ("front", "middle", "back")
# Presets whose hands are set exactly as another's (the same rows, points and bonuses): criss cross is
# 2-4 with two sets each, and without home runs a set is played as a 2-4 hand.
TABLE_OF = {"criss-cross": "2-4"}
TOTALS = 19          # a player's row total against three opponents: -9 .. 9
MOST_WINNERS = 4


@dataclass(frozen=True, eq=False)
class RowModel:
    """One row's opponent distribution, ascending by comparison key, with what card removal needs."""

    keys: np.ndarray          # int64 comparison keys, ascending (higher wins the row)
    probability: np.ndarray   # float64, sums to 1
    strengths: np.ndarray     # int64 strengths (row values and ranks read these)
    rank_ids: np.ndarray = field(repr=False)    # (n, 5) rank index of each distinct rank held (0 padded)
    rank_counts: np.ndarray = field(repr=False)  # (n, 5) how many cards of that rank (0 = padding)
    flush_masks: np.ndarray = field(repr=False)  # (n,) 13-bit rank mask of a flush, 0 for other rows


@dataclass(frozen=True, eq=False)
class OpponentModel:
    rows: tuple[RowModel, RowModel, RowModel]
    scoop_rate: float          # chance that a well-set hand scoops another (home runs of the others)
    source: str                # "self-play <preset> (<hands> hands)" or "random rows"
    # The 11-point game, from self-play: [players - 2, my row total + 9, winners - 1] -> chance that I am
    # among the round's top (``top``) or that others are (``others_top``); None without a table.
    top: Optional[np.ndarray] = None
    others_top: Optional[np.ndarray] = None


def _shape_arrays(strengths: np.ndarray, size: int, wheel_second: bool, low: bool):
    shapes = rank_shapes(size, wheel_second and not low, not low)
    rank_ids = np.zeros((len(strengths), 5), dtype=np.int64)
    rank_counts = np.zeros((len(strengths), 5), dtype=np.int64)
    flush_masks = np.zeros(len(strengths), dtype=np.int64)
    for index, strength in enumerate(strengths.tolist()):
        ranks, flush = shapes[strength]
        distinct = sorted(set(ranks))
        rank_ids[index, :len(distinct)] = distinct
        rank_counts[index, :len(distinct)] = [ranks.count(rank) for rank in distinct]
        if flush:
            flush_masks[index] = sum(1 << rank for rank in distinct)
    return rank_ids, rank_counts, flush_masks


def row_model(strengths: np.ndarray, weights: np.ndarray, size: int, wheel_second: bool, low: bool) -> RowModel:
    """A RowModel from row strengths and their weights (low: a deuce-to-seven middle, lower wins)."""
    strengths = np.asarray(strengths, dtype=np.int64)
    keys = LOW_FLIP ^ strengths if low else strengths
    order = np.argsort(keys, kind="stable")
    strengths, keys = strengths[order], keys[order]
    probability = np.asarray(weights, dtype=np.float64)[order]
    return RowModel(keys, probability / probability.sum(), strengths,
                    *_shape_arrays(strengths, size, wheel_second, low))


@lru_cache(maxsize=1)
def _table_file() -> Optional[dict]:
    path = resources.files("scoring").joinpath(TABLE_FILE)
    if not path.is_file():
        return None
    with path.open("rb") as handle, np.load(handle) as data:
        return {key: data[key] for key in data.files}


def shipped_presets() -> list[str]:
    """Presets the shipped table covers."""
    data = _table_file() or {}
    return sorted(key[: -len("_hands")] for key in data if key.endswith("_hands"))


@lru_cache(maxsize=8)
def random_rows_model(wheel_second: bool = False, low_middle: bool = False) -> OpponentModel:
    rows = []
    for row, size in enumerate((3, 5, 5)):
        low = low_middle and row == 1
        counts = _counts_by_strength(size, wheel_second and size == 5 and not low, not low)
        strengths = np.array(sorted(counts), dtype=np.int64)
        rows.append(row_model(strengths, np.array([counts[s] for s in strengths.tolist()], dtype=np.float64),
                              size, wheel_second, low))
    return OpponentModel(tuple(rows), 0.0, "random rows")  # type: ignore[arg-type]


@lru_cache(maxsize=64)
def _shipped_model(preset: str, wheel_second: bool, low_middle: bool) -> Optional[OpponentModel]:
    data = _table_file()
    if data is None or f"{preset}_hands" not in data:
        return None
    if bool(data.get(f"{preset}_low_middle", False)) != low_middle:
        return None   # built for the other middle (an option changed it): the rows do not compare
    rows = []
    for row, name in enumerate(ROW_NAMES):
        rows.append(row_model(data[f"{preset}_{name}_strength"], data[f"{preset}_{name}_count"],
                              3 if row == 0 else 5, wheel_second, low_middle and row == 1))
    hands = int(data[f"{preset}_hands"])
    top = data.get(f"{preset}_overall_top")
    others = data.get(f"{preset}_overall_others_top")
    return OpponentModel(tuple(rows), float(data[f"{preset}_scoop_rate"]),  # type: ignore[arg-type]
                         f"self-play {preset} ({hands:,} hands)",
                         None if top is None else top.astype(np.float64),
                         None if others is None else others.astype(np.float64))


def opponent_model(rules: Rules) -> OpponentModel:
    """The model for a round's rules: the preset's self-play table, or random rows."""
    return (_shipped_model(TABLE_OF.get(rules.preset, rules.preset), rules.wheel_second, rules.low_middle)
            or random_rows_model(rules.wheel_second, rules.low_middle))


# log C(4 - k, m) / C(4, m): the chance that m given-rank cards avoid the k of that rank the player holds.
_AVOID = np.array([[np.log(comb(4 - k, m) / comb(4, m)) if comb(4 - k, m) else -np.inf for m in range(5)]
                   for k in range(5)])


def removal_weights(model: RowModel, held: np.ndarray) -> np.ndarray:
    """The row distribution given that the opponent's row avoids the ``held`` card ints (normalised)."""
    rank_held = np.bincount(held >> 2, minlength=13)
    log_avoid = _AVOID[rank_held[model.rank_ids], model.rank_counts].sum(axis=1)
    weights = model.probability * np.exp(log_avoid)
    flushes = np.flatnonzero(model.flush_masks)
    if len(flushes):
        suit_masks = np.zeros(4, dtype=np.int64)
        np.bitwise_or.at(suit_masks, held & 3, np.int64(1) << (held >> 2))
        free = ((model.flush_masks[flushes, None] & suit_masks[None, :]) == 0).sum(axis=1)
        weights[flushes] = model.probability[flushes] * free / 4.0
    return weights / weights.sum()


def row_chances(model: RowModel, keys: np.ndarray, values_by_category: tuple,
                probability: Optional[np.ndarray] = None) -> tuple[np.ndarray, ...]:
    """(win, tie, lose, opponent's expected points from the row when they win it) for rows of ``keys``.

    ``values_by_category`` is the row's value table (points by category) that the opponent collects;
    ``probability`` the opponent's distribution over ``model.keys`` (card removal), the model's by default.
    """
    probability = model.probability if probability is None else probability
    below = np.concatenate(([0.0], np.cumsum(probability)))
    opponent_points = probability * np.asarray(values_by_category, dtype=np.float64)[model.strengths >> 20]
    above_points = np.concatenate((np.cumsum(opponent_points[::-1])[::-1], [0.0]))
    lower = np.searchsorted(model.keys, keys, side="left")
    upper = np.searchsorted(model.keys, keys, side="right")
    win = below[lower]
    tie = below[upper] - win
    lose = np.maximum(1.0 - below[upper], 0.0)
    return win, tie, lose, above_points[upper]
