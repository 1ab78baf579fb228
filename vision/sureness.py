"""Whether each card of a finished read is named surely (issue 66): its calibrated chance of being right at least
the sure threshold (ReaderConfig.sure_chance) and no consistency check against it (vision.checks, the second
classifier). The calibration maps a card's confidence, per number of corners it was read from, to the share of such
cards read right on held-out data (models/cards_calibration.json, fitted by vision.training.fit_calibration)."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.cards import Card
from vision.checks import COURT_UNDER_NUMBER, consistency_doubts
from vision.errors import ModelError
from vision.glyphs import GlyphCheck, letter_doubts
from vision.messages import UNKNOWN_DECK_WARNING

CALIBRATION_FILE = "cards_calibration.json"
# A card is sure from this calibrated chance of being right: the lowest at which, on the fit half, no wrong card of the
# real dev photos as taken and at most 1 in 2,000 of the rendered val decks and the dev photos' made views would be sure
# (vision.training.fit_calibration; session 59: 0.991, i.e. one corner read from ~0.90, two from ~0.95)
SURE_CHANCE = 0.991


@dataclass(frozen=True)
class Calibration:
    """Per number of corners read (1, 2 or more), the chance of being right at each confidence (piecewise linear
    between the points, increasing)."""
    tables: dict[int, tuple[tuple[float, ...], tuple[float, ...]]]

    def chance(self, confidence: float, corners: int) -> float:
        confidences, chances = self.tables[min(max(corners, 1), max(self.tables))]
        return float(np.interp(confidence, confidences, chances))


IDENTITY = Calibration({1: ((0.0, 1.0), (0.0, 1.0)), 2: ((0.0, 1.0), (0.0, 1.0))})


def load_calibration(path: Path) -> Calibration:
    """The calibration in `path` (IDENTITY where there is none: the confidence taken as the chance)."""
    if not path.is_file():
        return IDENTITY
    try:
        data = json.loads(path.read_text())
        tables = {int(corners): (tuple(map(float, table["confidence"])), tuple(map(float, table["chance"])))
                  for corners, table in data["tables"].items()}
    except (ValueError, KeyError, TypeError) as err:
        raise ModelError(f"calibration {path.name} is not a calibration table: {err}") from None
    for confidences, chances in tables.values():
        if len(confidences) != len(chances) or len(confidences) < 2 or list(confidences) != sorted(confidences):
            raise ModelError(f"calibration {path.name}: each table needs increasing confidences, one chance each")
    return Calibration(tables)


def judge(cards: list[Card], picture: np.ndarray, calibration: Calibration, sure_chance: float,
          min_card_confidence: float, cast_hue: float | None = None, blurred: bool = False,
          glyph_check: GlyphCheck | None = None) -> list[str]:
    """Sets each card's chance, doubts (added to those it has) and sure flag, in place; returns the warnings the
    checks call for: a court figure under a number's index, or indices whose rank no French-suited deck prints
    (vision.glyphs), mean the deck's letters are not French (German B and D read as 8 and 10), so every card of the
    photo is doubted. In a photo warned `blurred` every card is doubted too: that warning tells the player to check
    every card, and the flags say the same (a four-colour deck's blurred 2D read as 2S from two corners at 0.991 was
    the one wrong card left sure on the rendered sets)."""
    doubts = consistency_doubts(picture, cards, cast_hue)
    strangers = [card for card in cards if any(why.startswith(COURT_UNDER_NUMBER) for why in doubts.get(id(card), ()))]
    letters, unknown_letters = letter_doubts(glyph_check, picture, cards) if glyph_check is not None else ({}, [])
    for key, why in letters.items():
        doubts.setdefault(key, []).append(why)
    warnings = []
    if strangers or unknown_letters:
        reasons = [f"{card.code} shows a court figure" for card in strangers[:3]]
        reasons += [f"{card.code}'s index is no French rank" for card in unknown_letters[:3] if card not in strangers]
        warnings.append(f"{UNKNOWN_DECK_WARNING} (" + ", ".join(reasons[:3]) + "): check every card")
    photo_doubts = ((("a card of an unknown deck",) if strangers or unknown_letters else ())
                    + (("the photo looks blurred",) if blurred else ()))
    for card in cards:
        card.doubts = (*card.doubts, *doubts.get(id(card), ()), *photo_doubts)
        card.chance = calibration.chance(card.confidence, len(card.separate_corners()))
        card.sure = card.chance >= sure_chance and card.confidence >= min_card_confidence and not card.doubts
    return warnings
