"""The advisor's opponent: how strong each row of a well-set hand is, per preset (scoring/advisor_rows.npz).

For every preset the file holds, per row, the strengths of the rows that the advisor itself laid on
random hands (self-play, ``python -m scoring.advisor_build``) and how often each came up, plus how
often one such hand scooped another.  From that table a row of strength x gets its chances against an
opponent's row of the same size: win (the opponent's row is lower), tie, lose, and the opponent's
expected row points when they win it.  A preset without a table (added after the file was built) plays
against random rows (every C(52, 5) or C(52, 3) row equally likely), the model the first self-play pass
starts from.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Optional

import numpy as np

from .row_odds import _counts_by_strength
from .rules import Rules

TABLE_FILE = "advisor_rows.npz"
ROW_NAMES = ("front", "middle", "back")


@dataclass(frozen=True, eq=False)
class RowModel:
    """One row's opponent distribution: strengths ascending, probability of each."""

    strengths: np.ndarray     # int64, ascending
    probability: np.ndarray   # float64, sums to 1


@dataclass(frozen=True)
class OpponentModel:
    rows: tuple[RowModel, RowModel, RowModel]
    scoop_rate: float          # chance that a well-set hand scoops another (home runs of the others)
    source: str                # "self-play <preset> (<hands> hands)" or "random rows"


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


@lru_cache(maxsize=4)
def random_rows_model(wheel_second: bool = False) -> OpponentModel:
    rows = []
    for size in (3, 5, 5):
        counts = _counts_by_strength(size, wheel_second and size == 5)
        strengths = np.array(sorted(counts), dtype=np.int64)
        weights = np.array([counts[s] for s in strengths.tolist()], dtype=np.float64)
        rows.append(RowModel(strengths, weights / weights.sum()))
    return OpponentModel(tuple(rows), 0.0, "random rows")  # type: ignore[arg-type]


@lru_cache(maxsize=64)
def _shipped_model(preset: str) -> Optional[OpponentModel]:
    data = _table_file()
    if data is None or f"{preset}_hands" not in data:
        return None
    rows = []
    for row in ROW_NAMES:
        counts = data[f"{preset}_{row}_count"].astype(np.float64)
        rows.append(RowModel(data[f"{preset}_{row}_strength"].astype(np.int64), counts / counts.sum()))
    hands = int(data[f"{preset}_hands"])
    return OpponentModel(tuple(rows), float(data[f"{preset}_scoop_rate"]),  # type: ignore[arg-type]
                         f"self-play {preset} ({hands:,} hands)")


def opponent_model(rules: Rules) -> OpponentModel:
    """The model for a round's rules: the preset's self-play table, or random rows."""
    return _shipped_model(rules.preset) or random_rows_model(rules.wheel_second)


@lru_cache(maxsize=256)
def _cumulative(model: RowModel, values: tuple) -> tuple[np.ndarray, np.ndarray]:
    """(P(opponent below known[k]) for k = 0..n, the opponent's row points summed from k upwards)."""
    below = np.concatenate(([0.0], np.cumsum(model.probability)))
    opponent_points = model.probability * np.asarray(values, dtype=np.float64)[model.strengths >> 20]
    above_points = np.concatenate((np.cumsum(opponent_points[::-1])[::-1], [0.0]))
    return below, above_points


def row_chances(model: RowModel, strengths: np.ndarray, values_by_category: tuple) -> tuple[np.ndarray, ...]:
    """(win, tie, lose, opponent's expected points from the row when they win it) for rows of ``strengths``.

    ``values_by_category`` is the row's value table (points by category) that the opponent collects.
    """
    below, above_points = _cumulative(model, values_by_category)
    lower = np.searchsorted(model.strengths, strengths, side="left")
    upper = np.searchsorted(model.strengths, strengths, side="right")
    win = below[lower]
    tie = below[upper] - win
    lose = np.maximum(1.0 - below[upper], 0.0)
    return win, tie, lose, above_points[upper]
