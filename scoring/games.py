"""Which game a round is: Chinese poker (the default) or Big Two (scoring.bigtwo)."""

from __future__ import annotations

from typing import Any, Callable

from . import bigtwo
from .errors import ScoringError, shown
from .limits import check_document
from .settle import GAME, settle_round

DEFAULT_GAME = GAME
GAMES: dict[str, Callable[..., dict]] = {GAME: settle_round, bigtwo.GAME: bigtwo.settle_round}


def game_of(round_: Any) -> str:
    """The round's "game" (default chinese-poker, or bigtwo when the rules are a Big Two preset);
    ScoringError when it names no known game, or when the document breaks scoring.limits' bounds (checked
    here, the one door every round comes through, before anything else reads it)."""
    check_document(round_)
    if not isinstance(round_, dict):
        raise ScoringError("a round must be a JSON object with rules and players")
    game = round_.get("game")
    if game is None:
        game = bigtwo.GAME if bigtwo.is_bigtwo_preset(round_.get("rules")) else DEFAULT_GAME
    if not isinstance(game, str) or game not in GAMES:
        raise ScoringError(f"unknown game {shown(game)}; games: {', '.join(GAMES)}")
    return game
