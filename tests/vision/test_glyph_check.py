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


def index_face(rank: str = "8") -> tuple[np.ndarray, tuple, tuple]:
    """A white BGRA card corner with a dark red `rank` over a round suit pip: (face, index box, pip box)."""
    import cv2

    face = np.full((200, 160, 4), 255, np.uint8)
    face[..., :3] = (235, 245, 250)
    cv2.putText(face, rank, (20, 70), cv2.FONT_HERSHEY_SIMPLEX, 2.0, (30, 20, 190, 255), 5, cv2.LINE_AA)
    cv2.circle(face, (40, 105), 16, (30, 20, 190, 255), -1, cv2.LINE_AA)
    return face, (12.0, 20.0, 80.0, 125.0), (22, 87, 59, 124)


def test_redrawing_puts_the_new_rank_where_the_old_one_was_and_leaves_the_pip_alone():
    from vision.synth.parts.redrawncrops import rank_and_suit, redrawn

    face, box, (px1, py1, px2, py2) = index_face()
    old_rank, suit_box, _ = rank_and_suit(face, box)
    assert suit_box[1] > old_rank[3] and abs(suit_box[1] - py1) <= 2  # the pip told from the rank
    out, new_box, new_rank, kept_suit = redrawn(np.random.default_rng(0), face, box, "L", "val")
    assert np.array_equal(out[py1:py2, px1:px2], face[py1:py2, px1:px2])  # pip untouched
    assert kept_suit == tuple(map(float, suit_box))
    assert new_rank[1] == old_rank[1] and new_rank[3] == old_rank[3]  # same top and height
    assert abs((new_rank[0] + new_rank[2]) / 2 - (old_rank[0] + old_rank[2]) / 2) < 1  # same centre
    x1, y1, x2, y2 = old_rank
    def red_ink(image):
        return image[y1:y2, x1:x2, 2].astype(int) - image[y1:y2, x1:x2, 0] > 100

    before, after = red_ink(face), red_ink(out)
    assert after.mean() > 0.1  # a glyph in the old ink colour fills the old place...
    assert (before & after).sum() < 0.8 * min(before.sum(), after.sum())  # ...and the old 8 is gone
    assert (out[y1:y2, x1:x2, :3].min(axis=2) < 100).sum() <= after.sum()  # no ink of another colour
    assert new_box[1] == old_rank[1] and new_box[3] == suit_box[3]


def test_an_index_without_a_gap_over_its_pip_is_not_redrawn():
    from vision.synth.parts.redrawncrops import redrawn

    face, box, _ = index_face()
    face[60:100, 20:60, :3] = (30, 20, 190)  # rank and pip joined into one blot
    assert redrawn(np.random.default_rng(0), face, box, "B", "val") is None
