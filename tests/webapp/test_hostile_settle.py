"""Hostile round documents against the web app (issue 64, items 1 and 4): /api/settle answers a settlement
or a 4xx with one line, never a 5xx; a stake out of scoring's range is refused when the game is created;
a game stored with one before the range existed gets a 4xx when it settles, never a 500."""
from __future__ import annotations

import json
import time
from fractions import Fraction

import pytest
from adversaries.documents import as_text, fuzzed_round_documents
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import update
from webapp_testkit import ANN, BOB, browser_defaults, csrf_token

from webapp.db import get_session
from webapp.models import Game

ROUND = {"rules": "2-4", "players": {"Ann": ANN, "Bob": BOB}}
GUARD_SECONDS = 2.0   # a generous bound, not a measurement: these requests used to take seconds to minutes


@pytest.fixture
def app_config(app_config: dict) -> dict:
    # Thousands of requests in seconds from one address would pass the general rate limits (their own tests are in
    # test_csrf_and_limits.py); here every request must reach the handler.
    return app_config | {"RATELIMIT_ENABLED": False}


def _settle(client, text: str):  # type: ignore[no-untyped-def]
    return client.post("/api/settle", data=text, content_type="application/json")


def _assert_settled_or_one_line_4xx(response) -> dict | None:  # type: ignore[no-untyped-def]
    assert response.status_code < 500, response.get_data(as_text=True)[:500]
    body = response.get_json()
    if response.status_code == 200:
        if body.get("zero_sum", True):
            for key in ("net", "money"):
                assert sum(Fraction(str(value)) for value in body[key].values()) == 0, body[key]
        return body
    assert 400 <= response.status_code < 500 and body is not None, response.get_data(as_text=True)[:500]
    message = body["error"]
    assert message and "\n" not in message and len(message) < 500, message
    return None


def test_fuzzed_documents_settle_or_get_one_line_4xx(client):
    statuses: dict[int, int] = {}
    for document in fuzzed_round_documents(seed=164, count=2_000):
        response = _settle(client, as_text(document))
        _assert_settled_or_one_line_4xx(response)
        statuses[response.status_code] = statuses.get(response.status_code, 0) + 1
    assert statuses.get(200, 0) >= 100 and statuses.get(400, 0) >= 1_000, statuses


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(field=st.sampled_from(["rules", "options", "players", "banker", "stakes", "game", "order"]), value=JSON_VALUES)
def test_any_json_value_in_any_field_settles_or_gets_one_line_4xx(client, field, value):
    _assert_settled_or_one_line_4xx(_settle(client, json.dumps({**ROUND, field: value})))


@pytest.mark.parametrize("per_point", ["1e10000000", "1e3000000", "1e5000", "1e-5000", "0.0000001", "1e12"])
def test_stakes_out_of_range_are_400_at_once(client, per_point):
    started = time.perf_counter()
    response = _settle(client, json.dumps({**ROUND, "stakes": {"per_point": per_point}}))
    assert time.perf_counter() - started < GUARD_SECONDS
    assert response.status_code == 400
    assert "below 1,000,000,000,000 with at most 6 decimals" in response.get_json()["error"]


@pytest.mark.parametrize("game", [[], {}])
def test_a_game_of_the_wrong_type_is_400(client, game):
    response = _settle(client, json.dumps({**ROUND, "game": game}))
    assert response.status_code == 400 and "game" in response.get_json()["error"]


@pytest.mark.parametrize("stake", ["1e3000000", "1e5000", "1e-5000", "0.0000001", "1000000000000"])
def test_a_game_with_a_stake_out_of_range_is_refused(client, stake):
    started = time.perf_counter()
    response = client.post("/api/games", json={"players": ["A", "B"], "rules": "2-4", "stake": stake})
    assert time.perf_counter() - started < GUARD_SECONDS
    assert response.status_code == 400, response.get_json()
    message = response.get_json()["error"]
    assert "stake per point" in message and "at most 6 decimals" in message and "\n" not in message
    assert client.get("/api/games").get_json()["games"] == []


def test_a_pair_stake_out_of_range_is_refused(client):
    body = {"players": ["Ann", "Bob", "Cy"], "rules": "2-4",
            "pair_stakes": [{"players": ["Ann", "Bob"], "per_point": "1e5000"}]}
    response = client.post("/api/games", json=body)
    assert response.status_code == 400 and "per-pair stake" in response.get_json()["error"]


def test_stakes_in_range_are_kept_exact(client):
    created = client.post("/api/games", json={"players": ["Ann", "Bob"], "rules": "2-4", "stake": "0.000001"})
    assert created.status_code == 201, created.get_json()
    token = created.get_json()["token"]
    settled = client.post(f"/api/games/{token}/rounds", json={"hands": {"Ann": ANN, "Bob": BOB}, "settle": True})
    assert settled.status_code == 201, settled.get_json()
    money = settled.get_json()["settlement"]["money"]
    net = settled.get_json()["settlement"]["net"]
    assert {name: Fraction(str(value)) for name, value in money.items()} == \
        {name: Fraction(str(value)) / 1_000_000 for name, value in net.items()}


def test_a_game_stored_with_a_huge_stake_gets_a_4xx_when_it_settles(app, client):
    """Games created before the range existed (stake "1e5000" was accepted) settle to a clear 4xx."""
    token = client.post("/api/games", json={"players": ["Ann", "Bob"], "rules": "2-4"}).get_json()["token"]
    with app.app_context():
        session = get_session()
        session.execute(update(Game).where(Game.token == token).values(stake="1e5000"))
        session.commit()
    started = time.perf_counter()
    response = client.post(f"/api/games/{token}/rounds", json={"hands": {"Ann": ANN, "Bob": BOB}, "settle": True})
    assert time.perf_counter() - started < GUARD_SECONDS
    assert 400 <= response.status_code < 500, response.get_data(as_text=True)[:500]
    assert "below 1,000,000,000,000" in response.get_json()["error"]


@pytest.mark.parametrize("options, says", [
    ({"scoop_multiplier": 10 ** 30}, "at most 1,000,000"),
    ({"surrender": True, "surrender_cost": "1e3000000"}, "at most 6 decimals"),
    ({"natural_points": {"six-pairs": 10 ** 7}}, "at most 1,000,000"),
])
def test_numeric_options_out_of_range_are_refused(client, options, says):
    started = time.perf_counter()
    response = client.post("/api/games", json={"players": ["Ann", "Bob"], "rules": "2-4", "options": options})
    assert time.perf_counter() - started < GUARD_SECONDS
    assert response.status_code == 400 and says in response.get_json()["error"], response.get_json()


def test_the_new_game_form_refuses_huge_numbers(client, app):
    form = {"csrf_token": csrf_token(client, "/games/new"), "preset": "2-4", "player1": "A", "player2": "B",
            "stake": "1e3000000", "opt-2-4-majority_bonus": "9" * 3_000, **browser_defaults("2-4")}
    started = time.perf_counter()
    response = client.post("/games/new", data=form)
    assert time.perf_counter() - started < GUARD_SECONDS
    html = response.get_data(as_text=True)
    assert response.status_code == 400 and "at most 6 decimals" in html
    assert client.get("/api/games").get_json()["games"] == []
