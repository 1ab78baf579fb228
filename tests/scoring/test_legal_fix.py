"""scoring.legal_fix, scoring.foul_reason and detect_naturals on laid rows.

legal_fix is checked against a brute force over all 72,072 splits (enumerated here, independently of
scoring.splits): the fewest cards moved, then the documented tie-break (docs/scoring-presets.md).
"""

import itertools
import random
from collections import Counter
from math import comb

import numpy as np
import pytest
from scoring_reference import reference_fouled

import scoring
from scoring import ScoringError
from scoring.cards import CODES, RANKS, card_from_text
from scoring.evaluate import evaluate_five_batch, evaluate_row, evaluate_three_batch
from scoring.fouls import arrangement_points
from scoring.rules import resolve_rules
from scoring.row_odds import ODDS_SCALE, odds_table, win_odds

ROW_NAMES = ("front", "middle", "back")
LAID = (range(0, 3), range(3, 8), range(8, 13))

# (preset, options): strict and non-decreasing orders, reject (fujian), royalties paid always (2-4),
# royalties on, the wheel ranked second; seed 004's 11-point game and a criss-cross set (the middle
# played low is checked against its own brute force in test_variants.py).
CONFIGS = [("hk", None), ("fujian", None), ("2-4", None), ("2-4", {"royalties": True}),
           ("points", {"wheel": "second"}), ("taiwan-banker", None), ("eleven-point", None),
           ("criss-cross", None)]


def _all_splits() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    fronts, middles, backs, moves = [], [], [], []
    for front in itertools.combinations(range(13), 3):
        rest = [p for p in range(13) if p not in front]
        for middle in itertools.combinations(rest, 5):
            back = [p for p in rest if p not in middle]
            fronts.append(front)
            middles.append(middle)
            backs.append(back)
            moves.append(sum(p not in laid for row, laid in zip((front, middle, back), LAID) for p in row))
    return np.array(fronts), np.array(middles), np.array(backs), np.array(moves)


SPLITS = _all_splits()


def laid_rows(cards: list[str]) -> dict:
    return {"front": cards[:3], "middle": cards[3:8], "back": cards[8:]}


def moved(laid: dict, fixed: dict) -> int:
    return sum(card not in laid[row] for row in ROW_NAMES for card in fixed[row])


def strengths(rows: dict, rules) -> tuple[int, int, int]:
    return tuple(evaluate_row([card_from_text(c) for c in rows[row]], rules.wheel_second) for row in ROW_NAMES)


def tie_break_key(front, middle, back, rules) -> tuple:
    """The documented order: expected row points against random rows, then back, middle, front."""
    points = arrangement_points(np.array([front]), np.array([middle]), np.array([back]), rules)[0]
    return int(points), back, middle, front


def brute_force(laid: dict, rules) -> tuple[int, tuple]:
    """(fewest cards moved by a legal split, the best tie-break key among those), over all splits."""
    cards = np.array([card_from_text(c) for row in ROW_NAMES for c in laid[row]])
    fronts, middles, backs, moves = SPLITS
    f = evaluate_three_batch(cards[fronts]).astype(np.int64)
    m = evaluate_five_batch(cards[middles], rules.wheel_second).astype(np.int64)
    b = evaluate_five_batch(cards[backs], rules.wheel_second).astype(np.int64)
    legal = (f < m) & ((m < b) if rules.strict_order else (m <= b))
    assert legal.any(), f"no legal split of {laid}"
    fewest = int(moves[legal].min())
    chosen = legal & (moves == fewest)
    points = arrangement_points(f[chosen], m[chosen], b[chosen], rules)
    best = max(zip(points.tolist(), b[chosen].tolist(), m[chosen].tolist(), f[chosen].tolist()))
    return fewest, best


def fouled_hands(rng: random.Random, rules_id: str, options, count: int) -> list[dict]:
    """Fouled hands: half laid at random, half with the biggest rank groups and high cards laid first
    (those need more cards moved, up to 6)."""
    hands = []
    while len(hands) < count:
        deck = list(CODES)
        rng.shuffle(deck)
        cards = deck[:13]
        if len(hands) % 2:
            groups = Counter(card[0] for card in cards)
            cards.sort(key=lambda card: (-groups[card[0]], -RANKS.index(card[0])))
        laid = laid_rows(cards)
        if scoring.foul_reason({**laid, "natural": False}, rules_id, options) is not None:
            hands.append(laid)
    return hands


@pytest.mark.parametrize("rules_id,options", CONFIGS)
def test_legal_fix_matches_brute_force(rules_id, options):
    rules = resolve_rules(rules_id, options)
    rng = random.Random(f"{rules_id}{options}")
    seen_moves = Counter()
    for laid in fouled_hands(rng, rules_id, options, 12):
        fixed = scoring.legal_fix(laid, rules_id, options)
        assert sorted(sum(fixed.values(), [])) == sorted(sum(laid.values(), []))
        assert [len(fixed[row]) for row in ROW_NAMES] == [3, 5, 5]
        assert not reference_fouled(fixed["front"], fixed["middle"], fixed["back"], rules.strict_order)
        assert scoring.foul_reason({**fixed, "natural": False}, rules_id, options) is None
        fewest, best = brute_force(laid, rules)
        assert moved(laid, fixed) == fewest, laid
        assert tie_break_key(*strengths(fixed, rules), rules) == best, laid
        seen_moves[fewest] += 1
    assert max(seen_moves) >= 4   # the hands reach beyond the one-swap fixes


def test_criss_cross_fixes_each_set_on_its_own():
    """Seed 004 line 106 (2組の間でカードの交換をしてはならない): {"sets": [...]} fixes each set within its own
    13 cards, the same fix as the set alone; a set in order comes back as laid."""
    rng = random.Random("criss-cross sets")
    rules = resolve_rules("criss-cross")
    fouled = fouled_hands(rng, "criss-cross", None, 1)[0]
    deck = [card for card in CODES if card not in sum(fouled.values(), [])]
    in_order = scoring.legal_fix(laid_rows(deck[:13]), "criss-cross")
    fixed = scoring.legal_fix({"sets": [fouled, in_order]}, "criss-cross")
    assert fixed["sets"][0] == scoring.legal_fix(fouled, "criss-cross")
    assert fixed["sets"][1] == in_order
    assert moved(fouled, fixed["sets"][0]) == brute_force(fouled, rules)[0]
    with pytest.raises(ScoringError, match="sets"):
        scoring.legal_fix({"sets": [fouled]}, "criss-cross")


def test_cards_that_stay_keep_their_slots():
    laid = {"front": ["AS", "AH", "2C"], "middle": ["2D", "3D", "4D", "5D", "7S"],
            "back": ["8C", "9C", "TC", "JS", "QS"]}
    fixed = scoring.legal_fix(laid, "hk")
    assert moved(laid, fixed) == 2
    for row in ROW_NAMES:
        for slot, card in enumerate(fixed[row]):
            if card in laid[row]:
                assert laid[row][slot] == card


def test_tie_break_prefers_expected_points_over_the_strongest_back():
    # Middle Pair of Twos beats back Ace high.  Eleven fixes move two cards; moving the Ace from the back
    # and a Ten from the front gives "Ace high / Pair of Twos / Pair of Tens", while the strongest back
    # (Pair of Tens, Ace kicker) would leave "King high" in front: an Ace-high front wins far more often
    # than an Ace kicker behind a pair, so the expected points prefer the first.
    laid = {"front": ["6H", "TH", "KS"], "middle": ["2D", "2C", "6D", "TD", "JH"],
            "back": ["9C", "TC", "AH", "2S", "8S"]}
    assert scoring.foul_reason(laid, "taiwan") == "middle Pair of Twos beats back Ace high"
    fixed = scoring.legal_fix(laid, "taiwan")
    assert fixed == {"front": ["6H", "AH", "KS"], "middle": ["2D", "2C", "6D", "TD", "JH"],
                     "back": ["9C", "TC", "TH", "2S", "8S"]}
    rules = resolve_rules("taiwan")
    strongest_back = {"front": ["6H", "KS", "2S"], "middle": laid["middle"],
                      "back": ["TH", "9C", "TC", "AH", "8S"]}
    assert moved(laid, strongest_back) == 2 and scoring.foul_reason(strongest_back, "taiwan") is None
    assert strengths(strongest_back, rules)[2] > strengths(fixed, rules)[2]
    assert tie_break_key(*strengths(fixed, rules), rules) > tie_break_key(*strengths(strongest_back, rules), rules)


def test_legal_hand_is_returned_unchanged_in_canonical_codes():
    hand = "as ks qs / 2c 2d 9h 9s 4c / 3h 4h 5h 6h 7h"
    assert scoring.legal_fix(hand, "hk") == {"front": ["AS", "KS", "QS"],
                                              "middle": ["2C", "2D", "9H", "9S", "4C"],
                                              "back": ["3H", "4H", "5H", "6H", "7H"]}
    rng = random.Random(5)
    for _ in range(30):
        deck = list(CODES)
        rng.shuffle(deck)
        laid = laid_rows(deck[:13])
        if scoring.foul_reason({**laid, "natural": False}, "taiwan") is None:
            assert scoring.legal_fix(laid, "taiwan") == laid


def test_middle_equal_to_back_is_fixed_only_where_the_order_is_strict():
    laid = {"front": ["2S", "3H", "4C"], "middle": ["AS", "KS", "QH", "JD", "9C"],
            "back": ["AH", "KD", "QC", "JS", "9D"]}
    assert scoring.foul_reason(laid, "2-4") is None and scoring.legal_fix(laid, "2-4") == laid
    assert scoring.foul_reason(laid, "hk") == "middle Ace high ties back Ace high"
    fixed = scoring.legal_fix(laid, "hk")
    assert scoring.foul_reason(fixed, "hk") is None and moved(laid, fixed) == 2


@pytest.mark.parametrize("bad,message", [
    ({"front": ["AS", "KS"], "middle": ["2C", "2D", "9H", "9S", "4C"], "back": ["3H", "4H", "5H", "6H", "7H", "QS"]},
     "front row needs 3 cards"),
    ("AS KS QS / 2C 2D 9H 9S 4C / 3H 4H 5H 6H AS", "AS appears twice"),
    ("AS KS QS / 2C 2D 9H 9S 4C / 3H 4H 5H 6H 1H", "'1H' is not a card"),
    ("AS KS QS 2C 2D 9H 9S 4C 3H 4H 5H 6H 7H", "front / middle / back"),
    (42, "a hand is a text"),
])
def test_invalid_hands_raise_one_line_errors(bad, message):
    with pytest.raises(ScoringError, match=message) as caught:
        scoring.legal_fix(bad, "hk")
    assert "\n" not in str(caught.value)


def test_unknown_preset_or_option_raises():
    hand = "AS KS QS / 2C 2D 9H 9S 4C / 3H 4H 5H 6H 7H"
    with pytest.raises(ScoringError, match="unknown rules"):
        scoring.legal_fix(hand, "no-such-preset")
    with pytest.raises(ScoringError, match="unknown option"):
        scoring.foul_reason(hand, "hk", {"no_such_option": 1})


# ---- foul_reason ---------------------------------------------------------------------------

@pytest.mark.parametrize("hand,rules_id,reason", [
    ("AS AH 2C / 2D 3D 4D 5D 7S / 8C 9C TC JS QS", "hk", "front Pair of Aces is not below middle Seven high"),
    ("2S 3H 4C / AS AH 5D 7D 8D / QC 9C TC JS 3S", "fujian", "middle Pair of Aces beats back Queen high"),
    ("2S 3H 4C / 9D TD JD QD KD / AS AH AD 7C 7S", "taiwan", "middle Straight flush, King high beats back "
                                                           "Full house, Aces full of Sevens"),
    ("KS KH KD / QS QH QD 2C 3C / AS AH 5D 6D 7D", "points", "front Three Kings is not below middle Three Queens"),
    ("2S 3H 4C / 5S 6H 7D 8C TS / TH JH QD KC AS", "hk", None),
])
def test_foul_reason_hand_worked(hand, rules_id, reason):
    assert scoring.foul_reason(hand, rules_id) == reason


def test_foul_reason_is_none_for_a_natural_the_engine_settles():
    six_pairs_fouled = {"front": ["7S", "7H", "9C"], "middle": ["2S", "3S", "4S", "6S", "6H"],
                        "back": ["2H", "3H", "4H", "5S", "5H"]}
    assert scoring.foul_reason(six_pairs_fouled, "hk") is None
    declined = {**six_pairs_fouled, "natural": False}
    assert scoring.foul_reason(declined, "hk") == "front Pair of Sevens is not below middle Pair of Sixes"
    assert scoring.foul_reason(six_pairs_fouled, "hk", {"naturals": False}) is not None
    assert scoring.legal_fix(six_pairs_fouled, "hk") != {row: six_pairs_fouled[row] for row in ROW_NAMES}


@pytest.mark.parametrize("rules_id", ["hk", "taiwan-banker", "points", "taiwan", "fujian", "2-4", "1-6"])
def test_foul_reason_agrees_with_the_engine(rules_id):
    rng = random.Random(rules_id)
    rules = resolve_rules(rules_id)
    other = "2S 3H 4C / 5S 6H 7D 8C TS / TH JH QD KC AS"   # legal under every preset, no natural
    used = set(other.replace("/", " ").split())
    for _ in range(40):
        deck = [code for code in CODES if code not in used]
        rng.shuffle(deck)
        hand = laid_rows(deck[:13])
        reason = scoring.foul_reason(hand, rules_id)
        round_ = {"rules": rules_id, "players": {"Ann": hand, "Bob": other}}
        if rules.banker_mode:
            round_["banker"] = "Bob"
        if rules.foul_rejected and reason is not None:
            with pytest.raises(ScoringError) as caught:
                scoring.settle(round_)
            assert f"Ann: {rules.terms['foul']}: {reason};" in str(caught.value)
            continue
        ann = scoring.settle(round_)["players"]["Ann"]
        assert ann["foul"] == reason
        assert (ann["status"] == "fouled") == (reason is not None)


# ---- row odds (the tie-break's measure) ----------------------------------------------------

def test_row_odds_match_the_known_hand_counts():
    total5, total3 = comb(52, 5), comb(52, 3)
    high_cards, flush_or_better = 1302540, 5108 + 3744 + 624 + 40
    cases = [  # (row, rows it beats, rows it ties, rows of its size)
        ("2S 2H 3D 4C 5S", high_cards, 384, total5),                 # the lowest pair
        ("AS KH QD JC 9S", high_cards - 1020, 1020, total5),          # the best high card
        ("AS KS QS JS TS", total5 - 4, 4, total5),                    # royal flush
        ("2S 3S 4S 5S 7S", total5 - flush_or_better, 4, total5),      # the lowest flush
        ("AS KH QD", 18304 - 64, 64, total3),                         # the best 3-card high card
        ("AS AH AD", total3 - 4, 4, total3),
    ]
    for row, below, equal, total in cases:
        cards = [card_from_text(c) for c in row.split()]
        odds = int(win_odds(np.array([evaluate_row(cards)]), len(cards))[0])
        assert odds == (2 * below + equal) * ODDS_SCALE // (2 * total), row


def test_row_odds_rise_with_strength_under_both_wheels():
    for wheel_second in (False, True):
        strengths, odds = odds_table(5, wheel_second)
        assert (np.diff(strengths) > 0).all() and (np.diff(odds) > 0).all()


# ---- naturals on laid rows -----------------------------------------------------------------

def test_detect_naturals_accepts_laid_rows():
    six_pairs = {"front": ["7S", "7H", "9C"], "middle": ["2S", "3S", "4S", "6S", "6H"],
                 "back": ["2H", "3H", "4H", "5S", "5H"]}
    from_rows = scoring.detect_naturals(six_pairs, "hk")
    assert [found["id"] for found in from_rows] == ["six-pairs"]
    assert from_rows == scoring.detect_naturals(sum(six_pairs.values(), []), "hk")
    assert scoring.detect_naturals("2S 3H 4C / 5S 6H 7D 8C TS / TH JH QD KC AS", "hk") == []
