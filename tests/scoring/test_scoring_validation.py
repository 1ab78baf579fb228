"""Bad input gets a clear, one-line ScoringError, and nothing half-settled comes back."""

import pytest

import scoring
from scoring import ScoringError

GOOD_A = "AS AH KD / KS KH KC 2S 3S / QS QH QD 5S 5H"
GOOD_B = "2C 3D 4C / 6S 6D 7C 7D 9S / 8S 9D TS JS QC"


def error_of(round_: dict) -> str:
    with pytest.raises(ScoringError) as err:
        scoring.settle(round_)
    message = str(err.value)
    assert "\n" not in message and message
    assert isinstance(err.value, ValueError)
    return message


def test_unknown_preset_lists_the_valid_ones():
    message = error_of({"rules": "vegas", "players": {"A": GOOD_A, "B": GOOD_B}})
    assert "vegas" in message and "fujian" in message and "2-4" in message


def test_unknown_option_lists_the_valid_ones():
    message = error_of({"rules": "fujian", "options": {"bonus": 1}, "players": {"A": GOOD_A, "B": GOOD_B}})
    assert "bonus" in message and "scoop_multiplier" in message


@pytest.mark.parametrize("options, fragment", [
    ({"mode": "solo"}, "banker, all-pairs"),
    ({"scoop_multiplier": 0}, "at least 1"),
    ({"royalties": "yes"}, "true or false"),
    ({"suit_order": "SHD"}, "SHDC"),
    ({"row_values": {"front": {"flush": 3}}}, "trips"),
    ({"row_values": {"top": {}}}, "front, middle, back"),
    ({"row_values": "enormous"}, "standard"),
    ({"natural_points": {"royal-flush": 3}}, "six-pairs"),
    ({"surrender_cost": -1}, "greater than 0"),
    ({"ties": "banker-top-card"}, "mode = banker"),
    ({"home_run_min_opponents": 4}, "from 1 to 3"),
])
def test_bad_option_values(options, fragment):
    message = error_of({"rules": "fujian", "options": options, "players": {"A": GOOD_A, "B": GOOD_B}})
    assert fragment in message


@pytest.mark.parametrize("players, fragment", [
    ({"A": GOOD_A}, "2 to 4 players"),
    ({name: GOOD_A for name in "ABCDE"}, "2 to 4 players"),
    ({"": GOOD_A, "B": GOOD_B}, "name"),
    (["A", "B"], "object of name -> hand"),
])
def test_player_count_and_names(players, fragment):
    assert fragment in error_of({"rules": "2-4", "players": players})


def test_banker_must_be_a_player_in_banker_presets_and_absent_otherwise():
    players = {"A": GOOD_A, "B": GOOD_B}
    assert "banker" in error_of({"rules": "hk", "players": players})
    assert "Zed" in error_of({"rules": "hk", "players": players, "banker": "Zed"})
    assert "no banker" in error_of({"rules": "fujian", "players": players, "banker": "A"})


@pytest.mark.parametrize("hand, fragment", [
    ("AS KS QS / 2C 2D 9H 9S 4C / 3H 4H 5H 6H", "Bob: the back row needs 5 cards, got 4"),
    ("AS KS QS / 2C 2D 9H 9S 4C / 3H 4H 5H 6H 1H", "'1H' is not a card"),
    ("AS KS QS / 2C 2D 9H 9S 4C / 3H 4H 5H 6H AS", "Bob: AS appears twice"),
    ("AS KS / QS 2C 2D 9H 9S / 4C 3H 4H 5H 6H", "front row needs 3 cards"),
    ("AS KS QS / 2C 2D 9H 9S 4C", "3 rows"),
    ({"front": "AS KS QS", "middle": "2C 2D 9H 9S 4C"}, "no back"),
    ({"front": "AS KS QS", "middle": "2C 2D 9H 9S 4C", "back": "3H 4H 5H 6H 7H", "colour": "red"}, "colour"),
    ({"surrender": "yes"}, "true or false"),
    (42, "a text, a list or an object"),
    ("2C 2D 9H 9S 4C 3H 4H 5H 6H 7H AS KS QS", "arrange the 13 cards"),
    ({"front": "AS KS QS", "middle": "2C 2D 9H 9S 4C", "back": "3H 4H 5H 6H 7H", "natural": "six-pairs"},
     "not six-pairs"),
    ({"front": "AS KS QS", "middle": "2C 2D 9H 9S 4C", "back": "3H 4H 5H 6H 7H", "natural": "royal"},
     "not a natural"),
])
def test_bad_hands_name_the_player_and_the_card(hand, fragment):
    message = error_of({"rules": "2-4", "players": {"Ann": GOOD_B.replace("2C", "TC").replace("4C", "JC")
                                                    .replace("9S", "TD").replace("3D", "JD"), "Bob": hand}})
    assert fragment in message


def test_a_card_in_two_hands_names_both_players():
    message = error_of({"rules": "2-4", "players": {"Ann": GOOD_A, "Bob": GOOD_A.replace("AS", "AD")}})
    assert "Ann" in message and "Bob" in message


def test_surrender_only_where_allowed_and_never_the_banker():
    players = {"A": GOOD_A, "B": {"surrender": True}}
    assert "surrender" in error_of({"rules": "points", "players": players})
    assert "surrender" in error_of({"rules": "hk", "options": {"surrender": True}, "banker": "B",
                                    "players": players})


@pytest.mark.parametrize("stakes, fragment", [
    ({"per_point": 0}, "greater than 0"),
    ({"per_point": "abc"}, "number"),
    ({"per_point": True}, "number"),
    ({"pairs": [{"players": ["A", "Zed"], "per_point": 2}]}, "'Zed' is not a player"),
    ({"pairs": [{"players": ["A", "A"], "per_point": 2}]}, "two different players"),
    ({"pairs": [{"players": ["A", "B"], "per_point": 2}, {"players": ["B", "A"], "per_point": 3}]}, "twice"),
    ({"bets": {"B": 2}}, "no banker"),
    ({"limit": 5}, "unknown key 'limit'"),
])
def test_bad_stakes(stakes, fragment):
    assert fragment in error_of({"rules": "2-4", "players": {"A": GOOD_A, "B": GOOD_B}, "stakes": stakes})


def test_unknown_round_key_and_game():
    assert "valid keys" in error_of({"rules": "2-4", "players": {"A": GOOD_A, "B": GOOD_B}, "round": 3})
    assert "big-two" in error_of({"game": "big-two", "rules": "2-4", "players": {"A": GOOD_A, "B": GOOD_B}})
    assert "JSON object" in error_of([])


def test_stakes_per_pair_and_bets():
    players = {"A": GOOD_A, "B": GOOD_B, "C": "4S 5D 6C / 8C 8D TC TD AC / 2H 3H 4H 7H 9H"}
    result = scoring.settle({"rules": "2-4", "players": players,
                             "stakes": {"per_point": "0.5", "pairs": [{"players": ["A", "C"], "per_point": 10}]}})
    # A scoops B (4 points at 1/2 a point) and C (4 points at 10 a point)
    assert result["money"]["A"] == 2 + 40
    assert result["net"]["A"] == 8
    banker = scoring.settle({"rules": "hk", "banker": "A", "players": players, "stakes": {"bets": {"B": 3}}})
    assert banker["money"]["B"] == banker["net"]["B"] * 3
    assert banker["money"]["C"] == banker["net"]["C"]


def test_validate_settings_checks_a_game_without_hands():
    settings = scoring.validate_settings("hk", {"row_values": "standard"}, ["Ann", "Bob", "Cy"], "Ann",
                                         {"bets": {"Bob": 2}})
    assert settings["mode"] == "banker" and settings["banker"] == "Ann"
    assert settings["options"]["row_order"] == "strict"
    assert settings["stakes"]["pairs"] == [{"players": ["Ann", "Bob"], "per_point": 2}]
    assert scoring.validate_settings("fujian")["options"]["foul"] == "reject"
    with pytest.raises(ScoringError):
        scoring.validate_settings("hk", None, ["Ann", "Bob"], "Zed")
    with pytest.raises(ScoringError):
        scoring.validate_settings("fujian", {"surrender": "sometimes"})


def test_parse_hand_gives_canonical_codes():
    parsed = scoring.parse_hand("10s 10h 10d / 2♣ 3♣ 4♣ 5♣ 6♣ / a♥ k♥ q♥ j♥ 9♥")
    assert parsed["front"] == ["TS", "TH", "TD"]
    assert parsed["back"] == ["AH", "KH", "QH", "JH", "9H"]
    assert len(parsed["cards"]) == 13
    assert scoring.parse_hand({"surrender": True}) == {"surrender": True}


def test_list_presets_has_every_preset_with_options_and_defaults():
    presets = scoring.list_presets("chinese-poker")
    assert set(presets) == {"hk", "taiwan-banker", "points", "taiwan", "fujian", "2-4", "1-6", "low-middle",
                            "criss-cross", "eleven-point"}
    for preset in presets.values():
        assert preset["source"].startswith("seed 00")
        assert {"mode", "scoop_multiplier", "natural_points"} <= set(preset["options"])
        assert all("default" in option and option["help"] for option in preset["options"].values())
    assert presets["hk"]["options"]["mode"]["default"] == "banker"
    assert presets["fujian"]["options"]["foul"]["default"] == "reject"
