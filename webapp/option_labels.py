"""Rule options in words for the new-game form: a label and a line of help in English and Chinese, which
options most tables change (shown first; the rest are folded), and a readable fallback for an option scoring
adds later (home_run_multiplier -> "Home run multiplier")."""
from __future__ import annotations

import re
from typing import Iterable

from webapp.i18n import N_, is_english, translate, translate_or

# Every option of the presets: its label and help are catalog entries opt_<name> and opt_<name>_help (English
# help: scoring's own words). Listed so that `pybabel extract` finds them.
OPTION_IDS: dict[str, tuple[str, str]] = {
    "mode": (N_("opt_mode"), N_("opt_mode_help")),
    "row_order": (N_("opt_row_order"), N_("opt_row_order_help")),
    "foul": (N_("opt_foul"), N_("opt_foul_help")),
    "ties": (N_("opt_ties"), N_("opt_ties_help")),
    "wheel": (N_("opt_wheel"), N_("opt_wheel_help")),
    "suit_order": (N_("opt_suit_order"), N_("opt_suit_order_help")),
    "royalties": (N_("opt_royalties"), N_("opt_royalties_help")),
    "row_values": (N_("opt_row_values"), N_("opt_row_values_help")),
    "royalties_paid": (N_("opt_royalties_paid"), N_("opt_royalties_paid_help")),
    "majority_bonus": (N_("opt_majority_bonus"), N_("opt_majority_bonus_help")),
    "scoop_bonus": (N_("opt_scoop_bonus"), N_("opt_scoop_bonus_help")),
    "scoop_multiplier": (N_("opt_scoop_multiplier"), N_("opt_scoop_multiplier_help")),
    "scoop_includes_no_loss": (N_("opt_scoop_includes_no_loss"), N_("opt_scoop_includes_no_loss_help")),
    "multiply_royalties": (N_("opt_multiply_royalties"), N_("opt_multiply_royalties_help")),
    "foul_counts_as_scoop": (N_("opt_foul_counts_as_scoop"), N_("opt_foul_counts_as_scoop_help")),
    "home_run_multiplier": (N_("opt_home_run_multiplier"), N_("opt_home_run_multiplier_help")),
    "home_run_min_opponents": (N_("opt_home_run_min_opponents"), N_("opt_home_run_min_opponents_help")),
    "home_run_payment": (N_("opt_home_run_payment"), N_("opt_home_run_payment_help")),
    "naturals": (N_("opt_naturals"), N_("opt_naturals_help")),
    "natural_points": (N_("opt_natural_points"), N_("opt_natural_points_help")),
    "natural_vs_natural": (N_("opt_natural_vs_natural"), N_("opt_natural_vs_natural_help")),
    "natural_home_run": (N_("opt_natural_home_run"), N_("opt_natural_home_run_help")),
    "front_straights": (N_("opt_front_straights"), N_("opt_front_straights_help")),
    "one_color": (N_("opt_one_color"), N_("opt_one_color_help")),
    "twelve_royals_min": (N_("opt_twelve_royals_min"), N_("opt_twelve_royals_min_help")),
    "surrender": (N_("opt_surrender"), N_("opt_surrender_help")),
    "surrender_cost": (N_("opt_surrender_cost"), N_("opt_surrender_cost_help")),
    "low_middle": (N_("opt_low_middle"), N_("opt_low_middle_help")),
    "low_middle_order": (N_("opt_low_middle_order"), N_("opt_low_middle_order_help")),
    "low_middle_royalties": (N_("opt_low_middle_royalties"), N_("opt_low_middle_royalties_help")),
    "criss_cross": (N_("opt_criss_cross"), N_("opt_criss_cross_help")),
    "fourth_point": (N_("opt_fourth_point"), N_("opt_fourth_point_help")),
    "fourth_point_min_players": (N_("opt_fourth_point_min_players"), N_("opt_fourth_point_min_players_help")),
    "overall_bonus": (N_("opt_overall_bonus"), N_("opt_overall_bonus_help")),
    "overall_payment": (N_("opt_overall_payment"), N_("opt_overall_payment_help")),
    "overall_ties": (N_("opt_overall_ties"), N_("opt_overall_ties_help")),
    "scheme": (N_("opt_scheme"), N_("opt_scheme_help")),
    "card_values": (N_("opt_card_values"), N_("opt_card_values_help")),
    "card_overrides": (N_("opt_card_overrides"), N_("opt_card_overrides_help")),
    "count_multipliers": (N_("opt_count_multipliers"), N_("opt_count_multipliers_help")),
    "even_count_multiplier": (N_("opt_even_count_multiplier"), N_("opt_even_count_multiplier_help")),
    "two_multiplier": (N_("opt_two_multiplier"), N_("opt_two_multiplier_help")),
    "two_multiplier_applies": (N_("opt_two_multiplier_applies"), N_("opt_two_multiplier_applies_help")),
    "monster_multiplier": (N_("opt_monster_multiplier"), N_("opt_monster_multiplier_help")),
    "monster_hands": (N_("opt_monster_hands"), N_("opt_monster_hands_help")),
    "winner_bonus": (N_("opt_winner_bonus"), N_("opt_winner_bonus_help")),
    "settlement": (N_("opt_settlement"), N_("opt_settlement_help")),
    "block_rule": (N_("opt_block_rule"), N_("opt_block_rule_help")),
    "instant_wins": (N_("opt_instant_wins"), N_("opt_instant_wins_help")),
    "rank_points": (N_("opt_rank_points"), N_("opt_rank_points_help")),
    "max_cards": (N_("opt_max_cards"), N_("opt_max_cards_help")),
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
    msgid = f"opt_{name}"  # a run-time id, listed for extraction
    return translate_or(msgid, readable(name))


def option_help(name: str, english_help: str) -> str:
    """The option's help in the page's language (English: scoring's own words)."""
    if is_english() and english_help:
        from webapp.scoring_text import chinese_terms

        return chinese_terms(english_help)
    msgid = f"opt_{name}_help"  # a run-time id, listed for extraction
    return translate_or(msgid, english_help)


# The choices of the presets' options; the option's value stays what scoring reads.
CHOICES = (
    N_("choice_banker"), N_("choice_all-pairs"), N_("choice_strict"), N_("choice_non-decreasing"),
    N_("choice_pays-all"), N_("choice_reject"), N_("choice_push"), N_("choice_banker-top-card"), N_("choice_low"),
    N_("choice_second"), N_("choice_row-winner"), N_("choice_always"), N_("choice_per-pair"),
    N_("choice_split-evenly"), N_("choice_higher-wins"), N_("choice_tie"), N_("choice_banker-pays-player"),
    N_("choice_standard"), N_("choice_no-qka"), N_("choice_red-black"), N_("choice_dc-sh"),
    N_("choice_front-below-back"), N_("choice_high-order"), N_("choice_off"), N_("choice_each-vs-each"),
    N_("choice_set-vs-set"), N_("choice_none"), N_("choice_per-scoop"), N_("choice_home-run"), N_("choice_each"),
    N_("choice_share"), N_("choice_cards"), N_("choice_rank"), N_("choice_once"), N_("choice_per-two"),
    N_("choice_winner-collects"), N_("choice_pairwise"), N_("choice_scores"), N_("choice_four-of-a-kind"),
    N_("choice_straight-flush"),
)


def choice_label(value: object) -> str:
    """A choice as the select shows it: its value in English, words elsewhere."""
    text = str(value)
    msgid = f"choice_{text}"  # a run-time id, listed for extraction
    return text if is_english() else translate_or(msgid, text)


def split_common(names: list[str]) -> tuple[list[str], list[str]]:
    """(the common options in the preset's order, the rest)."""
    return [n for n in names if n in COMMON], [n for n in names if n not in COMMON]


def in_words(message: str, names: Iterable[str]) -> str:
    """A scoring message about 'option scoop_multiplier' names it as the form does: “Scoop multiplier”."""
    for name in sorted(names, key=len, reverse=True):
        message = re.sub(rf"\boption {re.escape(name)}\b", f"“{option_label(name)}”", message)
    return message
