"""A look's index readings become the reader's result: indices at the photo's edge doubted, cards named below the
unsure threshold left out (in rows mode the surest of them fill a short hand) and unnamed marks no card accounts for
warned of, an over-full hand's far repeats left out, then rows and warnings (docs/reader.md: "unsure", "cut indices",
"cards", "rows"; docs/reader-decisions.md@538d56c: "unnamed boxes")."""
from __future__ import annotations

import time
from dataclasses import dataclass, field, replace

import numpy as np

from vision.cards import (EXPECTED_CARDS, SEPARATE_CORNER_OVERLAP, Card, IndexReading, leave_out_repeats,
                          merge_indices, overlap_share, same_card, same_index)
from vision.messages import NO_CARDS_WARNING, UNSURE_MARKS_WARNING
from vision.rows import ROW_NAMES, group_rows

# Cards named with less are left out and listed in a warning: a confidently wrong card costs money, a doubtful one
# the player can check [unsure].
MIN_CARD_CONFIDENCE = 0.7
# Cards kept below it (rows mode fills a short hand with them) are flagged `low confidence`.
LOW_CONFIDENCE = MIN_CARD_CONFIDENCE
# An index this close to the photo's edge (working-image pixels) may be cut off and read as another card, so it is
# never named surely [cut indices].
EDGE_MARGIN_PX = 1.0
# A hand with fewer sure cards is filled with the most confident unsure ones down to this, flagged `low confidence`,
# rather than left with holes to type in [unsure]. 0.3 until session 55: the classifier and its partner name a
# half-covered card lower than either alone, and every filler is warned, so a lower floor costs no silent read.
FILL_MIN_CONFIDENCE = 0.2


@dataclass
class ReadResult:
    cards: list[Card]
    rows: dict[str, list[Card]] | None
    warnings: list[str]
    scale: float  # photo pixels per working-image pixel (JPEG reduced decoding)
    timings_ms: dict[str, float] = field(default_factory=dict)
    # detector input long side of the look used (of the enlarged region after a closer look); a second look at
    # LARGER_DETECTION_SIZE fused in afterwards (IndexLooks.second_look) does not change it
    detection_size: int = 0
    # every classified index before unsure cards were left out, in working-image pixels (for evaluation)
    readings: list[IndexReading] = field(default_factory=list)
    # the second reads (vision.reader.SECOND_READS) whose result this is; those tried have their time in timings_ms
    kept_reads: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        """The JSON object of the `vision read` contract (without the "photo" key)."""
        row_of = {id(card): name for name, cards in (self.rows or {}).items() for card in cards}
        return {
            "cards": [{
                "code": card.code,
                "confidence": round(card.confidence, 3),
                "box": [round(v * self.scale) for v in card.box],
                "row": row_of.get(id(card)),
                # the one flag of sureness (vision.sureness); a result not judged falls back on the unsure threshold
                "sure": bool(card.sure) if card.sure is not None else card.confidence >= LOW_CONFIDENCE,
                "alternatives": [{"code": code, "confidence": round(probability, 3)}
                                 for code, probability in card.alternatives()],
            } for card in self.cards],
            "rows": None if self.rows is None else {name: [c.code for c in self.rows[name]] for name in ROW_NAMES},
            "warnings": list(self.warnings),
        }


def result_of(readings: list[IndexReading], shape: tuple[int, ...], reduction: float, loose: bool,
              timings: dict[str, float], size: int, *, min_card_confidence: float = MIN_CARD_CONFIDENCE,
              fill_min_confidence: float = FILL_MIN_CONFIDENCE) -> ReadResult:
    """The cards, rows (unless `loose`) and warnings of an image's readings (from a look of detector `size`)."""
    readings = doubt_cut_indices(readings, shape, min_card_confidence)
    all_readings = readings
    start = time.perf_counter()
    cards, warnings, readings = leave_out_unsure(readings, loose, min_card_confidence, fill_min_confidence)
    result = ReadResult(cards, None, warnings, reduction, timings, size, all_readings)
    if loose:
        cards.sort(key=lambda c: (c.centre[1], c.centre[0]))
        if not cards:  # rows mode says "expected 13 cards, found 0"; loose cards would say nothing at all
            result.warnings.append(f"{NO_CARDS_WARNING}: retake the photo with the cards' corners in view, "
                                   "closer and in focus")
    else:
        result.cards, result.warnings = leave_out_repeats(cards, warnings, EXPECTED_CARDS)
        readings = [r for card in result.cards for r in card.indices]
        _assign_rows(result, readings)
    for card in result.cards:
        if card.confidence < LOW_CONFIDENCE:
            result.warnings.append(f"low confidence: {card.code} ({card.confidence:.2f})")
    timings["assemble"] = (time.perf_counter() - start) * 1000
    return result


def doubt_cut_indices(readings: list[IndexReading], shape: tuple[int, ...], min_card_confidence: float
                      ) -> list[IndexReading]:
    """The readings, with each index at the photo's edge (within EDGE_MARGIN_PX) named no more surely than
    0.01 under the unsure threshold, which the warnings then show. With no threshold (0: every mark kept) there
    is nothing to doubt against, and the readings are returned as read."""
    h, w = shape[:2]
    doubted = min_card_confidence - 0.01
    if doubted <= 0:
        return readings

    def cut(box: tuple[float, float, float, float]) -> bool:
        return min(box[0], box[1]) <= EDGE_MARGIN_PX or box[2] >= w - EDGE_MARGIN_PX or box[3] >= h - EDGE_MARGIN_PX

    return [replace(r, probability=doubted) if r.probability > doubted and cut(r.box)
            else r for r in readings]


def leave_out_unsure(readings: list[IndexReading], loose: bool, min_card_confidence: float, fill_min_confidence: float
                     ) -> tuple[list[Card], list[str], list[IndexReading]]:
    """Cards of the readings, the warnings, and the readings kept: cards named with less than
    min_card_confidence are left out and named in one warning, except (rows) those filling a short hand. Unnamed
    readings (vision.looks, "unnamed boxes") name no card; those no named reading accounts for join the warning."""
    named = [r for r in readings if not r.unnamed]
    # rows are placed by the cards' centres, so there a weak reading off a sure card's face stays off it (vision.cards)
    sure_from = 0.0 if loose else min_card_confidence
    cards, warnings = merge_indices(named, sure_from=sure_from)
    unsure = [card for card in cards if card.confidence < min_card_confidence]
    lone = _lone_unnamed([r for r in readings if r.unnamed], named)
    if not unsure and not lone:
        return cards, warnings, named
    sure = [card for card in cards if card.confidence >= min_card_confidence]
    if not loose:
        filling = _gap_fillers(sure, unsure, EXPECTED_CARDS - len(sure), fill_min_confidence)
        sure += filling
        unsure = [card for card in unsure if all(card is not f for f in filling)]
    kept = [i for card in sure for i in card.indices]
    cards, warnings = merge_indices(kept, sure_from=sure_from)  # "seen twice" among the cards kept only
    unsure += lone
    if unsure:
        warnings.append(f"{UNSURE_MARKS_WARNING}: " + ", ".join(
            f"{card.code}? ({card.confidence:.2f})" for card in unsure[:5]) + (" ..." if len(unsure) > 5 else ""))
    return cards, warnings, kept


def _lone_unnamed(unnamed: list[IndexReading], named: list[IndexReading]) -> list[Card]:
    """The unnamed readings no named reading accounts for (none on the same index, none of the same code within a
    card's reach: its other corner), one mark per index, merged into cards by code."""
    lone: list[IndexReading] = []
    for reading in sorted(unnamed, key=lambda r: -r.probability):
        if any(same_index(reading, other) for other in named + lone):
            continue
        if any(other.code == reading.code and same_card(reading, other) for other in named):
            continue
        lone.append(reading)
    return merge_indices(lone)[0]


def _assign_rows(result: ReadResult, readings: list[IndexReading]) -> None:
    """Groups the result's cards into rows (vision.rows) and orders its cards front, middle, back."""
    cards = result.cards
    if len(cards) != EXPECTED_CARDS:
        result.warnings.append(f"expected {EXPECTED_CARDS} cards, found {len(cards)}")
    index_size = float(np.median([r.size for r in readings])) if readings else 1.0
    grouping = group_rows([[i.centre for i in card.indices] for card in cards], index_size)
    result.warnings.extend(grouping.warnings)
    result.rows = {name: [cards[i] for i in grouping.rows[name]] for name in ROW_NAMES}
    in_rows = [card for name in ROW_NAMES for card in result.rows[name]]
    result.cards = in_rows + [card for card in cards if all(card is not c for c in in_rows)]


def _gap_fillers(sure: list[Card], unsure: list[Card], gap: int, min_confidence: float) -> list[Card]:
    """Up to `gap` unsure cards, most confident first, that repeat no sure card's code or index."""
    filling: list[Card] = []
    for card in sorted(unsure, key=lambda c: -c.confidence):
        if len(filling) >= gap or card.confidence < min_confidence:
            break
        taken = sure + filling
        if any(card.code == other.code for other in taken):
            continue
        if any(overlap_share(a.box, b.box) > SEPARATE_CORNER_OVERLAP
               for other in taken for a in card.indices for b in other.indices):
            continue  # another name for an index already read
        filling.append(card)
    return filling
