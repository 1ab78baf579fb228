"""Big Two property tests: penalties follow an independent reading of the seed, settlements add up.

Zero sum holds for settlement winner-collects and pairwise (every point one player wins another pays).
It does not hold for settlement scores, the running tally the seed's 扣分制/加扣分制/名次計分 describe: the
losers' negative scores plus the winner's bonus (加扣分制 +1) or the places' points (3/2/1/0) are paid by
nobody, so there the test checks the sum against that formula instead.
"""

from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import scoring
from scoring.cards import CODES

CARD_PRESETS = ["bigtwo-hk", "bigtwo-tw", "bigtwo-points", "bigtwo-plus"]
NAMES = ["Ann", "Bob", "Cy", "Dee"]
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
POINTS = {"2": 40, "A": 30, "K": 20, "Q": 20, "J": 20, "T": 10}          # seed 003 line 184
PLUS = {"2": 0, "T": 2, "J": 2, "Q": 2, "K": 2, "A": 2}                   # seed 003 line 190 (others 1)
STRAIGHT_ORDER = "A23456789TJQKA"                                         # A2345 ... TJQKA (lines 48-50)


def _has_monster(cards):
    ranks = [card[0] for card in cards]
    if any(ranks.count(rank) == 4 for rank in set(ranks)):
        return True
    for suit in "SHDC":
        held = {card[0] for card in cards if card[1] == suit}
        if any(set(STRAIGHT_ORDER[low:low + 5]) <= held for low in range(10)):
            return True
    return False


def reference_penalty(preset, cards):
    """What the seed's lines say a loser holding ``cards`` (canonical codes) pays."""
    count = len(cards)
    twos = sum(card[0] == "2" for card in cards)
    if preset == "bigtwo-hk":          # line 160
        return count * (4 if count >= 13 else 3 if count >= 10 else 2 if count >= 8 else 1)
    if preset == "bigtwo-tw":          # line 164, doublings multiplied together
        factor = (3 if count == 13 else 2 if count >= 8 else 1) * (2 if count % 2 == 0 else 1)
        factor *= (2 if twos else 1) * (2 if _has_monster(cards) else 1)
        return count * factor
    if preset == "bigtwo-points":      # line 184
        return sum(POINTS.get(card[0]) or int(card[0]) for card in cards)
    return sum(PLUS.get(card[0], 1) for card in cards) * 2 ** twos   # bigtwo-plus, line 190


@st.composite
def card_rounds(draw):
    """A random end of hand: 2-4 players, one went out, each other keeps 1-13 of the 13 cards dealt."""
    preset = draw(st.sampled_from(CARD_PRESETS))
    count = draw(st.integers(2, 4))
    deck = draw(st.permutations(CODES))
    names = NAMES[:count]
    winner = draw(st.sampled_from(names))
    left = {}
    for index, name in enumerate(names):
        dealt = list(deck[index * 13:(index + 1) * 13])
        left[name] = [] if name == winner else dealt[:draw(st.integers(1, 13))]
    settlement = draw(st.sampled_from(["winner-collects", "pairwise", "scores"]))
    options = {"settlement": settlement}
    if settlement == "winner-collects":
        options["winner_bonus"] = 0      # a tally bonus nobody would pay (bigtwo-plus has +1)
    losers = [name for name in names if name != winner]
    failed = draw(st.sampled_from([None, *losers]))
    stake = draw(st.sampled_from([1, 3, "1/3", "0.25"]))
    return preset, names, winner, left, options, failed, stake


def _settle(preset, left, options, failed=None, stake=1):
    round_ = {"game": "bigtwo", "rules": preset, "options": options, "stakes": {"per_point": stake},
              "players": {name: " ".join(cards) for name, cards in left.items()}}
    if failed is not None:
        round_["failed_to_block"] = failed
    return scoring.settle(round_)


@SETTINGS
@given(card_rounds())
def test_scores_follow_the_seed_and_settlements_add_up(drawn):
    preset, names, winner, left, options, failed, stake = drawn
    result = _settle(preset, left, options, failed, stake)
    penalties = {name: reference_penalty(preset, left[name]) for name in names if name != winner}
    charges = dict(penalties) if failed is None else {name: 0 for name in penalties} | {failed: sum(penalties.values())}
    bonus = 1 if preset == "bigtwo-plus" and options["settlement"] != "winner-collects" else 0
    scores = {name: bonus if name == winner else -charges[name] for name in names}
    assert result["winner"] == winner
    assert result["scores"] == scores
    net = result["net"]
    if options["settlement"] == "scores":
        assert net == scores
        assert sum(net.values()) == bonus - sum(penalties.values())      # not zero sum: a tally
    else:
        assert sum(net.values()) == 0
        assert sum(Fraction(value) for value in result["money"].values()) == 0
    if options["settlement"] == "winner-collects":
        assert net[winner] == sum(penalties.values())                     # 頂大 moves losses, not the total
    if options["settlement"] == "pairwise":
        total = sum(scores.values())
        assert net == {name: len(names) * scores[name] - total for name in names}
    for name, value in net.items():
        assert Fraction(result["money"][name]) == value * Fraction(str(stake))


@SETTINGS
@given(card_rounds(), st.randoms(use_true_random=False))
def test_card_order_and_spelling_do_not_matter(drawn, rng):
    preset, names, winner, left, options, failed, stake = drawn
    respelled = {}
    for name, cards in left.items():
        cards = list(cards)
        rng.shuffle(cards)
        suits = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
        respelled[name] = [(card[0].replace("T", "10") + suits[card[1]]).lower() for card in cards]
    assert _settle(preset, respelled, options, failed, stake)["net"] == _settle(preset, left, options, failed,
                                                                               stake)["net"]


@SETTINGS
@given(st.permutations(NAMES), st.integers(2, 4), st.sampled_from(["scores", "pairwise"]))
def test_rank_points_are_the_places(order, count, settlement):
    order = [name for name in order if name in NAMES[:count]]
    result = scoring.settle({"game": "bigtwo", "rules": "bigtwo-rank", "players": NAMES[:count], "order": order,
                             "options": {"settlement": settlement}})
    places = {name: count - 1 - order.index(name) for name in order}      # line 170: 3/2/1/0
    assert result["scores"] == places
    if settlement == "scores":
        assert sum(result["net"].values()) == count * (count - 1) // 2     # not zero sum
    else:
        assert sum(result["net"].values()) == 0


@SETTINGS
@given(st.permutations(CODES), st.integers(1, 12), st.sampled_from(["bigtwo-hk", "bigtwo-points", "bigtwo-plus"]))
def test_one_more_card_never_costs_less(deck, count, preset):
    fewer = _settle(preset, {"Ann": [], "Bob": list(deck[:count])}, {})
    more = _settle(preset, {"Ann": [], "Bob": list(deck[:count + 1])}, {})
    assert more["scores"]["Bob"] <= fewer["scores"]["Bob"]
