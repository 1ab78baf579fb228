"""Merging the two corner indices of one card, "card seen twice", and moving readings into a cut-out, resized picture
and back."""
from __future__ import annotations

import numpy as np
import pytest

from vision.cards import IndexReading, leave_out_repeats, merge_indices, readings_into, readings_out_of, same_index


def index(code: str, x: float, y: float, probability: float = 0.9, size: float = 40.0) -> IndexReading:
    return IndexReading((x, y, x + size * 0.5, y + size), code, probability, 0.8)


def test_two_corners_of_one_card_become_one_card():
    # A card 160x224 px with 40 px indices: index centres ~ 230 px apart (under 8 index sizes).
    cards, warnings = merge_indices([index("AS", 10, 10, 0.8), index("AS", 150, 190, 0.95)])
    assert warnings == []
    assert len(cards) == 1
    card = cards[0]
    assert card.code == "AS"
    assert card.confidence == pytest.approx(1 - 0.2 * 0.05)  # two corners agreeing: either one right
    assert card.box == (10, 10, 170, 230)
    assert len(card.indices) == 2


def test_same_code_far_apart_is_seen_twice():
    cards, warnings = merge_indices([index("KH", 0, 0), index("KH", 2000, 1500)])
    assert len(cards) == 2
    assert warnings == ["card seen twice: KH appears 2 times far apart"]


def test_different_codes_close_together_stay_separate_cards():
    cards, warnings = merge_indices([index("2C", 0, 0), index("3C", 30, 0), index("4C", 60, 0)])
    assert sorted(c.code for c in cards) == ["2C", "3C", "4C"]
    assert warnings == []


def test_three_readings_chain_into_one_card():
    """A duplicate detection next to one corner joins the card instead of making a second one."""
    cards, warnings = merge_indices([index("9D", 0, 0), index("9D", 5, 3), index("9D", 150, 190)])
    assert len(cards) == 1 and len(cards[0].indices) == 3
    assert warnings == []


def test_a_weak_reading_joins_no_card_that_shows_two_sure_corners():
    """Session 55's layout 0011: a 7C's corner named 2C 0.28 lay within reach of a sure 2C's corners and joined it,
    moving the card's centre; held off, it is an unsure card of its own (and "seen twice")."""
    sure_pair = [index("2C", 150, 190, 0.97), index("2C", 10, 10, 0.95)]
    weak = index("2C", -150, -60, 0.28)  # within 8 index sizes of the nearer corner, on neither
    cards, warnings = merge_indices(sure_pair + [weak], sure_from=0.7)
    assert sorted(len(c.indices) for c in cards) == [1, 2]
    assert [c.confidence for c in cards if len(c.indices) == 1] == [pytest.approx(0.28)]
    assert warnings == ["card seen twice: 2C appears 2 times far apart"]
    joined, _ = merge_indices(sure_pair + [weak])  # without a sure threshold: as before
    assert len(joined) == 1 and len(joined[0].indices) == 3


def test_a_weak_reading_still_joins_a_card_with_one_sure_corner_or_lying_on_its_face():
    one_sure = [index("5H", 10, 10, 0.95), index("5H", 150, 190, 0.4)]
    cards, _ = merge_indices(one_sure + [index("5H", -150, -60, 0.3)], sure_from=0.7)
    assert len(cards) == 1 and len(cards[0].indices) == 3
    two_sure = [index("5H", 10, 10, 0.95), index("5H", 150, 190, 0.9)]
    for weak in (index("5H", 12, 14, 0.3), index("5H", 80, 100, 0.3)):  # a corner found again; the face's pips
        cards, warnings = merge_indices(two_sure + [weak], sure_from=0.7)
        assert len(cards) == 1 and len(cards[0].indices) == 3 and warnings == []


def test_distance_scales_with_index_size():
    small = [index("QS", 0, 0, size=10), index("QS", 150, 190, size=10)]  # 240 px apart, 10 px indices
    cards, warnings = merge_indices(small)
    assert len(cards) == 2 and warnings


def test_cards_are_sorted_by_confidence():
    cards, _ = merge_indices([index("2C", 0, 0, 0.5), index("3C", 500, 0, 0.99), index("4C", 900, 0, 0.7)])
    assert [c.code for c in cards] == ["3C", "4C", "2C"]


def test_one_index_found_twice_counts_once_and_at_most_two_corners_count():
    overlapping = [index("QD", 10, 10, 0.5), index("QD", 12, 14, 0.5)]
    cards, _ = merge_indices(overlapping)
    assert len(cards) == 1 and cards[0].confidence == pytest.approx(0.5)
    four_corners = [index("QD", x, y, 0.5) for x, y in ((0, 0), (150, 0), (0, 190), (150, 190))]
    cards, _ = merge_indices(four_corners)
    assert len(cards) == 1 and cards[0].confidence == pytest.approx(0.75)


@pytest.mark.parametrize("scale, first_inside", [((1.0, 1.6), (60.0, 64.0, 102.0, 115.2)),
                                                  ((2.5, 2.5), (150.0, 100.0, 255.0, 180.0))])
def test_moving_readings_into_a_resized_region_and_back_returns_them_unchanged(scale, first_inside):
    readings = [IndexReading((210.0, 130.0, 252.0, 162.0), "AS", 0.9, 0.8, np.linspace(0.0, 1.0, 53)),
                IndexReading((20.0, 300.0, 40.0, 333.0), "TD", 0.4, 0.3)]
    inside = readings_into(readings, (150, 90), scale)
    assert inside[0].box == pytest.approx(first_inside)
    back = readings_out_of(inside, (150, 90), scale)
    for before, after in zip(readings, back):
        assert after.box == pytest.approx(before.box)
        assert (after.code, after.probability, after.detector_score) == (before.code, before.probability,
                                                                         before.detector_score)
        assert after.class_probabilities is before.class_probabilities  # the classifier's output goes along


def test_of_two_repeated_codes_in_a_hand_of_14_only_the_least_sure_repeat_is_left_out():
    def at(k: int, code: str, probability: float) -> IndexReading:
        return IndexReading((300.0 * k, 0.0, 300.0 * k + 20, 30.0), code, probability, 0.9)

    others = [at(k, code, 0.95) for k, code in enumerate(["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS"])]
    readings = others + [at(10, "KH", 0.96), at(11, "KH", 0.9), at(12, "QD", 0.97), at(13, "QD", 0.8)]
    cards, warnings = merge_indices(readings)
    kept, warnings = leave_out_repeats(cards, warnings, 13)
    assert len(kept) == 13 and sorted(c.code for c in kept).count("KH") == 2
    assert sorted(c.code for c in kept).count("QD") == 1
    assert warnings == ["card seen twice: KH appears 2 times far apart",
                        "card seen twice: QD far apart in a hand of 14; the less sure (0.80) left out"]


def test_a_hand_of_its_size_or_fewer_keeps_every_repeat():
    readings = [IndexReading((0, 0, 20, 30), "KH", 0.9, 0.9), IndexReading((900, 900, 920, 930), "KH", 0.8, 0.9)]
    cards, warnings = merge_indices(readings)
    assert leave_out_repeats(cards, warnings, 2) == (cards, warnings)
    kept, said = leave_out_repeats(cards, warnings, 1)
    assert [c.code for c in kept] == ["KH"] and kept[0].indices[0].probability == 0.9
    assert said == ["card seen twice: KH far apart in a hand of 2; the less sure (0.80) left out"]


def test_two_readings_show_the_same_index_when_either_centre_lies_in_the_other_box():
    big = IndexReading((100.0, 100.0, 140.0, 150.0), "JH", 0.9, 0.9)
    assert same_index(big, IndexReading((101.0, 101.0, 121.0, 131.0), "JH", 0.6, 0.9))  # shifted, smaller
    assert same_index(IndexReading((90.0, 90.0, 200.0, 200.0), "JH", 0.6, 0.9), big)  # its centre outside the small one
    assert not same_index(big, IndexReading((145.0, 100.0, 185.0, 150.0), "9H", 0.9, 0.9))  # the index beside it


def probabilities(**named: float) -> np.ndarray:
    """A classifier answer over the 53 classes with the given codes' probabilities and the rest spread thinly."""
    from vision.crops import CLASS_NAMES
    answer = np.zeros(len(CLASS_NAMES), np.float32)
    for code, p in named.items():
        answer[CLASS_NAMES.index(code)] = p
    return answer


def test_a_cards_alternatives_are_its_corners_other_codes_averaged_likeliest_first():
    top = IndexReading((10, 10, 30, 50), "7H", 0.5, 0.9, probabilities(**{
        "7H": 0.5, "7D": 0.3, "TH": 0.12, "none": 0.04, "7S": 0.036, "8H": 0.004}))
    bottom = IndexReading((150, 190, 170, 230), "7H", 0.7, 0.9, probabilities(**{
        "7H": 0.7, "TH": 0.25, "7D": 0.04, "2C": 0.008, "3C": 0.0016, "4C": 0.0004}))
    card, = merge_indices([top, bottom])[0]
    # means: TH 0.185, 7D 0.17, 7S 0.018, none 0.02 (never offered), 2C 0.004, 8H 0.002, 3C 0.0008, 4C 0.0002
    assert [code for code, _ in card.alternatives()] == ["TH", "7D", "7S", "2C", "8H"]
    assert dict(card.alternatives()) == pytest.approx({"TH": 0.185, "7D": 0.17, "7S": 0.018, "2C": 0.004,
                                                       "8H": 0.002})
    assert [code for code, _ in card.alternatives(limit=10)] == ["TH", "7D", "7S", "2C", "8H"]  # 3C under 0.001
    assert [code for code, _ in card.alternatives(limit=1)] == ["TH"]
    assert [code for code, _ in card.alternatives(min_probability=0.18)] == ["TH"]


def test_a_card_read_without_class_probabilities_offers_no_alternatives():
    card, = merge_indices([index("AS", 10, 10)])[0]
    assert card.alternatives() == []
