"""scoring.hindsight against brute force with the engine's own settle.

For random rounds under every shipped preset (some hands fouled, some naturals, a banker game, a fouled
opponent, suit tie-breaks), each player's vectorised net for sampled legal splits must equal
scoring.settle's net for the round with that one hand replaced; the reported best must be settled by
the engine at the reported net; and no split among 400 settled by the engine may beat it.
"""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest

from scoring import ScoringError, settle, settle_many
from scoring.cards import CODES
from scoring.hand_input import parse_hand_input
from scoring.hindsight import hindsight, split_nets
from scoring.splits import FIVE_SUBSETS, FRONT_SUBSETS


def _text(rows) -> str:
    return " / ".join(" ".join(row) for row in rows)


def _laid(cards: list[str], rng: random.Random) -> str:
    """A hand laid sensibly most of the time (sorted into rows by rank), sometimes as dealt."""
    if rng.random() < 0.3:
        return _text((cards[:3], cards[3:8], cards[8:]))
    ordered = sorted(cards, key=lambda code: CODES.index(code))
    return _text((ordered[:3], ordered[3:8], ordered[8:]))


def _round(preset: str, seed: int, players: int = 4, **extra) -> dict:
    rng = random.Random(seed)
    for _ in range(50):
        deck = list(CODES)
        rng.shuffle(deck)
        hands = {f"p{i}": _laid(deck[13 * i:13 * i + 13], rng) for i in range(players)}
        round_ = {"rules": preset, "players": hands, **extra}
        if "banker" in extra or preset in ("hk", "taiwan-banker"):
            round_["banker"] = "p0"
        try:
            settle(round_)
        except ScoringError:   # fujian refuses fouled hands: deal again
            continue
        return round_
    raise AssertionError("no valid round dealt")


def _with_split(round_: dict, player: str, ids) -> dict:
    cards = parse_hand_input(round_["players"][player]).cards
    front, middle, back = ids
    rows = {"front": [CODES[cards[p]] for p in FRONT_SUBSETS[front]],
            "middle": [CODES[cards[p]] for p in FIVE_SUBSETS[middle]],
            "back": [CODES[cards[p]] for p in FIVE_SUBSETS[back]], "natural": False}
    return dict(round_, players={**round_["players"], player: rows})


def _net(value) -> Fraction:
    return Fraction(value) if isinstance(value, str) else Fraction(value)


CASES = [("2-4", 1, {}), ("1-6", 2, {}), ("fujian", 3, {}), ("taiwan", 4, {}), ("points", 5, {}),
         ("hk", 6, {}), ("taiwan-banker", 7, {}), ("taiwan", 8, {"options": {"suit_order": "SHDC"}}),
         ("points", 9, {"options": {"home_run_min_opponents": 2}}), ("2-4", 10, {}),
         # seed 004's variants: the middle played low (both foul rules), the 11-point game's table points
         ("low-middle", 14, {}), ("low-middle", 15, {"options": {"low_middle_order": "high-order"}}),
         ("eleven-point", 16, {}), ("eleven-point", 17, {"options": {"fourth_point": "per-scoop",
                                                                   "overall_ties": "share"}}),
         ("eleven-point", 18, {"options": {"overall_payment": "each", "fourth_point_min_players": 3}})]


@pytest.mark.parametrize("preset,seed,extra", CASES)
def test_sampled_splits_match_settle(preset, seed, extra):
    round_ = _round(preset, seed, players=3 if seed in (10, 18) else 4, **extra)
    rng = np.random.default_rng(seed)
    for player in round_["players"]:
        front, middle, back, _, nets = split_nets(round_, player)
        picks = set(rng.choice(len(nets), size=25, replace=False).tolist()) | {int(nets.argmax()), int(nets.argmin())}
        for pick in sorted(picks):
            settled = settle(_with_split(round_, player, (front[pick], middle[pick], back[pick])), audit=False)
            assert _net(settled["net"][player]) == pytest.approx(float(nets[pick]), abs=1e-9)


@pytest.mark.parametrize("preset,seed,extra", CASES[:6] + CASES[10:])
def test_reported_best_is_settled_by_the_engine(preset, seed, extra):
    round_ = _round(preset, seed, **extra)
    played = settle(round_, audit=False)
    report = hindsight(round_)
    for player, entry in report["players"].items():
        best = entry["best"]
        replay = dict(round_, players={**round_["players"], player: {
            "front": best["front"], "middle": best["middle"], "back": best["back"], "natural": False}})
        assert settle(replay, audit=False)["net"][player] == best["net"]
        gain = _net(best["net"]) - _net(played["net"][player])
        assert _net(entry["gain"]) == max(gain, 0)


@pytest.mark.parametrize("preset,seed", [("2-4", 11), ("taiwan", 12)])
def test_no_sampled_split_beats_the_reported_best(preset, seed):
    """Brute force on 400 legal splits of one player, each settled by the engine (settle_many, which
    equals settle): none beats the reported best.  The full brute force over every legal split of whole
    rounds is in benchmarks/bench_arrange.py (too slow for a test: about 15 s a player)."""
    round_ = _round(preset, seed)
    player = "p1"
    front, middle, back, _, nets = split_nets(round_, player)
    picks = np.random.default_rng(seed).choice(len(nets), size=400, replace=False)
    rounds = [_with_split(round_, player, (front[i], middle[i], back[i])) for i in picks.tolist()]
    engine = np.array([float(_net(s["net"][player])) for s in settle_many(rounds)])
    assert np.allclose(engine, nets[picks])
    assert float(_net(hindsight(round_)["players"][player]["best"]["net"])) >= engine.max() - 1e-9


def test_a_fouled_opponent_and_a_fouled_player():
    round_ = {"rules": "taiwan", "players": {
        "a": "AS AH KD / 2C 3D 5H 7S 9C / 4C 6D 8H TS QC",          # fouled: front pair beats the middle
        "b": "2S 3S 4H / 5S 6S 8S 9S JS / KS QS TD JD 7D",
        "c": "2D 3H 4S / 5C 6C 7C 8C TC / AC KC QD QH JH",
        "d": "2H 3C 4D / 5D 6H 7H 8D JC / 9H 9D TH KH AD"}}
    settle(round_)
    report = hindsight(round_)
    assert _net(report["players"]["a"]["gain"]) > 0        # a legal split beats a foul
    assert report["players"]["a"]["best"] is not None


def test_refuses_what_settle_refuses():
    with pytest.raises(ScoringError):
        hindsight({"rules": "2-4", "players": {"a": "AS KS QS / 2C 2D 9H 9S 4C / 3H 4H 5H 6H 7H"}})
    with pytest.raises(ScoringError):
        hindsight({"game": "bigtwo", "rules": "bigtwo-hk", "players": {}})


def test_one_player_only():
    round_ = _round("taiwan", 4)
    everyone = hindsight(round_)
    assert hindsight(round_, "p2")["players"] == {"p2": everyone["players"]["p2"]}
    with pytest.raises(ScoringError, match="not a player"):
        hindsight(round_, "nobody")


def _criss_cross_round(seed: int, options=None) -> dict:
    rng = random.Random(seed)
    deck = list(CODES)
    rng.shuffle(deck)
    sets = [_laid(deck[13 * i:13 * i + 13], rng) for i in range(4)]
    round_ = {"rules": "criss-cross", "players": {"a": {"sets": sets[:2]}, "b": {"sets": sets[2:]}}}
    if options:
        round_["options"] = options
    settle(round_)
    return round_


def _with_set(round_: dict, player: str, number: int, rows: dict) -> dict:
    sets = list(round_["players"][player]["sets"])
    sets[number - 1] = rows
    return dict(round_, players={**round_["players"], player: {"sets": sets}})


@pytest.mark.parametrize("seed,options", [(21, None), (22, {"criss_cross": "set-vs-set"})])
def test_criss_cross_sets_match_settle(seed, options):
    """Line 106: each set on its own — a set's split nets, with the other set and the opponent's as laid,
    equal settle's net for the round with that set replaced; the report's bests are the engine's."""
    round_ = _criss_cross_round(seed, options)
    rng = np.random.default_rng(seed)
    report = hindsight(round_)
    played = settle(round_, audit=False)
    for player in ("a", "b"):
        for number in (1, 2):
            front, middle, back, _, nets = split_nets(round_, f"{player} (set {number})")
            laid = round_["players"][player]["sets"][number - 1]
            for pick in sorted(set(rng.choice(len(nets), size=12, replace=False).tolist()) | {int(nets.argmax())}):
                rows = _with_split({"players": {"x": laid}}, "x", (front[pick], middle[pick], back[pick]))
                settled = settle(_with_set(round_, player, number, rows["players"]["x"]), audit=False)
                assert _net(settled["net"][player]) == pytest.approx(float(nets[pick]), abs=1e-9)
            entry = report["players"][player]["sets"][number - 1]
            best = entry["best"]
            replay = _with_set(round_, player, number, {row: best[row] for row in ("front", "middle", "back")})
            assert settle(replay, audit=False)["net"][player] == best["net"]
            assert _net(best["net"]) == pytest.approx(float(nets.max()))
            assert _net(entry["gain"]) == max(_net(best["net"]) - _net(played["net"][player]), 0)
        assert _net(report["players"][player]["gain"]) >= max(_net(entry["gain"]) for entry
                                                            in report["players"][player]["sets"])


def test_criss_cross_names_a_set_seat():
    round_ = _criss_cross_round(23)
    with pytest.raises(ScoringError, match="set 1"):
        split_nets(round_, "a")
