"""Rule options in words for the new-game form: a label and a line of help in English and Chinese, which
options most tables change (shown first; the rest are folded), and a readable fallback for an option scoring
adds later (home_run_multiplier -> "Home run multiplier")."""
from __future__ import annotations

import re
from typing import Iterable

from webapp.i18n import current_language

# name -> (English label, Traditional label, Traditional help, Simplified label, Simplified help); the simplified
# columns were converted once with OpenCC (t2s). English help is scoring's own.
OPTIONS: dict[str, tuple[str, str, str, str, str]] = {
    'mode': ('Who settles with whom', '結算方式', '坐莊：每人只與莊家結算；all-pairs：每兩位玩家都互相結算',
        '结算方式', '坐庄：每人只与庄家结算；all-pairs：每两位玩家都互相结算'),
    'row_order': ('Row order rule', '三道大小規則', 'strict：頭道 < 中道 < 尾道；non-decreasing：中道可與尾道相同',
        '三道大小规则', 'strict：头道 < 中道 < 尾道；non-decreasing：中道可与尾道相同'),
    'foul': ('A hand in the wrong order (fouled)', '倒水（擺烏龍）', 'pays-all：倒水者當作被每家打槍；reject：要求重新擺牌',
        '倒水（摆乌龙）', 'pays-all：倒水者当作被每家打枪；reject：要求重新摆牌'),
    'ties': ('Equal rows', '同大的道', 'push：同大不計；banker-top-card（食夾棍）：只比牌型與最大牌，同大算莊家贏',
        '同大的道', 'push：同大不计；banker-top-card（食夹棍）：只比牌型与最大牌，同大算庄家赢'),
    'wheel': ('A-2-3-4-5 straight', 'A2345 順子', 'low：最小的順子；second：只小於 10JQKA',
        'A2345 顺子', 'low：最小的顺子；second：只小于 10JQKA'),
    'suit_order': ('Suits break ties', '以花色分大小', '留空：花色不分大小；或由大到小寫花色（如 SHDC）',
        '以花色分大小', '留空：花色不分大小；或由大到小写花色（如 SHDC）'),
    'royalties': ('Pay royalties (bonus rows)', '計算特別牌型加分', '三條擺頭、中墩葫蘆等大於 1 分的道是否加分',
        '计算特别牌型加分', '三条摆头、中墩葫芦等大于 1 分的道是否加分'),
    'row_values': ('Points per row and hand', '每道每種牌型的分數', '贏一道得的分數（預設 1）：規則附帶的表，或自訂的覆蓋值',
        '每道每种牌型的分数', '赢一道得的分数（预设 1）：规则附带的表，或自订的覆盖值'),
    'royalties_paid': ('Who collects royalties', '加分由誰收', 'row-winner：只有贏該道者收；always：持牌者向每家收取',
        '加分由谁收', 'row-winner：只有赢该道者收；always：持牌者向每家收取'),
    'majority_bonus': ('Bonus for winning 2 of 3 rows', '贏兩道的額外分', '對局中贏兩道或以上的額外分（2-4 法：1）',
        '赢两道的额外分', '对局中赢两道或以上的额外分（2-4 法：1）'),
    'scoop_bonus': ('Bonus for winning all 3 rows', '打槍額外分', '三道全贏時加的分（1-6 法：3）',
        '打枪额外分', '三道全赢时加的分（1-6 法：3）'),
    'scoop_multiplier': ('Scoop multiplier (打槍)', '打槍倍數', '三道全贏時分數乘以此數（1 = 不加倍）',
        '打枪倍数', '三道全赢时分数乘以此数（1 = 不加倍）'),
    'scoop_includes_no_loss': ('Win one row and lose none counts as a scoop', '輾過算打槍', '贏至少一道而沒有輸任何一道，也算打槍',
        '辗过算打枪', '赢至少一道而没有输任何一道，也算打枪'),
    'multiply_royalties': ('Multipliers also multiply royalties', '倍數也乘加分', '打槍、全壘打的倍數是否也乘特別牌型的加分',
        '倍数也乘加分', '打枪、全垒打的倍数是否也乘特别牌型的加分'),
    'foul_counts_as_scoop': ('A fouled hand counts as scooped', '倒水當作被打槍', '倒水者當作被每位對手打槍（計打槍倍數、全壘打）',
        '倒水当作被打枪', '倒水者当作被每位对手打枪（计打枪倍数、全垒打）'),
    'home_run_multiplier': ('Home run multiplier (scoop everyone)', '全壘打倍數', '同時打槍所有對手時的倍數（1 = 不加倍）',
        '全垒打倍数', '同时打枪所有对手时的倍数（1 = 不加倍）'),
    'home_run_min_opponents': ('Fewest opponents for a home run', '全壘打最少對手數', '全壘打須打槍的最少對手人數',
        '全垒打最少对手数', '全垒打须打枪的最少对手人数'),
    'home_run_payment': ('How a home run is paid', '全壘打的付法', 'per-pair：每家的付款各自加倍；split-evenly：加倍後總數由輸家平分',
        '全垒打的付法', 'per-pair：每家的付款各自加倍；split-evenly：加倍后总数由输家平分'),
    'naturals': ('Naturals (special hands) count', '計算報到（特殊牌型）', '是否認出並計算報到牌型',
        '计算报到（特殊牌型）', '是否认出并计算报到牌型'),
    'natural_points': ('Points of each natural', '各報到牌型的分數', '按牌型改寫報到的分數（留空 = 取消該牌型）',
        '各报到牌型的分数', '按牌型改写报到的分数（留空 = 取消该牌型）'),
    'natural_vs_natural': ('Two naturals meet', '兩家都報到', 'higher-wins：大者贏；tie：不計；banker-pays-player：莊家付閒家',
        '两家都报到', 'higher-wins：大者赢；tie：不计；banker-pays-player：庄家付闲家'),
    'natural_home_run': ('A natural that beats everyone is a home run', '報到贏全部算全壘打', '報到贏所有人時也計全壘打倍數',
        '报到赢全部算全垒打', '报到赢所有人时也计全垒打倍数'),
    'front_straights': ('Which fronts count as straights', '頭道算順子的牌', 'standard：A23 至 QKA；no-qka：QKA、KA2 除外',
        '头道算顺子的牌', 'standard：A23 至 QKA；no-qka：QKA、KA2 除外'),
    'one_color': ("Suits of 'one colour'", '湊一色的花色', 'red-black：黑桃梅花或紅心方塊；dc-sh：方塊梅花或黑桃紅心',
        '凑一色的花色', 'red-black：黑桃梅花或红心方块；dc-sh：方块梅花或黑桃红心'),
    'twelve_royals_min': ('Court cards for 十二皇族', '十二皇族的公仔牌數', '13 張牌中須有幾張 J、Q、K 或 A（12 或 13）',
        '十二皇族的公仔牌数', '13 张牌中须有几张 J、Q、K 或 A（12 或 13）'),
    'surrender': ('Players may surrender', '可以投降', '攤牌前可否投降',
        '可以投降', '摊牌前可否投降'),
    'surrender_cost': ('Points a surrender costs', '投降要付的分', '投降者付給每位沒有投降的對手的分數',
        '投降要付的分', '投降者付给每位没有投降的对手的分数'),
    'low_middle': ('Low hand in the middle', '中道比小', '中道以 2-7 小牌比較（7-5-4-3-2 最好）',
        '中道比小', '中道以 2-7 小牌比较（7-5-4-3-2 最好）'),
    'low_middle_order': ('With a low middle, what is fouled', '中道比小時的倒水規則', 'front-below-back：只要頭道小於尾道；high-order：中道作為大牌也要在中間',
        '中道比小时的倒水规则', 'front-below-back：只要头道小于尾道；high-order：中道作为大牌也要在中间'),
    'low_middle_royalties': ('With a low middle, its royalties still count', '中道比小時仍計中道加分', '中道比小時，葫蘆或以上是否仍加分',
        '中道比小时仍计中道加分', '中道比小时，葫芦或以上是否仍加分'),
    'criss_cross': ('Criss cross (two sets each)', '交叉（每人兩副）', 'off：不用；each-vs-each：每副對每副；set-vs-set：第一副對第一副',
        '交叉（每人两副）', 'off：不用；each-vs-each：每副对每副；set-vs-set：第一副对第一副'),
    'fourth_point': ('A fourth point for three rows', '三道全贏的第四分', 'none：沒有；per-scoop：每打槍一家；home-run：只限全壘打',
        '三道全赢的第四分', 'none：没有；per-scoop：每打枪一家；home-run：只限全垒打'),
    'fourth_point_min_players': ('Fewest players for the fourth point', '第四分最少人數', '桌上至少幾人才計第四分',
        '第四分最少人数', '桌上至少几人才计第四分'),
    'overall_bonus': ("Bonus for the round's top scorer", '全局最高分獎勵', '全局得分最多者的獎勵分（0 = 沒有）',
        '全局最高分奖励', '全局得分最多者的奖励分（0 = 没有）'),
    'overall_payment': ('How the top-scorer bonus is paid', '最高分獎勵的付法', 'split-evenly：其他人平分；each：每人各付全數',
        '最高分奖励的付法', 'split-evenly：其他人平分；each：每人各付全数'),
    'overall_ties': ('Top scorers level', '最高分同分', 'none：沒有勝者；share：同分者分獎勵',
        '最高分同分', 'none：没有胜者；share：同分者分奖励'),
    'scheme': ('What losers pay for', '計分方法', 'cards：按手上剩牌計；rank：按名次計分',
        '计分方法', 'cards：按手上剩牌计；rank：按名次计分'),
    'card_values': ('Points per card left', '每張剩牌的分數', '按點數計每張剩牌的分（每張 1 = 數牌）',
        '每张剩牌的分数', '按点数计每张剩牌的分（每张 1 = 数牌）'),
    'card_overrides': ('Points for particular cards', '個別牌的分數', '某些牌另計分數，例如黑桃A',
        '个别牌的分数', '某些牌另计分数，例如黑桃A'),
    'count_multipliers': ('Multipliers by cards left', '按剩牌數加倍', '剩幾張起加倍，例如八張起雙炒 = {"8": 2}',
        '按剩牌数加倍', '剩几张起加倍，例如八张起双炒 = {"8": 2}'),
    'even_count_multiplier': ('Multiplier when an even number is left', '剩牌雙數加倍', '剩餘張數為雙數時的倍數（1 = 不加倍）',
        '剩牌双数加倍', '剩余张数为双数时的倍数（1 = 不加倍）'),
    'two_multiplier': ('Multiplier for holding a 2', '持有老二加倍', '手上有 2 時的倍數（1 = 不加倍）',
        '持有老二加倍', '手上有 2 时的倍数（1 = 不加倍）'),
    'two_multiplier_applies': ('A 2 multiplies', '老二加倍的次數', 'once：有 2 只加倍一次；per-two：每張 2 再加倍',
        '老二加倍的次数', 'once：有 2 只加倍一次；per-two：每张 2 再加倍'),
    'monster_multiplier': ('Multiplier for a monster hand left', '怪物牌加倍', '剩牌中有怪物牌時的倍數（1 = 不加倍）',
        '怪物牌加倍', '剩牌中有怪物牌时的倍数（1 = 不加倍）'),
    'monster_hands': ('What counts as a monster hand', '怪物牌的種類', 'four-of-a-kind：鐵支；straight-flush：同花順',
        '怪物牌的种类', 'four-of-a-kind：铁支；straight-flush：同花顺'),
    'winner_bonus': ('Bonus for the winner', '勝者加分', '勝者額外加的分（只限按剩牌計分）',
        '胜者加分', '胜者额外加的分（只限按剩牌计分）'),
    'settlement': ('Who pays whom', '結算方式', 'winner-collects：輸家付勝者；pairwise：每兩人結算差額；scores：只記分',
        '结算方式', 'winner-collects：输家付胜者；pairwise：每两人结算差额；scores：只记分'),
    'block_rule': ('Failing to block (頂大) pays for all', '頂大（顧牌）', '沒有頂大的玩家代付所有人的輸數',
        '顶大（顾牌）', '没有顶大的玩家代付所有人的输数'),
    'instant_wins': ('Instant wins and what they pay', '即時勝出的牌型', '同花一條龍、一條龍、四條2 及其倍數（留空 = 取消）',
        '即时胜出的牌型', '同花一条龙、一条龙、四条2 及其倍数（留空 = 取消）'),
    'rank_points': ('Points by finishing place', '名次計分', '按名次得分，第一名先寫；留空 = 人數減一至零',
        '名次计分', '按名次得分，第一名先写；留空 = 人数减一至零'),
    'max_cards': ('Most cards a player may hold', '每人最多牌數', '每人最多剩幾張（13；三人分完 52 張時可到 18）',
        '每人最多牌数', '每人最多剩几张（13；三人分完 52 张时可到 18）'),
}

# What most tables decide before the first hand; the rest of a preset's options stay folded.
COMMON = ("mode", "royalties", "scoop_multiplier", "home_run_multiplier", "naturals", "surrender", "surrender_cost",
          "foul", "majority_bonus", "scoop_bonus", "scheme", "settlement", "count_multipliers", "two_multiplier",
          "block_rule", "instant_wins")


def readable(name: str) -> str:
    """An option scoring added after these labels were written: 'home_run_multiplier' -> 'Home run multiplier'."""
    words = name.replace("_", " ").replace("-", " ").strip()
    return words[:1].upper() + words[1:]


def option_label(name: str) -> str:
    entry = OPTIONS.get(name)
    lang = current_language()
    if entry is None:
        return readable(name)
    if lang == "en":
        return entry[0]
    return entry[1] if lang == "zh-Hant" else entry[3]


def option_help(name: str, english_help: str) -> str:
    """The option's help in the page's language (English: scoring's own words)."""
    entry = OPTIONS.get(name)
    lang = current_language()
    if lang == "en" or entry is None:
        return english_help
    return entry[2] if lang == "zh-Hant" else entry[4]


def split_common(names: list[str]) -> tuple[list[str], list[str]]:
    """(the common options in the preset's order, the rest)."""
    return [n for n in names if n in COMMON], [n for n in names if n not in COMMON]


def in_words(message: str, names: Iterable[str]) -> str:
    """A scoring message about 'option scoop_multiplier' names it as the form does: “Scoop multiplier (打槍)”."""
    for name in sorted(names, key=len, reverse=True):
        message = re.sub(rf"\boption {re.escape(name)}\b", f"“{option_label(name)}”", message)
    return message
