"""The engine's options: one generic set shared by every preset (presets only change defaults).

Each option has a checker that returns the normalised value or raises ScoringError, and a help
line that ``python -m scoring presets`` and the docs show.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from .errors import ScoringError, shown
from .evaluate import CATEGORIES, FRONT_CATEGORIES
from .numbers import MAX_WHOLE, parse_positive, parse_whole, to_json

ROWS = ("front", "middle", "back")
FRONT_CATEGORY_NAMES = tuple(CATEGORIES[c] for c in sorted(FRONT_CATEGORIES))


@dataclass(frozen=True)
class OptionSpec:
    name: str
    help: str
    check: Callable[[Any, str], Any]   # (value, option name) -> normalised value
    choices: tuple = ()                # for documentation of enum options


def _enum(*choices: str) -> Callable[[Any, str], str]:
    def check(value: Any, name: str) -> str:
        if value not in choices:
            raise ScoringError(f"option {name} must be one of {', '.join(choices)}; got {shown(value)}")
        return value
    return check


def _bool(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise ScoringError(f"option {name} must be true or false; got {shown(value)}")
    return value


def _int_at_least(minimum: int, maximum: int = MAX_WHOLE) -> Callable[[Any, str], int]:
    """A whole-number option from ``minimum`` to ``maximum`` (MAX_WHOLE unless the option says less)."""
    def check(value: Any, name: str) -> int:
        return parse_whole(value, f"option {name}", minimum, maximum)
    return check


def _positive_number(value: Any, name: str) -> Any:
    return to_json(parse_positive(value, f"option {name}"))


def _suit_order(value: Any, name: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or sorted(value.upper()) != sorted("SHDC"):
        raise ScoringError(f"option {name} must be null (suits never break ties) or the four suits "
                           f"best first, like \"SHDC\"; got {shown(value)}")
    return value.upper()


def _row_values(value: Any, name: str) -> Any:
    """A named table of the preset (checked later against the preset) or a table of overrides."""
    if isinstance(value, str):
        return value
    if not isinstance(value, dict):
        raise ScoringError(f"option {name} must be a table name or an object like "
                           f"{{\"back\": {{\"quads\": 4}}}}; got {shown(value)}")
    table: dict[str, dict[str, int]] = {}
    for row, per_category in value.items():
        if row not in ROWS:
            raise ScoringError(f"option {name}: unknown row {shown(row)}; rows are {', '.join(ROWS)}")
        allowed = FRONT_CATEGORY_NAMES if row == "front" else CATEGORIES
        if not isinstance(per_category, dict):
            raise ScoringError(f"option {name}.{row} must be an object of hand -> points")
        table[row] = {}
        for category, points in per_category.items():
            if category not in allowed:
                raise ScoringError(f"option {name}.{row}: unknown hand {shown(category)}; "
                                   f"valid: {', '.join(allowed)}")
            table[row][category] = _int_at_least(1)(points, f"{name}.{row}.{category}")
    return table


def _natural_points(value: Any, name: str) -> dict:
    if not isinstance(value, dict):
        raise ScoringError(f"option {name} must be an object of natural -> points (null turns one off)")
    checked = {}
    for natural, points in value.items():
        checked[natural] = None if points is None else _int_at_least(0)(points, f"{name}.{natural}")
    return checked


OPTIONS: dict[str, OptionSpec] = {spec.name: spec for spec in [
    OptionSpec("mode", "banker: each player settles with the banker only; all-pairs: every pair of players settles",
               _enum("banker", "all-pairs"), ("banker", "all-pairs")),
    OptionSpec("row_order", "strict: front < middle < back; non-decreasing: the middle may equal the back "
               "(a front always ranks below a middle whose ranks it shares)",
               _enum("strict", "non-decreasing"), ("strict", "non-decreasing")),
    OptionSpec("foul", "what a hand in the wrong order (擺烏龍/相公/翻船) does: pays-all, or reject "
               "(an error asks the player to rearrange)", _enum("pays-all", "reject"), ("pays-all", "reject")),
    OptionSpec("ties", "push: equal rows exchange nothing; banker-top-card (食夾棍, banker mode only): rows are "
               "compared on category and top card only and ties go to the banker",
               _enum("push", "banker-top-card"), ("push", "banker-top-card")),
    OptionSpec("wheel", "low: A-2-3-4-5 is the lowest straight; second: it ranks just below T-J-Q-K-A",
               _enum("low", "second"), ("low", "second")),
    OptionSpec("suit_order", "null: suits never break ties; or the suits best first (\"SHDC\") to break "
               "ties between equal rows card by card", _suit_order),
    OptionSpec("royalties", "whether row values above 1 (三條擺頭, 中墩葫蘆, ...) are paid", _bool),
    OptionSpec("row_values", "points the winner of a row collects, by row and hand (default 1): a named "
               "table of the preset or an object of overrides", _row_values),
    OptionSpec("royalties_paid", "row-winner: a royalty is collected only by the row's winner; always: "
               "the holder collects it from every opponent whatever the row's result",
               _enum("row-winner", "always"), ("row-winner", "always")),
    OptionSpec("majority_bonus", "points for winning 2 or more rows of a pair (2-4 method: 1)", _int_at_least(0)),
    OptionSpec("scoop_bonus", "points added for a scoop (1-6 method: 3)", _int_at_least(0)),
    OptionSpec("scoop_multiplier", "multiplier on row points for a scoop (打槍/打枪; 1 = none)", _int_at_least(1)),
    OptionSpec("scoop_includes_no_loss", "辗过: winning at least one row and losing none counts as a scoop",
               _bool),
    OptionSpec("multiply_royalties", "whether scoop and home-run multipliers also multiply the royalty part "
               "of row values (false: only the base 1 point per row)", _bool),
    OptionSpec("foul_counts_as_scoop", "a fouled hand counts as scooped by each opponent (scoop multiplier, "
               "scoop bonus, home runs)", _bool),
    OptionSpec("home_run_multiplier", "multiplier for scooping every other player (全壘打/通杀; 1 = none)",
               _int_at_least(1)),
    OptionSpec("home_run_min_opponents", "fewest opponents a home run must scoop (the seeds: 3, a four-player "
               "table)", _int_at_least(1, 3)),
    OptionSpec("home_run_payment", "per-pair: each scooped player's payment is multiplied; split-evenly: the "
               "scorer's multiplied total is split evenly among the losers (seed 000 玩法3)",
               _enum("per-pair", "split-evenly"), ("per-pair", "split-evenly")),
    OptionSpec("naturals", "whether naturals (報到/特殊牌型) are detected and paid", _bool),
    OptionSpec("natural_points", "override the points of naturals by id (null turns one off)", _natural_points),
    OptionSpec("natural_vs_natural", "two naturals: higher-wins (the lower pays the higher its points, equal "
               "ones push); tie (nothing changes hands); banker-pays-player (banker mode: the banker pays the "
               "player's points; between players the higher wins)",
               _enum("higher-wins", "tie", "banker-pays-player"), ("higher-wins", "tie", "banker-pays-player")),
    OptionSpec("natural_home_run", "a natural that beats every other player also gets the home-run multiplier "
               "(seed 002)", _bool),
    OptionSpec("front_straights", "fronts that count as 3-card straights for three straights (flushes): "
               "standard (A23..QKA) or no-qka (seeds 000/001: QKA, KA2 除外)",
               _enum("standard", "no-qka"), ("standard", "no-qka")),
    OptionSpec("one_color", "湊一色 suits: red-black (♠♣ or ♥♦) or dc-sh (♦♣ or ♠♥, seed 002 read literally)",
               _enum("red-black", "dc-sh"), ("red-black", "dc-sh")),
    OptionSpec("twelve_royals_min", "十二皇族: how many of the 13 cards must be J, Q, K or A (12 or 13)",
               _int_at_least(12, 13)),
    OptionSpec("surrender", "whether a player may surrender (降りる) before the hands are shown", _bool),
    OptionSpec("surrender_cost", "points a surrendering player pays each opponent that did not surrender",
               _positive_number),
    # Seed 004's 変種 (docs/scoring-presets.md, "Variants"); off by default.
    OptionSpec("low_middle", "low in the middle: the middle row plays deuce-to-seven low (7-5-4-3-2 is the best; "
               "aces high, straights and flushes count against it, A-2-3-4-5 is ace high)", _bool),
    OptionSpec("low_middle_order", "with low_middle, what makes a hand fouled: front-below-back (only the front "
               "must rank below the back) or high-order (the middle, read as a high hand, must still lie between)",
               _enum("front-below-back", "high-order"), ("front-below-back", "high-order")),
    OptionSpec("low_middle_royalties", "with low_middle, whether the middle row's royalties (full house or better) "
               "are still paid", _bool),
    OptionSpec("criss_cross", "criss cross: each player lays two 13-card sets ({\"sets\": [hand, hand]}); off, "
               "each-vs-each (every set against each of the opponent's sets) or set-vs-set (first against first, "
               "second against second)", _enum("off", "each-vs-each", "set-vs-set"), ("off", "each-vs-each", "set-vs-set")),
    OptionSpec("fourth_point", "a point added for winning all three rows (11-point game): none, per-scoop (from each "
               "opponent scooped) or home-run (from every opponent, only for scooping them all)",
               _enum("none", "per-scoop", "home-run"), ("none", "per-scoop", "home-run")),
    OptionSpec("fourth_point_min_players", "fewest players at the table for the fourth point (the seed: 4)",
               _int_at_least(2, 4)),
    OptionSpec("overall_bonus", "points for the round's overall winner: the one player with the most points after "
               "the rows (11-point game: 11; 0 = none)", _int_at_least(0)),
    OptionSpec("overall_payment", "how the overall bonus is paid: split-evenly among the other players, or each "
               "other player pays it in full", _enum("split-evenly", "each"), ("split-evenly", "each")),
    OptionSpec("overall_ties", "two or more players level on the most points: none (no overall winner) or share "
               "(they split the bonus; each tied player is paid by the players below)",
               _enum("none", "share"), ("none", "share")),
]}

# Engine defaults; a preset's data file replaces any of them.
DEFAULTS: dict[str, Any] = {
    "mode": "all-pairs", "row_order": "strict", "foul": "pays-all", "ties": "push", "wheel": "low",
    "suit_order": None, "royalties": True, "row_values": "standard", "royalties_paid": "row-winner",
    "majority_bonus": 0, "scoop_bonus": 0, "scoop_multiplier": 1, "scoop_includes_no_loss": False,
    "multiply_royalties": True, "foul_counts_as_scoop": True, "home_run_multiplier": 1,
    "home_run_min_opponents": 3, "home_run_payment": "per-pair", "naturals": True, "natural_points": {},
    "natural_vs_natural": "higher-wins", "natural_home_run": False, "front_straights": "standard",
    "one_color": "red-black", "twelve_royals_min": 13, "surrender": False, "surrender_cost": 3,
    "low_middle": False, "low_middle_order": "front-below-back", "low_middle_royalties": False,
    "criss_cross": "off", "fourth_point": "none", "fourth_point_min_players": 4, "overall_bonus": 0,
    "overall_payment": "split-evenly", "overall_ties": "none",
}
assert set(DEFAULTS) == set(OPTIONS)


def check_options(options: Any, specs: dict[str, OptionSpec] | None = None, game: str = "") -> dict[str, Any]:
    """Validate a round's options object (names and values) against `specs` (default: this engine's);
    returns normalised values. `game` names the game in the unknown-option message."""
    specs = OPTIONS if specs is None else specs
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise ScoringError(f"options must be an object of option -> value, not {type(options).__name__}")
    checked = {}
    for name, value in options.items():
        spec = specs.get(name)
        if spec is None:
            where = f" for {game}" if game else ""
            raise ScoringError(f"unknown option {shown(name)}{where}; valid options: {', '.join(specs)}")
        checked[name] = spec.check(value, name)
    return checked
