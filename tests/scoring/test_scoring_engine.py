"""Generic engine options that no preset turns on by default, each checked on a hand-made case."""

from scoring_helpers import filler, pair_net, settle

DEAL = {
    "A": "AS AH KD / KS KH KC 2S 3S / QS QH QD 5S 5H",
    "B": "2C 3D 4C / 6S 6D 7C 7D 9S / 8S 9D TS JS QC",
    "C": "4S 5D 6C / 8C 8D TC TD AC / 2H 3H 4H 7H 9H",
}
DRAGON = "2S 3H 4D 5C 6S 7H 8D 9C TS JH QD KC AS"
SIX_PAIRS = "2H 2D 3S 3D 4S 4H 5S 5H 6H 6D 7S 7D 9S"


def test_suit_order_breaks_ties_between_equal_rows():
    a = "AS KH 3D / 5S 5H 8C 9C JC / 2S 2H 2D 7C 7D"
    b = "AH KS 3C / 5D 5C 8D 9D JD / 4S 4H 4D TC TH"
    plain = settle("2-4", {"A": a, "B": b})
    assert plain["pairs"][0]["rows"][0]["winner"] is None
    assert plain["pairs"][0]["rows"][1]["winner"] is None
    ordered = settle("2-4", {"A": a, "B": b}, options={"suit_order": "SHDC"})
    rows = ordered["pairs"][0]["rows"]
    assert rows[0]["winner"] == "A" and rows[0]["note"] == "equal ranks, decided by suits"  # AS beats AH
    assert rows[1]["winner"] == "A"        # the pair's top card: 5S beats 5D
    assert rows[2]["winner"] == "B"        # trips 4 beat trips 2, suits not needed
    reversed_order = settle("2-4", {"A": a, "B": b}, options={"suit_order": "CDHS"})
    assert reversed_order["pairs"][0]["rows"][0]["winner"] == "B"


def test_home_run_at_a_three_player_table_with_the_minimum_lowered():
    three = {name: DEAL[name] for name in "ABC"}
    assert settle("taiwan", three)["players"]["A"]["home_run"] is False
    lowered = settle("taiwan", three, options={"home_run_min_opponents": 2})
    assert lowered["players"]["A"]["home_run"] is True
    assert pair_net(lowered, "A", "B") == 12 and pair_net(lowered, "A", "C") == 12


def test_natural_points_override_and_switch_off():
    other = "AS AH KD / KS KH KC 2S 8S / QS QH QD JC JD"
    players = {"P": SIX_PAIRS, "Q": other}
    assert settle("points", players)["net"]["P"] == 4
    assert settle("points", players, options={"natural_points": {"six-pairs": 7}})["net"]["P"] == 7
    arranged = "2H 3S 9S / 4S 4H 2D 3D 6H / 5S 5H 6D 7S 7D"    # the same six pairs played as rows
    off = settle("points", {"P": arranged, "Q": other}, options={"natural_points": {"six-pairs": None}})
    assert off["players"]["P"]["natural"] is None and off["players"]["P"]["status"] == "rows"
    assert off["net"]["P"] == -3    # scooped: 1 per row, no bonus for a middle trips or a back full house
    no_naturals = settle("points", {"P": arranged, "Q": other}, options={"naturals": False})
    assert no_naturals["players"]["P"]["naturals_detected"] == []


def test_a_player_may_claim_a_lower_natural_than_the_best():
    banker = filler("hk", DRAGON)[0]
    best = settle("hk", {"Ann": banker, "Bob": DRAGON}, banker="Ann")
    assert best["players"]["Bob"]["natural"]["id"] == "dragon" and best["net"]["Bob"] == 13
    chosen = settle("hk", {"Ann": banker, "Bob": {"cards": DRAGON.split(), "natural": "three-straights"}},
                    banker="Ann")
    assert chosen["players"]["Bob"]["natural"]["id"] == "three-straights"
    assert chosen["net"]["Bob"] == 3
    assert set(chosen["players"]["Bob"]["natural"]["rows"]) == {"front", "middle", "back"}


def test_banker_pays_player_falls_back_to_ranking_between_players():
    dragon, six_pairs = "2C 3H 4D 5C 6S 7H 8D 9H TS JH QD KC AS", SIX_PAIRS.replace("9S", "9D")
    other = filler("taiwan-banker", dragon, six_pairs)[0]
    result = settle("taiwan-banker", {"Ann": other, "Bob": dragon, "Cy": six_pairs}, options={"mode": "all-pairs"})
    assert pair_net(result, "Bob", "Cy") == 36   # 一條龍 outranks 六對半 and collects its own points


def test_royalties_paid_always_even_to_a_row_loser():
    # B's back quads lose to A's straight flush, yet B collects the quads royalty (+1) from A
    a = "2C 3D 4C / 6S 6D 7C 7D 9S / 5H 6H 7H 8H 9H"
    b = "AS KD QD / 2S 3S 4S 5S 8S / JS JH JD JC TC"
    options = {"royalties": True}
    always = settle("2-4", {"A": a, "B": b}, options=options)
    winner_only = settle("2-4", {"A": a, "B": b}, options={**options, "royalties_paid": "row-winner"})
    # rows: B wins front and middle (2 + majority 1), A wins back (1): B +2 before royalties
    assert winner_only["net"]["B"] == 2 - 1   # A's straight flush royalty +1 for the row it won
    assert always["net"]["B"] == 2 - 1 + 1    # ... and B's quads royalty +1 whatever the row
    assert any(step["rule"] == "royalties" for step in always["pairs"][0]["steps"])


def test_foul_without_scoop_counting():
    fouled = "TS TC TD / 3D 4H 6C 7C 9D / 8C 8D 4S 4C JS"
    normal = "2S 3H 5D / 6S 6H 8H 9C 7D / KH KS 2C 2D 7S"
    assert settle("1-6", {"A": normal, "B": fouled})["net"]["A"] == 6
    assert settle("1-6", {"A": normal, "B": fouled}, options={"foul_counts_as_scoop": False})["net"]["A"] == 3


def test_banker_mode_for_an_all_pairs_preset():
    result = settle("fujian", DEAL, banker="A", options={"mode": "banker"})
    assert sorted(tuple(pair["players"]) for pair in result["pairs"]) == [("A", "B"), ("A", "C")]
