"""Hostile round documents (issue 64, items 1 and 5): every number is bounded before any arithmetic, every
document is bounded before it is read, and the command line answers bad input with exit 2 and one line.

The fuzzed documents come from tests/adversaries/documents.py (seeded, so a failure names its document)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import pytest
from adversaries.documents import RawText, as_text, fuzzed_round_documents
from hypothesis import given, settings
from hypothesis import strategies as st

import scoring
from scoring.__main__ import main
from scoring.errors import MAX_MESSAGE, shown
from scoring.limits import MAX_DEPTH, MAX_TEXT, MAX_VALUES, check_document
from scoring.numbers import MAX_MAGNITUDE, MAX_WHOLE, parse_exact, parse_positive
from scoring.round_text import read_round_text

REPO = Path(__file__).resolve().parents[2]
ROUND = {"rules": "2-4", "players": {"Ivey": "6S 6H 4C / TS TH 9C QD 8D / 3S 3H 3D 2S 2H",
                                    "Hellmuth": "AS KS QC / 9S 9D 5C 5D 4D / KH JH 9H 8H 7H"}}
FUZZED = 2_100
GUARD_SECONDS = 2.0   # a generous bound, not a measurement: the repros used to take seconds to minutes


def _one_line(message: str) -> str:
    assert message and "\n" not in message and len(message) <= MAX_MESSAGE, message
    return message


def _assert_exact_zero_sum(result: dict) -> None:
    if not result.get("zero_sum", True):   # Big Two "scores" settlements are a running tally, not zero-sum
        return
    for key in ("net", "money"):
        assert sum(Fraction(str(value)) for value in result[key].values()) == 0, (key, result[key])


def _settle_text(text: str) -> dict | str:
    """The settlement, or the one-line error message."""
    try:
        result = scoring.settle(read_round_text(text))
    except scoring.ScoringError as err:
        return _one_line(str(err))
    json.dumps(result, ensure_ascii=False).encode("utf-8")   # printable and storable as it stands
    return result


# ---------------------------------------------------------------- fuzzed documents

def test_fuzzed_documents_settle_or_fail_with_one_line():
    settled = refused = 0
    for number, document in enumerate(fuzzed_round_documents(seed=64, count=FUZZED)):
        outcome = _settle_text(as_text(document))
        if isinstance(outcome, dict):
            _assert_exact_zero_sum(outcome)
            settled += 1
        else:
            refused += 1
    assert settled + refused == FUZZED
    assert settled >= 100 and refused >= 1_500   # the corpus exercises both paths


def test_fuzzed_documents_through_the_command_line_code_path(monkeypatch, capsys):
    exits = {0: 0, 2: 0}
    for document in fuzzed_round_documents(seed=65, count=FUZZED):
        monkeypatch.setattr(sys, "stdin", io.StringIO(as_text(document)))
        status = main(["settle", "-"])
        out, err = capsys.readouterr()
        assert status in exits, (status, err[-500:])
        exits[status] += 1
        if status == 0:
            assert err == ""
            _assert_exact_zero_sum(json.loads(out))
        else:
            assert out == "" and err.startswith("error: ") and err.endswith("\n")
            _one_line(err[len("error: "):-1])
    assert exits[0] >= 100 and exits[2] >= 1_500


def test_fuzzed_generator_is_seeded_and_covers_every_preset_family():
    first = [as_text(document) for document in fuzzed_round_documents(seed=7, count=300)]
    assert first == [as_text(document) for document in fuzzed_round_documents(seed=7, count=300)]
    assert first != [as_text(document) for document in fuzzed_round_documents(seed=8, count=300)]
    for preset in scoring.list_presets():
        assert any(f'"rules": "{preset}"' in text for text in first), preset
    assert any(isinstance(document, RawText) for document in fuzzed_round_documents(seed=7, count=300))


HOSTILE_TEXTS = {
    "deep nesting": '{"rules": "2-4", "players": ' + "[" * 5_000 + "]" * 5_000 + "}",
    "digit limit": '{"rules": "2-4", "stakes": {"per_point": ' + "9" * 5_000 + "}}",
    "huge exponent": json.dumps({**ROUND, "stakes": {"per_point": "1e99999999"}}),
    "lone surrogate name": '{"rules": "2-4", "players": {"\\ud800": "AS KS QS / 2C 2D 9H 9S 4C / 3H 4H 5H 6H 7H"}}',
    "wrong type": json.dumps({**ROUND, "game": []}),
    "broken JSON": '{"rules": "2-4", "players": {',
    "NaN": '{"rules": "2-4", "stakes": {"per_point": NaN}}',
}


@pytest.mark.parametrize("name", sorted(HOSTILE_TEXTS))
def test_the_command_line_process_exits_2_with_one_line(name):
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "scoring", "settle", "-"], input=HOSTILE_TEXTS[name],
                          capture_output=True, text=True, cwd=REPO, timeout=60)
    assert time.perf_counter() - started < 30   # the interpreter's start-up included
    assert done.returncode == 2, done.stderr[-1_000:]
    assert done.stdout == "" and "Traceback" not in done.stderr
    assert done.stderr.startswith("error: ") and done.stderr.count("\n") == 1


def test_a_surrogate_in_a_settled_name_prints_safely(monkeypatch, capsys):
    """Refused at the door: a lone surrogate cannot be printed as UTF-8 or stored."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(HOSTILE_TEXTS["lone surrogate name"]))
    assert main(["settle", "-"]) == 2
    err = capsys.readouterr().err
    assert "\\ud800" in err and "not valid Unicode" in err
    err.encode("utf-8")


# ---------------------------------------------------------------- the numbered repros

@pytest.mark.parametrize("per_point", ["1e10000000", "1e99999999", "1e3000000", "1e5000", "1e-5000", 10 ** 4000])
def test_huge_stakes_are_refused_at_once(per_point):
    started = time.perf_counter()
    with pytest.raises(scoring.ScoringError, match="below 1,000,000,000,000 with at most 6 decimals"):
        scoring.settle({**ROUND, "stakes": {"per_point": per_point}})
    assert time.perf_counter() - started < GUARD_SECONDS


@pytest.mark.parametrize("game", [[], {}, [[]], 5])
def test_a_game_of_the_wrong_type_is_a_scoring_error(game):
    with pytest.raises(scoring.ScoringError, match="unknown game"):
        scoring.settle({**ROUND, "game": game})


def test_deep_and_large_documents_are_refused_before_reading():
    with pytest.raises(scoring.ScoringError, match="nested more than"):
        scoring.settle({**ROUND, "options": {"row_values": _nested(MAX_DEPTH + 5)}})
    with pytest.raises(scoring.ScoringError, match="2,001 items; a round is far smaller"):
        scoring.settle({**ROUND, "players": {f"P{i}": "" for i in range(MAX_VALUES + 1)}})
    with pytest.raises(scoring.ScoringError, match="more than 2,000 values"):
        scoring.settle({**ROUND, "options": [[0] * 100] * 30})
    with pytest.raises(scoring.ScoringError, match="characters"):
        scoring.settle({**ROUND, "rules": "x" * (MAX_TEXT + 1)})
    with pytest.raises(scoring.ScoringError, match="a round needs 2 to 4 players, got 5"):
        scoring.settle({**ROUND, "players": {f"P{i}": "" for i in range(5)}})
    check_document({"a": _nested(MAX_DEPTH - 1)})   # within bounds: no error


def _nested(depth: int) -> list:
    value: list = []
    for _ in range(depth - 1):
        value = [value]
    return value


# ---------------------------------------------------------------- the number range

@pytest.mark.parametrize("text, value", [
    ("2", 2), (" 7 ", 7), ("0.5", Fraction(1, 2)), ("1/3", Fraction(1, 3)), ("2.5e3", 2500), ("-0.25", Fraction(-1, 4)),
    ("999999999999.999999", Fraction(999999999999999999, 1_000_000)), ("0.000001", Fraction(1, 1_000_000)),
    (0.1, Fraction(1, 10)), (1e3, 1000), (-(10 ** 12) + 1, -(10 ** 12) + 1), (Fraction(2, 7), Fraction(2, 7)),
])
def test_numbers_in_range_are_exact(text, value):
    assert parse_exact(text, "x") == value


@pytest.mark.parametrize("text", [
    "1e12", "-1e12", 10 ** 12, "0.0000001", "1/1000001", 1e300, "1e-5000", "1e1000", "9" * 41, "1e1234",
    Fraction(1, 3_000_000),
])
def test_numbers_out_of_range_are_refused_with_the_range(text):
    with pytest.raises(scoring.ScoringError, match="below 1,000,000,000,000 with at most 6 decimals"):
        parse_exact(text, "stakes.per_point")


@pytest.mark.parametrize("text", ["NaN", "inf", "0x10", "١٢", "1_000", "", "½", "1,5", "1e", True, None, [1], {}])
def test_what_is_not_a_number_says_so(text):
    with pytest.raises(scoring.ScoringError, match="not a number"):
        parse_exact(text, "x")


def test_positive_amounts_and_whole_options():
    with pytest.raises(scoring.ScoringError, match="greater than 0"):
        parse_positive("0", "stakes.per_point")
    with pytest.raises(scoring.ScoringError, match="divides by zero"):
        parse_exact("1/0", "x")
    too_big = {**ROUND, "options": {"scoop_multiplier": MAX_WHOLE + 1}}
    with pytest.raises(scoring.ScoringError, match="at most 1,000,000"):
        scoring.settle(too_big)
    biggest = scoring.settle({**ROUND, "options": {"scoop_multiplier": MAX_WHOLE},
                              "stakes": {"per_point": "999999999999.999999"}})
    _assert_exact_zero_sum(biggest)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=60), st.integers(), st.floats(allow_nan=True, allow_infinity=True),
                 st.fractions()))
def test_any_value_is_an_exact_in_range_number_or_one_line_error(value):
    try:
        number = parse_exact(value, "x")
    except scoring.ScoringError as err:
        _one_line(str(err))
        return
    assert -MAX_MAGNITUDE < number < MAX_MAGNITUDE and Fraction(number).denominator <= 10 ** 6


@settings(max_examples=200, deadline=None)
@given(st.decimals(min_value=-(10 ** 12) + 1, max_value=10 ** 12 - 1, places=6, allow_nan=False,
                   allow_infinity=False))
def test_every_decimal_in_range_reads_exactly(value):
    assert parse_exact(str(value), "x") == Fraction(value)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["rules", "options", "players", "banker", "stakes", "game", "order", "winner"]),
       JSON_VALUES)
def test_any_json_value_in_any_field_settles_or_fails_with_one_line(field, value):
    outcome = _settle_text(json.dumps({**ROUND, field: value}))
    if isinstance(outcome, dict):
        _assert_exact_zero_sum(outcome)


def test_messages_show_hostile_values_briefly():
    assert shown("x" * 10_000).endswith("(10,000 characters)") and len(shown("x" * 10_000)) < 80
    assert shown(10 ** 5000) == "a number of about 5,001 digits"
    assert shown("\ud800") == "'\\ud800'"
    assert shown(_nested(10_000)) == "a list of 1 item" and shown({"a": 1, "b": 2}) == "an object of 2 keys"
    assert len(str(scoring.ScoringError("y" * 10_000))) == MAX_MESSAGE


def test_the_command_line_refuses_a_huge_file_and_a_key_given_twice(tmp_path, capsys):
    huge = tmp_path / "huge.json"
    huge.write_text(json.dumps({**ROUND, "pad": "x" * 1_000_000}), encoding="utf-8")
    assert main(["settle", str(huge)]) == 2
    assert "a round is at most 1,000,000" in capsys.readouterr().err
    twice = tmp_path / "twice.json"
    hand = json.dumps(ROUND["players"]["Ivey"])
    twice.write_text('{"rules": "2-4", "players": {"Ivey": ' + hand + ', "Ivey": ' + hand + "}}", encoding="utf-8")
    assert main(["settle", str(twice)]) == 2
    assert "the key 'Ivey' appears twice in one object" in capsys.readouterr().err
