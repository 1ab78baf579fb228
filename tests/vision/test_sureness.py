"""The reader's `sure` flag (vision.sureness), its consistency checks (vision.checks) and the calibration fit
(vision.training.fit_calibration), on hand-made cards and pictures."""
from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from vision.cards import Card, IndexReading
from vision.checks import COURT_UNDER_NUMBER, face_doubts, ink_doubts, repeat_doubts
from vision.messages import UNKNOWN_DECK_WARNING
from vision.crops import CLASS_NAMES
from vision.errors import ModelError
from vision.inks import survey_inks
from vision.evaluation.sureness_figures import (FIT, HELD_OUT, CardRecord, calibration_half,
                                                expected_calibration_error, rights_by_code)
from vision.reader import MODELS_DIR
from vision.results import ReadResult
from vision.sureness import CALIBRATION_FILE, IDENTITY, Calibration, judge, load_calibration
from vision.training.fit_calibration import fit, sure_threshold


def probabilities(**codes: float) -> np.ndarray:
    p = np.zeros(len(CLASS_NAMES), np.float32)
    for code, value in codes.items():
        p[CLASS_NAMES.index(code)] = value
    return p


def reading(x: float, y: float, code: str, probability: float, **others: float) -> IndexReading:
    return IndexReading((x, y, x + 20.0, y + 30.0), code, probability, 0.9,
                        probabilities(**{code: probability, **others}))


def test_a_missing_calibration_is_the_identity_and_a_broken_one_is_refused(tmp_path):
    assert load_calibration(tmp_path / "none.json") is IDENTITY
    bad = tmp_path / CALIBRATION_FILE
    bad.write_text(json.dumps({"tables": {"1": {"confidence": [0.9, 0.5], "chance": [0.1, 0.2]}}}))
    with pytest.raises(ModelError, match="increasing"):
        load_calibration(bad)
    bad.write_text("not json")
    with pytest.raises(ModelError, match="not a calibration"):
        load_calibration(bad)


def test_the_shipped_calibration_rises_with_confidence_and_is_never_certain():
    calibration = load_calibration(MODELS_DIR / CALIBRATION_FILE)
    assert calibration is not IDENTITY
    for corners in (1, 2):
        chances = [calibration.chance(c, corners) for c in np.linspace(0.0, 1.0, 101)]
        assert chances == sorted(chances) and 0.0 <= chances[0] and chances[-1] <= 1.0
        assert calibration.chance(0.9, corners) < 0.999  # a card named 0.9 is not all but certain


def test_a_card_is_sure_only_with_chance_at_the_threshold_and_no_doubts():
    blank = np.full((200, 400, 3), 255, np.uint8)
    high, low = Card("AS", [reading(10, 10, "AS", 0.99)]), Card("KD", [reading(200, 10, "KD", 0.9)])
    doubted = Card("QH", [reading(300, 150, "QH", 0.99)], doubts=("the second classifier names it QD (0.60)",))
    calibration = Calibration({1: ((0.0, 0.95, 1.0), (0.0, 0.96, 0.99))})
    judge([high, low, doubted], blank, calibration, 0.97, 0.7)
    assert (high.sure, low.sure, doubted.sure) == (True, False, False)
    assert low.chance == pytest.approx(0.96 * 0.9 / 0.95)
    flags = [card["sure"] for card in ReadResult([high, low, doubted], None, [], 1.0).to_dict()["cards"]]
    assert flags == [True, False, False]


def test_a_one_corner_card_within_reach_of_a_card_it_could_be_is_doubted():
    eight = Card("8C", [reading(100, 100, "8C", 0.99), reading(200, 250, "8C", 0.97)])
    repeat = Card("3C", [reading(60, 200, "3C", 0.81, **{"8C": 0.1})])  # the 8C's blurred corner read again
    unlike = Card("5H", [reading(60, 200, "5H", 0.81, **{"8C": 0.001})])  # a neighbour nothing like the 8C
    far = Card("3S", [reading(900, 900, "3S", 0.81, **{"8C": 0.1})])
    doubts = repeat_doubts([eight, repeat, unlike, far])
    assert set(doubts) == {id(repeat)} and "8C" in doubts[id(repeat)]


def test_a_red_index_named_a_black_suit_is_doubted_but_a_dark_one_named_red_is_not():
    picture = np.full((120, 240, 3), 250, np.uint8)
    cv2.putText(picture, "7", (20, 80), cv2.FONT_HERSHEY_SIMPLEX, 2.0, (30, 30, 200), 8)  # red ink (BGR)
    cv2.putText(picture, "7", (140, 80), cv2.FONT_HERSHEY_SIMPLEX, 2.0, (30, 30, 30), 8)  # black ink
    red_as_spade = Card("7S", [IndexReading((15.0, 20.0, 75.0, 90.0), "7S", 0.99, 0.9)])
    black_as_heart = Card("7H", [IndexReading((135.0, 20.0, 195.0, 90.0), "7H", 0.99, 0.9)])
    corners = [(card, card.indices[0]) for card in (red_as_spade, black_as_heart)]
    names, _ = survey_inks(picture, [r.box for _, r in corners])
    doubts = ink_doubts([red_as_spade, black_as_heart], corners, names)
    assert set(doubts) == {id(red_as_spade)} and "red" in doubts[id(red_as_spade)]


def test_the_platt_fit_rises_with_confidence_and_follows_the_wrong_cards():
    rng = np.random.default_rng(0)
    confidence = rng.uniform(0.5, 1.0, 2000)
    right = rng.uniform(0, 1, 2000) < confidence  # a card named c is right with chance c
    records = [CardRecord(f"p{i}", float(c), 1 + i % 2, float(c), True, bool(r), False)
               for i, (c, r) in enumerate(zip(confidence, right))]
    calibration = fit(records)
    for corners in (1, 2):
        chances = [calibration.chance(c, corners) for c in np.linspace(0.5, 1.0, 11)]
        assert chances == sorted(chances) and chances[-1] < 1.0
        assert calibration.chance(0.75, corners) == pytest.approx(0.75, abs=0.05)


def test_the_threshold_keeps_wrong_sure_cards_off_real_sets():
    wrong = CardRecord("a", 0.95, 1, 0.95, True, False, False)
    rights = [CardRecord(f"r{i}", 0.99, 1, 0.99, True, True, False) for i in range(10)]
    threshold = sure_threshold({"real x": [wrong, *rights]}, IDENTITY, 0.7)
    assert 0.95 < threshold <= 0.99


def test_figures_count_codes_once_and_split_photos_for_good():
    cards = [Card("AS", [reading(0, 0, "AS", 0.9)]), Card("AS", [reading(500, 0, "AS", 0.99)]),
             Card("KD", [reading(0, 500, "KD", 0.9)])]
    assert rights_by_code(cards, {"AS": 1}) == [False, True, False]
    assert {calibration_half(f"photo{i}.jpg") for i in range(20)} == {FIT, HELD_OUT}
    assert calibration_half("edje-multi/IMG_1.JPG") == calibration_half("edje-multi/IMG_1.JPG")
    records = [CardRecord("p", 0.99, 2, 0.99, True, True, False)] * 9 + [CardRecord("p", 0.99, 2, 0.99, True, False, False)]
    assert expected_calibration_error(records) == pytest.approx(0.09)


def test_a_court_figure_under_a_number_index_and_bare_paper_under_a_court_are_doubted():
    picture = np.full((400, 600, 3), 60, np.uint8)  # a dark table
    for x in (0, 300):  # two cards, white, 250 px wide
        picture[20:380, x + 20:x + 270] = 245
    picture[120:280, 60:230] = (40, 90, 200)  # the first card's face: a court figure's ink
    for x in (300 + 150,):  # the second card's face: two pips on paper
        cv2.circle(picture, (x - 40, 130), 12, (20, 20, 20), -1)
        cv2.circle(picture, (x + 40, 270), 12, (20, 20, 20), -1)

    def card(code: str, x: float) -> Card:
        return Card(code, [IndexReading((x + 25, 25, x + 55, 70), code, 0.99, 0.9),
                           IndexReading((x + 235, 330, x + 265, 375), code, 0.98, 0.9)])

    court_as_eight, pips_as_eight = card("8S", 0), card("8S", 300)
    pips_as_jack, court_as_jack = card("JS", 300), card("JS", 0)
    doubts = face_doubts(picture, [court_as_eight, pips_as_eight, pips_as_jack, court_as_jack])
    assert set(doubts) == {id(court_as_eight), id(pips_as_jack)}
    assert doubts[id(court_as_eight)].startswith(COURT_UNDER_NUMBER)


def test_a_court_figure_under_a_number_index_warns_of_an_unknown_deck_and_doubts_every_card():
    picture = np.full((400, 600, 3), 245, np.uint8)
    picture[120:280, 60:230] = (40, 90, 200)
    court_as_eight = Card("8S", [IndexReading((25.0, 25.0, 55.0, 70.0), "8S", 0.99, 0.9),
                                 IndexReading((235.0, 330.0, 265.0, 375.0), "8S", 0.98, 0.9)])
    other = Card("2H", [IndexReading((400.0, 25.0, 430.0, 70.0), "2H", 0.99, 0.9)])
    warnings = judge([court_as_eight, other], picture, IDENTITY, 0.9, 0.7)
    assert len(warnings) == 1 and warnings[0].startswith(UNKNOWN_DECK_WARNING) and "8S" in warnings[0]
    assert not court_as_eight.sure and not other.sure


def test_in_a_photo_warned_blurred_no_card_is_sure():
    blank = np.full((200, 400, 3), 255, np.uint8)
    cards = [Card("AS", [reading(10, 10, "AS", 0.999)]), Card("KD", [reading(200, 10, "KD", 0.999)])]
    assert judge(cards, blank, IDENTITY, 0.9, 0.7, blurred=True) == []
    assert not any(card.sure for card in cards) and all("blurred" in card.doubts[-1] for card in cards)
