"""Hardening: the PIN throttle (per client and per network, with back-off, in the database) cannot be used to lock
out the table, and API writes on PIN games need the PIN, not just an unlocked cookie."""
from __future__ import annotations

import pytest
from webapp_testkit import ANN, csrf_token

from webapp import access

PIN = "246810"


def _game(client, pin: str = PIN) -> str:
    response = client.post("/api/games", json={"players": ["Ann", "Bob"], "rules": "2-4", "pin": pin})
    assert response.status_code == 201, response.get_json()
    return response.get_json()["token"]


def _device(app, address: str):
    """A browser (its own cookie jar) at a remote address."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def _unlock(client, token: str, pin: str):
    form = {"csrf_token": csrf_token(client, f"/g/{token}/unlock"), "pin": pin}
    return client.post(f"/g/{token}/unlock", data=form)


@pytest.fixture
def clock(monkeypatch):
    now = [1_000_000.0]
    monkeypatch.setattr(access, "_now", lambda: now[0])
    return now


def test_a_strangers_wrong_pins_lock_only_the_stranger(app, client, clock):
    token = _game(client)
    stranger = _device(app, "198.51.100.7")
    codes = [_unlock(stranger, token, f"{i:04d}").status_code for i in range(access.CLIENT_FREE_TRIES + 3)]
    assert codes[:access.CLIENT_FREE_TRIES] == [403] * access.CLIENT_FREE_TRIES and codes[-1] == 429
    assert 0 < int(_unlock(stranger, token, "0000").headers["Retry-After"]) <= access.BACKOFF_MAX_S
    assert _unlock(stranger, token, PIN).status_code == 429  # the stranger gains nothing by guessing right now
    newcomer = _device(app, "203.0.113.9")  # a player arriving late, on another address
    assert _unlock(newcomer, token, PIN).status_code == 303
    assert newcomer.get(f"/g/{token}").status_code == 200
    api = _device(app, "203.0.113.10")
    assert api.get(f"/api/games/{token}", headers={"X-Game-PIN": PIN}).status_code == 200


def test_an_unlocked_device_is_never_locked(app, client, clock):
    token = _game(client)
    player = _device(app, "192.0.2.5")
    assert _unlock(player, token, PIN).status_code == 303
    # Someone on the same network guesses from many fresh browsers until the network itself must wait.
    for i in range(access.NETWORK_FREE_TRIES + 2):
        _unlock(_device(app, "192.0.2.5"), token, f"{i:04d}")
    assert _unlock(_device(app, "192.0.2.5"), token, PIN).status_code == 429
    assert player.get(f"/g/{token}").status_code == 200
    assert player.get(f"/api/games/{token}").status_code == 200
    assert _unlock(player, token, PIN).status_code == 303
    assert player.post(f"/api/games/{token}/rounds", headers={"X-Game-PIN": PIN}).status_code == 201


def test_fresh_cookies_do_not_escape_the_network_bound(app, client, clock):
    token = _game(client)
    codes = [_unlock(_device(app, "2001:db8::%x" % i), token, f"{i:04d}").status_code
             for i in range(access.NETWORK_FREE_TRIES + 1)]  # a new browser and a new address of one /64 each time
    assert codes[-1] == 429 and 403 in codes
    assert _unlock(_device(app, "2001:db8:0:1::1"), token, PIN).status_code == 303  # another /64 is not held back


def test_back_off_doubles_and_the_right_pin_clears_the_client(app, client, clock):
    token = _game(client)
    guesser = _device(app, "198.51.100.8")
    headers = {"X-Game-PIN": "0000"}
    for _ in range(access.CLIENT_FREE_TRIES - 1):
        assert guesser.get(f"/api/games/{token}", headers=headers).status_code == 401
    waits = []
    for _ in range(3):
        assert guesser.get(f"/api/games/{token}", headers=headers).status_code == 401
        refused = guesser.get(f"/api/games/{token}", headers=headers)
        assert refused.status_code == 429 and "try again" in refused.get_json()["error"]
        waits.append(int(refused.headers["Retry-After"]))
        clock[0] += waits[-1] + 1
    assert waits == [30, 60, 120]
    assert guesser.get(f"/api/games/{token}", headers={"X-Game-PIN": PIN}).status_code == 200
    for _ in range(access.CLIENT_FREE_TRIES):  # cleared: the free tries again
        assert guesser.get(f"/api/games/{token}", headers=headers).status_code == 401


def test_the_throttle_is_shared_by_every_app_process(app, app_config, client, clock):
    from webapp import create_app
    from webapp.db import get_engine

    token = _game(client)
    other_process = create_app(app_config)
    try:
        first, second = _device(app, "198.51.100.9"), _device(other_process, "198.51.100.9")
        second.set_cookie("session", "", expires=0)
        for i in range(access.CLIENT_FREE_TRIES):
            assert first.get(f"/api/games/{token}", headers={"X-Game-PIN": f"{i:04d}"}).status_code == 401
        cookie = first.get_cookie("session")
        second.set_cookie("session", cookie.value)  # the same browser, its next request served by another process
        assert second.get(f"/api/games/{token}", headers={"X-Game-PIN": PIN}).status_code == 429
    finally:
        get_engine(other_process).dispose()


def test_the_wrong_pin_counts_survive_the_refusal(app, client, clock):
    from sqlalchemy import func, select

    from webapp.db import get_engine
    from webapp.models import PinThrottle

    token = _game(client)
    _device(app, "198.51.100.11").get(f"/api/games/{token}", headers={"X-Game-PIN": "1111"})
    with get_engine(app).connect() as conn:
        failures = conn.execute(select(func.sum(PinThrottle.failures))).scalar()
    assert failures == 2  # one in the client's bucket, one in the network's


def test_api_writes_need_the_pin_not_just_the_cookie(app, client, clock):
    token = _game(client)
    player = _device(app, "192.0.2.20")
    assert _unlock(player, token, PIN).status_code == 303
    assert player.get(f"/api/games/{token}").status_code == 200  # reads: the unlocked cookie is enough
    # The repro: text/plain, cookie only, no PIN, no CSRF token.
    forged = player.post(f"/api/games/{token}/rounds", data="{}", content_type="text/plain")
    assert forged.status_code in (400, 401)
    cookie_only = player.post(f"/api/games/{token}/rounds", json={})
    assert cookie_only.status_code == 401 and "X-Game-PIN" in cookie_only.get_json()["error"]
    assert player.put(f"/api/games/{token}/rounds/1/hands/Ann", json={"rows": ANN}).status_code in (401, 404)
    assert player.get(f"/api/games/{token}").get_json()["rounds"] == []
    assert player.post(f"/api/games/{token}/rounds", headers={"X-Game-PIN": PIN}).status_code == 201
    own_page = player.post(f"/api/games/{token}/rounds", headers={"X-CSRF-Token": csrf_token(player, f"/g/{token}")})
    assert own_page.status_code == 201  # the browser's own script, sending its session's CSRF token deliberately
    wrong_token = player.post(f"/api/games/{token}/rounds", headers={"X-CSRF-Token": "nope"})
    assert wrong_token.status_code == 401
    assert len(player.get(f"/api/games/{token}").get_json()["rounds"]) == 2


def test_pin_header_must_look_like_a_pin(client):
    token = _game(client)
    response = client.get(f"/api/games/{token}", headers={"X-Game-PIN": "x" * 500})
    assert response.status_code == 400 and "4 to 12 digits" in response.get_json()["error"]
