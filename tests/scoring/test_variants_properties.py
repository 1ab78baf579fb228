"""Property tests for seed 004's 変種 (low-middle, criss-cross, eleven-point and their options): points and
money sum to zero exactly, swapping two players swaps their results, a fouled hand never wins, and a low
middle's row winner follows an independent deuce-to-seven reading."""

from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scoring_helpers import as_rows, assert_swap_mirrors, strongest_back_arrangement
from scoring_reference import reference_rank
from test_variants import reference_low

import scoring
from scoring.cards import CODES

NAMES = ["Ann", "Bob", "Cy", "Dee"]
SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ONE_HAND_CONFIGS = [
    ("low-middle", {}), ("low-middle", {"low_middle_order": "high-order", "royalties": True}),
    ("1-6", {"low_middle": True}),
    ("eleven-point", {}), ("eleven-point", {"fourth_point": "per-scoop", "overall_payment": "each"}),
    ("eleven-point", {"overall_ties": "share", "fourth_point_min_players": 2}),
    ("2-4", {"overall_bonus": 5, "overall_ties": "share"}),
]


def hand(draw, cards: list[str]) -> object:
    """Laid at random (often fouled) or legally, sometimes a surrender where the rules allow it."""
    if draw(st.booleans()):
        return as_rows(cards)
    return strongest_back_arrangement(cards)


@st.composite
def one_hand_rounds(draw):
    preset, options = draw(st.sampled_from(ONE_HAND_CONFIGS))
    count = draw(st.integers(2, 4))
    deck = draw(st.permutations(CODES))
    players = {}
    for index, name in enumerate(NAMES[:count]):
        cards = list(deck[index * 13:(index + 1) * 13])
        surrender = preset in ("low-middle", "1-6") and draw(st.integers(0, 9)) == 0
        players[name] = {"surrender": True} if surrender else hand(draw, cards)
    stake = draw(st.sampled_from([1, "1/2", "0.1", 3]))
    return {"rules": preset, "options": options, "players": players, "stakes": {"per_point": stake}}


@st.composite
def criss_cross_rounds(draw):
    deck = draw(st.permutations(CODES))
    sets = [hand(draw, list(deck[i * 13:(i + 1) * 13])) for i in range(4)]
    options = {"criss_cross": draw(st.sampled_from(["each-vs-each", "set-vs-set"])),
               "low_middle": draw(st.booleans())}
    return {"rules": draw(st.sampled_from(["criss-cross", "2-4", "1-6"])), "options": options,
            "players": {"Ann": {"sets": sets[:2]}, "Bob": {"sets": sets[2:]}},
            "stakes": {"per_point": draw(st.sampled_from([1, "1/3", 2]))}}


def check_zero_sum(round_: dict) -> dict:
    result = scoring.settle(round_)
    assert sum(Fraction(value) for value in result["net"].values()) == 0
    assert sum(Fraction(value) for value in result["money"].values()) == 0
    stake = Fraction(str(round_["stakes"]["per_point"]))
    for name, points in result["net"].items():
        assert Fraction(result["money"][name]) == Fraction(points) * stake
    for pair in result["pairs"]:
        first, second = pair["players"]
        assert Fraction(pair["net"][first]) == -Fraction(pair["net"][second])
    per_player = {name: sum(Fraction(pair["net"][name]) for pair in result["pairs"] if name in pair["players"])
                  for name in result["net"]}
    assert per_player == {name: Fraction(value) for name, value in result["net"].items()}
    return result


@SETTINGS
@given(one_hand_rounds())
def test_one_hand_variants_sum_to_zero(round_):
    check_zero_sum(round_)


@SETTINGS
@given(criss_cross_rounds())
def test_criss_cross_sums_to_zero(round_):
    check_zero_sum(round_)


@SETTINGS
@given(one_hand_rounds(), st.data())
def test_swapping_two_players_mirrors_their_results(round_, data):
    names = list(round_["players"])
    first, second = data.draw(st.permutations(names))[:2]
    assert_swap_mirrors(round_, first, second)


@SETTINGS
@given(criss_cross_rounds())
def test_criss_cross_swaps_mirror(round_):
    """Swapping the players mirrors the result; under each-vs-each a player's two sets may swap freely, and
    under set-vs-set swapping both players' sets together changes nothing."""
    net = scoring.settle(round_)["net"]
    ann, bob = round_["players"]["Ann"]["sets"], round_["players"]["Bob"]["sets"]
    mirrored = dict(round_, players={"Ann": {"sets": bob}, "Bob": {"sets": ann}})
    assert scoring.settle(mirrored)["net"] == {"Ann": net["Bob"], "Bob": net["Ann"]}
    if round_["options"]["criss_cross"] == "each-vs-each":
        turned = dict(round_, players={"Ann": {"sets": ann[::-1]}, "Bob": {"sets": bob}})
    else:
        turned = dict(round_, players={"Ann": {"sets": ann[::-1]}, "Bob": {"sets": bob[::-1]}})
    assert scoring.settle(turned)["net"] == net


@SETTINGS
@given(one_hand_rounds())
def test_fouled_hands_never_win_and_low_middles_follow_the_reference(round_):
    result = check_zero_sum(round_)
    fouled = {name for name, player in result["players"].items() if player["status"] == "fouled"}
    low = scoring.validate_settings(round_["rules"], round_["options"])["options"]["low_middle"]
    for pair in result["pairs"]:
        first, second = pair["players"]
        for row in pair["rows"] or []:
            assert row["winner"] not in fouled
            if pair["outcome"] != "rows":
                continue
            read = reference_low if low and row["row"] == "middle" else reference_rank
            a, b = read(row["hands"][first]["cards"]), read(row["hands"][second]["cards"])
            if low and row["row"] == "middle":
                a, b = b, a   # the lower wins
            assert row["winner"] == (first if a > b else second if b > a else None)
        if set(pair["players"]) <= fouled or not fouled.intersection(pair["players"]):
            continue
        if round_["rules"] != "eleven-point" and not round_["options"].get("overall_bonus"):
            assert all(Fraction(pair["net"][name]) <= 0 for name in fouled.intersection(pair["players"]))
