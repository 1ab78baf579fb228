"""Everything the web app asks of the `scoring` package goes through here."""
from __future__ import annotations

import json
from typing import Any

import scoring
from scoring.bigtwo.instant import NAMES as INSTANT_NAMES
from scoring.numbers import parse_exact, parse_positive, to_json

ScoringError = scoring.ScoringError
ROWS = ("front", "middle", "back")
MAX_OPTION_TEXT = 2_000   # characters of an option typed on the form (a card-values table is about 100)
CHINESE_POKER, BIG_TWO = "chinese-poker", "bigtwo"  # scoring's game names (webapp.models uses the same)


def game_of_preset(preset: str) -> str | None:
    """The game a preset belongs to (chinese-poker or bigtwo); None for an unknown preset."""
    info = scoring.list_presets().get(preset)
    return str(info.get("game", CHINESE_POKER)) if isinstance(info, dict) else None


def presets() -> dict[str, dict[str, Any]]:
    """Preset name -> {"description", "options": {name: default}, "banker": bool, "raw": scoring's entry}."""
    out: dict[str, dict[str, Any]] = {}
    for name, info in scoring.list_presets().items():
        info = info if isinstance(info, dict) else {"description": str(info)}
        options: dict[str, Any] = {}
        for opt, spec in (info.get("options") or {}).items():
            options[opt] = spec.get("default") if isinstance(spec, dict) and "default" in spec else spec
        out[name] = {
            "game": str(info.get("game", CHINESE_POKER)),
            "title": str(info.get("title", name)),
            "title_zh": str(info.get("title_zh", "")),
            "description": str(info.get("description", "")),
            "option_choices": {
                opt: list(spec.get("choices") or []) if isinstance(spec, dict) else []
                for opt, spec in (info.get("options") or {}).items()
            },
            "options": options,
            "option_help": {
                opt: (spec.get("description") or spec.get("help") or "") if isinstance(spec, dict) else ""
                for opt, spec in (info.get("options") or {}).items()
            },
            "banker": _is_banker_mode(info, options),
        }
    return out


def natural_names() -> dict[str, str]:
    """Every preset's natural by its English name -> its Chinese name (as the seeds wrote it)."""
    return {str(n["en"]): str(n["zh"]) for info in scoring.list_presets().values() if isinstance(info, dict)
            for n in info.get("naturals") or [] if isinstance(n, dict) and n.get("en") and n.get("zh")}


def _is_banker_mode(info: dict[str, Any], options: dict[str, Any]) -> bool:
    for key in ("banker", "banker_mode"):
        if isinstance(info.get(key), bool):
            return info[key]
    mode = info.get("mode", options.get("mode"))
    return isinstance(mode, str) and mode.lower().startswith("banker")


def coerce_option(default: Any, raw: str | None) -> Any:
    """Form text -> the type of the option's default (checkbox absent means False)."""
    if isinstance(default, bool):
        return raw in ("1", "on", "true", "yes")
    if raw is None:
        return default
    raw = raw.strip()
    if len(raw) > MAX_OPTION_TEXT:
        return raw  # scoring refuses it with its own message, unread

    if isinstance(default, int):
        try:
            return int(raw)
        except ValueError:
            return raw  # let scoring name the problem
    if isinstance(default, float):
        try:
            return float(raw)
        except ValueError:
            return raw
    if raw == "" and default is None:
        return None
    if raw[:1] in "{[" or raw in ("null", "true", "false") or (default is None and _looks_numeric(raw)):
        try:
            return json.loads(raw)  # tables and lists are typed as JSON on the form
        except (ValueError, RecursionError):
            return raw
    return raw


def _looks_numeric(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def option_text(value: Any) -> str:
    """How an option's value is written in a form field."""
    if value is None:
        return ""
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def stakes_json(stake: str, pair_stakes: list[dict[str, Any]]) -> dict[str, Any]:
    """Scoring's stakes object: a per-point stake and optional per-pair overrides."""
    out: dict[str, Any] = {"per_point": _number(stake)}
    if pair_stakes:
        out["pairs"] = [{"players": list(p["players"]), "per_point": _number(str(p["per_point"]))}
                        for p in pair_stakes]
    return out


def _number(text: str) -> int | str:
    """Exact, read by scoring's one number parser (bounded before any arithmetic): whole stakes as ints,
    others as fraction text ("0.5" -> "1/2"); text scoring refuses is passed on for scoring to name."""
    try:
        return to_json(parse_exact(text, "the stake"))
    except ScoringError:
        return text


def amount_problem(text: str, what: str) -> str | None:
    """Why ``text`` is not an amount a game can settle with (scoring's range: more than 0, below 10**12,
    at most 6 decimals), as one sentence naming ``what``; None when it is fine."""
    try:
        parse_positive(text, what)
    except ScoringError as err:
        message = str(err)
        return message[:1].upper() + message[1:] + "."
    return None


def round_json(preset: str, options: dict[str, Any], hands: list[dict[str, Any]], banker: str | None,
               stake: str, pair_stakes: list[dict[str, Any]], sets: bool = False) -> dict[str, Any]:
    """The round in `python -m scoring settle`'s input shape.

    Each hand: {"player", "state": "cards"|"surrender", "front"/"middle"/"back": [codes], "natural": bool} and,
    with `sets` (criss cross), "set": 0 or 1; each player is then {"sets": [first hand, second hand]}."""
    players: dict[str, Any] = {}
    for hand in hands:
        if hand["state"] == "surrender":
            entry: dict[str, Any] = {"surrender": True}
        else:
            entry = {row: list(hand[row]) for row in ROWS}
            if hand.get("natural"):
                entry["natural"] = True
        if sets:
            players.setdefault(hand["player"], {"sets": [None, None]})["sets"][hand["set"]] = entry
        else:
            players[hand["player"]] = entry
    data: dict[str, Any] = {"rules": preset, "options": dict(options), "players": players,
                            "stakes": stakes_json(stake, pair_stakes)}
    if banker:
        data["banker"] = banker
    return data


def bigtwo_round_json(preset: str, options: dict[str, Any], hands: list[dict[str, Any]],
                      order: list[str] | None, failed_to_block: str | None, stake: str,
                      pair_stakes: list[dict[str, Any]]) -> dict[str, Any]:
    """A Big Two round in `python -m scoring settle`'s input shape.

    Each hand: {"player", "state": "out"|"cards"|"empty", "cards": [codes], "instant_win": bool}; the
    player who went out is sent as "" (holds no cards), the one claiming an instant win as
    {"cards": "<the 13 dealt>", "instant_win": true}. Under points by place (scheme rank) only the order
    counts."""
    data: dict[str, Any] = {"game": BIG_TWO, "rules": preset, "options": dict(options),
                            "stakes": stakes_json(stake, pair_stakes)}
    if bigtwo_rules(preset, options)["scheme"] == "rank":
        data["players"] = [hand["player"] for hand in hands]
        data["order"] = list(order or [])
    else:
        data["players"] = {hand["player"]: _bigtwo_entry(hand) for hand in hands}
    if failed_to_block:
        data["failed_to_block"] = failed_to_block
    return data


def _bigtwo_entry(hand: dict[str, Any]) -> str | dict[str, Any]:
    if hand["state"] == "out":
        return ""
    cards = " ".join(hand["cards"])
    return {"cards": cards, "instant_win": True} if hand.get("instant_win") else cards


def bigtwo_rules(preset: str, options: dict[str, Any]) -> dict[str, Any]:
    """What the Big Two pages need of a game's rules: scheme (cards | rank), max_cards, block_rule, and
    instant_wins: the instant wins the rules pay, best first ([] under points by place)."""
    resolved = scoring.bigtwo.resolve_rules(preset, options)
    wins = resolved.options["instant_wins"]
    paid = [] if resolved.options["scheme"] == "rank" else [
        {"hand": hand, "en": en, "zh": zh, "multiplier": wins[hand]}
        for hand, (en, zh) in INSTANT_NAMES.items() if wins.get(hand) is not None]
    return {**{name: resolved.options[name] for name in ("scheme", "max_cards", "block_rule")},
            "instant_wins": paid}


def check_instant_win(preset: str, options: dict[str, Any], player: str, cards: list[str]) -> dict[str, Any]:
    """An instant-win claim checked as settling checks it: the settlement's "instant_win" object, or
    ScoringError with scoring's own message (no dragon, a card twice, not paid by these rules …)."""
    return scoring.bigtwo.check_instant_win(preset, options, player, cards)


def parse_cards_left(text: str, player: str) -> list[str]:
    """'2s kd 5C' -> ['2S', 'KD', '5C'] with scoring's message for a code that is not a card or a repeat."""
    return scoring.bigtwo.parse_left_hand(text, player).codes


def settle(round_data: dict[str, Any]) -> dict[str, Any]:
    return scoring.settle(round_data)


def hindsight(round_data: dict[str, Any], player: str, hand_set: int = 0) -> dict[str, Any]:
    """One hand's best split against the hands as laid (criss cross: the player's set `hand_set`, the other set
    as laid), and the advisor's split for the cards alone (``general``: None for a surrendered hand, or when the
    advisor refuses the rules: ``general_error`` says why). ScoringError when the engine gives no hindsight."""
    entry = scoring.hindsight(round_data, player)["players"][player]
    hand = round_data["players"][player]
    both = None
    if isinstance(entry, dict) and "sets" in entry:   # criss cross: one entry per set
        both = [_cards(one) for one in hand["sets"]]
        entry, hand = entry["sets"][hand_set], hand["sets"][hand_set]
    if not isinstance(entry, dict) or "best" not in entry:
        raise ScoringError(f"rules {round_data['rules']}: the engine gives no hindsight for this hand")
    general, general_error = None, None
    if entry["best"] is not None:
        rules, options = round_data["rules"], round_data.get("options")
        try:
            if both and all(both):   # each set advised with both sets' cards out of the opponent's reach
                general = scoring.best_arrangement({"sets": both}, rules, options)["sets"][hand_set]
            else:
                general = scoring.best_arrangement(_cards(hand), rules, options, players=len(round_data["players"]))
        except ScoringError as err:   # the advisor may model fewer rules than hindsight
            general_error = str(err)
    return {"entry": entry, "general": general, "general_error": general_error}


def _cards(entry: dict[str, Any]) -> list[str] | None:
    """A round entry's 13 cards (None for a surrender)."""
    return None if entry.get("surrender") else entry["front"] + entry["middle"] + entry["back"]


def validate_game(preset: str, options: dict[str, Any], players: list[str], banker: str | None,
                  stake: str, pair_stakes: list[dict[str, Any]]) -> list[str]:
    """Scoring's own messages about the table's settings (empty when they are fine)."""
    validator = getattr(scoring, "validate_settings", None)
    if validator is None:
        return []
    try:
        validator(rules=preset, options=options, players=players, banker=banker,
                  stakes=stakes_json(stake, pair_stakes))
    except ScoringError as err:
        return [str(err)]
    return []


def normalise_card(text: str) -> str:
    """'10s', '♠A', 'as' -> 'AS' (raises ScoringError for anything else)."""
    from scoring.cards import parse_card

    return parse_card(text)
