"""Card assembly: the (up to) two classified corner indices of one physical card become one card; a card named
twice in an over-full hand is left out once."""
from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from vision.crops import CLASS_NAMES, NONE_CLASS
from vision.messages import SEEN_TWICE_WARNING

# The two index centres of one card lie 3–7 index heights apart (measured on the rendered val scenes of
# synth-v1/v2: median 4.4, 99th percentile 6.7, max 7.1 for decks with small indices), so 8 index sizes.
# Two cards of the same code closer than that (only with two decks or a misread) merge into one.
SAME_CARD_DISTANCE = 8.0
# Boxes of one code sharing more than this of the smaller box are one index read twice, not two corners.
SEPARATE_CORNER_OVERLAP = 0.3
EXPECTED_CARDS = 13  # a Chinese-poker hand: 3 + 5 + 5
# A card's runner-up codes, offered to fix it with one tap (vision read's "alternatives"): the classifier's next
# likeliest codes for its corners, however unlikely (a card read wrong surely still ranks its true code high),
# five so that three are left where a hand of the round holds some (docs/reader-decisions.md@538d56c, alternatives).
ALTERNATIVES = 5
ALTERNATIVE_MIN_PROBABILITY = 0.001


@dataclass(frozen=True)
class IndexReading:
    """One detected and classified corner index, in full-photo pixels."""
    box: tuple[float, float, float, float]
    code: str
    probability: float  # classifier probability of `code`
    detector_score: float
    # the classifier's probabilities of every class for this box (None for readings made otherwise): no read uses
    # them; the evaluation scores the other codes as the multi-label hypotheses ultralytics' validation counts
    class_probabilities: np.ndarray | None = field(default=None, compare=False, repr=False)
    # a box the detector scored surely that the classifier named `none` unsurely (vision.looks, "unnamed boxes"),
    # `code` its likeliest card: it never names a card, it only makes the read warn of a mark left out
    unnamed: bool = False

    @property
    def centre(self) -> tuple[float, float]:
        return ((self.box[0] + self.box[2]) / 2, (self.box[1] + self.box[3]) / 2)

    @property
    def size(self) -> float:
        return max(self.box[2] - self.box[0], self.box[3] - self.box[1])

    def other_codes(self, min_probability: float) -> list[tuple[str, float]]:
        """The card codes other than `code` the classifier named at least `min_probability`, likeliest first."""
        if self.class_probabilities is None:
            return []
        order = np.argsort(-self.class_probabilities, kind="stable")
        return [(CLASS_NAMES[i], float(self.class_probabilities[i])) for i in order
                if self.class_probabilities[i] >= min_probability and CLASS_NAMES[i] not in (self.code, NONE_CLASS)]


def readings_into(readings: list[IndexReading], origin: tuple[float, float], scale: tuple[float, float] = (1.0, 1.0)
                  ) -> list[IndexReading]:
    """Readings of an image, their boxes moved into a picture cut from it at `origin` (x, y) and resized by `scale`
    (sx, sy)."""
    (x, y), (sx, sy) = origin, scale
    return [replace(r, box=((r.box[0] - x) * sx, (r.box[1] - y) * sy, (r.box[2] - x) * sx, (r.box[3] - y) * sy))
            for r in readings]


def readings_out_of(readings: list[IndexReading], origin: tuple[float, float], scale: tuple[float, float] = (1.0, 1.0)
                    ) -> list[IndexReading]:
    """Readings of a picture cut from an image at `origin` (x, y) and resized by `scale` (sx, sy), their boxes moved
    back to the image's pixels (readings_into undone)."""
    (x, y), (sx, sy) = origin, scale
    return [replace(r, box=(r.box[0] / sx + x, r.box[1] / sy + y, r.box[2] / sx + x, r.box[3] / sy + y))
            for r in readings]


@dataclass
class Card:
    code: str
    indices: list[IndexReading] = field(default_factory=list)  # most probable first (vision.rows relies on it)
    # set once a read is done (vision.sureness): the calibrated chance the card is right, the consistency checks it
    # failed, and whether it is named surely (None: not judged, e.g. a result made outside CardReader.read)
    chance: float | None = None
    doubts: tuple[str, ...] = ()
    sure: bool | None = None

    @property
    def confidence(self) -> float:
        """Chance that one of the card's two best separate corners is named right (1 - product of misses).

        Two corners that agree are readings of different pixels, so an unsure 0.45 + 0.45 becomes 0.70
        (measured on synth-v2's val scenes: rows exactly right 0.667 -> 0.700, docs/reader.md). Overlapping boxes
        (one index found twice) count once, and at most two corners count, as most decks print two.
        """
        return 1.0 - float(np.prod([1.0 - r.probability for r in self.separate_corners()[:2]]))

    def separate_corners(self) -> list[IndexReading]:
        """The card's readings that are separate corners (overlapping boxes count once), most probable first."""
        separate: list[IndexReading] = []
        for reading in sorted(self.indices, key=lambda r: -r.probability):
            if all(overlap_share(reading.box, kept.box) < SEPARATE_CORNER_OVERLAP for kept in separate):
                separate.append(reading)
        return separate

    def alternatives(self, limit: int = ALTERNATIVES, min_probability: float = ALTERNATIVE_MIN_PROBABILITY
                     ) -> list[tuple[str, float]]:
        """The card codes other than `code` its corners may show, likeliest first: the classifier's probabilities
        averaged over the corners it named (readings made otherwise carry none and give none)."""
        named = [i.class_probabilities for i in self.indices if i.class_probabilities is not None]
        if not named:
            return []
        mean = np.mean(named, axis=0)
        order = np.argsort(-mean, kind="stable")
        return [(CLASS_NAMES[k], float(mean[k])) for k in order
                if mean[k] >= min_probability and CLASS_NAMES[k] not in (self.code, NONE_CLASS)][:limit]

    @property
    def box(self) -> tuple[float, float, float, float]:
        """Union of the card's index boxes (the whole card when both corners are seen)."""
        boxes = np.array([i.box for i in self.indices])
        return (float(boxes[:, 0].min()), float(boxes[:, 1].min()), float(boxes[:, 2].max()), float(boxes[:, 3].max()))

    @property
    def centre(self) -> tuple[float, float]:
        points = np.array([i.centre for i in self.indices])
        return (float(points[:, 0].mean()), float(points[:, 1].mean()))


def overlap_share(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """Intersection over the smaller box's area."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    smaller = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
    return w * h / smaller if smaller > 0 else 1.0


def same_index(a: IndexReading, b: IndexReading) -> bool:
    """Whether two readings show the same index: either's centre lies inside the other's box."""
    def inside(box: tuple[float, ...], point: tuple[float, float]) -> bool:
        return box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]
    return inside(a.box, b.centre) or inside(b.box, a.centre)


def same_card(a: IndexReading, b: IndexReading, factor: float = SAME_CARD_DISTANCE) -> bool:
    """Whether two indices of the same code are close enough to be the two corners of one card."""
    distance = float(np.hypot(a.centre[0] - b.centre[0], a.centre[1] - b.centre[1]))
    return distance <= factor * (a.size + b.size) / 2


def merge_indices(indices: list[IndexReading], factor: float = SAME_CARD_DISTANCE, *, sure_from: float = 0.0
                  ) -> tuple[list[Card], list[str]]:
    """Group indices of the same code that lie within a card's reach into cards.

    A reading named under `sure_from` joins no card that already shows two separate corners named at least that
    surely (most decks print two) unless it lies within the box they span: a weak name for another card's corner
    would move the card's centre, and with it the rows (session 55: a 7C's corner named 2C 0.28 joined a sure 2C six
    index sizes away). It stands as an unsure card of its own.
    Returns the cards (most confident first) and warnings for a code seen on two cards far apart.
    """
    cards: list[Card] = []
    warnings: list[str] = []
    by_code: dict[str, list[IndexReading]] = {}
    for reading in sorted(indices, key=lambda r: -r.probability):
        by_code.setdefault(reading.code, []).append(reading)
    for code, readings in by_code.items():
        groups: list[list[IndexReading]] = []
        for reading in readings:  # single linkage: join every group it is close to
            near = [g for g in groups if any(same_card(reading, other, factor) for other in g)
                    and not (reading.probability < sure_from and _shuts_out(g, reading, sure_from))]
            merged = [reading] + [r for g in near for r in g]
            groups = [g for g in groups if not any(g is n for n in near)] + [merged]
        if len(groups) > 1:
            warnings.append(f"{SEEN_TWICE_WARNING}: {code} appears {len(groups)} times far apart")
        cards.extend(Card(code, sorted(g, key=lambda r: -r.probability)) for g in groups)
    cards.sort(key=lambda c: -c.confidence)
    return cards, warnings


def _shuts_out(group: list[IndexReading], weak: IndexReading, sure_from: float) -> bool:
    """Whether a card's readings show two separate corners named at least `sure_from` and `weak` lies outside the box
    they span (their own boxes included): off the card's face, so on another card. A weak reading on the face
    (a large pip or the art named as the card) or on a corner still joins."""
    sure: list[IndexReading] = []
    for reading in group:
        if reading.probability >= sure_from and all(
                overlap_share(reading.box, kept.box) < SEPARATE_CORNER_OVERLAP for kept in sure):
            sure.append(reading)
    if len(sure) < 2:
        return False
    boxes = np.array([r.box for r in sure])
    x, y = weak.centre
    return not (boxes[:, 0].min() <= x <= boxes[:, 2].max() and boxes[:, 1].min() <= y <= boxes[:, 3].max())


def leave_out_repeats(cards: list[Card], warnings: list[str], hand_size: int) -> tuple[list[Card], list[str]]:
    """A hand of more than `hand_size` cards that names one card on two cards far apart (one deck holds each card
    once): the less sure of them is left out, the least sure repeats first while `hand_size` or more stay, and named
    in the warning (merge_indices' "seen twice" warning goes where the code is now on one card). Session 29: a face
    card's art read as a king at 0.89 made a front row of four and a hand of 14 (the king read surely in the back
    row)."""
    extra = len(cards) - hand_size
    named: set[str] = set()
    repeats: list[Card] = []  # every card after the surest of its code, surest first
    for card in sorted(cards, key=lambda c: -c.confidence):
        if card.code in named:
            repeats.append(card)
        named.add(card.code)
    left_out = repeats[-extra:] if extra > 0 and repeats else []
    if not left_out:
        return cards, warnings
    kept = [card for card in cards if all(card is not r for r in left_out)]
    once_now = {card.code for card in left_out if sum(c.code == card.code for c in kept) == 1}
    warnings = [w for w in warnings if not any(w.startswith(f"{SEEN_TWICE_WARNING}: {code} ") for code in once_now)]
    warnings += [f"{SEEN_TWICE_WARNING}: {card.code} far apart in a hand of {len(cards)}; the less sure "
                 f"({card.confidence:.2f}) left out" for card in left_out]
    return kept, warnings
