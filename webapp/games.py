"""Games: settings from a form or JSON, validation (with scoring's messages), creation, totals."""
from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Mapping

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload
from werkzeug.security import generate_password_hash

from scoring.errors import shown
from webapp import rules
from webapp.models import GAME_TYPES, Game, Player, Round

MAX_NAME = 40
GAME_NAMES = {"chinese-poker": "Chinese poker", "bigtwo": "Big Two"}


class SettingsInvalid(ValueError):
    """The table's settings have problems; `messages` lists each one for the form."""

    def __init__(self, messages: list[str]) -> None:
        super().__init__("; ".join(messages))
        self.messages = messages


@dataclass
class GameSettings:
    title: str
    players: list[str]
    preset: str
    options: dict[str, Any] = field(default_factory=dict)
    game: str = ""  # chinese-poker | bigtwo; empty: the game of the preset
    stake: str = "1"
    pair_stakes: list[dict[str, Any]] = field(default_factory=list)  # [{"pair": "Ann-Bob", "per_point": "2"}]
    banker: str | None = None
    rotate_banker: bool = False
    pin: str = ""


def parse_pair_stakes(text: str) -> tuple[list[dict[str, Any]], list[str]]:
    """'Ann-Bob=2' per line (or comma) -> [{'pair': 'Ann-Bob', 'per_point': '2'}]; problems are returned."""
    stakes: list[dict[str, Any]] = []
    errors: list[str] = []
    for part in text.replace(",", "\n").splitlines():
        part = part.strip()
        if not part:
            continue
        pair, sep, amount = part.rpartition("=")
        if not sep or "-" not in pair:
            errors.append(f"Per-pair stake '{part}' should look like Ann-Bob=2.")
            continue
        stakes.append({"pair": pair.strip(), "per_point": amount.strip()})
    return stakes, errors


def _split_pair(pair: str, names: list[str]) -> list[str] | None:
    """'Mary-Jane-Bob' -> ['Mary-Jane', 'Bob'] by trying every '-' (names may contain one)."""
    if len(pair) > 2 * MAX_NAME + 3:  # longer than two names and a dash: none; and no quadratic scan of it
        return None
    for i, ch in enumerate(pair):
        if ch == "-":
            a, b = pair[:i].strip(), pair[i + 1:].strip()
            if a in names and b in names and a != b:
                return [a, b]
    return None


def _pair_stakes_from_json(value: Any) -> list[dict[str, Any]]:
    """Accept scoring's list shape or a {"Ann-Bob": 2} object."""
    if isinstance(value, dict):
        return [{"pair": k, "per_point": str(v)} for k, v in value.items()]
    if isinstance(value, list):
        out = []
        for entry in value:
            if not isinstance(entry, dict) or not isinstance(entry.get("players"), list):
                raise SettingsInvalid(['pair_stakes entries look like {"players": ["Ann", "Bob"], "per_point": 2}.'])
            out.append({"pair": "-".join(map(str, entry["players"])), "players": [str(p) for p in entry["players"]],
                        "per_point": str(entry.get("per_point", ""))})
        return out
    raise SettingsInvalid(["'pair_stakes' must be a list or an object."])


def settings_from_form(form: Mapping[str, str], presets: dict[str, dict[str, Any]]) -> tuple[GameSettings, list[str]]:
    """The new-game form -> settings plus the problems found while parsing it."""
    players = [form.get(f"player{i}", "").strip() for i in range(1, 5)]
    players = [p for p in players if p]
    game = form.get("game", "").strip()
    preset = form.get("preset", "").strip()
    options: dict[str, Any] = {}
    known = presets.get(preset, {}).get("options", {})
    for name, default in known.items():
        raw = form.get(f"opt-{preset}-{name}")
        value = rules.coerce_option(default, raw)
        if value != default:
            options[name] = value
    pair_stakes, errors = parse_pair_stakes(form.get("pair_stakes", ""))
    # A field for an option these rules do not have (a stale page, a hand-made form) is refused, not dropped.
    prefix = f"opt-{preset}-"
    # Another preset's fields share the prefix when its name extends this one's (taiwan / taiwan-banker).
    longer = tuple(f"opt-{other}-" for other in presets if other != preset and other.startswith(f"{preset}-"))
    unknown = sorted(key[len(prefix):] for key in form if key.startswith(prefix) and not key.startswith(longer)
                     and key[len(prefix):] not in known)
    if preset in presets and unknown:
        errors.append(f"Unknown option{'s' if len(unknown) > 1 else ''} {', '.join(map(repr, unknown))} for these "
                      f"rules; the valid ones are: {', '.join(known)}.")
    banker = form.get("banker", "").strip() or None
    if banker and banker.isdigit():  # the form sends a seat number
        seat = int(banker) - 1
        banker = players[seat] if 0 <= seat < len(players) else None
    settings = GameSettings(
        title=form.get("title", "").strip(), players=players, preset=preset, options=options, game=game,
        stake=form.get("stake", "1").strip() or "1", pair_stakes=pair_stakes, banker=banker,
        rotate_banker=form.get("rotate_banker") in ("1", "on", "true"), pin=form.get("pin", "").strip(),
    )
    return settings, errors


def settings_from_json(data: Mapping[str, Any]) -> GameSettings:
    if not isinstance(data, Mapping):
        raise SettingsInvalid(["The body must be a JSON object."])
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise SettingsInvalid(["'players' must be a list of 2 to 4 names."])
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise SettingsInvalid(["'options' must be a JSON object."])
    pair_stakes = _pair_stakes_from_json(data.get("pair_stakes") or [])
    for key in ("title", "rules", "preset", "game", "banker", "pin"):
        if not isinstance(data.get(key) or "", str):
            raise SettingsInvalid([f"'{key}' must be text."])
    stake = data.get("stake", "1")
    if isinstance(stake, bool) or not isinstance(stake, (str, int, float)):
        raise SettingsInvalid(["'stake' must be a number or a decimal text like \"0.5\"."])
    return GameSettings(
        title=str(data.get("title") or ""), players=[p.strip() for p in players], preset=str(data.get("rules") or data.get("preset") or ""),
        options=options, game=str(data.get("game") or ""), stake=str(stake), pair_stakes=pair_stakes,
        banker=data.get("banker") or None, rotate_banker=bool(data.get("rotate_banker", False)),
        pin=str(data.get("pin") or ""),
    )


def validate(settings: GameSettings, presets: dict[str, dict[str, Any]]) -> list[str]:
    """Our own checks first (names, stake, PIN), then scoring's verdict on rules and players."""
    errors: list[str] = []
    names = settings.players
    if not 2 <= len(names) <= 4:
        errors.append("A game needs 2 to 4 players.")
    if len(set(n.casefold() for n in names)) != len(names):
        errors.append("Each player needs a different name.")
    if any(len(n) > MAX_NAME or "/" in n for n in names):
        errors.append(f"Player names must be at most {MAX_NAME} characters, without '/'.")
    if len(settings.title) > 100:
        errors.append("The game's name must be at most 100 characters.")
    errors += _check_game(settings, presets)
    problem = rules.amount_problem(settings.stake, "the stake per point")
    if problem:
        errors.append(problem)
    resolved = []
    for entry in settings.pair_stakes:
        pair, amount = entry["pair"], entry["per_point"]
        players = entry.get("players") or _split_pair(pair, names)
        if not players or len(players) != 2 or players[0] == players[1] or not set(players) <= set(names):
            errors.append(f"Per-pair stake '{pair}' must name two different players of this game.")
        else:
            resolved.append({"players": players, "per_point": amount})
        problem = rules.amount_problem(amount, f"the per-pair stake for {shown(pair)}")
        if problem:
            errors.append(problem)
    if settings.pin and not (settings.pin.isdigit() and 4 <= len(settings.pin) <= 12):
        errors.append("The PIN must be 4 to 12 digits.")
    banker_mode = presets.get(settings.preset, {}).get("banker", False)
    if settings.banker and settings.banker not in names:
        errors.append(f"The banker '{settings.banker}' is not one of the players.")
    if errors:  # the options' problems too, so a bad stake does not hide a bad option
        return errors + option_problems(settings, presets)
    settings.pair_stakes = resolved
    if banker_mode and not settings.banker:
        settings.banker = names[0]
    if not banker_mode:
        settings.banker, settings.rotate_banker = None, False
    return rules.validate_game(settings.preset, settings.options, names, settings.banker,
                               settings.stake, settings.pair_stakes)


def option_problems(settings: GameSettings, presets: dict[str, dict[str, Any]]) -> list[str]:
    """Scoring's verdict on each changed option alone (it stops at its first problem), for the form's full list."""
    if settings.preset not in presets:
        return []
    names = settings.players if 2 <= len(settings.players) <= 4 and len(set(settings.players)) == len(
        settings.players) else ["P1", "P2", "P3", "P4"]
    banker = names[0] if presets[settings.preset].get("banker") else None
    problems: list[str] = []
    for name, value in settings.options.items():
        for problem in rules.validate_game(settings.preset, {name: value}, names, banker, "1", []):
            if problem not in problems:
                problems.append(problem)
    return problems


def _check_game(settings: GameSettings, presets: dict[str, dict[str, Any]]) -> list[str]:
    """The game type is known and the rules are that game's (the game defaults to the rules' game)."""
    if settings.game and settings.game not in GAME_TYPES:
        return [f"Unknown game '{settings.game}'; choose one of: {', '.join(GAME_TYPES)}."]
    game = settings.game or presets.get(settings.preset, {}).get("game", "")
    own = sorted(name for name, info in presets.items() if not game or info["game"] == game)
    if settings.preset not in presets:
        return [f"Unknown rules '{settings.preset}'; choose one of: {', '.join(own)}."]
    if presets[settings.preset]["game"] != game:
        return [f"The rules '{settings.preset}' are {GAME_NAMES[presets[settings.preset]['game']]} rules; "
                f"a {GAME_NAMES[game]} game takes one of: {', '.join(own)}."]
    settings.game = game
    return []


def create_game(session: Session, settings: GameSettings) -> Game:
    """Validate and store a game; raises SettingsInvalid with every message."""
    presets = rules.presets()
    errors = validate(settings, presets)
    if errors:
        raise SettingsInvalid(errors)
    game = Game(
        token=secrets.token_urlsafe(18), title=settings.title or " · ".join(settings.players),
        game_type=settings.game, preset=settings.preset, options=settings.options, stake=settings.stake,
        pair_stakes=settings.pair_stakes, rotate_banker=settings.rotate_banker,
        banker_seat=settings.players.index(settings.banker) if settings.banker else None,
        pin_hash=generate_password_hash(settings.pin) if settings.pin else None,
        players=[Player(seat=i, name=n) for i, n in enumerate(settings.players)],
    )
    session.add(game)
    session.commit()
    return game


def find_game(session: Session, token: str) -> Game | None:
    return session.scalars(
        select(Game).where(Game.token == token).options(selectinload(Game.players))
    ).first()


def banker_for_round(game: Game, number: int) -> str | None:
    if game.banker_seat is None:
        return None
    seat = game.banker_seat
    if game.rotate_banker:
        seat = (seat + number - 1) % len(game.players)
    return game.players[seat].name


def as_fraction(value: Any) -> Fraction:
    try:
        return Fraction(str(value))
    except (ValueError, ZeroDivisionError):
        return Fraction(0)


def show_number(value: Fraction) -> str:
    """Whole numbers plainly, others as a fraction and a 2-decimal approximation."""
    if value.denominator == 1:
        return str(value.numerator)
    return f"{value.numerator}/{value.denominator} (≈{float(value):.2f})"


def standings(game: Game, rounds: list[Round]) -> dict[str, Any]:
    """Cumulative points and money per player after each settled round (for totals and the chart)."""
    names = game.player_names
    points = {n: Fraction(0) for n in names}
    money = {n: Fraction(0) for n in names}
    series: list[dict[str, Any]] = []
    for rnd in rounds:
        if rnd.status != "settled" or not rnd.settlement:
            continue
        net = rnd.settlement.get("net", {})
        paid = rnd.settlement.get("money", {})
        for n in names:
            points[n] += as_fraction(net.get(n, 0))
            money[n] += as_fraction(paid.get(n, 0))
        series.append({"round": rnd.number, "points": {n: float(points[n]) for n in names}})
    return {
        "players": names,
        "points": {n: show_number(points[n]) for n in names},
        "money": {n: show_number(money[n]) for n in names},
        "series": series,
    }


def game_json(game: Game) -> dict[str, Any]:
    return {
        "token": game.token, "title": game.title, "game": game.game_type, "rules": game.preset, "options": game.options,
        "players": game.player_names, "stake": game.stake, "pair_stakes": game.pair_stakes,
        "banker": game.players[game.banker_seat].name if game.banker_seat is not None else None,
        "rotate_banker": game.rotate_banker, "pin": game.pin_hash is not None,
        "created_at": game.created_at.isoformat(),
    }
