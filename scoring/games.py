"""Which game a round is: only Chinese poker so far; Big Two will register here."""

from __future__ import annotations

from typing import Any, Callable

from .errors import ScoringError
from .settle import GAME, settle_round

DEFAULT_GAME = GAME
GAMES: dict[str, Callable[..., dict]] = {GAME: settle_round}


def game_of(round_: Any) -> str:
    """The round's "game" (default chinese-poker); ScoringError when it names no known game."""
    if not isinstance(round_, dict):
        raise ScoringError("a round must be a JSON object with rules and players")
    game = round_.get("game", DEFAULT_GAME)
    if game not in GAMES:
        raise ScoringError(f"unknown game {game!r}; games: {', '.join(GAMES)}")
    return game
