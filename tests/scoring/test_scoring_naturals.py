"""Natural (報到 / 特殊牌型) detection, checked hand by hand against the seeds' definitions."""

import random

import pytest
from scoring_reference import reference_rank

import scoring
from scoring import ScoringError
from scoring.cards import CODES

DRAGON = "2S 3H 4D 5C 6S 7H 8D 9C TS JH QD KC AS"
SUPREME_DRAGON = "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"
SIX_PAIRS = "2S 2H 3S 3H 4S 4H 5S 5H 6S 6H 7S 7H 9C"
THREE_QUADS = "2S 2H 2D 2C 3S 3H 3D 3C 4S 4H 4D 4C 5S"
FOUR_TRIPS = "2S 2H 2D 3S 3H 3D 4S 4H 4D 5S 5H 5D KC"
FIVE_PAIRS_TRIPS = "2S 2H 3S 3H 4S 4H 5S 5H 9S 9H 7S 7H 7D"
TWO_FULL_HOUSES_PAIR = "2S 2H 2D 3S 3H 3D 4S 4H 5S 5H 6S 6H 9C"
ALL_SMALL = "2S 2H 3D 4C 4S 5H 5D 6C 6S 7H 7D 8C 8S"
ALL_BIG = "8S 8H 9D 9C TS JH JD QC QS KH KD AC AS"
TWELVE_ROYALS = "JS JH JD QC QS QH KD KC KS AH AD AC AS"
TWELVE_ROYALS_AND_A_TWO = "JS JH JD QC QS QH KD KC KS AH AD AC 2S"
ONE_COLOR_BLACK = "2S 4S 6S 8S TS QS AS 3C 5C 7C 9C JC KC"
THREE_FLUSHES = "2D 9D KD 3S 5S 7S 9S JS 4H 6H 8H TH AH"
THREE_STRAIGHTS = "2S 3H 4D 5C 6S 7H 8D 9C TS JH QD KC AS"  # also a dragon
THREE_STRAIGHTS_ONLY = "2S 3H 4D 4C 5S 6H 7D 8C 9S TH JD QC KS"
QKA_FRONT_ONLY = "QS KH AD AC 2S 3H 4D 5C 6S 7H 8D 9C TS"
THREE_STRAIGHT_FLUSHES = "2S 3S 4S 4H 5H 6H 7H 8H 9D TD JD QD KD"


def ids(hand: str, rules: str, **options) -> list[str]:
    return [found["id"] for found in scoring.detect_naturals(hand, rules, options or None)]


def test_dragon_and_supreme_dragon():
    assert "dragon" in ids(DRAGON, "points")                     # seed 000 line 189
    assert "supreme-dragon" not in ids(DRAGON, "points")
    assert ids(SUPREME_DRAGON, "points")[0] == "supreme-dragon"  # seed 000 line 195: 全同花的一條龍


def test_pair_and_set_naturals():
    assert ids(SIX_PAIRS, "points") == ["six-pairs"]             # 6對加1張雜牌
    assert ids(FOUR_TRIPS, "points") == ["four-trips"]           # 4組三條加1張雜牌
    # 三分天下 (3 quads) also counts as six pairs (seed 000 line 169: 等於六對半)
    assert ids(THREE_QUADS, "taiwan-banker")[:1] == ["three-quads"]
    assert "six-pairs" in ids(THREE_QUADS, "taiwan-banker")


def test_fujian_only_naturals():
    assert ids(FIVE_PAIRS_TRIPS, "fujian")[0] == "five-pairs-and-trips"        # seed 002 line 67
    assert "five-pairs-and-trips" not in ids(SIX_PAIRS, "fujian")
    assert ids(TWO_FULL_HOUSES_PAIR, "fujian")[0] == "two-full-houses-and-pair"  # seed 002 line 65
    assert "two-full-houses-and-pair" not in ids(FOUR_TRIPS, "fujian")  # the other two trips are no 3 pairs
    assert "two-full-houses-and-pair" not in ids(SIX_PAIRS, "fujian")
    # the other presets do not know them
    assert "five-pairs-and-trips" not in ids(FIVE_PAIRS_TRIPS, "points")


def test_all_small_all_big_twelve_royals():
    assert "all-small" in ids(ALL_SMALL, "points")     # 13張牌皆為2~8
    assert "all-big" in ids(ALL_BIG, "points")         # 13張牌皆為8~K和A
    assert "all-big" not in ids(ALL_SMALL, "points")
    assert ids(TWELVE_ROYALS, "points")[0] == "twelve-royals"
    # seed 000/001: 牌中只有JQKA (all 13); seed 002: 12 张 (J、Q、K、A)
    assert "twelve-royals" not in ids(TWELVE_ROYALS_AND_A_TWO, "points")
    assert "twelve-royals" in ids(TWELVE_ROYALS_AND_A_TWO, "fujian")
    assert "twelve-royals" in ids(TWELVE_ROYALS_AND_A_TWO, "points", twelve_royals_min=12)


def test_one_color_follows_the_option():
    assert "one-color" in ids(ONE_COLOR_BLACK, "points")
    assert "one-color" not in ids(ONE_COLOR_BLACK, "fujian", one_color="dc-sh")
    diamonds_clubs = "2D 4D 6D 8D TD QD AD 3C 5C 7C 9C JC KC"
    assert "one-color" in ids(diamonds_clubs, "fujian", one_color="dc-sh")
    assert "one-color" not in ids(diamonds_clubs, "fujian")


def _assert_rows_show(found: dict, straight: bool, flush: bool) -> None:
    rows = found["rows"]
    assert [len(rows[row]) for row in ("front", "middle", "back")] == [3, 5, 5]
    for row in ("front", "middle", "back"):
        cards = rows[row]
        if flush:
            assert len({card[1] for card in cards}) == 1, rows
        if straight:
            values = sorted("23456789TJQKA".index(card[0]) for card in cards)
            ace_low = list(range(len(values) - 1)) + [12]   # A-2-3 or A-2-3-4-5
            assert values == list(range(values[0], values[0] + len(values))) or values == ace_low, rows
    assert reference_rank(rows["middle"]) <= reference_rank(rows["back"])


def test_three_flushes_with_an_arrangement():
    found = scoring.detect_naturals(THREE_FLUSHES, "points")
    assert found[0]["id"] == "three-flushes"
    _assert_rows_show(found[0], straight=False, flush=True)
    assert sorted(sum(found[0]["rows"].values(), [])) == sorted(THREE_FLUSHES.split())
    # 8 hearts + 5 spades also split into 3 + 5 + 5 one-suit rows
    assert "three-flushes" in ids("2H 3H 4H 5H 6H 8H 9H JH 2S 5S 7S 9S KS", "points")
    assert "three-flushes" not in ids("2H 3H 4H 5H 6H 8H 9H 2S 5S 7S 9S KS AD", "points")


def test_three_straights_with_an_arrangement():
    found = [f for f in scoring.detect_naturals(THREE_STRAIGHTS_ONLY, "points") if f["id"] == "three-straights"]
    assert found
    _assert_rows_show(found[0], straight=True, flush=False)
    assert sorted(sum(found[0]["rows"].values(), [])) == sorted(THREE_STRAIGHTS_ONLY.split())


def test_front_qka_excluded_where_the_seed_says():
    # seed 000 line 129: 三順子 ... 首墩亦為三張連續數字（QKA, KA2不算在內）
    assert "three-straights" not in ids(QKA_FRONT_ONLY, "points")
    assert "three-straights" in ids(QKA_FRONT_ONLY, "points", front_straights="standard")
    assert "three-straights" in ids(QKA_FRONT_ONLY, "fujian")


def test_three_straight_flushes():
    found = scoring.detect_naturals(THREE_STRAIGHT_FLUSHES, "taiwan-banker")
    assert found[0]["id"] == "three-straight-flushes"
    _assert_rows_show(found[0], straight=True, flush=True)
    # three straights and three flushes, but not with the same split: no straight flushes
    assert "three-straight-flushes" not in ids("2S 3S 4H 5H 6H 7H 8H 9S TS JS QS KS AD", "taiwan-banker")


def test_best_natural_first_and_hk_ranking():
    assert ids(SUPREME_DRAGON, "hk")[:2] == ["supreme-dragon", "dragon"]
    assert ids(DRAGON, "hk") == ["dragon", "three-straights"]


def test_random_hands_rarely_make_naturals_and_never_crash():
    rng = random.Random(3)
    hits = 0
    for _ in range(2000):
        hand = " ".join(rng.sample(CODES, 13))
        hits += bool(scoring.detect_naturals(hand, "fujian"))
    assert hits < 200  # naturals are rare (six pairs is the commonest, about 1 hand in 50 or so)


def test_detect_naturals_needs_13_cards():
    with pytest.raises(ScoringError):
        scoring.detect_naturals("AS KS QS", "hk")
