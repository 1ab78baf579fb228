"""CSRF by Flask-WTF's CSRFProtect and general rate limits by Flask-Limiter (issue 69 item 6)."""
from __future__ import annotations

import time

import pytest
from flask_wtf.csrf import CSRFProtect

from webapp_testkit import create_game, csrf_token


def test_forms_are_guarded_by_csrfprotect_with_the_same_field_and_header(app, client):
    assert isinstance(app.extensions["csrf"], CSRFProtect)
    token = create_game(client)  # the form's csrf_token field is accepted
    stranger = app.test_client()
    forged = stranger.post(f"/g/{token}/me", data={"csrf_token": csrf_token(client), "name": "Ann"})
    assert forged.status_code == 400 and "expired" in forged.get_data(as_text=True)  # another session's token
    by_header = client.post(f"/g/{token}/me", data={"name": "Ann"},
                            headers={"X-CSRF-Token": csrf_token(client), "X-Requested-With": "fetch"})
    assert by_header.status_code == 200 and by_header.get_json() == {"me": "Ann"}
    assert client.post("/api/games", json={"players": ["A", "B"], "rules": "2-4"}).status_code == 201  # API exempt


def test_a_page_carries_the_same_token_every_time(client):
    """Live pages compare their regions with a fresh copy of themselves: a token signed anew per request would make
    every form look changed and redraw the one being typed in."""
    first = csrf_token(client)
    time.sleep(1.1)  # Flask-WTF's signatures carry the second they were made
    assert csrf_token(client, "/games/new") == first


@pytest.fixture
def strict_app(app_config):
    from webapp import create_app
    from webapp.db import get_engine

    flask_app = create_app(app_config | {"RATELIMIT_DEFAULT": "3 per minute", "RATELIMIT_APPLICATION": "20 per minute"})
    yield flask_app
    get_engine(flask_app).dispose()


def test_writes_are_rate_limited_per_route_with_retry_after(strict_app):
    client = strict_app.test_client()
    made = [client.post("/api/games", json={"players": ["A", "B"], "rules": "2-4"}) for _ in range(4)]
    assert [r.status_code for r in made] == [201, 201, 201, 429]
    refused = made[-1]
    assert 1 <= int(refused.headers["Retry-After"]) <= 61
    assert "Too many requests" in refused.get_json()["error"]
    token = made[0].get_json()["token"]
    assert client.post(f"/api/games/{token}/rounds", json={}).status_code == 201  # another route: its own count
    reads = [client.get(f"/api/games/{token}").status_code for _ in range(10)]
    assert set(reads) == {200}  # reads only count towards the overall limit
    etag = client.get(f"/api/games/{token}").headers["ETag"]
    polls = [client.get(f"/api/games/{token}", headers={"If-None-Match": etag}).status_code for _ in range(15)]
    assert set(polls) == {304}  # a live page's polls are not counted
    overall = [client.get("/healthz").status_code for _ in range(10)]
    assert 429 in overall  # 20 requests a minute in all


def test_the_counters_storage_is_configurable(app_config):
    """Memory by default; a Redis URL is handed to the limits library (RedisStorage, or without the `redis`
    extra a start-up error that names it: never a silent fallback to per-process counters); with REDIS_URL (a
    club) the counters live in that Redis."""
    from limits.errors import ConfigurationError

    from webapp import create_app

    default = create_app({k: v for k, v in app_config.items() if k != "REDIS_URL"})
    assert default.config["RATELIMIT_STORAGE_URI"] == "memory://"
    assert type(default.extensions["webapp.limiter"].storage).__name__ == "MemoryStorage"
    club = create_app(app_config | {"REDIS_URL": "redis://127.0.0.1:9/0"})
    assert club.config["RATELIMIT_STORAGE_URI"] == "redis://127.0.0.1:9/0"
    assert type(club.extensions["webapp.limiter"].storage).__name__ == "RedisStorage"
    try:
        shared = create_app(app_config | {"RATELIMIT_STORAGE_URI": "redis://127.0.0.1:9"})
    except ConfigurationError as err:
        assert "redis" in str(err)
    else:
        assert type(shared.extensions["webapp.limiter"].storage).__name__ == "RedisStorage"
