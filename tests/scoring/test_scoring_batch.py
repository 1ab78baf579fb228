"""settle_many (the numpy batch path) equals settle(round, audit=False) round by round, errors included."""

import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scoring_helpers import as_rows, strongest_back_arrangement

import scoring
import scoring.batch
from scoring import ScoringError
from scoring.cards import CODES

PRESETS = sorted(preset for preset, described in scoring.list_presets().items()
                 if described["game"] == "chinese-poker")
BANKER_PRESETS = {"hk", "taiwan-banker"}
SURRENDER_PRESETS = {"2-4", "1-6"}
NAMES = ["Ann", "Bob", "Cy", "Dee"]
# Naturals of most presets, laid out as rows (so the hand text alone does not send it to the slow path).
NATURAL_HANDS = [
    "2S 3H 4D / 5C 6S 7H 8D 9C / TS JH QD KC AS",   # dragon
    "2H 2D 9S / 3S 3D 4S 4H 5S / 5H 6H 6D 7S 7D",   # six pairs and a half
    "2S 5S 9S / 3H 6H 8H JH KH / 4D 7D TD QD AD",   # three flushes
    "2C 3C 4D / 5H 6H 7S 8S 9S / TD JD QC KC AC",   # three straights
]
# Options that change the numeric rules, per preset family (each must be valid for the preset).
OPTION_CHOICES = {
    "all": [None, {"royalties": False}, {"home_run_min_opponents": 2}, {"scoop_includes_no_loss": True},
            {"wheel": "second"}, {"suit_order": "SHDC"}, {"multiply_royalties": True},
            {"foul_counts_as_scoop": False}, {"row_order": "non-decreasing"}, {"naturals": False}],
    "banker": [{"ties": "banker-top-card"}, {"mode": "all-pairs"}, {"natural_vs_natural": "higher-wins"}],
    "2-4": [{"royalties": True}, {"royalties": True, "royalties_paid": "row-winner"},
            {"home_run_multiplier": 2}, {"surrender_cost": "5/2"}],
    "points": [{"home_run_payment": "per-pair"}],
    "fujian": [{"foul": "pays-all"}, {"home_run_min_opponents": 2, "foul": "pays-all"}],
}


def _options(draw, preset: str):
    choices = list(OPTION_CHOICES["all"])
    if preset in BANKER_PRESETS:
        choices += OPTION_CHOICES["banker"]
    if preset in SURRENDER_PRESETS:
        choices += OPTION_CHOICES["2-4"]
    if preset in ("points", "taiwan"):
        choices += OPTION_CHOICES["points"]
    if preset == "fujian":
        choices += OPTION_CHOICES["fujian"] * 3   # fujian rejects fouls by default: mostly let them pay
    return draw(st.sampled_from(choices))


@st.composite
def batch_rounds(draw, presets=PRESETS, allow_errors=True):
    """A random round: any preset and options, 2-4 players, hands arranged legally, at random (often
    fouled), as naturals, surrendered, or written in other accepted forms; now and then a broken one."""
    preset = draw(st.sampled_from(presets))
    options = _options(draw, preset)
    count = draw(st.integers(2, 4))
    deck = list(draw(st.permutations(CODES)))
    hands = []
    if draw(st.integers(0, 5)) == 0:
        natural = draw(st.sampled_from(NATURAL_HANDS))
        natural_cards = natural.replace("/", " ").split()
        deck = natural_cards + [card for card in deck if card not in natural_cards]
        hands.append(natural)
    surrender_ok = preset in SURRENDER_PRESETS and (options or {}).get("mode") != "banker"
    for index in range(len(hands), count):
        cards = deck[index * 13:(index + 1) * 13]
        kind = draw(st.integers(0, 19))
        if kind < 8:
            hands.append(strongest_back_arrangement(cards))
        elif kind < 15:
            hands.append(as_rows(cards))                         # random order: often fouled
        elif kind == 15 and surrender_ok:
            hands.append({"surrender": True})
        elif kind == 16:
            hands.append({"front": cards[:3], "middle": cards[3:8], "back": cards[8:]})
        elif kind == 17:
            hands.append(as_rows(cards).lower())                 # accepted, read by the numpy path too
        elif kind == 18:
            hands.append(strongest_back_arrangement(cards).replace("T", "10"))
        else:
            hands.append(strongest_back_arrangement(cards))
    players = dict(zip(NAMES[:count], hands))
    round_ = {"rules": preset, "players": players}
    if options:
        round_["options"] = options
    banker_mode = preset in BANKER_PRESETS and (options or {}).get("mode") != "all-pairs"
    if banker_mode:
        round_["banker"] = draw(st.sampled_from(NAMES[:count]))
    stakes = draw(st.sampled_from([None, {"per_point": 2}, {"per_point": "1/3"}, {"per_point": 0.5},
                                   {"pairs": [{"players": ["Ann", "Bob"], "per_point": 5}]}]))
    if stakes is not None:
        round_["stakes"] = stakes
    if allow_errors and draw(st.integers(0, 24)) == 0:
        broken = draw(st.sampled_from(["duplicate", "bad-card", "unknown-key"]))
        if broken == "duplicate" and isinstance(players["Bob"], str) and isinstance(players["Ann"], str):
            players["Bob"] = players["Ann"][:2] + players["Bob"][2:]
        elif broken == "bad-card" and isinstance(players["Bob"], str):
            players["Bob"] = "ZZ" + players["Bob"][2:]
        else:
            round_["colour"] = "red"
    return round_


def _one_by_one(rounds):
    """[settle(r, audit=False) ...], or the ScoringError message settle_many must raise."""
    results = []
    for index, round_ in enumerate(rounds):
        try:
            results.append(scoring.settle(round_, audit=False))
        except ScoringError as err:
            return f"rounds[{index}]: {err}"
    return results


def _assert_same(rounds):
    expected = _one_by_one(rounds)
    if isinstance(expected, str):
        with pytest.raises(ScoringError) as raised:
            scoring.settle_many(rounds)
        assert str(raised.value) == expected
    else:
        assert scoring.settle_many(rounds) == expected


@settings(max_examples=int(os.environ.get("BATCH_EXAMPLES", 150)), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(batch_rounds(), min_size=1, max_size=6))
def test_settle_many_equals_settle_round_by_round(rounds):
    _assert_same(rounds)


def _deal_rounds(preset: str, count: int, seed: int, foul_share: float = 0.3) -> list[dict]:
    """``count`` four-player rounds of one preset from a seeded shuffle: many rounds in one numpy group."""
    rng = random.Random(seed)
    rounds = []
    for _ in range(count):
        deck = list(CODES)
        rng.shuffle(deck)
        players = {}
        for index, name in enumerate(NAMES):
            cards = deck[index * 13:(index + 1) * 13]
            players[name] = as_rows(cards) if rng.random() < foul_share else strongest_back_arrangement(cards)
        round_ = {"rules": preset, "players": players}
        if preset in BANKER_PRESETS:
            round_["banker"] = rng.choice(NAMES)
        if preset == "fujian":
            round_["options"] = {"foul": "pays-all"}
        rounds.append(round_)
    return rounds


@pytest.mark.parametrize("preset", PRESETS)
def test_a_large_batch_of_one_preset_equals_settle(preset):
    _assert_same(_deal_rounds(preset, 150, seed=PRESETS.index(preset)))


def test_common_rounds_take_the_numpy_path(monkeypatch):
    """Plain four-player rounds must not fall back to the one-round engine (only naturals and the like)."""
    rounds = _deal_rounds("taiwan", 200, seed=7)
    expected = _one_by_one(rounds)
    fallbacks = []
    engine = scoring.batch.GAMES["chinese-poker"]

    def counting_engine(round_, audit=False):
        fallbacks.append(round_)
        return engine(round_, audit=audit)

    monkeypatch.setitem(scoring.batch.GAMES, "chinese-poker", counting_engine)
    assert scoring.settle_many(rounds) == expected
    assert len(fallbacks) < len(rounds) // 5
    for round_ in fallbacks:   # taiwan has no even home-run split: only a natural sends a plain round back
        statuses = [player["status"] for player in engine(round_)["players"].values()]
        assert "natural" in statuses, round_


def test_a_fujian_foul_is_rejected_with_the_round_named():
    rounds = _deal_rounds("taiwan", 3, seed=1, foul_share=0.0)
    fouled = {"rules": "fujian", "players": {"A": "AS AH AD / 2C 3D 4C 5S 7D / 9S 9H JD QC KC",
                                             "B": "2S 3S 4S / 5H 6H 7H 8H 9D / TS JS QS KS TD"}}
    with pytest.raises(ScoringError, match=r"^rounds\[3\]: A: 相公"):
        scoring.settle_many(rounds + [fouled] + rounds)


def test_settle_many_with_the_audit_equals_settle():
    rounds = _deal_rounds("hk", 5, seed=3)
    assert scoring.settle_many(rounds, audit=True) == [scoring.settle(round_) for round_ in rounds]


def test_settle_many_needs_a_list():
    with pytest.raises(ScoringError, match="list of rounds"):
        scoring.settle_many({"rules": "taiwan"})
    assert scoring.settle_many([]) == []


def test_home_runs_split_evenly_are_settled_in_the_batch_too():
    rounds = _deal_rounds("points", 300, seed=11, foul_share=0.5)
    expected = _one_by_one(rounds)
    split = [result for result in expected if any(player["home_run"] for player in result["players"].values())]
    assert split, "the deal should hold a home run (全壘打) to split"
    assert scoring.settle_many(rounds) == expected
