"""The live round through the API (issue 63): a strong ETag per round and game, 304 on If-None-Match, and 412 on
every state-changing request whose If-Match is not the round's current tag (nothing changes, and the answer says
what changed since); moves, swaps, the legal fix, undo, change lines with their actor, fouls and what is missing."""
from __future__ import annotations

import io
import threading

import pytest

from webapp_testkit import ANN, BOB, create_game, csrf_token, jpeg_bytes, round_etag

# Ann's hand with the middle and back rows swapped: a straight in the middle over a pair at the back.
ANN_FOULED = "2S 7H 9D / 4H 5H 6C 7C 8D / 3C 3D 8S JH KC"


def _api_game(client, players=("Ann", "Bob"), rules="2-4") -> str:
    response = client.post("/api/games", json={"players": list(players), "rules": rules})
    assert response.status_code == 201, response.get_json()
    return response.get_json()["token"]


def _round(client, token: str, hands: dict | None = None) -> int:
    response = client.post(f"/api/games/{token}/rounds", json={"hands": hands or {}})
    assert response.status_code == 201, response.get_json()
    return response.get_json()["number"]


def _get(client, token: str, number: int) -> dict:
    return client.get(f"/api/games/{token}/rounds/{number}").get_json()


def _hand(data: dict, player: str) -> dict:
    return next(h for h in data["hands"] if h["player"] == player)


@pytest.fixture
def table(client):
    """A Chinese-poker round with Ann's and Bob's hands typed: (token, number)."""
    token = _api_game(client)
    return token, _round(client, token, {"Ann": ANN, "Bob": BOB})


# ---------------------------------------------------------------- ETag, 304

def test_the_round_has_a_strong_etag_and_answers_304_while_it_is_current(client, table):
    token, number = table
    response = client.get(f"/api/games/{token}/rounds/{number}")
    tag = response.headers["ETag"]
    data = response.get_json()
    assert tag == data["etag"]
    assert tag.startswith('"') and tag.endswith('"') and not tag.startswith("W/")
    assert tag.strip('"').split("-")[1] == str(data["version"])
    unchanged = client.get(f"/api/games/{token}/rounds/{number}", headers={"If-None-Match": tag})
    assert unchanged.status_code == 304 and unchanged.data == b"" and unchanged.headers["ETag"] == tag
    client.post(f"/api/games/{token}/rounds/{number}/hands/Ann/swap", json={"rows": ["middle", "back"]})
    changed = client.get(f"/api/games/{token}/rounds/{number}", headers={"If-None-Match": tag})
    assert changed.status_code == 200 and changed.headers["ETag"] != tag
    assert changed.get_json()["version"] == data["version"] + 1


def test_the_game_etag_changes_when_a_round_changes_or_is_added(client, table):
    token, number = table
    tag = client.get(f"/api/games/{token}").headers["ETag"]
    assert client.get(f"/api/games/{token}", headers={"If-None-Match": tag}).status_code == 304
    client.post(f"/api/games/{token}/rounds/{number}/hands/Ann/swap", json={"rows": ["middle", "back"]})
    after_change = client.get(f"/api/games/{token}", headers={"If-None-Match": tag})
    assert after_change.status_code == 200
    tag = after_change.headers["ETag"]
    _round(client, token)
    assert client.get(f"/api/games/{token}", headers={"If-None-Match": tag}).status_code == 200


def test_a_poll_is_answered_304_without_waiting_for_a_writer(app, client, table):
    """Polls of 200 open pages must not queue behind a photo upload's transaction (SQLite: its write lock)."""
    from sqlalchemy import text

    from webapp.db import get_engine

    token, number = table
    polls = [(f"/api/games/{token}/rounds/{number}", round_etag(client, token, number)),
             (f"/api/games/{token}", client.get(f"/api/games/{token}").headers["ETag"])]
    answers: list[int] = []
    with get_engine(app).connect() as writer:
        writer.execute(text("UPDATE games SET title = title"))  # a writer holds its lock until it ends
        poller = threading.Thread(target=lambda: answers.extend(
            client.get(path, headers={"If-None-Match": tag}).status_code for path, tag in polls))
        poller.start()
        poller.join(timeout=10)
        answered_while_locked = not poller.is_alive()
        writer.rollback()
    poller.join()
    assert answered_while_locked and answers == [304, 304]


def test_a_pin_games_poll_still_needs_the_pin(client):
    response = client.post("/api/games", json={"players": ["Ann", "Bob"], "rules": "2-4", "pin": "4321"})
    token = response.get_json()["token"]
    stranger = client.application.test_client()  # no session that unlocked the game
    pin = {"X-Game-PIN": "4321"}
    number = stranger.post(f"/api/games/{token}/rounds", json={}, headers=pin).get_json()["number"]
    tag = stranger.get(f"/api/games/{token}/rounds/{number}", headers=pin).headers["ETag"]
    assert stranger.get(f"/api/games/{token}/rounds/{number}", headers={"If-None-Match": tag}).status_code == 401
    assert stranger.get(f"/api/games/{token}/rounds/{number}",
                        headers={"If-None-Match": tag, **pin}).status_code == 304
    game_tag = stranger.get(f"/api/games/{token}", headers=pin).headers["ETag"]
    assert stranger.get(f"/api/games/{token}", headers={"If-None-Match": game_tag}).status_code == 401


# ---------------------------------------------------------------- 412 on every change

def _intervening_changes(client, token: str, number: int, settled: bool) -> None:
    """Another phone's two changes: Bob declares, then withdraws, a natural (a settled round: Bob re-opens and
    settles it again)."""
    base = f"/api/games/{token}/rounds/{number}"
    calls = ([("POST", f"{base}/reopen", None), ("POST", f"{base}/settle", None)] if settled else
             [("PUT", f"{base}/hands/Bob", {"natural": True}), ("PUT", f"{base}/hands/Bob", {"natural": False})])
    for method, url, body in calls:
        response = client.open(url, method=method, json=body, headers={"X-Actor": "Bob"})
        assert response.status_code == 200, response.get_json()


def _settled(client, token, number):
    assert client.post(f"/api/games/{token}/rounds/{number}/settle").status_code == 200


def _fouled(client, token, number):
    assert client.put(f"/api/games/{token}/rounds/{number}/hands/Ann", json={"rows": ANN_FOULED}).status_code == 200


def _photo(**_kw):
    return {"data": {"photo": (io.BytesIO(jpeg_bytes()), "hand.jpg")}, "content_type": "multipart/form-data"}


CHANGES = {
    "put hand": ("PUT", "hands/Ann", {"json": {"rows": ANN}}, None),
    "correct": ("POST", "hands/Ann/correct", {"json": {"row": "front", "index": 0, "code": "AS"}}, None),
    "remove": ("POST", "hands/Ann/correct", {"json": {"row": "front", "index": 0}}, None),
    "swap rows": ("POST", "hands/Ann/swap", {"json": {"rows": ["front", "middle"]}}, None),
    "move": ("POST", "hands/Ann/move", {"json": {"from": {"row": "middle", "index": 0}, "to": {"row": "back"}}}, None),
    "swap cards": ("POST", "hands/Ann/swap-cards",
                   {"json": {"a": {"row": "front", "index": 0}, "b": {"row": "back", "index": 4}}}, None),
    "fix": ("POST", "hands/Ann/fix", {}, _fouled),
    "undo": ("POST", "undo", {}, None),
    "settle": ("POST", "settle", {}, None),
    "reopen": ("POST", "reopen", {}, _settled),
    "photo": ("POST", "hands/Ann/photo", "photo", None),
    "webcam": ("POST", "hands/Ann/webcam", {}, None),
}


@pytest.mark.parametrize("name", list(CHANGES))
def test_every_change_refuses_a_stale_if_match_and_changes_nothing(client, table, monkeypatch, name):
    from webapp import reader
    from webapp.views import api

    monkeypatch.setattr(reader, "_read", lambda data, loose: {"cards": [], "rows": None, "warnings": []})
    monkeypatch.setattr(api, "capture_jpeg", lambda device: jpeg_bytes(seed=3))
    method, path, kwargs, before = CHANGES[name]
    token, number = table
    if before:
        before(client, token, number)
    seen = round_etag(client, token, number)
    _intervening_changes(client, token, number, settled=name == "reopen")
    current = _get(client, token, number)
    url = f"/api/games/{token}/rounds/{number}/{path}"

    def send(tag: str):  # type: ignore[no-untyped-def]
        extra = _photo() if kwargs == "photo" else dict(kwargs)
        return client.open(url, method=method, headers={"If-Match": tag}, **extra)

    stale = send(seen)
    assert stale.status_code == 412, stale.get_json()
    body = stale.get_json()
    assert body["status"] == 412 and body["round"]["etag"] == current["etag"] == stale.headers["ETag"]
    since = [c for c in current["changes"] if c["version"] > int(seen.strip('"').split("-")[1])]
    assert body["changes"] == since and len(since) == 2 and {c["by"] for c in since} == {"Bob"}
    assert _get(client, token, number)["version"] == current["version"]  # nothing changed
    landed = send(current["etag"])
    assert landed.status_code in (200, 201), landed.get_json()
    assert landed.headers["ETag"] != current["etag"]
    assert _get(client, token, number)["version"] > current["version"]


def test_big_two_details_refuse_a_stale_if_match(client):
    token = _api_game(client, ("Ann", "Bob", "Cy"), "bigtwo-tw")
    number = _round(client, token)
    seen = round_etag(client, token, number)
    client.put(f"/api/games/{token}/rounds/{number}/hands/Ann", json={"out": True})
    url = f"/api/games/{token}/rounds/{number}"
    stale = client.put(url, json={"failed_to_block": "Bob"}, headers={"If-Match": seen})
    assert stale.status_code == 412 and stale.get_json()["round"]["failed_to_block"] is None
    assert client.put(url, json={"failed_to_block": "Bob"},
                      headers={"If-Match": round_etag(client, token, number)}).status_code == 200


def test_if_match_forms_star_weak_and_missing(client, table):
    token, number = table
    url = f"/api/games/{token}/rounds/{number}/hands/Ann/swap"
    body = {"rows": ["front", "middle"]}
    assert client.post(url, json=body, headers={"If-Match": "*"}).status_code == 200
    current = round_etag(client, token, number)
    assert client.post(url, json=body, headers={"If-Match": f"W/{current}"}).status_code == 412  # strong only
    assert client.post(url, json=body, headers={"If-Match": f'"x", {current}'}).status_code == 200
    assert client.post(url, json=body).status_code == 200  # no If-Match: old clients, curl


def test_two_phones_correcting_the_same_hand_at_once_lose_nothing(app, client, table):
    token, number = table
    seen = round_etag(client, token, number)
    phones = [app.test_client() for _ in range(2)]
    fixes = [{"row": "front", "index": 0, "code": "AC"}, {"row": "back", "index": 4, "code": "9C"}]
    barrier = threading.Barrier(2)
    answers: dict[int, object] = {}

    def correct(i: int) -> None:
        barrier.wait()
        answers[i] = phones[i].post(f"/api/games/{token}/rounds/{number}/hands/Ann/correct", json=fixes[i],
                                    headers={"If-Match": seen, "X-Actor": f"phone {i}"})

    threads = [threading.Thread(target=correct, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    codes = sorted(answers[i].status_code for i in range(2))
    assert codes == [200, 412]
    loser = next(i for i in range(2) if answers[i].status_code == 412)
    refused = answers[loser].get_json()
    assert refused["changes"][0]["by"] == f"phone {1 - loser}"  # it is told what landed
    retry = phones[loser].post(f"/api/games/{token}/rounds/{number}/hands/Ann/correct", json=fixes[loser],
                               headers={"If-Match": refused["round"]["etag"]})
    assert retry.status_code == 200
    ann = _hand(_get(client, token, number), "Ann")
    assert ann["front"][0] == "AC" and ann["back"][4] == "9C"


# ---------------------------------------------------------------- moves, change lines, actor

def test_a_move_is_one_change_line_naming_who_moved_what(client, table):
    token, number = table
    response = client.post(f"/api/games/{token}/rounds/{number}/hands/Ann/move", headers={"X-Actor": "Bob"},
                           json={"from": {"row": "middle", "index": 3}, "to": {"row": "back", "index": 0}})
    data = response.get_json()
    ann = _hand(data, "Ann")
    assert ann["middle"] == ["3C", "3D", "8S", "KC"] and ann["back"] == ["JH", "4H", "5H", "6C", "7C", "8D"]
    line = data["changes"][0]
    assert line["text"] == "Bob moved J♥ from Ann's middle to back" and line["by"] == "Bob"
    assert line["version"] == data["version"]
    assert data["undo"] == {"text": "Bob moved J♥ from Ann's middle to back"}
    assert "Back row: 1 card(s) too many." in [w["text"] for w in ann["warnings"]]
    assert ann["missing"] == ["middle row: 1 card missing", "back row: 1 card too many"]


def test_moving_within_a_row_and_swapping_two_cards(client, table):
    token, number = table
    url = f"/api/games/{token}/rounds/{number}/hands/Ann"
    moved = client.post(f"{url}/move", json={"from": {"row": "back", "index": 0}, "to": {"row": "back", "index": 4}})
    assert _hand(moved.get_json(), "Ann")["back"] == ["5H", "6C", "7C", "8D", "4H"]
    swapped = client.post(f"{url}/swap-cards", json={"a": {"row": "front", "index": 0},
                                                     "b": {"row": "back", "index": 4}})
    ann = _hand(swapped.get_json(), "Ann")
    assert ann["front"][0] == "4H" and ann["back"][4] == "2S"
    assert swapped.get_json()["changes"][0]["text"] == "Someone swapped 2♠ and 4♥ in Ann's hand"


@pytest.mark.parametrize("body, says", [
    ({"from": {"row": "front", "index": 7}, "to": {"row": "back"}}, "The front row has no card number 8."),
    ({"from": {"row": "top", "index": 0}, "to": {"row": "back"}}, ""),
    ({"from": {"row": "front"}, "to": {"row": "back"}}, ""),
    ({"to": {"row": "back"}}, ""),
])
def test_a_bad_move_is_refused_with_one_line_and_changes_nothing(client, table, body, says):
    token, number = table
    before = _get(client, token, number)
    response = client.post(f"/api/games/{token}/rounds/{number}/hands/Ann/move", json=body)
    assert response.status_code == 400 and says in response.get_json()["error"]
    assert "\n" not in response.get_json()["error"]
    assert _get(client, token, number)["version"] == before["version"]


def test_the_device_name_chosen_on_the_game_page_is_the_actor(client):
    token = create_game(client)
    assert client.post(f"/g/{token}/me", data={"csrf_token": csrf_token(client), "name": "Zed"}).status_code == 400
    assert client.post(f"/g/{token}/me", data={"csrf_token": csrf_token(client), "name": "Bob"}).status_code == 303
    number = _round(client, token)
    client.post(f"/g/{token}/r/{number}/p/0/manual", data={"csrf_token": csrf_token(client), "rows": ANN,
                                                            "if_match": round_etag(client, token, number)})
    line = _get(client, token, number)["changes"][0]
    assert line == {**line, "text": "Bob typed Ann's cards", "by": "Bob"}
    client.post(f"/g/{token}/me", data={"csrf_token": csrf_token(client), "name": ""})
    client.post(f"/g/{token}/r/{number}/p/0/swap", data={"csrf_token": csrf_token(client), "rows": "front,middle"})
    assert _get(client, token, number)["changes"][0]["by"] == "Someone"


# ---------------------------------------------------------------- undo

def _state(data: dict) -> list[dict]:
    return [{k: h.get(k) for k in ("player", "state", "front", "middle", "back", "natural", "source", "photo")}
            for h in data["hands"]]


def test_undo_walks_back_one_change_at_a_time_and_restores_each_state_exactly(client, table, monkeypatch):
    from webapp import reader

    token, number = table
    states = [_state(_get(client, token, number))]
    base = f"/api/games/{token}/rounds/{number}"
    reading = {"cards": [{"code": c, "confidence": 0.97, "box": [0, 0, 1, 1], "row": "front"} for c in ("AS",)],
               "rows": {"front": ["AS"], "middle": [], "back": []}, "warnings": []}
    monkeypatch.setattr(reader, "_read", lambda data, loose: reading)
    steps = [lambda: client.post(f"{base}/hands/Ann/correct", json={"row": "front", "index": 1}),  # remove
             lambda: client.post(f"{base}/hands/Bob/swap", json={"rows": ["middle", "back"]}),
             lambda: client.post(f"{base}/hands/Bob/photo", data={"photo": (io.BytesIO(jpeg_bytes()), "b.jpg")},
                                 content_type="multipart/form-data"),
             lambda: client.put(f"{base}/hands/Ann", json={"surrender": True})]
    for step in steps:
        assert step().status_code in (200, 201)
        states.append(_state(_get(client, token, number)))
    for expected in reversed(states[:-1]):
        response = client.post(f"{base}/undo", headers={"X-Actor": "Cy"})
        assert response.status_code == 200, response.get_json()
        assert _state(response.get_json()) == expected
    data = _get(client, token, number)
    assert data["changes"][0]["text"] == "Cy undid: Someone removed 7♥ from Ann's front"
    # further back: the hands typed when the round was made, then nothing
    assert data["undo"] == {"text": "Someone typed Bob's cards"}
    for _ in range(2):
        assert client.post(f"{base}/undo").status_code == 200
    assert {h["state"] for h in _get(client, token, number)["hands"]} == {"empty"}
    nothing = client.post(f"{base}/undo")
    assert nothing.status_code == 409 and nothing.get_json()["error"] == "Nothing to undo in this round."


def test_undo_steps_over_settling_but_not_on_a_settled_round(client, table):
    token, number = table
    base = f"/api/games/{token}/rounds/{number}"
    before = _state(_get(client, token, number))
    client.post(f"{base}/hands/Ann/swap", json={"rows": ["front", "front"]})  # refused: no change
    client.post(f"{base}/hands/Ann/swap-cards", json={"a": {"row": "front", "index": 0},
                                                      "b": {"row": "front", "index": 1}})
    swapped = _state(_get(client, token, number))
    client.post(f"{base}/hands/Ann/swap-cards", json={"a": {"row": "front", "index": 0},
                                                      "b": {"row": "front", "index": 1}})
    _settled(client, token, number)
    assert client.post(f"{base}/undo").status_code == 409  # re-open first
    client.post(f"{base}/reopen")
    assert _state(client.post(f"{base}/undo").get_json()) == swapped
    assert _state(client.post(f"{base}/undo").get_json()) == before


# ---------------------------------------------------------------- fouls, naturals, what is missing

def test_a_fouled_hand_has_its_reason_and_legal_fix_and_one_call_applies_it(client, table):
    token, number = table
    _fouled(client, token, number)
    ann = _hand(_get(client, token, number), "Ann")
    assert ann["foul"]["reason"].startswith("middle Straight") and "beats back" in ann["foul"]["reason"]
    fix = ann["foul"]["fix"]
    assert sorted(fix["front"] + fix["middle"] + fix["back"]) == sorted(ANN_FOULED.replace("/", " ").split())
    assert _hand(_get(client, token, number), "Bob")["foul"] is None
    response = client.post(f"/api/games/{token}/rounds/{number}/hands/Ann/fix", headers={"X-Actor": "Ann"})
    fixed = _hand(response.get_json(), "Ann")
    assert {r: fixed[r] for r in ("front", "middle", "back")} == fix and fixed["foul"] is None
    assert response.get_json()["changes"][0]["text"].startswith("Ann rearranged their fouled hand")
    again = client.post(f"/api/games/{token}/rounds/{number}/hands/Ann/fix")
    assert again.status_code == 409 and "not fouled" in again.get_json()["error"]


def test_a_preset_that_rejects_fouls_refuses_to_settle_a_fouled_hand_with_its_reason(client):
    token = _api_game(client, rules="fujian")
    number = _round(client, token, {"Ann": ANN_FOULED, "Bob": BOB})
    data = _get(client, token, number)
    reason = _hand(data, "Ann")["foul"]["reason"]
    assert data["ready"] is False and _hand(data, "Ann")["missing"][0].startswith(f"fouled: {reason}")
    refused = client.post(f"/api/games/{token}/rounds/{number}/settle")
    assert refused.status_code == 409 and f"Ann: fouled: {reason}" in refused.get_json()["error"]
    assert _get(client, token, number)["status"] == "open"
    # pays-all presets settle a fouled hand (it loses): the foul is shown but not refused
    token = _api_game(client)
    number = _round(client, token, {"Ann": ANN_FOULED, "Bob": BOB})
    assert _get(client, token, number)["ready"] is True


def test_settling_too_early_names_what_each_player_still_lacks(client):
    token = _api_game(client, ("Ann", "Bob", "Cy"))
    number = _round(client, token, {"Ann": ANN})
    client.post(f"/api/games/{token}/rounds/{number}/hands/Ann/correct", json={"row": "back", "index": 4})
    refused = client.post(f"/api/games/{token}/rounds/{number}/settle")
    assert refused.status_code == 409
    assert "Ann: back row: 1 card missing; Bob: no cards yet; Cy: no cards yet" in refused.get_json()["error"]


def test_naturals_are_detected_and_a_card_read_for_two_players_is_flagged_on_both(client):
    token = _api_game(client)
    dragon = "2S 3H 4D / 5C 6S 7H 8D 9C / TS JH QD KC AS"
    number = _round(client, token, {"Ann": dragon, "Bob": BOB})
    data = _get(client, token, number)
    assert _hand(data, "Ann")["natural_detected"].startswith("Dragon")
    assert _hand(data, "Bob")["natural_detected"] is None
    assert "AS is also in Bob's hand" in _hand(data, "Ann")["missing"]
    assert "AS is also in Ann's hand" in _hand(data, "Bob")["missing"]


def test_stale_reader_warnings_go_once_the_hand_makes_them_false(client, monkeypatch):
    from webapp_testkit import hand_read_from_photo, reading_of

    rows = {"front": ["2S"], "middle": ["7H", "9D", "3C", "3D", "8S"], "back": ["JH", "KC", "4H", "5H", "6C", "7C"]}
    reading = reading_of(rows, ["rows ambiguous: no 3-card row at either end; the shorter end row is taken as "
                                "front", "left out unsure marks: 8D? (0.41), QS? (0.30)"])
    token, number = hand_read_from_photo(client, monkeypatch, reading)
    base = f"/api/games/{token}/rounds/{number}/hands/Ann"

    def keys() -> dict:
        notes = _hand(_get(client, token, number), "Ann")["warnings"]
        return {n.get("key"): n.get("params") for n in notes}

    assert {"no_front_row", "unsure_marks"} <= set(keys())
    client.post(f"{base}/correct", json={"row": "front", "index": 1, "code": "8D"})  # 8D added: no longer left out
    assert keys()["unsure_marks"]["marks"] == "QS? (0.30)"
    client.post(f"{base}/move", json={"from": {"row": "back", "index": 5}, "to": {"row": "front"}})
    # 3/5/5 now, and a person changed the rows: the reader's doubts about them no longer hold
    assert not {"no_front_row", "unsure_marks"} & set(keys())


def test_a_seen_twice_warning_goes_once_the_card_is_there_once(client, monkeypatch):
    from webapp_testkit import hand_read_from_photo, reading_of

    rows = {"front": ["2S", "7H", "7H"], "middle": ["3C", "3D", "8S", "JH", "KC"],
            "back": ["4H", "5H", "6C", "7C", "8D"]}
    reading = reading_of(rows, ["card seen twice: 7H appears 2 times far apart"])
    token, number = hand_read_from_photo(client, monkeypatch, reading)

    def keys() -> set:
        return {n.get("key") for n in _hand(_get(client, token, number), "Ann")["warnings"]}

    assert {"seen_twice", "repeated"} <= keys()
    client.post(f"/api/games/{token}/rounds/{number}/hands/Ann/correct",
                json={"row": "front", "index": 2, "code": "9D"})
    assert not {"seen_twice", "repeated"} & keys()


def test_undo_puts_back_big_two_winners_and_details(client):
    token = _api_game(client, ("Ann", "Bob", "Cy"), "bigtwo-tw")
    number = _round(client, token, {"Bob": "2S KD 5C", "Cy": "3H"})
    base = f"/api/games/{token}/rounds/{number}"
    before = _get(client, token, number)
    client.put(f"{base}/hands/Ann", json={"out": True})
    client.put(base, json={"failed_to_block": "Bob"})
    client.put(f"{base}/hands/Cy", json={"out": True})  # Cy now the one who went out, Ann no longer
    assert [h["state"] for h in _get(client, token, number)["hands"]] == ["empty", "cards", "out"]
    for _ in range(3):
        assert client.post(f"{base}/undo").status_code == 200
    after = _get(client, token, number)
    assert after["hands"] == before["hands"] and after["failed_to_block"] is None
