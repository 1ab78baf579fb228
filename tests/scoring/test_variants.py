"""Golden tests for seed 004's 変種 (../shared/seeds/004_*, lines 105-108): low in the middle, criss cross,
the 11-point game.  Each test quotes the seed line it checks; expected figures are worked out by hand.
"""

import itertools
import random
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from scoring_helpers import settle
from scoring_reference import RANKS, reference_rank

import scoring
from scoring import ScoringError
from scoring.cards import CODES, card_from_text
from scoring.evaluate import evaluate_five_batch, evaluate_three_batch

# ---- low in the middle (line 105) -------------------------------------------------------------------

# Fronts and backs that tie exactly, so only the middle decides; 7-5-4-3-2 of mixed suits in Ann's middle.
ANN_FRONT, ANN_BACK = "KS 8H 6D", "TS TH JD JC QS"
BOB_FRONT, BOB_BACK = "KH 8D 6C", "TD TC JS JH QH"
SEVEN_LOW = "2S 3H 4D 5C 7S"


def low_pair(ann_middle: str, bob_middle: str) -> dict:
    return {"Ann": f"{ANN_FRONT} / {ann_middle} / {ANN_BACK}", "Bob": f"{BOB_FRONT} / {bob_middle} / {BOB_BACK}"}


@pytest.mark.parametrize("bob_middle, ann_net", [
    ("2D 3D 4H 6S 8S", 1),    # 8-6-4-3-2: a worse low
    ("AD 2D 3C 4H 5H", 1),    # A-2-3-4-5 is ace high in deuce-to-seven, not a wheel
    ("3D 4C 5H 6H 7D", 1),    # a straight is a made hand: bad for a low
    ("2H 4H 5H 6H 7H", 1),    # so is a flush, even a 7-high one
    ("2H 3S 4S 5S 7C", 0),    # the same 7-5-4-3-2: a tie pushes
])
def test_low_middle_seven_five_is_the_best_low(bob_middle, ann_net):
    """Line 105: 二道ではデューストゥセブン(2-3-4-5-7が一番弱い)のローハンドを競う — 2-3-4-5-7 is the weakest
    hand, so it wins the middle against any other."""
    result = settle("low-middle", low_pair(SEVEN_LOW, bob_middle))
    rows = result["pairs"][0]["rows"]
    assert [row["winner"] for row in rows] == [None, "Ann" if ann_net else None, None]
    assert result["net"] == {"Ann": ann_net, "Bob": -ann_net}


def test_low_middle_a_flush_loses_to_an_eight_low():
    """Line 105 (deuce-to-seven): straights and flushes count against a low, so 7-5-4-3-2 suited is a flush
    and loses to 8-6-4-3-2 of mixed suits."""
    result = settle("low-middle", low_pair("2C 3C 4C 5C 7C", "2D 3D 4H 6S 8S"))
    assert result["pairs"][0]["rows"][1]["winner"] == "Bob"
    assert "Flush" in result["players"]["Ann"]["rows"][1]["hand"]


def test_low_middle_wheel_is_read_ace_high():
    """Line 105: deuce-to-seven reads A-2-3-4-5 as ace high (only 2-3-4-5-7 and up are lows of note)."""
    result = settle("low-middle", low_pair(SEVEN_LOW, "AD 2D 3C 4H 5H"))
    assert result["players"]["Bob"]["rows"][1]["hand"] == "Ace high"


LOW_LEGAL = "AS AH KD / 2S 3H 4D 5C 7S / QS QH QD 9S 9H"       # pair of aces in front, a 7 low, a full house
FRONT_OVER_BACK = "QS QH QD / 2S 3H 4D 5C 7S / AS AH KD 9S 9H"  # three queens in front, two pair behind


def test_low_middle_order_front_below_back_only():
    """Line 105 with 尾を一番高い手に、頭を一番低い手に (the 手の作り方 section): the middle plays low, so only the
    two high rows are ordered — a pair of aces over a 7 low is legal here and fouled in the 2-4 game."""
    assert scoring.foul_reason(LOW_LEGAL, "low-middle") is None
    assert scoring.foul_reason(LOW_LEGAL, "2-4") == "front Pair of Aces is not below middle Seven high"
    assert scoring.foul_reason(LOW_LEGAL, "low-middle", {"low_middle_order": "high-order"}) is not None
    reason = scoring.foul_reason(FRONT_OVER_BACK, "low-middle")
    assert reason == "front Three Queens is not below back Two pair, Aces and Nines"


def test_low_middle_fouled_hand_pays_as_scooped():
    """Line 93 under line 105: a hand out of order pays every opponent as if scooped (4 in the 2-4 method)."""
    bob = "2C 3C 4C / 6S 6D 7C 7D 8S / 8H 9D TS JS QC"
    result = settle("low-middle", {"Ann": FRONT_OVER_BACK, "Bob": bob})
    assert result["players"]["Ann"]["status"] == "fouled"
    assert result["net"] == {"Ann": -4, "Bob": 4}


def test_low_middle_pays_no_middle_royalty():
    """Line 105 with 追加点 (line 77: 二道にフルハウス以上): a full house is a losing low, so the middle royalty is
    not paid unless low_middle_royalties says so."""
    ann = "2S 3S 5D / 9S 9H 9D TC TD / AS AH AD AC QS"     # middle full house
    bob = "2C 3C 5S / 4D 6C 7H 8D JH / KS KH KD QH QD"     # a J-8 low in the middle
    plain = settle("low-middle", {"Ann": ann, "Bob": bob}, options={"royalties": True})
    assert plain["players"]["Ann"]["rows"][1]["value"] == 1
    paid = settle("low-middle", {"Ann": ann, "Bob": bob}, options={"royalties": True, "low_middle_royalties": True})
    assert paid["players"]["Ann"]["rows"][1]["value"] == 2


# legal_fix under low in the middle, against a brute force over every split with an independent reading.

def reference_low(cards: list[str]) -> tuple:
    """A deuce-to-seven row as a high hand (lower wins): aces high, A-2-3-4-5 is no straight."""
    values = sorted((RANKS.index(card[0]) + 2 for card in cards), reverse=True)
    if values == [14, 5, 4, 3, 2]:
        flush = len({card[1] for card in cards}) == 1
        return (5 if flush else 0, values)
    return reference_rank(cards)


def _splits():
    for front in itertools.combinations(range(13), 3):
        rest = [p for p in range(13) if p not in front]
        for middle in itertools.combinations(rest, 5):
            yield front, middle, tuple(p for p in rest if p not in middle)


LAID = ((0, 1, 2), (3, 4, 5, 6, 7), (8, 9, 10, 11, 12))
SPLITS = list(_splits())
MOVES = np.array([sum(p not in laid for row, laid in zip(split, LAID) for p in row) for split in SPLITS])


def fewest_moves_low(cards: list[str], high_order: bool) -> int:
    ints = np.array([card_from_text(card) for card in cards])
    fronts = evaluate_three_batch(ints[[s[0] for s in SPLITS]]).astype(np.int64)
    middles = evaluate_five_batch(ints[[s[1] for s in SPLITS]], False, False).astype(np.int64)
    backs = evaluate_five_batch(ints[[s[2] for s in SPLITS]]).astype(np.int64)
    legal = (fronts < middles) & (middles <= backs) if high_order else fronts < backs
    return int(MOVES[legal].min())


@pytest.mark.parametrize("order", ["front-below-back", "high-order"])
def test_low_middle_legal_fix_moves_fewest_cards(order):
    """Line 105: legal_fix follows the preset's own order — the fix is legal under it (foul_reason None, and
    the rows in order by the independent deuce-to-seven reading) and moves as few cards as any legal split."""
    options = {"low_middle_order": order}
    rng = random.Random(order)
    checked = Counter()
    while sum(checked.values()) < 6:
        deck = list(CODES)
        rng.shuffle(deck)
        cards = deck[:13]
        laid = {"front": cards[:3], "middle": cards[3:8], "back": cards[8:], "natural": False}
        if scoring.foul_reason(laid, "low-middle", options) is None:
            continue
        fixed = scoring.legal_fix(laid, "low-middle", options)
        assert scoring.foul_reason({**fixed, "natural": False}, "low-middle", options) is None
        front, middle, back = (reference_rank(fixed["front"]), reference_low(fixed["middle"]),
                               reference_rank(fixed["back"]))
        assert front < back and (order == "front-below-back" or front < middle <= back)
        moved = sum(card not in laid[row] for row in ("front", "middle", "back") for card in fixed[row])
        assert moved == fewest_moves_low(cards, order == "high-order")
        checked[moved] += 1


# ---- criss cross (line 106) --------------------------------------------------------------------------

DECK = random.Random(106).sample(CODES, 52)


def legal(cards: list[str]) -> str:
    from scoring_helpers import strongest_back_arrangement
    return strongest_back_arrangement(cards)


ANN_SETS = [legal(DECK[0:13]), legal(DECK[13:26])]
BOB_SETS = [legal(DECK[26:39]), legal(DECK[39:52])]


def two_four(first: str, second: str) -> int:
    """What Ann's set wins from Bob's as a plain two-player 2-4 round."""
    return settle("2-4", {"Ann": first, "Bob": second})["net"]["Ann"]


def test_criss_cross_each_set_meets_each_opposing_set():
    """Line 106: 2組のカードそれぞれを相手と比較する … それぞれ独立した手とみなされ — each of a player's two sets is
    an independent hand compared with the opponent's: the cross of 2 × 2 comparisons, each a 2-4 pair."""
    result = settle("criss-cross", {"Ann": {"sets": ANN_SETS}, "Bob": {"sets": BOB_SETS}})
    expected = sum(two_four(a, b) for a in ANN_SETS for b in BOB_SETS)
    assert result["net"] == {"Ann": expected, "Bob": -expected}
    assert [pair["sets"] for pair in result["pairs"]] == [[1, 1], [1, 2], [2, 1], [2, 2]]
    assert [pair["net"]["Ann"] for pair in result["pairs"]] == [two_four(a, b) for a in ANN_SETS for b in BOB_SETS]
    assert [entry["status"] for entry in result["players"]["Ann"]["sets"]] == ["rows", "rows"]


def test_criss_cross_set_vs_set():
    """Line 106, criss_cross = set-vs-set: first set against first, second against second."""
    result = settle("criss-cross", {"Ann": {"sets": ANN_SETS}, "Bob": {"sets": BOB_SETS}},
                    options={"criss_cross": "set-vs-set"})
    expected = two_four(ANN_SETS[0], BOB_SETS[0]) + two_four(ANN_SETS[1], BOB_SETS[1])
    assert result["net"] == {"Ann": expected, "Bob": -expected}


def test_criss_cross_a_fouled_set_is_its_own():
    """Line 106: the sets are independent — one fouled set loses its comparisons, the other plays on."""
    fouled = "AS AH AD / 2C 3C 5S 9S JS / KS KH KD QS QH"
    rest = [code for code in CODES if code not in fouled.replace("/", " ").split()]
    ann = [fouled, legal(rest[0:13])]
    bob = [legal(rest[13:26]), legal(rest[26:39])]
    result = settle("criss-cross", {"Ann": {"sets": ann}, "Bob": {"sets": bob}})
    assert [entry["status"] for entry in result["players"]["Ann"]["sets"]] == ["fouled", "rows"]
    assert [pair["net"]["Ann"] for pair in result["pairs"][:2]] == [-4, -4]
    assert result["pairs"][2]["net"]["Ann"] == two_four(ann[1], bob[0])


def test_criss_cross_no_card_moves_between_sets():
    """Line 106: 2組の間でカードの交換をしてはならない — the 52 cards are dealt once; a card in two sets is refused."""
    moved = ANN_SETS[1].replace(DECK[13], DECK[0])
    with pytest.raises(ScoringError, match=f"{DECK[0]} is in both Ann \\(set 1\\)'s and Ann \\(set 2\\)'s hands"):
        settle("criss-cross", {"Ann": {"sets": [ANN_SETS[0], moved]}, "Bob": {"sets": BOB_SETS}})


@pytest.mark.parametrize("players, message", [
    ({"Ann": {"sets": ANN_SETS}, "Bob": {"sets": BOB_SETS}, "Cy": {"sets": BOB_SETS}}, "exactly 2 players, got 3"),
    ({"Ann": ANN_SETS[0], "Bob": {"sets": BOB_SETS}}, "Ann: criss cross needs the player's two hands"),
    ({"Ann": {"sets": ANN_SETS[:1]}, "Bob": {"sets": BOB_SETS}}, "Ann: criss cross needs the player's two hands"),
])
def test_criss_cross_refuses_what_it_cannot_deal(players, message):
    """Line 106 with one 52-card deck: two sets of 13 each for two players; anything else is one clear line."""
    with pytest.raises(ScoringError, match=message):
        settle("criss-cross", players)


def test_criss_cross_settings_need_two_players():
    with pytest.raises(ScoringError, match="exactly 2 players"):
        scoring.validate_settings("criss-cross", players=["Ann", "Bob", "Cy"])
    assert scoring.validate_settings("criss-cross", players=["Ann", "Bob"])["options"]["criss_cross"] == "each-vs-each"
    with pytest.raises(ScoringError, match="cannot be combined with criss_cross"):
        scoring.validate_settings("criss-cross", {"overall_bonus": 11})


# ---- the 11-point game (line 108) ----------------------------------------------------------------------

# A scoops everyone; C scoops B; D wins two rows to one against B and against C (as in test_scoring_presets).
DEAL = {
    "A": "AS AH KD / KS KH KC 2S 3S / QS QH QD 5S 5H",
    "B": "2C 3D 4C / 6S 6D 7C 7D 9S / 8S 9D TS JS QC",
    "C": "4S 5D 6C / 8C 8D TC TD AC / 2H 3H 4H 7H 9H",
    "D": "AD 4D 5C / JH JD JC 2D 3C / 6H 7S 8H 9C TH",
}


def nets(result: dict) -> dict:
    return {name: Fraction(value) for name, value in result["net"].items()}


def test_eleven_point_four_players():
    """Line 108: 手ごとに1点を得るが、ゲーム全体の勝者は11点を得る。4人で競技している時、3つすべての手で勝った競技者は、
    第4点を得る。 Rows: A 3+3+3, C 3 from B, D 1 from B and 1 from C; A won all three rows against everyone:
    a fourth point from each (A 12, B -8, C -2, D -2); A has the most: 11, the others paying 11/3 each."""
    result = settle("eleven-point", DEAL)
    third = Fraction(11, 3)
    assert nets(result) == {"A": 23, "B": -8 - third, "C": -2 - third, "D": -2 - third}
    rules_applied = [step["rule"] for pair in result["pairs"] for step in pair["steps"]]
    assert rules_applied.count("fourth-point") == 3 and rules_applied.count("overall") == 3


def test_eleven_point_three_and_two_players_have_no_fourth_point():
    """Line 108: the fourth point is for 4人で競技している時; at three and two players the rows and the
    overall winner's 11 remain (split between the two others at three)."""
    three = settle("eleven-point", {name: DEAL[name] for name in "ABC"})
    assert nets(three) == {"A": 6 + 11, "B": -6 - Fraction(11, 2), "C": 0 - Fraction(11, 2)}
    two = settle("eleven-point", {name: DEAL[name] for name in "AB"})
    assert nets(two) == {"A": 3 + 11, "B": -14}


def test_eleven_point_options():
    """Line 108 read otherwise: a fourth point per opponent scooped; every other player paying the 11."""
    per_scoop = settle("eleven-point", DEAL, options={"fourth_point": "per-scoop"})
    third = Fraction(11, 3)
    assert nets(per_scoop) == {"A": 23, "B": -9 - third, "C": -1 - third, "D": -2 - third}
    each = settle("eleven-point", DEAL, options={"overall_payment": "each"})
    assert nets(each) == {"A": 12 + 33, "B": -19, "C": -13, "D": -13}
    three_table = settle("eleven-point", {name: DEAL[name] for name in "ABC"},
                         options={"fourth_point_min_players": 3})
    assert nets(three_table) == {"A": 8 + 11, "B": -7 - Fraction(11, 2), "C": -1 - Fraction(11, 2)}


def test_eleven_point_level_players_get_no_overall_bonus():
    """Line 108: ゲーム全体の勝者 is one player; two level on the most (one row each, one tie) get nothing."""
    ann = "2S 3H 5D / 6S 6H 8D 9C JS / KS KH 4C 4D 7C"
    bob = "2C 3C 5S / 6D 6C 8S 9D QH / TS TH 4S 4H 7D"
    result = settle("eleven-point", {"Ann": ann, "Bob": bob})
    assert result["net"] == {"Ann": 0, "Bob": 0}


def test_eleven_point_needs_every_pair():
    with pytest.raises(ScoringError, match="need mode = all-pairs"):
        settle("eleven-point", DEAL, banker="A", options={"mode": "banker"})


# ---- the one door: bad input, settle_many -----------------------------------------------------------

@pytest.mark.parametrize("entry, message", [
    ({"sets": "x"}, "Ann: criss cross needs the player's two hands"),
    ({"sets": [1, 2]}, "Ann \\(set 1\\): a hand is a text, a list or an object, not int"),
    ({"sets": [ANN_SETS[0], {"front": "AS"}]}, "Ann \\(set 2\\): the hand has front but no middle, back"),
    ({"sets": ANN_SETS, "natural": True}, "Ann: criss cross needs the player's two hands"),
])
def test_criss_cross_bad_entries_are_one_line_errors(entry, message):
    with pytest.raises(ScoringError, match=message) as raised:
        settle("criss-cross", {"Ann": entry, "Bob": {"sets": BOB_SETS}})
    assert "\n" not in str(raised.value)


@pytest.mark.parametrize("options, message", [
    ({"low_middle": "yes"}, "option low_middle must be true or false"),
    ({"criss_cross": 3}, "option criss_cross must be one of off, each-vs-each, set-vs-set"),
    ({"overall_bonus": 10 ** 7}, "option overall_bonus must be a whole number"),
    ({"fourth_point_min_players": 5}, "option fourth_point_min_players must be a whole number from 2 to 4"),
])
def test_variant_options_are_checked(options, message):
    with pytest.raises(ScoringError, match=message):
        scoring.validate_settings("2-4", options)


def test_settle_many_gives_the_one_round_results_for_variants():
    rounds = [{"rules": "low-middle", "players": low_pair(SEVEN_LOW, "2D 3D 4H 6S 8S")},
              {"rules": "eleven-point", "players": DEAL},
              {"rules": "criss-cross", "players": {"Ann": {"sets": ANN_SETS}, "Bob": {"sets": BOB_SETS}}}]
    assert scoring.settle_many(rounds) == [scoring.settle(round_, audit=False) for round_ in rounds]


def test_low_middle_odds_fall_as_the_low_gets_worse():
    """legal_fix's tie-break under line 105: a middle's odds of beating a random middle played low — the best
    low (7-5-4-3-2 unsuited) beats nearly every row, odds fall with every worse low, a royal flush beats none."""
    from scoring.row_odds import ODDS_SCALE
    from scoring.row_order import _low_odds_table
    strengths, odds = _low_odds_table()
    assert np.all(np.diff(odds) < 0)
    best = evaluate_five_batch(np.array([[card_from_text(c) for c in SEVEN_LOW.split()]]), False, False)[0]
    royal = evaluate_five_batch(np.array([[card_from_text(c) for c in "TS JS QS KS AS".split()]]), False, False)[0]
    assert strengths[0] == best and odds[0] > ODDS_SCALE * 0.999
    assert strengths[-1] == royal and odds[-1] < ODDS_SCALE * 0.000001
