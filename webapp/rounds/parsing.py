"""Typed cards to a hand's rows: 'AS KS QS / 2C 2D 9H 9S 4C / …' (Chinese poker) or the cards left
(Big Two), every code normalised; RoundError with a person's message for anything else."""
from __future__ import annotations

from webapp import rules
from webapp.models import Game
from webapp.rounds.errors import RoundError
from webapp.rounds.shape import CARDS_LEFT, ROW_SIZES, ROWS, layout


def parse_rows(text: str) -> dict[str, list[str]]:
    """'AS KS QS / 2C 2D 9H 9S 4C / …' (or 13 codes in order) -> rows of normalised codes."""
    text = text.replace(",", " ").strip()
    parts = [p.split() for p in text.split("/")] if "/" in text else None
    if parts is None:
        codes = text.split()
        if len(codes) != 13:
            raise RoundError(f"Expected 13 cards (front 3 / middle 5 / back 5), got {len(codes)}.")
        parts = [codes[:3], codes[3:8], codes[8:]]
    if len(parts) != 3:
        raise RoundError("Write three rows separated by '/': front / middle / back.")
    rows: dict[str, list[str]] = {}
    for row, codes in zip(ROWS, parts):
        if len(codes) != ROW_SIZES[row]:
            raise RoundError(f"The {row} row needs {ROW_SIZES[row]} cards, got {len(codes)}.")
        rows[row] = [normalise(code) for code in codes]
    return rows


def parse_typed(game: Game, player: str, text: str) -> dict[str, list[str]]:
    """Typed cards for the game: three rows (Chinese poker) or the cards left (Big Two)."""
    return parse_cards_left(game, player, text) if game.is_bigtwo else parse_rows(text)


def parse_cards_left(game: Game, player: str, text: str) -> dict[str, list[str]]:
    """A Big Two player's cards left, typed ('2S KD 5C', commas or spaces) -> {"cards": [codes]}.

    Codes that are not cards and repeats get scoring's own message; more than max_cards too."""
    try:
        codes = rules.parse_cards_left(text.replace("/", " "), player)
    except rules.ScoringError as err:
        raise RoundError(str(err)) from err
    limit = layout(game)[CARDS_LEFT]
    if len(codes) > limit:
        raise RoundError(f"{player}: {len(codes)} cards left, but a hand holds at most {limit} (option max_cards).")
    if not codes:
        raise RoundError(f"{player}: no cards typed. A player who went out holds none: mark them as the winner.")
    return {CARDS_LEFT: codes}


def normalise(code: str) -> str:
    try:
        return rules.normalise_card(code)
    except (rules.ScoringError, ValueError) as err:
        raise RoundError(f"'{code}' is not a card: {err}") from err
