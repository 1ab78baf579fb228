"""Big Two input checks: every bad round gets a one-line ScoringError naming the player (and card)."""

import pytest

import scoring
from scoring import ScoringError
from scoring_helpers import rest_of_deck

DRAGON = "3S 4H 5D 6C 7S 8H 9D TC JS QH KD AC 2S"


def bigtwo(players, rules="bigtwo-hk", **extra):
    return scoring.settle({"game": "bigtwo", "rules": rules, "players": players, **extra})


def dealt(claimed: str, *sizes: int) -> list[str]:
    """Hands of these sizes from the cards the claimant does not hold (the others' cards dealt)."""
    rest, hands = rest_of_deck(claimed), []
    for size in sizes:
        hands.append(" ".join(rest[:size]))
        rest = rest[size:]
    return hands


@pytest.mark.parametrize("players, extra, fragment", [
    ({"Ann": "", "Bob": "2S KD", "Cy": "KD 3C"}, {}, "KD is in both Bob's and Cy's cards"),
    ({"Ann": "", "Bob": "2S 2s"}, {}, "Bob: 2S appears twice"),
    ({"Ann": "", "Bob": "2S XX"}, {}, "Bob: 'XX' is not a card"),
    ({"Ann": "", "Bob": "3S 3H 3D 3C 4S 4H 4D 4C 5S 5H 5D 5C 6S 6H"}, {}, "Bob: 14 cards left"),
    ({"Ann": "3S", "Bob": "4S"}, {}, "no player has gone out"),
    ({"Ann": "", "Bob": "", "Cy": "4S"}, {}, "Ann and Bob hold no cards"),
    ({"Ann": ""}, {}, "2 to 4 players"),
    ({"A": "", "B": "3S", "C": "4S", "D": "5S", "E": "6S"}, {}, "2 to 4 players"),
    ({"Ann": "", "Bob": 7}, {}, "Bob: the cards left must be"),
    ({"Ann": "", "Bob": {"cards": "3S", "photo": "x"}}, {}, "Bob: unknown key 'photo'"),
    ({"Ann": "", "Bob": "3S"}, {"winner": "Bob"}, "names 'Bob' as the winner"),
    ({"Ann": "", "Bob": "3S"}, {"failed_to_block": "Zed"}, "'Zed' is not a player"),
    ({"Ann": "", "Bob": "3S"}, {"failed_to_block": "Ann"}, "Ann won the hand"),
    ({"Ann": "", "Bob": "3S"}, {"order": ["Ann", "Bob"]}, "order is used only by rank scoring"),
    ({"Ann": "", "Bob": "3S"}, {"banker": "Ann"}, "unknown key 'banker'"),
    ({"Ann": "", "Bob": "3S"}, {"options": {"double_on_eights": True}}, "unknown option 'double_on_eights'"),
    ({"Ann": "", "Bob": "3S"}, {"options": {"settlement": "split"}}, "settlement must be one of"),
    ({"Ann": "", "Bob": "3S"}, {"options": {"winner_bonus": 5}}, "winner_bonus"),
    ({"Ann": "", "Bob": "3S"}, {"options": {"card_values": {"2": 40}}}, "must give every rank; missing 3"),
    ({"Ann": "", "Bob": "3S"}, {"options": {"count_multipliers": {"eight": 2}}}, "not a card count"),
    ({"Ann": "", "Bob": "3S"}, {"options": {"instant_wins": {"royal": 3}}}, "unknown instant win 'royal'"),
    ({"Ann": "", "Bob": "3S"}, {"options": {"card_overrides": {"1S": 40}}}, "card_overrides: '1S' is not a card"),
    ({"Ann": "", "Bob": "3S"}, {"stakes": {"per_point": 0}}, "stakes.per_point must be greater than 0"),
    ({"Ann": {"cards": "3S 4S", "instant_win": True}, "Bob": "5S"}, {}, "Ann: 3S 4S is no instant win"),
    ({"Ann": {"cards": "3S", "instant_win": "yes"}, "Bob": "5S"}, {}, "instant_win must be true or false"),
])
def test_bad_rounds_name_the_problem(players, extra, fragment):
    with pytest.raises(ScoringError) as caught:
        bigtwo(players, **extra)
    message = str(caught.value)
    assert fragment in message
    assert "\n" not in message


@pytest.mark.parametrize("players, extra, fragment", [
    (["Ann", "Bob", "Cy"], {}, "give \"order\""),
    (["Ann", "Bob", "Cy"], {"order": ["Ann", "Bob"]}, "Cy has no place"),
    (["Ann", "Bob", "Cy"], {"order": ["Ann", "Bob", "Bob", "Cy"]}, "Bob is placed twice"),
    (["Ann", "Bob", "Cy"], {"order": ["Ann", "Bob", "Zed"]}, "'Zed' is not a player"),
    (["Ann", "Bob", "Cy"], {"order": "Ann Bob Cy"}, "order must be the list"),
    ({"Ann": "3S", "Bob": "", "Cy": ""}, {"order": ["Ann", "Bob", "Cy"]},
     "Ann is first in the order but still holds 3S"),
    (["Ann", "Bob", "Cy"], {"order": ["Ann", "Bob", "Cy"], "failed_to_block": "Bob"}, "no 頂大/顧牌 rule"),
    (["Ann", "Bob", "Cy"], {"order": ["Ann", "Bob", "Cy"], "options": {"rank_points": [3, 2, 1, 0]}},
     "gives 4 places for 3 players"),
    (["Ann", "Bob", "Cy"], {"order": ["Ann", "Bob", "Cy"], "options": {"winner_bonus": 1}}, "set rank_points"),
])
def test_bad_rank_rounds(players, extra, fragment):
    with pytest.raises(ScoringError, match=None) as caught:
        bigtwo(players, rules="bigtwo-rank", **extra)
    assert fragment in str(caught.value)


def test_instant_win_checks():
    dragon = DRAGON
    bob, cy = dealt(dragon, 13, 13)
    with pytest.raises(ScoringError, match="Bob has no cards, but Ann won instantly"):
        bigtwo({"Ann": {"cards": dragon, "instant_win": True}, "Bob": ""})
    with pytest.raises(ScoringError, match="nobody could block"):
        bigtwo({"Ann": {"cards": dragon, "instant_win": True}, "Bob": bob, "Cy": cy}, failed_to_block="Bob")
    with pytest.raises(ScoringError, match="一條龍 is not an instant win under rules bigtwo-hk"):
        bigtwo({"Ann": {"cards": dragon, "instant_win": True}, "Bob": "3H"},
               options={"instant_wins": {"dragon": None, "same-suit-dragon": None}})
    with pytest.raises(ScoringError, match="Ann and Bob both claim"):
        bigtwo({"Ann": {"cards": dragon, "instant_win": True},
                "Bob": {"cards": "3H 4D 5C 6S 7H 8D 9C TS JH QD KC AS 2H", "instant_win": True}, "Cy": "3C"})


@pytest.mark.parametrize("cards, options", [
    ("3S 4H 5D 6C 7S 8H 9D TC JS QH KD AC", None),                     # 12 cards: no dragon
    ("3S 4H 5D 6C 7S 8H 9D TC JS QH KD AC 2S 2S", None),               # a card twice
    ("2S 2H 2D 2C 3S 4S 5S 6S 7S 8S 9S TS JS", None),                  # four 2s, off by default
    ("3S 4H 5D 6C 7S 8H 9D TC JS QH KD AC 2S", {"instant_wins": {"dragon": None, "same-suit-dragon": None}}),
    ("2S 2H 2D 2C", {"instant_wins": {"four-twos": 3}}),                 # four 2s, but not the hand dealt
])
def test_check_instant_win_says_what_settling_says(cards, options):
    """A claim checked on its own (the web app's review) gets settling's own message for the same cards."""
    rest = {"Bob": "3H", "Cy": "4D"}
    with pytest.raises(ScoringError) as settling:
        bigtwo({"Ann": {"cards": cards, "instant_win": True}, **rest}, options=options)
    with pytest.raises(ScoringError) as alone:
        scoring.bigtwo.check_instant_win("bigtwo-hk", options, "Ann", cards)
    assert str(alone.value) == str(settling.value) and str(alone.value).startswith("Ann: ")


def test_four_twos_are_claimed_with_the_whole_hand_dealt():
    options = {"instant_wins": {"four-twos": 3}}
    with pytest.raises(ScoringError, match="Ann: 5 cards entered; an instant win is shown with all 13 cards Ann was dealt"):
        scoring.bigtwo.check_instant_win("bigtwo-hk", options, "Ann", "2S 2H 2D 2C 3S".split())


def test_check_instant_win_returns_the_settlements_instant_win():
    four_twos = "2S 2H 2D 2C 3S 4S 5S 6S 7S 8S 9S TS JS"
    options = {"instant_wins": {"four-twos": 3}}
    settled = bigtwo({"Ann": {"cards": four_twos, "instant_win": True}, "Bob": dealt(four_twos, 13)[0]},
                     options=options)
    claim = scoring.bigtwo.check_instant_win("bigtwo-hk", options, "Ann", four_twos.split())
    assert claim == settled["instant_win"] and claim["hand"] == "four-twos"
    with pytest.raises(ScoringError, match="Ann: rules bigtwo-rank score the finishing order"):
        scoring.bigtwo.check_instant_win("bigtwo-rank", None, "Ann", four_twos)


@pytest.mark.parametrize("bob_size, says", [
    (1, "Bob has 1 card, but Ann won instantly: enter all 13 cards Bob was dealt"),
    (12, "Bob has 12 cards, but Ann won instantly: enter all 13 cards Bob was dealt"),
    (14, "Bob: 14 cards left, but a hand holds at most 13 (option max_cards)"),  # max_cards caps it first
])
def test_each_loser_of_an_instant_win_enters_the_13_cards_dealt(bob_size, says):
    """An instant win charges the whole deal (三炒 of 13 cards): a short hand would be charged too little."""
    bob, cy = dealt(DRAGON, bob_size, 13)
    with pytest.raises(ScoringError) as caught:
        bigtwo({"Ann": {"cards": DRAGON, "instant_win": True}, "Bob": bob, "Cy": cy})
    assert str(caught.value) == says
    with pytest.raises(ScoringError, match="Cy has 12 cards, but Ann won instantly"):  # each loser is checked
        bigtwo({"Ann": {"cards": DRAGON, "instant_win": True}, **dict(zip(("Bob", "Cy"), dealt(DRAGON, 13, 12)))})


def test_a_bigger_deal_under_max_cards_is_a_full_deal_too():
    """Three players dealt all 52 (17, 17 and 18; option max_cards 18): four 2s in 18 cards, the others' 17
    settle; a loser short of 13 is still refused, the message giving the deal's range."""
    options = {"max_cards": 18, "instant_wins": {"four-twos": 3}}
    ann = "2S 2H 2D 2C " + " ".join(rest_of_deck("2S 2H 2D 2C")[:14])
    bob, cy = dealt(ann, 17, 17)
    settled = bigtwo({"Ann": {"cards": ann, "instant_win": True}, "Bob": bob, "Cy": cy}, options=options)
    assert settled["net"] == {"Ann": 2 * 17 * 3, "Bob": -17 * 3, "Cy": -17 * 3}
    with pytest.raises(ScoringError, match="Bob has 12 cards, but Ann won instantly: enter all 13 to 18 cards"):
        bigtwo({"Ann": {"cards": ann, "instant_win": True}, "Bob": dealt(ann, 12)[0], "Cy": cy}, options=options)


def test_unknown_rules_and_game():
    with pytest.raises(ScoringError, match="unknown Big Two rules 'hk'"):
        scoring.settle({"game": "bigtwo", "rules": "hk", "players": {"A": "", "B": "3S"}})
    with pytest.raises(ScoringError, match="unknown game 'big2'"):
        scoring.settle({"game": "big2", "rules": "bigtwo-hk", "players": {"A": "", "B": "3S"}})


def test_game_is_inferred_from_a_big_two_preset():
    assert scoring.settle({"rules": "bigtwo-hk", "players": {"A": "", "B": "3S"}})["game"] == "bigtwo"


def test_max_cards_option_allows_a_three_player_deal_of_all_52():
    eighteen = "3S 3H 3D 3C 4S 4H 4D 4C 5S 5H 5D 5C 6S 6H 6D 6C 7S 7H"
    result = bigtwo({"Ann": "", "Bob": eighteen}, options={"max_cards": 18})
    assert result["net"]["Bob"] == -18 * 4


def test_stake_pairs_need_a_settlement_between_players():
    with pytest.raises(ScoringError, match="stakes.pairs needs a settlement between players"):
        bigtwo({"A": "", "B": "3S"}, rules="bigtwo-points", stakes={"pairs": [{"players": ["A", "B"], "per_point": 2}]})


def test_validate_settings_accepts_big_two_presets():
    settings = scoring.validate_settings("bigtwo-tw", {"two_multiplier": 3}, ["Ann", "Bob", "Cy"])
    assert settings["game"] == "bigtwo" and settings["banker"] is None
    assert settings["options"]["two_multiplier"] == 3 and settings["options"]["even_count_multiplier"] == 2
    assert settings["mode"] == "winner-collects"
    with pytest.raises(ScoringError, match="no banker"):
        scoring.validate_settings("bigtwo-hk", None, ["Ann", "Bob"], "Ann")
    with pytest.raises(ScoringError, match="unknown option"):
        scoring.validate_settings("bigtwo-hk", {"scoop_multiplier": 2})
    with pytest.raises(ScoringError, match="2 to 4 players"):
        scoring.validate_settings("bigtwo-rank", None, ["Ann"])


def test_list_presets_marks_each_game():
    presets = scoring.list_presets()
    bigtwo_ids = {name for name, preset in presets.items() if preset["game"] == "bigtwo"}
    assert bigtwo_ids == {"bigtwo-hk", "bigtwo-tw", "bigtwo-points", "bigtwo-plus", "bigtwo-rank"}
    assert set(scoring.list_presets("bigtwo")) == bigtwo_ids
    assert presets["bigtwo-hk"]["options"]["count_multipliers"]["default"] == {"8": 2, "10": 3, "13": 4}
    for name in bigtwo_ids:
        assert presets[name]["source"].startswith("seed 003")
        assert all(option["help"] for option in presets[name]["options"].values())
    with pytest.raises(ScoringError, match="unknown game"):
        scoring.list_presets("poker")
