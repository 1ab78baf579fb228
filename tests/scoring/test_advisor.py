"""scoring.best_arrangement and ``python -m scoring arrange``.

What these tests check, and what they do not:
* the advice is a legal arrangement of the same 13 cards, the runner-up differs in row strengths and
  expects no more, and the natural is offered only when it pays more than the rows;
* the maximisation is exact for the estimate: the best split's estimate equals the largest estimate
  over every legal split of the full 72,072-split table, judged legal by the engine's own foul check;
* the estimate's formula (scoop, 辗过, majority, royalties under independent rows, card removal) agrees
  with the engine: opponents' rows drawn row by row from the same model, reweighted for the hand's cards,
  and settled by scoring.pairs.settle_pair (scoring.settle.settle_states for the 11-point game's overall
  bonus) average to the estimate, within sampling noise;
* against the slow Monte-Carlo reference (real deals of the unseen cards, opponents set by the advisor,
  every split settled exactly) on a few hands with few deals: the advisor's choice is within the
  reference's noise of the reference's best.  The full check (200+ hands, more deals) is
  ``python benchmarks/bench_arrange.py --reference``; its figures are in docs/scoring-presets.md.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from scoring import ScoringError, best_arrangement, foul_reason, settle
from scoring.advisor import concave_envelope, score_splits, strength_key
from scoring.advisor_model import opponent_model, removal_weights
from scoring.advisor_reference import strongest_rows
from scoring.row_order import compare_keys
from scoring.settle import settle_states
from scoring.stakes import Stakes
from scoring.advisor_reference import monte_carlo_values
from scoring.cards import CODES
from scoring.hand_input import HandInput, parse_hand_input
from scoring.pairs import settle_pair
from scoring.player_state import player_state
from scoring.rules import resolve_rules
from scoring.splits import FIVE_SUBSETS, FRONT_SUBSETS, split_table

REPO = Path(__file__).resolve().parents[2]
PRESETS = ["2-4", "1-6", "fujian", "taiwan", "points", "hk", "taiwan-banker"]


def _hand(seed: int) -> list[str]:
    return random.Random(seed).sample(list(CODES), 13)


def _text(rows: dict) -> str:
    return " / ".join(" ".join(rows[row]) for row in ("front", "middle", "back"))


@pytest.mark.parametrize("preset", PRESETS)
def test_advice_is_a_legal_arrangement_of_the_same_cards(preset):
    for seed in range(6):
        cards = _hand(seed)
        advice = best_arrangement(" ".join(cards), preset)
        best, second = advice["best"], advice["runner_up"]
        assert sorted(best["front"] + best["middle"] + best["back"]) == sorted(cards)
        assert foul_reason(_text(best), preset) is None or advice["natural"] is not None
        assert second is not None and second["expected"] <= best["expected"]
        assert _text(second) != _text(best)


def test_the_maximum_is_over_every_legal_split():
    """Every split of the full table, legal by the engine's foul check (player_state), scored by the same
    estimate: none scores above the advice."""
    rules = resolve_rules("taiwan")
    for seed in (11, 12):
        cards = _hand(seed)
        laid = np.array(parse_hand_input(" ".join(cards)).cards, dtype=np.int64)
        front, middle, back, _, expected = score_splits(laid, rules, 3)
        scored = dict(zip(zip(front.tolist(), middle.tolist(), back.tolist()), expected.tolist()))
        table = split_table()
        legal_count = 0
        for split in np.random.default_rng(seed).choice(len(table.front), size=3000, replace=False).tolist():
            ids = (int(table.front[split]), int(table.middle[split]), int(table.back[split]))
            rows = (tuple(laid[FRONT_SUBSETS[ids[0]]]), tuple(laid[FIVE_SUBSETS[ids[1]]]),
                    tuple(laid[FIVE_SUBSETS[ids[2]]]))
            state = player_state("x", HandInput(rows, rows[0] + rows[1] + rows[2], natural=False), rules)
            assert (state.status == "rows") == (ids in scored)    # the candidates are exactly the legal splits
            legal_count += ids in scored
        assert legal_count > 100
        assert best_arrangement(" ".join(cards), "taiwan")["best"]["expected"] == round(max(scored.values()), 3)


def _draw_states(rules, model, count, rng, held, name="o"):
    """Opponent states with rows drawn independently per row from the model reweighted for the ``held``
    cards (strengths only)."""
    draws = [rng.choice(row.strengths, size=count, p=removal_weights(row, held)) for row in model.rows]
    states = []
    for front, middle, back in zip(*(draw.tolist() for draw in draws)):
        state = player_state(name, HandInput(((0, 1, 2), (3, 4, 5, 6, 7), (8, 9, 10, 11, 12)),
                                             tuple(range(13)), natural=False), rules)
        state.status, state.strengths = "rows", (front, middle, back)
        state.keys = compare_keys(state.strengths, rules)
        state.values = tuple(rules.row_values[row][s >> 20] for row, s in enumerate((front, middle, back)))
        states.append(state)
    return states


def _my_state(laid, rules, front, middle, back, pick, name="me"):
    rows = (tuple(laid[FRONT_SUBSETS[front[pick]]]), tuple(laid[FIVE_SUBSETS[middle[pick]]]),
            tuple(laid[FIVE_SUBSETS[back[pick]]]))
    return player_state(name, HandInput(rows, rows[0] + rows[1] + rows[2], natural=False), rules)


@pytest.mark.parametrize("preset", ["2-4", "1-6", "fujian", "taiwan", "hk", "low-middle", "criss-cross"])
def test_the_estimate_matches_the_engine_on_rows_drawn_from_the_model(preset):
    rules = resolve_rules(preset)
    model = opponent_model(rules)
    rng = np.random.default_rng(7)
    cards = _hand(21)
    laid = np.array(parse_hand_input(" ".join(cards)).cards, dtype=np.int64)
    opponents = _draw_states(rules, model, 6000, rng, laid)
    front, middle, back, strengths, expected = score_splits(laid, rules, 1)   # one opponent: no home runs
    for pick in np.random.default_rng(3).choice(len(expected), size=3, replace=False).tolist():
        mine = _my_state(laid, rules, front, middle, back, pick)
        amounts = np.array([float(pair.core + pair.extra) for pair in
                            (settle_pair(rules, mine, other) for other in opponents)])
        noise = 4 * amounts.std() / np.sqrt(len(amounts))
        assert abs(amounts.mean() - expected[pick]) <= noise + 1e-6, (pick, amounts.mean(), expected[pick])


@pytest.mark.parametrize("preset,seed", [("2-4", 31), ("2-4", 36), ("fujian", 32), ("fujian", 37), ("taiwan", 33),
                                         ("low-middle", 34), ("eleven-point", 35)])
def test_choice_within_the_monte_carlo_references_noise(preset, seed):
    """A few hands, 24 deals each (the full check is the benchmark's --reference): the reference's value
    of the advisor's split is within four standard errors (of the paired per-deal difference) of the
    reference's best split (a noisy maximum over some 20,000 splits: the difference is biased upwards)."""
    cards = _hand(seed)
    advice = best_arrangement(" ".join(cards), preset)["best"]
    ids, values, per_deal = monte_carlo_values(cards, preset, deals=24, seed=seed)
    laid = parse_hand_input(" ".join(cards)).cards
    chosen = next(i for i in range(ids.shape[1]) if
                  sorted(CODES[laid[p]] for p in FIVE_SUBSETS[ids[2, i]]) == sorted(advice["back"]) and
                  sorted(CODES[laid[p]] for p in FRONT_SUBSETS[ids[0, i]]) == sorted(advice["front"]))
    top = int(values.argmax())
    difference = per_deal[:, top] - per_deal[:, chosen]
    noise = difference.std(ddof=1) / np.sqrt(len(difference))
    assert difference.mean() <= 4 * noise + 1e-9


def test_a_natural_that_pays_more_is_offered():
    dragon = "AS KH QD JC TS 9H 8D 7C 6S 5H 4D 3C 2S"
    advice = best_arrangement(dragon, "taiwan")
    assert advice["natural"]["id"] == "dragon" and advice["natural"]["expected"] == 36


def test_bad_input_is_one_scoring_error():
    with pytest.raises(ScoringError, match="13"):
        best_arrangement("AS KS QS", "taiwan")
    with pytest.raises(ScoringError, match="players"):
        best_arrangement(" ".join(_hand(1)), "taiwan", players=5)
    with pytest.raises(ScoringError, match="rules"):
        best_arrangement(" ".join(_hand(1)), "nope")


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "scoring", *args], input=stdin, capture_output=True,
                          text=True, cwd=REPO, timeout=60)


def test_cli_arrange_cards_and_rows():
    cards = _hand(5)
    done = run("arrange", "-", stdin=json.dumps({"rules": "taiwan", "cards": " ".join(cards)}))
    assert done.returncode == 0, done.stderr
    printed = json.loads(done.stdout)
    assert set(printed) >= {"best"} and "fix" not in printed
    assert sorted(printed["best"]["front"] + printed["best"]["middle"] + printed["best"]["back"]) == sorted(cards)
    fouled = "AS AH KD / 2C 3D 5H 7S 9C / 4C 6D 8H TS QC"
    done = run("arrange", "-", stdin=json.dumps({"rules": "taiwan", "rows": fouled}))
    assert done.returncode == 0, done.stderr
    printed = json.loads(done.stdout)
    assert printed["fix"]["foul"].startswith("front") and printed["fix"]["moved"] > 0
    assert foul_reason(_text(printed["fix"]), "taiwan") is None
    assert foul_reason(_text(printed["best"]), "taiwan") is None


def test_cli_arrange_criss_cross_sets():
    deck = list(CODES)
    random.Random(46).shuffle(deck)
    sets = [_text({"front": deck[:3], "middle": deck[3:8], "back": deck[8:13]}),
            _text({"front": deck[13:16], "middle": deck[16:21], "back": deck[21:26]})]
    done = run("arrange", "-", stdin=json.dumps({"rules": "criss-cross", "rows": {"sets": sets}}))
    assert done.returncode == 0, done.stderr
    printed = json.loads(done.stdout)
    for entry, laid in zip(printed["sets"], sets):
        assert sorted(entry["best"]["front"] + entry["best"]["middle"] + entry["best"]["back"]) == sorted(
            laid.replace("/", " ").split())
        assert foul_reason(_text(entry["fix"]), "criss-cross") is None
        assert (entry["fix"]["moved"] == 0) == (entry["fix"]["foul"] is None)


@pytest.mark.parametrize("document, fragment", [
    ("{oops", "not valid JSON"),
    (json.dumps({"rules": "taiwan"}), "one of the two"),
    (json.dumps({"rules": "taiwan", "cards": "AS", "rows": "AS"}), "one of the two"),
    (json.dumps({"rules": "taiwan", "cards": "AS KS"}), "13"),
    (json.dumps({"rules": "taiwan", "cards": " ".join(_hand(2)), "colour": 1}), "unknown key"),
    (json.dumps({"cards": " ".join(_hand(2))}), "no rules"),
    (json.dumps({"rules": "taiwan", "cards": " ".join(_hand(2)), "players": 9}), "players"),
    (json.dumps([1, 2]), "JSON object"),
])
def test_cli_arrange_errors_are_one_line_with_status_2(document, fragment):
    done = run("arrange", "-", stdin=document)
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0], lines


def test_the_eleven_point_estimate_matches_the_engine_at_two_players():
    """Two players: rows won minus lost, plus the overall winner's 11 (the one with more points; none on a
    level round), settled by the engine's settle_states on rows drawn from the card-removed model."""
    rules = resolve_rules("eleven-point")
    model = opponent_model(rules)
    cards = _hand(24)
    laid = np.array(parse_hand_input(" ".join(cards)).cards, dtype=np.int64)
    opponents = _draw_states(rules, model, 4000, np.random.default_rng(8), laid)
    front, middle, back, _, expected = score_splits(laid, rules, 1)
    for pick in np.random.default_rng(4).choice(len(expected), size=3, replace=False).tolist():
        mine = _my_state(laid, rules, front, middle, back, pick)
        amounts = np.array([float(Fraction(settle_states(rules, ["me", "o"], {"me": mine, "o": other}, None,
                                                          Stakes(1), audit=False)["net"]["me"]))
                            for other in opponents])
        noise = 4 * amounts.std() / np.sqrt(len(amounts))
        assert abs(amounts.mean() - expected[pick]) <= noise + 1e-6, (pick, amounts.mean(), expected[pick])


@pytest.mark.parametrize("preset,options", [("low-middle", None), ("low-middle", {"low_middle_order": "high-order"}),
                                            ("eleven-point", None), ("criss-cross", None)])
def test_variant_advice_is_legal_and_the_maximum_over_every_legal_split(preset, options):
    """Seed 004's variants: the advice never fouls (the engine's own check), the candidates are exactly
    the splits the engine finds legal (a sample of the full table), and none scores above the advice."""
    rules = resolve_rules(preset, options)
    table = split_table()
    for seed in (41, 42, 43):
        cards = _hand(seed)
        advice = best_arrangement(" ".join(cards), preset, options)
        assert foul_reason(_text(advice["best"]), preset, options) is None
        assert sorted(advice["best"]["front"] + advice["best"]["middle"] + advice["best"]["back"]) == sorted(cards)
        laid = np.array(parse_hand_input(" ".join(cards)).cards, dtype=np.int64)
        # criss cross: one set meets the opponent's two sets
        front, middle, back, _, expected = score_splits(laid, rules, 2 if preset == "criss-cross" else 3)
        scored = set(zip(front.tolist(), middle.tolist(), back.tolist()))
        for split in np.random.default_rng(seed).choice(len(table.front), size=1500, replace=False).tolist():
            ids = (int(table.front[split]), int(table.middle[split]), int(table.back[split]))
            rows = (tuple(laid[FRONT_SUBSETS[ids[0]]]), tuple(laid[FIVE_SUBSETS[ids[1]]]),
                    tuple(laid[FIVE_SUBSETS[ids[2]]]))
            state = player_state("x", HandInput(rows, rows[0] + rows[1] + rows[2], natural=False), rules)
            assert (state.status == "rows") == (ids in scored)
        assert advice["best"]["expected"] == round(float(expected.max()), 3)


def test_criss_cross_advises_each_set():
    deck = list(CODES)
    random.Random(44).shuffle(deck)
    sets = [" ".join(deck[:13]), " ".join(deck[13:26])]
    advice = best_arrangement({"sets": sets}, "criss-cross")
    assert len(advice["sets"]) == 2
    for entry, cards in zip(advice["sets"], sets):
        best = entry["best"]
        assert sorted(best["front"] + best["middle"] + best["back"]) == sorted(cards.split())
        assert foul_reason(_text(best), "criss-cross") is None
    with pytest.raises(ScoringError, match="share a card"):
        best_arrangement({"sets": [sets[0], sets[0]]}, "criss-cross")
    with pytest.raises(ScoringError, match="sets"):
        best_arrangement({"sets": [sets[0]]}, "criss-cross")


def _variant_play(preset: str, deals: int, seed: int) -> list[float]:
    """Per seat and deal: the advisor's seat's net minus the plain setter's on the same cards, all other
    seats set by the plain setter (four players; criss cross: two players with two sets each)."""
    rng = random.Random(seed)
    gains = []
    for _ in range(deals):
        deck = list(CODES)
        rng.shuffle(deck)
        hands = [deck[13 * i:13 * i + 13] for i in range(4)]
        plain = [{**parse_rows(strongest_rows(hand, preset)), "natural": False} for hand in hands]
        advised = [{**{row: best_arrangement(" ".join(hand), preset)["best"][row] for row in ("front", "middle", "back")},
                    "natural": False} for hand in hands]
        if preset == "criss-cross":
            players = {"a": {"sets": plain[:2]}, "b": {"sets": plain[2:]}}
            base = settle({"rules": preset, "players": players}, audit=False)["net"]
            for name, own in (("a", advised[:2]), ("b", advised[2:])):
                net = settle({"rules": preset, "players": {**players, name: {"sets": own}}}, audit=False)["net"]
                gains.append(float(Fraction(net[name]) - Fraction(base[name])) / 4)
            continue
        names = [f"p{i}" for i in range(4)]
        players = dict(zip(names, plain))
        base = settle({"rules": preset, "players": players}, audit=False)["net"]
        for seat, name in enumerate(names):
            net = settle({"rules": preset, "players": {**players, name: advised[seat]}}, audit=False)["net"]
            gains.append(float(Fraction(net[name]) - Fraction(base[name])) / 3)
    return gains


def parse_rows(text: str) -> dict:
    return dict(zip(("front", "middle", "back"), (part.split() for part in text.split(" / "))))


@pytest.mark.parametrize("preset", ["low-middle", "eleven-point", "criss-cross"])
def test_variant_advice_beats_the_plain_setter_in_play(preset):
    """A few seeded deals (the printed margins over many deals: benchmarks/bench_arrange.py --play): the
    advisor's seat, the others set by the plain setter, scores more on average than the plain setter
    on the same cards."""
    gains = _variant_play(preset, 12, 45)
    assert np.mean(gains) > 0, np.mean(gains)


@pytest.mark.parametrize("options,players", [(None, 4), (None, 3), ({"overall_ties": "share"}, 4),
                                             ({"overall_payment": "each", "fourth_point": "per-scoop"}, 4)])
def test_the_pruned_overall_term_picks_what_every_split_scored_picks(options, players):
    """The 11-point game computes its overall term only where a split can still be the best or the
    runner-up; both (and their estimates) are those of every legal split scored in full."""
    rules = resolve_rules("eleven-point", options)
    for seed in range(50, 62):
        cards = _hand(seed)
        laid = np.array(parse_hand_input(" ".join(cards)).cards, dtype=np.int64)
        front, middle, back, strengths, expected = score_splits(laid, rules, players - 1)
        key = strength_key(strengths, rules)
        best = int(np.flatnonzero(expected >= expected.max() - 1e-9)[key[expected >= expected.max() - 1e-9].argmax()])
        others = np.where(key != key[best], expected, -np.inf)
        second = int(np.flatnonzero(others >= others.max() - 1e-9)[key[others >= others.max() - 1e-9].argmax()])
        advice = best_arrangement(" ".join(cards), "eleven-point", options, players)
        for entry, pick in ((advice["best"], best), (advice["runner_up"], second)):
            assert sorted(entry["back"]) == sorted(CODES[laid[p]] for p in FIVE_SUBSETS[back[pick]])
            assert sorted(entry["front"]) == sorted(CODES[laid[p]] for p in FRONT_SUBSETS[front[pick]])
            assert entry["expected"] == round(float(expected[pick]), 3)


def test_concave_envelope_lies_above_every_point_and_is_concave():
    rng = np.random.default_rng(3)
    for _ in range(20):
        x = np.arange(-9, 10, dtype=np.float64)
        y = rng.normal(size=len(x)).cumsum()
        hull_x, hull_y = concave_envelope(x, y)
        assert hull_x[0] == x[0] and hull_x[-1] == x[-1]
        assert np.all(np.interp(x, hull_x, hull_y) >= y - 1e-12)
        slopes = np.diff(hull_y) / np.diff(hull_x)
        assert np.all(np.diff(slopes) < 0)
        assert set(zip(hull_x, hull_y)) <= set(zip(x, y))   # its corners are points


def test_the_table_build_pools_the_refinement_passes_alone_and_is_seeded(tmp_path):
    """python -m scoring.advisor_build: the shipped rows are the refinement passes' (each a few deals
    here), and the same arguments build the same table."""
    from scoring.advisor_build import build

    tables = []
    for name in ("a.npz", "b.npz"):
        build(["fujian"], rounds=3, passes=2, seed=5, out=tmp_path / name, refine=2, refine_rounds=2)
        with np.load(tmp_path / name) as data:
            tables.append({key: data[key] for key in data.files})
    first, second = tables
    assert int(first["fujian_hands"]) == 2 * 2 * 4   # two refinement passes of two four-player deals
    assert int(first["fujian_front_count"].sum()) == 16
    assert first.keys() == second.keys() and all(np.array_equal(first[key], second[key]) for key in first)
    build(["fujian"], rounds=3, passes=2, seed=5, out=tmp_path / "plain.npz")
    with np.load(tmp_path / "plain.npz") as data:
        assert int(data["fujian_hands"]) == 3 * 4   # no refinement: passes 2 onwards
