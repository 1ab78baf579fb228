import pytest

from scoring import ScoringError
from scoring.cards import CODES, card_from_text, parse_card, split_card_text


@pytest.mark.parametrize("text, expected", [
    ("AS", "AS"), ("as", "AS"), ("As", "AS"), ("10s", "TS"), ("10S", "TS"), ("T♠", "TS"),
    ("♠A", "AS"), ("a♠", "AS"), ("♥10", "TH"), ("Q♦", "QD"), ("2♣", "2C"), ("SA", "AS"),
    (" kh ", "KH"), ("♤3", "3S"), ("J♥\ufe0f", "JH"),
])
def test_parse_card_accepts_common_spellings(text, expected):
    assert parse_card(text) == expected


@pytest.mark.parametrize("text", ["1S", "11H", "AX", "A", "", "ASK", "♠♥", "0D", "KK"])
def test_parse_card_rejects_non_cards_with_the_text_in_the_message(text):
    with pytest.raises(ScoringError) as err:
        parse_card(text)
    assert f"'{text}'" in str(err.value)
    assert "\n" not in str(err.value)


def test_parse_card_rejects_non_text():
    with pytest.raises(ScoringError):
        parse_card(12)
    with pytest.raises(ScoringError):
        card_from_text(["AS"])


def test_codes_are_52_distinct_and_round_trip():
    assert len(set(CODES)) == 52
    assert [card_from_text(code) for code in CODES] == list(range(52))
    # rank-major encoding: the rank is card // 4
    assert card_from_text("2S") >> 2 == 0 and card_from_text("AC") >> 2 == 12


def test_split_card_text_takes_commas_and_spaces():
    assert split_card_text("AS, KS  QS") == ["AS", "KS", "QS"]
