"""Group cards into the front / middle / back rows of a Chinese-poker layout, whatever the photo's rotation.

Each card is a set of points (its visible corner-index centres). For every row direction θ the points are
projected onto the row normal; the two corners of one card may never be split, so the projections form
"blocks" separated by gaps. The right direction gives three blocks with two wide gaps and no other wide
gap; the score is (2nd widest gap) / (3rd widest gap + half an index). The 3-card row is the front and
decides which way is "up": rows are reported front first, cards left→right as seen with the front row on top.

The 3/5/5 shape helps where this plain rule fails: directions whose split fits 3/5/5 come first when one of them
is clear (a grid-like layout seen steeply can split more cleanly along its columns), and when a misread corner joins
a card of its code in the next row (a KD corner read KH beside the real KH), tying two rows together, the rows are
grouped again from each card's most trusted corner.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

ROW_NAMES = ("front", "middle", "back")
EXPECTED_SIZES = {"front": 3, "middle": 5, "back": 5}
COARSE_STEP_DEG = 1.0
FINE_STEP_DEG = 0.1
AMBIGUOUS_SCORE = 1.3  # below this the three-row split is not clearly better than another split


@dataclass
class RowGrouping:
    rows: dict[str, list[int]]  # row name -> card positions (into the input list), ordered left→right
    warnings: list[str] = field(default_factory=list)
    angle_deg: float = 0.0  # direction "down" (front → back) in image coordinates, degrees from +y towards -x
    score: float = 0.0


@dataclass(frozen=True)
class _Split:
    score: float
    groups: list[list[int]]  # card positions per row, ordered by projection on the normal


def _projections(points: np.ndarray, thetas: np.ndarray) -> np.ndarray:
    """Each point projected onto the row normal of each direction: [len(thetas), len(points)]."""
    return -np.sin(thetas)[:, None] * points[None, :, 0] + np.cos(thetas)[:, None] * points[None, :, 1]


@dataclass(frozen=True)
class _Splits:
    """The three-row split of every direction at once (one direction at a time in a Python loop, the ~200 directions
    took a 13-card read ~10 ms; session 42): per direction, the cards in projection order, the card positions the two
    widest gaps follow, how many gaps there are, the score and whether the three groups fit 3/5/5 (_sizes_fit)."""
    order: np.ndarray  # [directions, cards]
    cuts: np.ndarray  # [directions, 2], ascending
    n_gaps: np.ndarray
    scores: np.ndarray
    fits: np.ndarray

    def at(self, k: int) -> _Split:
        """Direction k's split: its three groups, or all cards in one group when they form fewer than 3 blocks."""
        cards = [int(card) for card in self.order[k]]
        if self.n_gaps[k] < 2:
            return _Split(0.0, [cards])
        cut_a, cut_b = (int(cut) for cut in self.cuts[k])
        return _Split(float(self.scores[k]), [cards[:cut_a + 1], cards[cut_a + 1:cut_b + 1], cards[cut_b + 1:]])


def _splits(points: np.ndarray, owners: np.ndarray, n_cards: int, thetas: np.ndarray, pad: float) -> _Splits:
    """Each card's extent along each direction's normal; cards whose extents overlap form a block, and the three-row
    split cuts at the two widest gaps between blocks. `owners` runs 0, 0, 1, ... (each card's points together, every
    card with at least one)."""
    proj = _projections(points, thetas)
    starts = np.flatnonzero(np.r_[True, owners[1:] != owners[:-1]])
    lo, hi = np.minimum.reduceat(proj, starts, axis=1), np.maximum.reduceat(proj, starts, axis=1)
    order = np.argsort(lo, axis=1)
    lo, hi = np.take_along_axis(lo, order, axis=1), np.take_along_axis(hi, order, axis=1)
    # a card starts a new block when it begins past every card before it; the gap is to the furthest of them
    gaps = lo[:, 1:] - np.maximum.accumulate(hi, axis=1)[:, :-1]
    n_gaps = (gaps > 0).sum(axis=1)
    gaps = np.pad(np.where(gaps > 0, gaps, -np.inf), ((0, 0), (0, 1)), constant_values=-np.inf)  # 3 columns at least
    ranked = np.argsort(gaps, axis=1)[:, ::-1]
    widest = np.take_along_axis(gaps, ranked[:, :3], axis=1)
    third = np.where(n_gaps > 2, widest[:, 2], 0.0)
    scores = np.where(n_gaps >= 2, widest[:, 1] / (third + pad), 0.0)
    cuts = np.sort(ranked[:, :2], axis=1)  # card positions (in projection order) the two cuts follow
    sizes = np.stack([cuts[:, 0] + 1, cuts[:, 1] - cuts[:, 0], n_cards - 1 - cuts[:, 1]], axis=1)
    limits = np.array([EXPECTED_SIZES[name] for name in ROW_NAMES])
    fits = (n_gaps >= 2) & ((sizes <= limits).all(axis=1) | (sizes[:, ::-1] <= limits).all(axis=1))
    return _Splits(order, cuts, n_gaps, scores, fits)


def _sizes_fit(sizes: list[int]) -> bool:
    """Whether three rows of these sizes, read from either end, have at most 3/5/5 cards (13 cards: exactly 3/5/5)."""
    limits = [EXPECTED_SIZES[name] for name in ROW_NAMES]
    return len(sizes) == 3 and (all(s <= m for s, m in zip(sizes, limits))
                                or all(s <= m for s, m in zip(sizes[::-1], limits)))


def _best_scores(scores: np.ndarray, fits: np.ndarray) -> np.ndarray:
    """Split scores, with splits that do not fit 3/5/5 set below every split that does when one of those is clear
    (not ambiguous): a grid-like layout seen in perspective can split more cleanly along its columns than its rows."""
    return np.where(fits, scores, -1.0) if (scores[fits] >= AMBIGUOUS_SCORE).any() else scores


def _best_direction(points, owners, n_cards, pad) -> tuple[float, _Split]:
    coarse = np.deg2rad(np.arange(0.0, 180.0, COARSE_STEP_DEG))
    coarse_splits = _splits(points, owners, n_cards, coarse, pad)
    best = int(np.argmax(_best_scores(coarse_splits.scores, coarse_splits.fits)))
    fine = coarse[best] + np.deg2rad(np.arange(-COARSE_STEP_DEG, COARSE_STEP_DEG + 1e-9, FINE_STEP_DEG))
    fine_splits = _splits(points, owners, n_cards, fine, pad)
    scores = _best_scores(fine_splits.scores, fine_splits.fits)
    # Middle of the plateau of best scores: the most robust direction.
    top = np.flatnonzero(scores >= scores.max() - 1e-9)
    pick = int(top[len(top) // 2])
    return float(fine[pick]), fine_splits.at(pick)


def group_rows(card_points: list[list[tuple[float, float]]], index_size: float) -> RowGrouping:
    """Rows of a 3/5/5 layout from each card's visible index centres (image pixels), most trusted first.

    `index_size` is the typical index box size in pixels (sets the scale of "a wide gap"). When the rows found
    do not fit 3/5/5 (a row too long), they are grouped again from each card's first point alone and that
    grouping is kept if it fits.
    """
    if any(len(points) == 0 for points in card_points):
        raise ValueError("every card needs at least one index centre")
    centres = np.array([np.mean(points, axis=0) for points in card_points]).reshape(-1, 2)
    grouping = _group(card_points, index_size, centres)
    if not _fits(grouping) and any(len(points) > 1 for points in card_points):
        first_points = _group([points[:1] for points in card_points], index_size, centres)
        if _fits(first_points):
            return first_points
    return grouping


def _fits(grouping: RowGrouping) -> bool:
    return any(grouping.rows.values()) and _sizes_fit([len(grouping.rows[name]) for name in ROW_NAMES])


def _group(card_points: list[list[tuple[float, float]]], index_size: float, centres: np.ndarray) -> RowGrouping:
    """Rows split along the best direction for these points; cards ordered within a row by `centres`."""
    n_cards = len(card_points)
    empty = {name: [] for name in ROW_NAMES}
    if n_cards < 3:
        return RowGrouping(empty, [f"cannot form rows from {n_cards} card(s)"])
    points = np.array([p for pts in card_points for p in pts], dtype=np.float64)
    owners = np.array([i for i, pts in enumerate(card_points) for _ in pts], dtype=np.int64)
    theta, split = _best_direction(points, owners, n_cards, pad=0.5 * max(index_size, 1.0))
    warnings: list[str] = []
    if len(split.groups) < 3:
        return RowGrouping(empty, ["rows ambiguous: the cards do not form three separate rows"])
    if split.score < AMBIGUOUS_SCORE:
        warnings.append(f"rows ambiguous: the three rows are not clearly separated (score {split.score:.2f})")
    groups = split.groups
    normal = np.array([-np.sin(theta), np.cos(theta)])
    flip = _front_is_last(groups, normal, warnings)
    if flip:
        groups = groups[::-1]
        normal = -normal
        theta += np.pi
    # Left→right as seen with the front row on top: "right" is the normal turned 90° counter-clockwise.
    right = np.array([normal[1], -normal[0]])
    rows = {name: sorted(group, key=lambda c: float(centres[c] @ right)) for name, group in zip(ROW_NAMES, groups)}
    for name in ROW_NAMES:
        if len(rows[name]) != EXPECTED_SIZES[name]:
            warnings.append(f"{name} row has {len(rows[name])} card(s), expected {EXPECTED_SIZES[name]}")
    return RowGrouping(rows, warnings, float(np.rad2deg(theta) % 360.0), split.score)


def _front_is_last(groups: list[list[int]], normal: np.ndarray, warnings: list[str]) -> bool:
    """Whether the front (3-card) row is the last group along the normal, i.e. the photo must be turned."""
    first, last = len(groups[0]), len(groups[-1])
    if first == 3 and last != 3:
        return False
    if last == 3 and first != 3:
        return True
    if first != last:
        warnings.append("rows ambiguous: no 3-card row at either end; the smaller end row is taken as front")
        return last < first
    warnings.append("rows ambiguous: cannot tell front from back; the row at the top of the photo is taken as front")
    return normal[1] < 0  # keep the front row towards the top of the image
