"""Seed 004's 変種 in the web app (issue 68 item 6): the new-game form offers the three presets; a low-middle
round judges fouls by the preset's own order (foul reason, legal fix, settling); criss cross (two hands per player,
tests/webapp/test_criss_cross*.py) takes exactly two players."""
from __future__ import annotations

import re

from webapp_testkit import csrf_token

# Legal when the middle plays low (a pair of aces over a 7 low); fouled in the 2-4 game.
ANN_LOW = "AS AH KD / 2S 3H 4D 5C 7S / QS QH QD 9S 9H"
# Three queens in front over two pair behind: fouled under both.
ANN_FRONT_OVER_BACK = "QS QH QD / 2S 3H 4D 5C 7S / AS AH KD 9S 9H"
BOB = "2C 3C 4C / 6S 6D 7C 7D 8S / 8H 9D TS JS QC"


def _game(client, rules: str, players=("Ann", "Bob")) -> str:
    response = client.post("/api/games", json={"players": list(players), "rules": rules})
    assert response.status_code == 201, response.get_json()
    return response.get_json()["token"]


def _round(client, token: str, hands: dict) -> dict:
    response = client.post(f"/api/games/{token}/rounds", json={"hands": hands})
    assert response.status_code == 201, response.get_json()
    return client.get(f"/api/games/{token}/rounds/{response.get_json()['number']}").get_json()


def _hand(data: dict, player: str) -> dict:
    return next(h for h in data["hands"] if h["player"] == player)


def test_the_form_offers_the_variant_presets(client):
    html = client.get("/games/new").get_data(as_text=True)
    for preset in ("low-middle", "criss-cross", "eleven-point"):
        assert f'data-preset="{preset}"' in html or f'value="{preset}"' in html, preset


def test_a_low_middle_round_judges_fouls_by_its_own_order(client):
    token = _game(client, "low-middle")
    data = _round(client, token, {"Ann": ANN_LOW, "Bob": BOB})
    assert _hand(data, "Ann")["foul"] is None
    data = _round(client, token, {"Ann": ANN_FRONT_OVER_BACK, "Bob": BOB})
    foul = _hand(data, "Ann")["foul"]
    assert foul["reason"] == "front Three Queens is not below back Two pair, Aces and Nines"
    fixed = " / ".join(" ".join(foul["fix"][row]) for row in ("front", "middle", "back"))
    two_four = _game(client, "2-4")
    assert _hand(_round(client, two_four, {"Ann": ANN_LOW, "Bob": BOB}), "Ann")["foul"] is not None
    assert _hand(_round(client, token, {"Ann": fixed, "Bob": BOB}), "Ann")["foul"] is None


def test_an_eleven_point_game_settles_with_the_overall_bonus(client):
    """Ann's pair of aces over a 7-high middle is fouled in this (high-middle) game: Bob wins three rows and,
    as the round's overall winner, 11 more."""
    token = _game(client, "eleven-point")
    data = _round(client, token, {"Ann": ANN_LOW, "Bob": BOB})
    settled = client.post(f"/api/games/{token}/rounds/{data['number']}/settle")
    assert settled.status_code == 200
    assert settled.get_json()["settlement"]["net"] == {"Ann": -14, "Bob": 14}


def test_a_criss_cross_game_needs_two_players(client):
    """Criss cross is played in the web app (test_criss_cross*.py); scoring's one-deck rule still holds: two
    sets of 13 for each of three or four players would need a second deck, so such a table is refused with
    scoring's message, on the form and through the API."""
    response = client.post("/games/new", data={
        "csrf_token": csrf_token(client, "/games/new"), "title": "t", "preset": "criss-cross", "stake": "1",
        "player1": "Ann", "player2": "Bob", "player3": "Cy"})
    assert response.status_code == 400
    errors = re.findall(r'<li class="error">(.*?)</li>', response.get_data(as_text=True))
    assert any("it needs exactly 2 players, got 3" in e for e in errors), errors
    api = client.post("/api/games", json={"players": ["Ann", "Bob", "Cy", "Dee"], "rules": "criss-cross"})
    assert api.status_code == 400 and "it needs exactly 2 players, got 4" in api.get_json()["error"]
