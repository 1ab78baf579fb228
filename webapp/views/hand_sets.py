"""Criss cross on the round pages: a player's second set has pages and actions of its own.

Every hand page and action answers under `/g/<token>/r/<n>/p/<seat>/s/<set>…` as well as `/p/<seat>…` (set 1 or
2; without `/s/` it is set 1, so every other game's links stay as they were). One extra URL rule per endpoint, the
same view: the blueprint's URL-value preprocessor takes `set_number` out of the view arguments into `g`, where
views.rounds._hand_set reads (and checks) it. `url_for(..., set_number=2)` builds the longer rule (werkzeug
prefers the rule using the most arguments; `set_number=None` is left out). A path segment rather than `?set=2`
so that the templates' `base ~ '/photo'` keeps working for either set.
"""
from __future__ import annotations

from typing import Any

from flask import g

from webapp import rounds
from webapp.views import hindsight as hindsight_views
from webapp.views import rounds as round_views

HAND = "/g/<token>/r/<int:number>/p/<int:seat>"
WITH_SET = HAND + "/s/<int:set_number>"

# endpoint -> (path after the hand, method)
HAND_ENDPOINTS = {
    "hand": ("", "GET"), "hindsight": ("/hindsight", "GET"),
    "photo": ("/photo", "POST"), "webcam": ("/webcam", "POST"), "manual": ("/manual", "POST"),
    "surrender": ("/surrender", "POST"), "natural": ("/natural", "POST"), "correct": ("/correct", "POST"),
    "remove": ("/remove", "POST"), "move": ("/move", "POST"), "swapcards": ("/swapcards", "POST"),
    "fix": ("/fix", "POST"), "swap": ("/swap", "POST"),
}


def _view(endpoint: str) -> Any:
    return getattr(hindsight_views if endpoint == "hindsight" else round_views, endpoint)


for _endpoint, (_path, _method) in HAND_ENDPOINTS.items():
    round_views.bp.add_url_rule(WITH_SET + _path, endpoint=_endpoint, view_func=_view(_endpoint), methods=[_method])


@round_views.bp.url_value_preprocessor
def _take_set(_endpoint: str | None, values: dict[str, Any] | None) -> None:
    g.set_number = values.pop("set_number", None) if values else None


# The templates name a hand and build its links with these (set_number_of: None outside criss cross).
round_views.bp.add_app_template_global(rounds.hand_label, "hand_label")
round_views.bp.add_app_template_global(rounds.set_number, "set_number_of")
round_views.bp.add_app_template_global(rounds.is_criss_cross, "is_criss_cross")
round_views.bp.add_app_template_global(rounds.doubted_in_notes, "doubted_in_notes")
round_views.bp.add_app_template_global(rounds.sets.set_share, "set_share")
