import itertools
import random

import numpy as np
import pytest
from scoring_reference import reference_rank

from scoring import ScoringError
from scoring.cards import CODES, card_from_text
from scoring.evaluate import (CATEGORIES, category_of, evaluate_five, evaluate_five_batch, evaluate_row,
                              evaluate_three, evaluate_three_batch)
from scoring.hand_names import describe_en, describe_zh


def strength(text: str, wheel_second: bool = False) -> int:
    return evaluate_row([card_from_text(code) for code in text.split()], wheel_second)


def category(text: str) -> str:
    return CATEGORIES[category_of(strength(text))]


@pytest.mark.parametrize("text, expected", [
    ("2S 7H 9D JC KS", "high-card"), ("2S 2H 9D JC KS", "pair"), ("2S 2H 9D 9C KS", "two-pair"),
    ("2S 2H 2D JC KS", "trips"), ("5S 6H 7D 8C 9S", "straight"), ("AS 2H 3D 4C 5S", "straight"),
    ("2S 7S 9S JS KS", "flush"), ("2S 2H 2D KC KS", "full-house"), ("2S 2H 2D 2C KS", "quads"),
    ("5H 6H 7H 8H 9H", "straight-flush"), ("TS JS QS KS AS", "straight-flush"),
    ("AS KS QS", "high-card"), ("AS AH QS", "pair"), ("AS AH AD", "trips"),
    ("QS KS AS", "high-card"),  # a 3-card front never makes a straight or a flush
    ("JS QH KD AC 2S", "high-card"),  # no wrap-around straights
])
def test_categories(text, expected):
    assert category(text) == expected


def test_category_order_is_the_seed_order():
    # seed 000 line 42: 同花顺〉铁支〉葫芦〉同花〉顺子〉三条〉二对〉一对〉乌龙
    ladder = ["2S 4H 6D 8C TS", "2S 2H 6D 8C TS", "2S 2H 6D 6C TS", "2S 2H 2D 8C TS", "2S 3H 4D 5C 6S",
              "2S 4S 6S 8S TS", "2S 2H 2D 8C 8S", "2S 2H 2D 2C TS", "2S 3S 4S 5S 6S"]
    strengths = [strength(text) for text in ladder]
    assert strengths == sorted(strengths) and len(set(strengths)) == len(strengths)


@pytest.mark.parametrize("lower, higher", [
    ("KS QH 9D 7C 5S", "KH QD 9C 7S 6S"),          # high card: fifth card decides
    ("9S 9H AD 7C 5S", "9D 9C AH 8S 2S"),          # pair: kickers in order
    ("KS KH 2D 2C AS", "KD KC 3D 3C 4S"),          # two pair: low pair before kicker
    ("QD QC 3H 3S 2S", "QS QH 3D 3C AS"),          # two pair: same pairs, the kicker decides
    ("7S 7H 7D 2C 3S", "7C 7H 7D 2S 4S"),          # trips (one deck cannot, the table still orders it)
    ("5S 6S 7S 8S 9S", "6H 7H 8H 9H TH"),          # straight flushes by top card
])
def test_kicker_order(lower, higher):
    assert strength(lower) < strength(higher)


def test_full_house_compares_trips_then_pair():
    assert strength("3S 3H 3D AC AS") < strength("4S 4H 4D 2C 2S")
    assert strength("4S 4H 4C 2D 2S") < strength("4S 4H 4D 3C 3S")


def test_suits_never_break_ties():
    assert strength("AS KS 9H 7D 5C") == strength("AH KH 9S 7C 5D")
    assert strength("2S 3S 4S 5S 7S") == strength("2H 3H 4H 5H 7H")


def test_wheel_is_lowest_by_default_and_second_with_the_option():
    wheel, six_high, king_high, ace_high = "AS 2H 3D 4C 5S", "2S 3H 4D 5C 6S", "9S TH JD QC KS", "TS JH QD KC AS"
    assert strength(wheel) < strength(six_high)
    # seed 004 line 107: The Wheel ... 9-10-J-Q-K より強いが、10-J-Q-K-A より弱い
    assert strength(king_high, True) < strength(wheel, True) < strength(ace_high, True)
    assert strength("AH 2H 3H 4H 5H", True) > strength("9H TH JH QH KH", True)
    assert describe_en(strength(wheel, True)) == "Straight, Five high (wheel)"


def test_front_against_middle_compares_category_then_ranks_and_missing_cards_count_lowest():
    assert strength("AS AH KD") < strength("AC AD KS QH JS")     # same ranks as far as the front goes
    assert strength("AS AH KD") > strength("AC AD QS JH TS")
    assert strength("KS KH KD") > strength("AS AH QD QH JS")     # trips beat two pair
    assert strength("KS KH KD") < strength("AS AH AD QH JS")
    assert strength("AS KH QD") < strength("AC KD QC JH 9S")
    assert strength("AS KH QD") > strength("AC JD 9C 8H 7S")


def test_row_sizes_are_checked():
    with pytest.raises(ScoringError):
        evaluate_row([0, 1, 2, 3])


def test_batch_agrees_with_scalar_on_random_rows():
    rng = np.random.default_rng(7)
    rows = np.argsort(rng.random((5000, 52)), axis=1)[:, :5]
    batch = evaluate_five_batch(rows)
    assert batch.tolist() == [evaluate_five(row) for row in rows.tolist()]
    fronts = rows[:, :3]
    assert evaluate_three_batch(fronts).tolist() == [evaluate_three(row) for row in fronts.tolist()]


def test_batch_sorting_network_handles_every_order():
    # every permutation of a few rows must give the same strength
    base = [card_from_text(code) for code in ("AS", "KD", "KH", "3C", "7S")]
    rows = np.array(list(itertools.permutations(base)))
    assert len(set(evaluate_five_batch(rows).tolist())) == 1


def test_batch_rejects_bad_shapes_and_values():
    with pytest.raises(ScoringError):
        evaluate_five_batch(np.zeros((3, 4), dtype=np.int32))
    with pytest.raises(ScoringError):
        evaluate_five_batch(np.full((1, 5), 52))


def test_order_matches_treys_on_random_rows():
    treys = pytest.importorskip("treys")
    evaluator = treys.Evaluator()
    rng = random.Random(11)
    rows = [rng.sample(CODES, 5) for _ in range(3000)]
    ours = [strength(" ".join(row)) for row in rows]
    theirs = [evaluator.evaluate([treys.Card.new(c[0] + c[1].lower()) for c in row[:2]],
                                 [treys.Card.new(c[0] + c[1].lower()) for c in row[2:]]) for row in rows]
    for i in range(len(rows) - 1):
        ours_cmp = (ours[i] > ours[i + 1]) - (ours[i] < ours[i + 1])
        theirs_cmp = (theirs[i] < theirs[i + 1]) - (theirs[i] > theirs[i + 1])  # treys: lower is better
        assert ours_cmp == theirs_cmp, (rows[i], rows[i + 1])


def test_order_matches_the_naive_reference_including_fronts():
    rng = random.Random(12)
    for _ in range(3000):
        size_a, size_b = rng.choice([(3, 3), (3, 5), (5, 5)])
        cards = rng.sample(CODES, size_a + size_b)
        a, b = cards[:size_a], cards[size_a:]
        ours = (strength(" ".join(a)) > strength(" ".join(b))) - (strength(" ".join(a)) < strength(" ".join(b)))
        ref = (reference_rank(a) > reference_rank(b)) - (reference_rank(a) < reference_rank(b))
        assert ours == ref, (a, b)


@pytest.mark.parametrize("text, english, chinese", [
    ("AS AH 4D 7C 9S", "Pair of Aces", "一對（A）"),
    ("3S 3H 3D 2C 2S", "Full house, Threes full of Twos", "葫蘆（3、2）"),
    ("KH JH 9H 8H 7H", "Flush, King high", "同花（K大）"),
    ("TS JS QS KS AS", "Straight flush, Ace high", "同花順（A大）"),
    ("AS 2H 3D 4C 5S", "Straight, Five high (wheel)", "順子（5大）"),
    ("9S 9H 5D 5C 4S", "Two pair, Nines and Fives", "兩對（9、5）"),
    ("QS QH QD", "Three Queens", "三條（Q）"),
    ("7S 7H 7D 7C 2S", "Four Sevens", "鐵支（7）"),
    ("AS KH QD", "Ace high", "烏龍（A大）"),
])
def test_hand_names(text, english, chinese):
    value = strength(text)
    assert describe_en(value) == english
    assert describe_zh(value) == chinese
