"""The index-glyph check (vision.glyphs): corners whose rank no French-suited deck prints make their cards unsure and,
on strong evidence, the photo's deck unknown (vision.sureness); a shipped network (none yet) on typeset crops in fonts
it was not trained on."""
from __future__ import annotations

import numpy as np
import pytest

from vision.cards import Card, IndexReading
from vision.glyphs import (CARD_DOUBT_CHANCE, GLYPH_CHECK_FILE, PHOTO_ONE_CARD_CHANCE, PHOTO_TWO_CARDS_CHANCE,
                           GlyphCheck)
from vision.messages import UNKNOWN_DECK_WARNING
from vision.reader import MODELS_DIR
from vision.sureness import IDENTITY, judge

SHIPPED = MODELS_DIR / GLYPH_CHECK_FILE
needs_model = pytest.mark.skipif(not SHIPPED.is_file(), reason=f"needs the shipped {GLYPH_CHECK_FILE}")


class ChancesAsTold:
    """A glyph check that gives each card the chance it is told (by code)."""

    def __init__(self, chances: dict[str, float]):
        self.chances = chances

    def unknown_chances(self, picture, cards):
        return {id(card): self.chances[card.code] for card in cards}


def cards(*codes: str) -> list[Card]:
    return [Card(code, [IndexReading((40.0 * i, 10.0, 40.0 * i + 20, 40.0), code, 0.999, 0.9)])
            for i, code in enumerate(codes)]


def judged(chances: dict[str, float]) -> tuple[list[Card], list[str]]:
    hand = cards(*chances)
    warnings = judge(hand, np.full((100, 400, 3), 250, np.uint8), IDENTITY, 0.99, 0.7,
                     glyph_check=ChancesAsTold(chances))
    return hand, warnings


def test_french_looking_corners_leave_cards_sure_and_the_photo_unwarned():
    hand, warnings = judged({"AS": 0.01, "8H": CARD_DOUBT_CHANCE - 0.01, "TC": 0.2})
    assert warnings == [] and all(card.sure for card in hand)


def test_one_doubtful_corner_makes_only_its_card_unsure():
    hand, warnings = judged({"AS": 0.01, "8H": PHOTO_TWO_CARDS_CHANCE + 0.01, "TC": 0.2})
    assert warnings == []
    assert [card.sure for card in hand] == [True, False, True]
    assert "no French rank" in hand[1].doubts[0]


@pytest.mark.parametrize("chances", [
    {"AS": 0.01, "8H": PHOTO_ONE_CARD_CHANCE, "TC": 0.2},  # one card certain of it
    {"AS": 0.01, "8H": PHOTO_TWO_CARDS_CHANCE, "TC": PHOTO_TWO_CARDS_CHANCE}])  # two cards likely
def test_strong_evidence_warns_of_an_unknown_deck_and_no_card_is_sure(chances):
    hand, warnings = judged(chances)
    assert len(warnings) == 1 and warnings[0].startswith(UNKNOWN_DECK_WARNING)
    assert "8H's index is no French rank" in warnings[0]
    assert not any(card.sure for card in hand)


@needs_model
def test_the_shipped_check_flags_other_letters_and_not_french_ranks_in_fonts_it_never_saw():
    from vision.synth.parts.lettercrops import letter_crops

    crops, known, ranks = letter_crops(120, "val", seed=5)  # the val font families: never trained on
    chances = GlyphCheck(SHIPPED).crop_chances(list(crops))
    assert np.mean(chances[known] >= CARD_DOUBT_CHANCE) <= 0.1
    assert np.mean(chances[~known] >= CARD_DOUBT_CHANCE) >= 0.7
    german = np.isin(ranks, ["B", "D"])
    assert german.sum() >= 3 and np.mean(chances[german] >= CARD_DOUBT_CHANCE) >= 0.6


def test_letter_crops_come_half_french_half_other_letters_from_one_drawing():
    from vision.synth.parts.lettercrops import UNKNOWN_RANKS, letter_crops

    crops, known, ranks = letter_crops(12, "val", seed=1)
    assert crops.shape == (12, 48, 48, 3) and crops.dtype == np.uint8
    assert known.tolist() == [True, False] * 6
    assert all(rank in UNKNOWN_RANKS for rank in ranks[~known]) and not any(ranks[known])
    assert not {"J", "Q", "K", "A", "O", "0"} & set(UNKNOWN_RANKS)  # French letters, and a Q's look-alikes, never
    again, _, _ = letter_crops(12, "val", seed=1)
    assert np.array_equal(crops, again)  # seeded
