"""Golden tests: each Big Two preset against the seed's own statements (seed line cited).

Seed: ../shared/seeds/003_797b71e7358733c7.txt (鋤大弟 / 大老二).  The expected figures are worked out by
hand from the cited lines, not read back from the engine.
"""

import pytest

import scoring
from scoring import ScoringError

SEED_B = "2C JD 5S 8H"                       # line 186: 梅花2，磚塊J，黑桃5，紅心8
SEED_C = "3S 4C 5C 5H 6D 6S 9S QH"           # line 186: 黑桃3，梅花4，梅花5，紅心5，方塊6，黑桃6，黑桃9，紅心Q
DRAGON = "3S 4H 5D 6C 7S 8H 9D TC JS QH KD AC 2S"
SAME_SUIT_DRAGON = "3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH 2H"
FOUR_TWOS = "2S 2H 2D 2C 3S 4S 5S 6S 7S 8S 9S TS JS"


def bigtwo(rules, players, **extra):
    return scoring.settle({"game": "bigtwo", "rules": rules, "players": players, **extra})


def cards(count, start=0):
    """``count`` plain cards: no 2, and (suits turning with each rank) no four of a kind or straight flush
    in any 13 in a row, so only the count decides a count-based penalty."""
    deck = [rank + "SHDC"[(index + turn) % 4] for turn in range(4) for index, rank in enumerate("3456789TJQKA")]
    return " ".join(deck[start:start + count])


# ---- bigtwo-points: 扣分制, lines 182-186 -----------------------------------------------------------------

def test_points_seed_example_player_b_scores_minus_73():
    # line 184: 2 = −40, J = −20, 10..3 face value; line 186: B 剩下 2♣ J♦ 5♠ 8♥ 分數為 -73分
    result = bigtwo("bigtwo-points", {"A": "", "B": SEED_B, "C": SEED_C})
    assert result["net"]["B"] == -(40 + 20 + 5 + 8) == -73


def test_points_seed_example_player_c_scores_minus_58_and_b_is_the_biggest_loser():
    # line 186: C ... 分數為-58分; 雖然玩家C剩下較多張牌 ... 結果：Player B為最輸
    result = bigtwo("bigtwo-points", {"A": "", "B": SEED_B, "C": SEED_C})
    assert result["net"]["C"] == -(3 + 4 + 5 + 5 + 6 + 6 + 9 + 20) == -58
    assert result["biggest_loser"] == ["B"]
    assert result["winner"] == "A" and result["net"]["A"] == 0   # a tally: the winner scores 0


def test_points_unicode_spelling_of_the_seed_cards_gives_the_same_scores():
    # line 186 writes the cards as suits and ranks; any spelling the card parser reads must agree
    result = bigtwo("bigtwo-points", {"A": "", "B": "2♣ J♦ 5♠ 8♥", "C": "3♠ 4♣ 5♣ 5♥ 6♦ 6♠ 9♠ Q♥"})
    assert result["net"] == {"A": 0, "B": -73, "C": -58}


def test_points_ace_values_and_the_spade_ace_option():
    # line 184: A 為-30分（特殊情況，某些玩家會把黑桃A視為-40分）; K, Q, J −20; 10 −10
    hand = {"A": "", "B": "AS AH KC TD"}
    assert bigtwo("bigtwo-points", hand)["net"]["B"] == -(30 + 30 + 20 + 10)
    special = bigtwo("bigtwo-points", hand, options={"card_overrides": {"AS": 40}})
    assert special["net"]["B"] == -(40 + 30 + 20 + 10)


def test_points_winner_collects_option_makes_it_zero_sum():
    result = bigtwo("bigtwo-points", {"A": "", "B": SEED_B, "C": SEED_C},
                    options={"settlement": "winner-collects"})
    assert result["net"] == {"A": 73 + 58, "B": -73, "C": -58}
    assert result["zero_sum"] is True


# ---- bigtwo-plus: 加扣分制, lines 188-192 -------------------------------------------------------------------

def test_plus_seed_example_player_b_scores_minus_8():
    # line 192: 梅花2，磚塊J，黑桃5，紅心8 分數為 (-2-2)x2=-8 分
    result = bigtwo("bigtwo-plus", {"A": "", "B": SEED_B})
    assert result["net"]["B"] == (-2 - 2) * 2 == -8


def test_plus_winner_scores_plus_one_and_card_values():
    # line 190: 3-9每張牌為-1，10-A每張牌為-2 ... 該回合勝出者則加1分
    result = bigtwo("bigtwo-plus", {"A": "", "B": "3D 9D TC AH", "C": SEED_C})
    assert result["net"]["A"] == 1
    assert result["net"]["B"] == -(1 + 1 + 2 + 2)
    assert result["net"]["C"] == -(7 * 1 + 2)
    assert result["zero_sum"] is False


@pytest.mark.parametrize("twos, factor", [("2S", 2), ("2S 2H", 4), ("2S 2H 2D", 8), ("2S 2H 2D 2C", 16)])
def test_plus_each_two_doubles_four_twos_times_16(twos, factor):
    # line 190: 殘留一張2負分×2，即殘留四張2負分×16
    result = bigtwo("bigtwo-plus", {"A": "", "B": f"{twos} 5C KD"})
    assert result["net"]["B"] == -(1 + 2) * factor


# ---- bigtwo-hk: line 160 八張起雙炒，十張起三炒，十三張四炒 ------------------------------------------------

@pytest.mark.parametrize("count, multiplier", [(1, 1), (7, 1), (8, 2), (9, 2), (10, 3), (12, 3), (13, 4)])
def test_hk_count_tiers(count, multiplier):
    result = bigtwo("bigtwo-hk", {"Ann": "", "Bob": cards(count)})
    assert result["net"] == {"Ann": count * multiplier, "Bob": -count * multiplier}


def test_hk_winner_collects_the_sum_of_every_loser():
    result = bigtwo("bigtwo-hk", {"Ann": "", "Bob": cards(3), "Cy": cards(8, 3), "Dee": cards(13, 11)})
    assert result["net"] == {"Ann": 3 + 16 + 52, "Bob": -3, "Cy": -16, "Dee": -52}
    assert result["money"] == result["net"]
    assert [pair["players"] for pair in result["pairs"]] == [["Ann", "Bob"], ["Ann", "Cy"], ["Ann", "Dee"]]


def test_hk_issue_example_round():
    # issue 3 item 3: {"game": "bigtwo", "rules": "bigtwo-hk", "players": {"Ann": "", "Bob": "2S KD 5C", ...}}
    result = bigtwo("bigtwo-hk", {"Ann": "", "Bob": "2S KD 5C", "Cy": "3H"})
    assert result["net"] == {"Ann": 4, "Bob": -3, "Cy": -1}


def test_hk_winner_bonus_as_a_tally():
    # line 160: 當局贏者可減五分或十分 (a running total where fewer is better: the winner gains 5 or 10)
    result = bigtwo("bigtwo-hk", {"Ann": "", "Bob": cards(8)},
                    options={"winner_bonus": 5, "settlement": "scores"})
    assert result["net"] == {"Ann": 5, "Bob": -16}


def test_hk_face_value_count_of_line_162():
    # line 162: 以2為15分，A、K、Q、J為14至11分；其餘牌隻計算面值
    values = {"2": 15, "A": 14, "K": 13, "Q": 12, "J": 11, "10": 10, "9": 9, "8": 8, "7": 7, "6": 6, "5": 5,
              "4": 4, "3": 3}
    result = bigtwo("bigtwo-hk", {"Ann": "", "Bob": "2C AD QS 5S"}, options={"card_values": values})
    assert result["net"]["Bob"] == -(15 + 14 + 12 + 5)


# ---- bigtwo-tw: line 164, each doubling alone and together ---------------------------------------------------

@pytest.mark.parametrize("hand, expected, why", [
    ("3S 4D 5C", 3, "3 cards, odd, no 2: no doubling"),
    ("3S 4D", 2 * 2, "剩餘張數為偶數罰雙倍"),
    ("2S 4D 5C", 3 * 2, "手上如有老2 罰雙倍"),
    ("2S 2H 5C", 3 * 2, "老2 doubles once however many 2s"),
    ("3S 3H 3D 5C 7D 9S KC 8H", 8 * 2 * 2, "超過八張(包含八張)罰雙倍, and 8 is even"),
    ("3S 3H 3D 5C 7D 9S KC 8H JH", 9 * 2, "9 cards: 8 or more, odd"),
    ("7S 7H 7D 7C 9S", 5 * 2, "怪物牌: 鐵支 (four of a kind)"),
    ("3H 4H 5H 6H 7H", 5 * 2, "怪物牌: 同花順"),
    ("AH 2H 3H 4H 5H", 5 * 2 * 2, "A2345 is a straight flush (line 48), and it holds a 2"),
    ("JH QH KH AH 2H", 5 * 2, "JQKA2 is no straight (line 50 沒有JQKA2): only the 2 doubles"),
    (cards(13), 13 * 3, "如有13張全部未打時，要罰3倍 (not also ×2 for 8 or more)"),
])
def test_tw_fines(hand, expected, why):
    result = bigtwo("bigtwo-tw", {"Ann": "", "Bob": hand})
    assert result["net"]["Bob"] == -expected, why


def test_tw_every_doubling_is_an_option():
    eight_with_a_two = "2S 3H 3D 5C 7D 9S KC 8H"
    assert bigtwo("bigtwo-tw", {"A": "", "B": eight_with_a_two})["net"]["B"] == -8 * 2 * 2 * 2
    off = {"even_count_multiplier": 1, "two_multiplier": 1, "count_multipliers": {}, "monster_multiplier": 1}
    assert bigtwo("bigtwo-tw", {"A": "", "B": eight_with_a_two}, options=off)["net"]["B"] == -8
    assert bigtwo("bigtwo-tw", {"A": "", "B": "7S 7H 7D 7C 9S"},
                  options={"monster_hands": ["straight-flush"]})["net"]["B"] == -5


def test_tw_fine_per_card_is_the_stake():
    # line 164: 一張罰多少可自由決定 -> stakes.per_point
    result = bigtwo("bigtwo-tw", {"A": "", "B": "3S 4D 5C"}, stakes={"per_point": "2.5"})
    assert result["net"] == {"A": 3, "B": -3}
    assert result["money"] == {"A": "15/2", "B": "-15/2"}


# ---- 頂大（顧牌）: line 168 --------------------------------------------------------------------------------

def test_block_failure_pays_everyone_elses_losses_seed_example():
    # line 168: 例玩家原輸三分，其餘兩家各輸一分及四分，在玩家沒頂大的情況下則玩家輸八分，其餘兩家輸零分
    players = {"Win": "", "Failed": cards(3), "Other1": cards(1, 3), "Other4": cards(4, 4)}
    plain = bigtwo("bigtwo-hk", players)
    assert plain["net"] == {"Win": 8, "Failed": -3, "Other1": -1, "Other4": -4}
    result = bigtwo("bigtwo-hk", players, failed_to_block="Failed")
    assert result["net"] == {"Win": 8, "Failed": -8, "Other1": 0, "Other4": 0}
    assert result["players"]["Failed"]["penalty"] == 3 and result["players"]["Failed"]["charged"] == 8
    assert any(step["rule"] == "block-failure" for step in result["steps"])


def test_block_failure_under_a_tally_moves_the_scores_too():
    result = bigtwo("bigtwo-points", {"A": "", "B": SEED_B, "C": SEED_C}, failed_to_block="C")
    assert result["net"] == {"A": 0, "B": 0, "C": -131}


def test_block_rule_off_rejects_a_failure():
    with pytest.raises(ScoringError, match="頂大"):
        bigtwo("bigtwo-hk", {"A": "", "B": "3S"}, options={"block_rule": False}, failed_to_block="B")


# ---- 即時勝出: lines 144-151 --------------------------------------------------------------------------------

def _instant_round(winner_cards, rules="bigtwo-hk", **extra):
    deck = [rank + suit for rank in "3456789TJQKA2" for suit in "SHDC"]
    rest = [card for card in deck if card not in winner_cards.split()]
    return bigtwo(rules, {"Ann": {"cards": winner_cards, "instant_win": True},
                          "Bob": " ".join(rest[:13]), "Cy": " ".join(rest[13:26]), "Dee": " ".join(rest[26:39])},
                  **extra)


def test_dragon_instant_win_is_paid_as_triple():
    # line 144: A-2-3-...-K ... 立即勝出 ... 即時勝出以「三炒」分數計算 (13 cards: ×3, not 四炒 ×4)
    result = _instant_round(DRAGON)
    assert result["net"] == {"Ann": 3 * 39, "Bob": -39, "Cy": -39, "Dee": -39}
    assert result["instant_win"]["hand"] == "dragon"


def test_four_twos_is_an_instant_win_only_when_turned_on():
    # line 144: 有些地方，得「四字Ｄ」(四張二)，也計立即勝出; line 146: 修正版 四條Ｄ仍然繼續遊戲
    with pytest.raises(ScoringError, match="not an instant win"):
        _instant_round(FOUR_TWOS)
    result = _instant_round(FOUR_TWOS, options={"instant_wins": {"four-twos": 3}})
    assert result["net"]["Bob"] == -39 and result["instant_win"]["hand"] == "four-twos"


def test_same_suit_dragon_four_times_under_the_revised_rule():
    # line 151: 普通一條龍三炒；同花一條四炒
    assert _instant_round(SAME_SUIT_DRAGON)["net"]["Bob"] == -39
    revised = _instant_round(SAME_SUIT_DRAGON, options={"instant_wins": {"same-suit-dragon": 4}})
    assert revised["net"]["Bob"] == -52 and revised["instant_win"]["zh"] == "同花一條龍"


def test_instant_win_triples_card_points_under_points():
    result = _instant_round(DRAGON, rules="bigtwo-points")
    bob_cards = result["players"]["Bob"]["cards"]
    table = {"2": 40, "A": 30, "K": 20, "Q": 20, "J": 20, "T": 10}
    assert result["net"]["Bob"] == -3 * sum(table.get(card[0]) or int(card[0]) for card in bob_cards)


# ---- bigtwo-rank: line 170 第一名3分、第二名2分、第三名1分、第四名0分 ----------------------------------------

def test_rank_points_by_finishing_order():
    result = bigtwo("bigtwo-rank", ["Ann", "Bob", "Cy", "Dee"], order=["Cy", "Ann", "Dee", "Bob"])
    assert result["net"] == {"Ann": 2, "Bob": 0, "Cy": 3, "Dee": 1}
    assert result["winner"] == "Cy" and result["players"]["Dee"]["place"] == 3


def test_rank_three_players_and_pairwise():
    three = bigtwo("bigtwo-rank", ["Ann", "Bob", "Cy"], order=["Bob", "Cy", "Ann"])
    assert three["net"] == {"Ann": 0, "Bob": 2, "Cy": 1}
    top = bigtwo("bigtwo-rank", ["Ann", "Bob", "Cy"], order=["Bob", "Cy", "Ann"], options={"rank_points": [3, 2, 1]})
    assert top["net"] == {"Ann": 1, "Bob": 3, "Cy": 2}
    pairwise = bigtwo("bigtwo-rank", ["Ann", "Bob", "Cy", "Dee"], order=["Ann", "Bob", "Cy", "Dee"],
                      options={"settlement": "pairwise"})
    # Ann: (3-2) + (3-1) + (3-0) = 6; Bob: (2-3) + (2-1) + (2-0) = 2; Cy: -2; Dee: -6
    assert pairwise["net"] == {"Ann": 6, "Bob": 2, "Cy": -2, "Dee": -6}


def test_rank_last_player_may_show_cards_left():
    result = bigtwo("bigtwo-rank", {"Ann": "", "Bob": "", "Cy": "", "Dee": "3S 4H"}, order=["Ann", "Bob", "Cy", "Dee"])
    assert result["net"]["Dee"] == 0 and result["players"]["Dee"]["cards"] == ["3S", "4H"]


def test_pairwise_settles_differences_of_card_scores():
    result = bigtwo("bigtwo-points", {"A": "", "B": SEED_B, "C": SEED_C}, options={"settlement": "pairwise"},
                    stakes={"pairs": [{"players": ["B", "C"], "per_point": 2}]})
    # A-B 73, A-C 58, C-B 15 (C scored -58, B -73)
    assert result["net"] == {"A": 73 + 58, "B": -73 - 15, "C": -58 + 15}
    assert result["money"] == {"A": 73 + 58, "B": -73 - 30, "C": -58 + 30}
