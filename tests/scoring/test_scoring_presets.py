"""Golden tests: each preset against the seeds' own statements (seed file and line cited).

Seeds: ../shared/seeds/000_* (十三張), 001_* (十三支), 002_* (福建十三水), 004_* (ja: 十三張).
The expected figures are worked out by hand from the cited lines, not read back from the engine.
"""

from fractions import Fraction

import pytest
from scoring_helpers import filler, pair_net, settle

import scoring
from scoring import ScoringError

# A deal where A scoops everyone (all rows worth 1 in every preset), C scoops B, D wins 2-1 against B and C.
HOME_RUN_DEAL = {
    "A": "AS AH KD / KS KH KC 2S 3S / QS QH QD 5S 5H",   # pair of aces, three kings, queens full
    "B": "2C 3D 4C / 6S 6D 7C 7D 9S / 8S 9D TS JS QC",   # 4 high, two pair, queen-high straight
    "C": "4S 5D 6C / 8C 8D TC TD AC / 2H 3H 4H 7H 9H",   # 6 high, two pair, flush
    "D": "AD 4D 5C / JH JD JC 2D 3C / 6H 7S 8H 9C TH",   # ace high, three jacks, ten-high straight
}
# Trips in front (衝三) scooping a weak hand.
FRONT_TRIPS = "QS QH QD / 5S 6H 7D 8C 9S / 2H 5H 7H 9H JH"
WEAK = "2C 3D 4C / 5D 5C 6C 6D 7S / 8S 8D TS TC JS"
# A plain banker hand, and players that beat it with royalties.
BANKER = "2S 3H 5D / 6S 6H 8D 9C 7D / 4C 4D 8S 8C 7C"        # 5 high, pair of sixes, two pair
MIDDLE_FULL_HOUSE = "2C 3C 5S / 9S 9H 9D TC TD / AS AH AD AC QS"   # front ties the banker's
MIDDLE_QUADS = "2C 3C 5S / AS AH AD AC 2D / 9H TH JH QH KH"
MIDDLE_STRAIGHT_FLUSH = "2C 3C 5S / 9H TH JH QH KH / TS JS QS KS AS"
FRONT_TRIPS_VS_BANKER = "QS QH QD / 9S TH JD QC KS / 2H 4H 5H 7H AH"
FOULED_VS_BANKER = "AS AH AD / 2C 3C 5S 9S JS / KS KH KD QS QH"    # front trips over a high card
TOP_CARD_TIES = "2C 3C 5S / 6D 6C AS KS QS / 9S 9H 9D TC TD"        # same front, same pair in the middle
EQUAL_MIDDLE_AND_BACK = "2C 3C 5S / 9S TH JD QC KS / 9D TC JH QS KH"  # two king-high straights
# Pairs of hands for ties (one row decided, or two, or one each).
TIES_A = "2S 3H 5D / 6S 6H 8D 9C JS / KS KH 4C 4D 7C"
TIES_ONE_WIN_TWO_TIES = "2C 3C 5S / 6D 6C 8S 9D JH / QS QH 4S 4H 7D"
TIES_TWO_WINS_ONE_TIE = "2C 3C 5S / 6D 6C 8S 9D TH / QS QH 4S 4H 7D"
TIES_ONE_EACH = "2C 3C 5S / 6D 6C 8S 9D QH / TS TH 4S 4H 7D"
# Naturals.
DRAGON = "2S 3H 4D 5C 6S 7H 8D 9C TS JH QD KC AS"
SUPREME_DRAGON = "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"
SIX_PAIRS = "2H 2D 3S 3D 4S 4H 5S 5H 6H 6D 7S 7D 9S"
THREE_FLUSHES = "4D 8D TD / 2C 3C 5C 8C JC / 9D JD QD KD AD"
THREE_STRAIGHTS = "2S 3H 4D / 4C 5C 6C 7C 8H / TS JH QD KC AC"
IVEY = "6S 6H 4C / TS TH 9C QD 8D / 3S 3H 3D 2S 2H"
HELLMUTH = "AS KS QC / 9S 9D 5C 5D 4D / KH JH 9H 8H 7H"


# ---- hk: seed 000, 香港一般玩法 (lines 8-30) ------------------------------------------------------

@pytest.mark.parametrize("player, won", [
    (FRONT_TRIPS_VS_BANKER, 3 + 1 + 1),   # line 20: 三條摆頭 勝出得三注
    (MIDDLE_FULL_HOUSE, 0 + 2 + 4),       # line 21: 夫佬摆二道 兩注; line 22: 四條摆尾 四注; front ties
    (MIDDLE_QUADS, 0 + 8 + 5),            # line 22: 四條作二道 八注; line 23: 同花順摆尾 五注
    (MIDDLE_STRAIGHT_FLUSH, 0 + 10 + 5),  # line 23: 同花順作二道 十注
])
def test_hk_row_values(player, won):
    result = settle("hk", {"Ann": BANKER, "Bob": player}, banker="Ann")
    assert result["net"] == {"Ann": -won, "Bob": won}


def test_hk_foul_pays_all():
    # line 13: 頭必須小於二道 ... 凡「擺烏龍」者全賠
    result = settle("hk", {"Ann": BANKER, "Bob": FOULED_VS_BANKER}, banker="Ann")
    assert result["players"]["Bob"]["status"] == "fouled"
    assert result["net"] == {"Ann": 3, "Bob": -3}
    assert [row["winner"] for row in result["pairs"][0]["rows"]] == ["Ann"] * 3


def test_hk_players_only_settle_with_the_banker():
    # line 15: 打開牌跟莊家比較大小 — two players never settle with each other
    cy = filler("hk", BANKER, MIDDLE_FULL_HOUSE)[0]
    result = settle("hk", {"Ann": BANKER, "Bob": MIDDLE_FULL_HOUSE, "Cy": cy}, banker="Ann")
    assert sorted(tuple(pair["players"]) for pair in result["pairs"]) == [("Ann", "Bob"), ("Ann", "Cy")]


def test_hk_tie_pushes_and_top_card_rule_gives_ties_to_the_banker():
    normal = settle("hk", {"Ann": BANKER, "Bob": TOP_CARD_TIES}, banker="Ann")
    # front equal, middle: same pair, Bob's kickers A K Q beat 9 8 7; back: full house beats two pair
    assert normal["net"] == {"Ann": -2, "Bob": 2}
    # line 18: 只比點數最大的一隻牌。倘若相同，一律由莊家勝（俗稱食夾棍）
    eats = settle("hk", {"Ann": BANKER, "Bob": TOP_CARD_TIES}, banker="Ann", options={"ties": "banker-top-card"})
    assert eats["net"] == {"Ann": 1, "Bob": -1}
    assert "食夾棍" in eats["pairs"][0]["rows"][1]["note"]


def test_hk_naturals():
    # line 27: 六對半 勝三注; line 28: 雜龍 勝十三注 — given as 13 unarranged cards
    ann = filler("hk", SIX_PAIRS, DRAGON)[0]
    six = settle("hk", {"Ann": ann, "Bob": {"cards": SIX_PAIRS.split()}}, banker="Ann")
    assert six["players"]["Bob"]["natural"]["zh"] == "六對半"
    assert six["net"]["Bob"] == 3
    dragon_as_player = "2C 3C 4S 5S 6C 7S 8H 9S TS JS QS KS AS"
    dragon = settle("hk", {"Ann": BANKER, "Bob": dragon_as_player}, banker="Ann")
    assert dragon["players"]["Bob"]["natural"]["zh"] == "雜龍"
    assert dragon["net"]["Bob"] == 13


def test_hk_banker_pays_when_both_have_naturals():
    # line 30: 倘若莊家及閒家同時報到，由莊家賠閒家 — even a dragon pays a six-pairs player
    result = settle("hk", {"Ann": DRAGON, "Bob": SIX_PAIRS}, banker="Ann")
    assert result["net"] == {"Ann": -3, "Bob": 3}


def test_hk_natural_can_be_declined():
    ann = filler("hk", SIX_PAIRS)[0]
    arranged = "2H 3S 9S / 4S 4H 5S 5H 6H / 2D 3D 6D 7S 7D"   # arranged six pairs, played as rows
    result = settle("hk", {"Ann": ann, "Bob": {"front": arranged.split("/")[0], "middle": arranged.split("/")[1],
                                               "back": arranged.split("/")[2], "natural": False}}, banker="Ann")
    assert result["players"]["Bob"]["natural"] is None
    assert result["players"]["Bob"]["naturals_detected"] == ["six-pairs"]


# ---- taiwan-banker: seed 000 玩法2 (lines 32-66), seed 001 台式玩法 (lines 3-34) ----------------------

def test_taiwan_banker_middle_may_equal_back():
    # seed 001 line 9: 第二墩必須小於或等於第三墩; hk (seed 000 line 13) demands 二道必須小於尾
    players = {"Ann": BANKER, "Bob": EQUAL_MIDDLE_AND_BACK}
    assert settle("taiwan-banker", players, banker="Ann")["net"] == {"Ann": -2, "Bob": 2}
    assert settle("hk", players, banker="Ann")["net"] == {"Ann": 3, "Bob": -3}


@pytest.mark.parametrize("player, high, low", [
    (MIDDLE_FULL_HOUSE, 2 + 4, 2 + 3),     # seed 000 line 48: 四條摆「尾」：勝出得三或四注
    (MIDDLE_QUADS, 8 + 5, 4 + 4),          # line 48: 作「二道」：得四或八注; line 49: 尾 四或五注
    (MIDDLE_STRAIGHT_FLUSH, 10 + 5, 5 + 4),  # line 49: 作「二道」：得五或十注
])
def test_taiwan_banker_payout_columns(player, high, low):
    players = {"Ann": BANKER, "Bob": player}
    assert settle("taiwan-banker", players, banker="Ann")["net"]["Bob"] == high
    assert settle("taiwan-banker", players, banker="Ann", options={"row_values": "low"})["net"]["Bob"] == low


@pytest.mark.parametrize("hand, natural, points", [
    ("2D 4D 6D 2C 3C 5C 8C JC 7D 9D TD QD AD", "three-flushes", 3),     # line 54: 三同花 勝三注
    ("2S 3H 4D 4C 5S 6H 7D 8C TS JH QD KC AC", "three-straights", 4),   # line 55: 三順子 勝四注
    ("2H 2D 3S 3D 4S 4H 5S 5H 6H 6D 7S 7D 9S", "six-pairs", 6),         # line 56: 六對半 勝六注
    ("2S 2H 2D 3S 3H 3D 4S 4H 4D 5S 5H 5D KC", "four-trips", 8),        # line 57: 四套三條 勝八注
    ("2S 2C 4S 6S 8S TS QS AS 3C 5C 7C 9C JC", "one-color", 10),        # line 58: 湊一色 勝十注
    ("2S 2H 3D 4C 4S 5H 5D 6C 6S 7H 7D 8C 8S", "all-small", 12),        # line 59: 全小 勝十二注
    ("8S 8H 9D 9C TS JH JD QC QS KH KD AC AS", "all-big", 12),          # line 60: 全大 勝十二注
    ("2S 2H 2D 2C 3S 3H 3D 3C 4S 4H 4D 4C 5S", "three-quads", 20),      # line 61: 三分天下 勝二十注
    ("2S 3S 4S 4H 5H 6H 7H 8H 9D TD JD QD KD", "three-straight-flushes", 24),  # line 62: 勝二十四注
    ("JS JH JD QC QS QH KD KC KS AH AD AC AS", "twelve-royals", 32),    # line 63: 十二皇族 勝三十二注
    ("2S 3H 4D 5C 6S 7H 8D 9C TS JH QD KC AS", "dragon", 36),           # line 64: 一條龍 勝三十六注
    ("2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS", "supreme-dragon", 108),  # line 65: 至尊清龍 (一百零八)
])
def test_taiwan_banker_naturals(hand, natural, points):
    banker = filler("taiwan-banker", hand)[0]
    result = settle("taiwan-banker", {"Ann": banker, "Bob": hand}, banker="Ann")
    assert result["players"]["Ann"]["status"] == "rows"
    assert result["players"]["Bob"]["natural"]["id"] == natural
    assert result["net"] == {"Ann": -points, "Bob": points}


def test_taiwan_banker_front_qka_is_no_three_straights():
    # seed 000 line 55 / seed 001 line 23: 頭亦為三張連續的順子（QKA、KA2、JQKA2除外）
    qka = "QS KH AD / AC 2S 3H 4D 5C / 6S 7H 8D 9C TS"
    banker = filler("taiwan-banker", qka)[0]
    result = settle("taiwan-banker", {"Ann": banker, "Bob": qka}, banker="Ann")
    assert result["players"]["Bob"]["natural"] is None
    allowed = settle("taiwan-banker", {"Ann": banker, "Bob": qka}, banker="Ann",
                     options={"front_straights": "standard"})
    assert allowed["players"]["Bob"]["natural"]["id"] == "three-straights"


def test_taiwan_banker_all_pairs_option():
    # seed 000 line 36: 也可以四人对比
    result = settle("taiwan-banker", HOME_RUN_DEAL, options={"mode": "all-pairs"})
    assert len(result["pairs"]) == 6
    assert result["net"]["A"] == 9


# ---- points: seed 000 玩法3 (lines 68-105) and the 報到牌型 table (lines 107-200) -------------------

def test_points_one_per_row():
    # line 77: 贏一個人加1分，輸一個人扣1分，平手0分
    result = settle("points", HOME_RUN_DEAL)
    assert pair_net(result, "D", "B") == 1 and pair_net(result, "D", "C") == 1


def test_points_scoop_with_front_trips_pays_three_plus_one():
    # line 102: 被打槍的玩家須支付基本三分與特殊加分（例:被衝三打槍，支付3+1分）
    result = settle("points", {"A": FRONT_TRIPS, "B": WEAK})
    assert result["net"] == {"A": 4, "B": -4}


@pytest.mark.parametrize("player, won", [
    (MIDDLE_FULL_HOUSE, 0 + (1 + 1) + (1 + 2)),      # line 97: 中墩葫蘆 +1; line 100: 尾墩鐵支 +2
    (MIDDLE_QUADS, 0 + (1 + 3) + (1 + 3)),           # line 98: 中墩鐵支 +3; line 101: 尾墩同花順 +3
    (MIDDLE_STRAIGHT_FLUSH, 0 + (1 + 4) + (1 + 3)),  # line 99: 中墩同花順 +4
])
def test_points_bonuses_are_paid_by_the_row_loser(player, won):
    # line 94: 特殊加分:「輸給此玩家者」支付一定分數
    result = settle("points", {"Ann": BANKER, "Bob": player})
    assert result["net"] == {"Ann": -won, "Bob": won}


def test_points_home_run_doubles_and_splits():
    # line 103: 全壘打：一玩家打槍另外三名玩家，則此玩家得分再乘以二，負分由三名玩家平均分攤
    result = settle("points", HOME_RUN_DEAL)
    assert result["players"]["A"]["home_run"] is True
    assert result["net"] == {"A": 18, "B": -6 - 3 - 1, "C": -6 + 3 - 1, "D": -6 + 1 + 1}


def test_points_home_run_split_is_exact_when_shares_differ():
    # with royalties paid whatever the row (an option), the three payments differ: 3 + 1 + 3 ... split evenly
    deal = dict(HOME_RUN_DEAL)
    result = settle("points", deal, options={"royalties_paid": "always",
                                             "row_values": {"middle": {"trips": 2}}})
    # A's middle trips now pays 2 (+1), D's middle trips also +1 from A whatever the row: vs D A nets 4 - 1 = 3
    total = (4 + 4 + 3) * 2
    assert result["net"]["A"] == total
    share = Fraction(total, 3)
    assert pair_net(result, "B", "A") == f"-{share.numerator}/{share.denominator}"
    assert sum(Fraction(value) for value in result["net"].values()) == 0


def test_points_smaller_natural_still_pays_the_larger():
    # line 105: 兩位玩家以上有特殊牌時，較小的牌還是要支付較大的排分數，但較大的不必支付較小的
    other = filler("points", SIX_PAIRS, THREE_FLUSHES)[0]
    result = settle("points", {"P": SIX_PAIRS, "Q": THREE_FLUSHES, "R": other})
    assert result["players"]["P"]["natural"]["points"] == 4      # line 138: 六對半 每位玩家4分
    assert result["players"]["Q"]["natural"]["points"] == 3      # line 122: 三同花 每位玩家3分
    assert pair_net(result, "P", "Q") == 4
    assert result["net"] == {"P": 8, "Q": -4 + 3, "R": -7}


def test_points_natural_table():
    # lines 119-197: 每位玩家 3, 4, 4, 6, 10, 10, 10, 20, 20, 24, 36, 108 分
    table = {n["id"]: n["points"] for n in scoring.list_presets()["points"]["naturals"]}
    assert table == {"three-flushes": 3, "three-straights": 4, "six-pairs": 4, "four-trips": 6, "one-color": 10,
                     "all-small": 10, "all-big": 10, "three-quads": 20, "three-straight-flushes": 20,
                     "twelve-royals": 24, "dragon": 36, "supreme-dragon": 108}


# ---- taiwan: seed 000 台灣玩法 (lines 216-224) on top of 玩法3 -----------------------------------

def test_taiwan_scoop_doubles_base_points():
    # line 218: 原本全勝基本注得三注，此時翻倍為六注 (the 衝三 bonus is not base, so it stays 1)
    assert settle("taiwan", {"A": FRONT_TRIPS, "B": WEAK})["net"] == {"A": 3 * 2 + 1, "B": -7}
    assert settle("taiwan", {"A": FRONT_TRIPS, "B": WEAK},
                  options={"multiply_royalties": True})["net"] == {"A": 8, "B": -8}


def test_taiwan_home_run_doubles_again():
    # line 222: 原本各家打槍後贏得各家六注，此時倍翻為十二注
    result = settle("taiwan", HOME_RUN_DEAL)
    assert [pair_net(result, "A", other) for other in "BCD"] == [12, 12, 12]
    assert result["net"] == {"A": 36, "B": -12 - 6 - 1, "C": -12 + 6 - 1, "D": -12 + 1 + 1}


def test_taiwan_natural_points_are_not_doubled():
    # line 224: 特殊牌型（三同花、六對半等）的紅利計算不在加倍範圍內
    others = filler("taiwan", SIX_PAIRS, count=3)
    result = settle("taiwan", {"P": SIX_PAIRS, "Q": others[0], "R": others[1], "S": others[2]})
    assert [pair_net(result, "P", other) for other in "QRS"] == [4, 4, 4]


# ---- fujian: seed 002 福建十三水 ----------------------------------------------------------------------

def test_fujian_rejects_a_fouled_hand():
    # line 17: 造成第二墩比第三墩大的话，就称为相公，这时要调整回来才能比牌
    fouled = "2C 3C 5S / AS AH AD AC 2D / 9S 9H 9D TC TD"   # quads in the middle over a full house
    with pytest.raises(ScoringError) as err:
        settle("fujian", {"Ann": BANKER, "Bob": fouled})
    assert "相公" in str(err.value) and "Bob" in str(err.value)
    paid = settle("fujian", {"Ann": BANKER, "Bob": fouled}, options={"foul": "pays-all"})
    assert paid["net"] == {"Ann": 3 * 2, "Bob": -6}   # counts as 打枪


def test_fujian_scoop_and_home_run():
    # line 76: 三墩全部胜过另一位玩家，称为打枪，该玩家计分翻倍 ... 通杀，该玩家计分翻倍
    result = settle("fujian", HOME_RUN_DEAL)
    assert [pair_net(result, "A", other) for other in "BCD"] == [12, 12, 12]
    assert pair_net(result, "C", "B") == 6
    assert result["net"]["A"] == 36


@pytest.mark.parametrize("opponent, won", [
    (TIES_ONE_WIN_TWO_TIES, 1 * 2),   # line 76: 1 胜 2 和 ... 称为辗过，视同打枪
    (TIES_TWO_WINS_ONE_TIE, 2 * 2),   # 2 胜 1 和
    (TIES_ONE_EACH, 0),
])
def test_fujian_no_loss_counts_as_scoop(opponent, won):
    assert settle("fujian", {"A": TIES_A, "B": opponent})["net"]["A"] == won


@pytest.mark.parametrize("player, won", [
    (MIDDLE_FULL_HOUSE, (2 + 4) * 2),        # line 84: 葫芦在中墩 2 水; line 82: 炸弹在底墩 4 水; 辗过
    (MIDDLE_QUADS, (8 + 5) * 2),             # line 82: 中墩 8 水; line 80: 同花顺在底墩 5 水
    (MIDDLE_STRAIGHT_FLUSH, (10 + 5) * 2),   # line 80: 在中墩 10 水
])
def test_fujian_row_values(player, won):
    assert settle("fujian", {"Ann": BANKER, "Bob": player})["net"]["Bob"] == won


def test_fujian_front_trips_are_worth_one():
    # line 86: 同花、杂顺、三条、二对、对子： 1 水
    assert settle("fujian", {"A": FRONT_TRIPS, "B": WEAK})["net"]["A"] == 3 * 2


@pytest.mark.parametrize("hand, points", [
    (SUPREME_DRAGON, 52),                          # line 92: 至尊清龙 ... 即赢每家 104 水
    ("2H 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS", 26),  # line 94: 一条龙 ... 通杀 3 家，翻倍，赢每家 52 水
])
def test_fujian_special_hand_beating_everyone_is_doubled(hand, points):
    others = filler("fujian", hand, count=3)
    result = settle("fujian", {"P": hand, "Q": others[0], "R": others[1], "S": others[2]})
    assert all(result["players"][name]["status"] == "rows" for name in "QRS")
    assert [pair_net(result, "P", other) for other in "QRS"] == [points * 2] * 3
    assert result["players"]["P"]["home_run"] is True


def test_fujian_special_hands_rank_among_themselves():
    # line 72: 牌型大小 ... 六对半 > 三顺子; lines 106-107: 六对半 4 水, 三顺子 3 水
    other = filler("fujian", SIX_PAIRS, THREE_STRAIGHTS)[0]
    result = settle("fujian", {"P": SIX_PAIRS, "Q": THREE_STRAIGHTS, "R": other})
    assert result["players"]["Q"]["natural"]["zh"] == "三顺子"
    assert pair_net(result, "P", "Q") == 4
    assert pair_net(result, "Q", "R") == 3
    assert result["players"]["P"]["home_run"] is False   # three players: no 通杀 (a four-player table)


# ---- 2-4 and 1-6: seed 004 ---------------------------------------------------------------------------

def test_ivey_hellmuth_example():
    # lines 58-63: 2-4法では、ヘルムスはアイビーに2点払う ... 1-6法では、ヘルムスはアイビーに1点を払う
    players = {"Ivey": IVEY, "Hellmuth": HELLMUTH}
    assert settle("2-4", players)["net"] == {"Ivey": 2, "Hellmuth": -2}
    assert settle("1-6", players)["net"] == {"Ivey": 1, "Hellmuth": -1}


@pytest.mark.parametrize("opponent, two_four, one_six", [
    (TIES_ONE_WIN_TWO_TIES, 1, 1),     # line 52: 手のひとつが引き分けの場合、その手に関しては金銭の授受は行われない
    (TIES_TWO_WINS_ONE_TIE, 3, 2),     # line 52: ほかの2つの手で勝った場合、3点になる
    (TIES_ONE_EACH, 0, 0),             # line 52: 両者が1勝ずつした場合には、点数の授受は行われない
])
def test_two_four_and_one_six_with_ties(opponent, two_four, one_six):
    assert settle("2-4", {"A": TIES_A, "B": opponent})["net"]["A"] == two_four
    assert settle("1-6", {"A": TIES_A, "B": opponent})["net"]["A"] == one_six


def test_scoops_under_two_four_and_one_six():
    # line 52: 2つ以上に勝ったら総合点としてもう1点; line 54: 3つ全部に勝ったら ... もう3点のボーナス点
    assert [pair_net(settle("2-4", HOME_RUN_DEAL), "A", o) for o in "BCD"] == [4, 4, 4]
    assert [pair_net(settle("1-6", HOME_RUN_DEAL), "A", o) for o in "BCD"] == [6, 6, 6]


def test_foul_and_surrender():
    # line 89: 降りた場合 ... 2つで負けた場合よりも多いが、3つすべて負けた場合よりも少ない; 追加点を支払う必要はない
    # line 93: 全部負けたのと同じ量の賭け金を他のすべての(降りていない)相手に支払わなければならない
    fouled = "TS TC TD / 3D 4H 6C 7C 9D / 8C 8D 4S 4C JS"   # front trips over a high card
    players = {"A": HOME_RUN_DEAL["A"], "B": fouled, "C": {"surrender": True}, "D": HOME_RUN_DEAL["D"]}
    result = settle("2-4", players)
    assert result["players"]["B"]["status"] == "fouled"
    assert pair_net(result, "A", "B") == 4 and pair_net(result, "D", "B") == 4
    assert pair_net(result, "B", "C") == 0
    assert pair_net(result, "A", "C") == 3 and pair_net(result, "D", "C") == 3
    assert pair_net(result, "A", "D") == 4
    assert result["net"] == {"A": 11, "B": -8, "C": -6, "D": 3}
    one_six = settle("1-6", players)
    assert pair_net(one_six, "A", "B") == 6 and pair_net(one_six, "A", "C") == 3


def test_surrender_cost_is_an_option_and_not_allowed_elsewhere():
    players = {"A": TIES_A, "B": {"surrender": True}}
    assert settle("2-4", players, options={"surrender_cost": "5/2"})["net"] == {"A": "5/2", "B": "-5/2"}
    with pytest.raises(ScoringError) as err:
        settle("fujian", players)
    assert "surrender" in str(err.value)


def test_naturals_win_as_a_scoop_and_tie_each_other():
    # lines 80-85: 特殊牌型(natural) ... 即座に勝ちになり; the issue: a natural wins as a scoop (4 / 6)
    other = filler("2-4", DRAGON, SIX_PAIRS)[0]
    players = {"P": DRAGON, "Q": SIX_PAIRS, "R": other}
    two_four = settle("2-4", players)
    assert pair_net(two_four, "P", "R") == 4 and pair_net(two_four, "Q", "R") == 4
    assert pair_net(two_four, "P", "Q") == 0
    assert pair_net(settle("1-6", players), "P", "R") == 6


def test_royalties_are_off_by_default_and_configurable():
    # lines 69-78: 追加点 ... ある変種では、すべての追加点はすべて同じ点数になる(例: 追加点はひとつ1点)
    players = {"A": FRONT_TRIPS, "B": WEAK}
    assert settle("2-4", players)["net"]["A"] == 4
    assert settle("2-4", players, options={"royalties": True})["net"]["A"] == 5
    # paid whatever the row's result: B's back two pair has none, so the same here
    assert settle("2-4", players, options={"royalties": True, "royalties_paid": "row-winner"})["net"]["A"] == 5


def test_wheel_second_variant():
    # line 107: The Wheel (A-2-3-4-5)が2番目に強いストレートになる
    a = "2S 3H 7D / 4S 5S 6H 8D TC / AD 2D 3C 4H 5C"     # wheel at the back
    b = "2C 3D JH / 4C 5D 6D 7C KD / 9H TH JC QD KS"     # king-high straight at the back
    assert settle("2-4", {"A": a, "B": b})["pairs"][0]["rows"][2]["winner"] == "B"
    assert settle("2-4", {"A": a, "B": b}, options={"wheel": "second"})["pairs"][0]["rows"][2]["winner"] == "A"
