"""The round page's "How else could it have been set?": one player's hindsight, computed only when asked.

The route hangs on the rounds blueprint (so a PIN-protected game asks for its PIN first, as every round
page does).  It answers only for a settled Chinese-poker round: against the other hands exactly as laid,
the split of the player's 13 cards that would have scored the most (scoring.hindsight, every legal split
settled exactly, ~20-100 ms), and the split the advisor would choose without seeing the other hands
(scoring.best_arrangement, a few ms).  The page's script fetches it when the player's <details> opens;
without the script the link opens it as a page of its own.
"""
from __future__ import annotations

from flask import abort, render_template

from webapp import rules
from webapp.rounds.review import round_input
from webapp.rounds import find_hand, hand_label
from webapp.views.rounds import _hand_set, _load, _player, bp


@bp.get("/g/<token>/r/<int:number>/p/<int:seat>/hindsight")
def hindsight(token: str, number: int, seat: int):  # type: ignore[no-untyped-def]
    game, rnd = _load(token, number)
    player = _player(game, seat)
    hand_set = _hand_set(game)   # criss cross: /s/<set> (views/hand_sets.py)
    label = hand_label(find_hand(rnd.hands, player, hand_set))
    if game.is_bigtwo:
        abort(404, description="Big Two hands are played, not set: there is no other way to set them.")
    if rnd.status != "settled":
        abort(409, description="How else a hand could have been set is shown once the round is settled.")
    round_data = round_input(game, rnd)
    try:
        found = rules.hindsight(round_data, player, hand_set)
    except rules.ScoringError as err:   # rules the engine does not model: said on the page, never a 500
        return render_template("hindsight.html", game=game, rnd=rnd, player=label, entry=None, general=None,
                               error=str(err)), 422
    return render_template("hindsight.html", game=game, rnd=rnd, player=label, error=None, **found)
