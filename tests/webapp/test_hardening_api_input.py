"""Hardening: every API input is checked against the schema /api/openapi.json publishes; bad bodies get 400 with
one line and change nothing; deep or large JSON is refused, never a 500; 405 names the allowed methods."""
from __future__ import annotations

import io
import json

import pytest
from jsonschema import Draft202012Validator
from webapp_testkit import ANN, jpeg_bytes

from webapp.validation import MAX_JSON_BYTES, MAX_JSON_DEPTH, json_depth, openapi_path, parse_json


def _game(client, players=("Ann", "Bob"), rules="2-4") -> str:
    response = client.post("/api/games", json={"players": list(players), "rules": rules})
    assert response.status_code == 201, response.get_json()
    return response.get_json()["token"]


def _rounds(client, token: str) -> list:
    return client.get(f"/api/games/{token}").get_json()["rounds"]


def _one_line_400(response) -> str:
    assert response.status_code == 400, (response.status_code, response.get_data(as_text=True)[:300])
    message = response.get_json()["error"]
    assert message and "\n" not in message and len(message) < 400
    return message


@pytest.mark.parametrize("body, content_type", [
    (b"\x00", None), (b"\x00", "application/json"), (b"not json", "application/json"), (b"[1, 2", "application/json"),
    (b"{}", "text/plain"), (b"\xff\xfe", "application/json"), (b"   ", "application/json"), (b"[]", "application/json"),
    (b'"hands"', "application/json"), (b'{"hands": []}', "application/json"), (b'{"bogus": 1}', "application/json"),
])
def test_a_body_that_is_not_the_documented_json_makes_no_round(client, body, content_type):
    token = _game(client)
    response = client.post(f"/api/games/{token}/rounds", data=body, content_type=content_type)
    _one_line_400(response)
    assert _rounds(client, token) == []


def test_an_empty_body_is_still_a_plain_new_round(client):
    token = _game(client)
    assert client.post(f"/api/games/{token}/rounds").status_code == 201
    assert client.post(f"/api/games/{token}/rounds", data=b"", content_type="application/json").status_code == 201


@pytest.mark.parametrize("entry, says", [
    ({"natural": -4116}, "natural must be true or false"), ({"natural": "yes"}, "natural must be true or false"),
    ({"surrender": 1}, "surrender"), ({"rows": ["AS"]}, "rows"), ({"rows": "AS " * 100}, "rows"),
    ({"surender": True}, "surender"), ({"front": "AS"}, "front"),
])
def test_chinese_poker_hand_bodies_follow_the_schema(client, entry, says):
    token = _game(client)
    client.post(f"/api/games/{token}/rounds")
    before = client.get(f"/api/games/{token}/rounds/1").get_json()["hands"][0]
    message = _one_line_400(client.put(f"/api/games/{token}/rounds/1/hands/Ann", json=entry))
    assert says in message
    assert client.get(f"/api/games/{token}/rounds/1").get_json()["hands"][0] == before


@pytest.mark.parametrize("entry", [{"instant_win": {}}, {"instant_win": 1}, {"cards": 5}, {"cards": [1, 2]},
                                   {"out": "true"}, {"cards": ["2S"] * 14}])
def test_big_two_hand_bodies_follow_the_schema(client, entry):
    token = _game(client, rules="bigtwo-hk")
    client.post(f"/api/games/{token}/rounds")
    _one_line_400(client.put(f"/api/games/{token}/rounds/1/hands/Ann", json=entry))
    _one_line_400(client.post(f"/api/games/{token}/rounds", json={"hands": {"Ann": entry}}))
    assert len(_rounds(client, token)) == 1


@pytest.mark.parametrize("path, body", [
    ("/api/games/{t}/rounds/1/hands/Ann/correct", {"row": "front", "index": "0", "code": "AS"}),
    ("/api/games/{t}/rounds/1/hands/Ann/correct", {"row": "side", "index": 0}),
    ("/api/games/{t}/rounds/1/hands/Ann/correct", {"row": "front", "index": -1}),
    ("/api/games/{t}/rounds/1/hands/Ann/correct", {"row": "front"}),
    ("/api/games/{t}/rounds/1/hands/Ann/swap", {"rows": ["front"]}),
    ("/api/games/{t}/rounds/1/hands/Ann/swap", {"rows": ["front", "top"]}),
    ("/api/games/{t}/rounds/1", {"order": "Ann"}),
    ("/api/games/{t}/rounds/1", {"failed_to_block": 3}),
])
def test_small_bodies_follow_the_schema(client, path, body):
    token = _game(client)
    client.put(f"/api/games/{token}/rounds/1/hands/Ann", json={"rows": ANN})
    client.post(f"/api/games/{token}/rounds")
    client.put(f"/api/games/{token}/rounds/1/hands/Ann", json={"rows": ANN})
    method = client.put if path.endswith("/1") else client.post
    _one_line_400(method(path.format(t=token), json=body))


@pytest.mark.parametrize("body, says", [
    ({"players": ["Ann", "Bob"], "rules": "2-4", "stakes": "5"}, "stakes"),
    ({"players": ["Ann", "Bob"], "rules": "2-4", "stake": ["5"]}, "decimal number"),
    ({"players": ["Ann", "Bob"], "rules": "2-4", "stake": "1" * 40}, "decimal number"),
    ({"players": ["Ann", "Bob"], "rules": "2-4", "pin": "12ab"}, "4 to 12 digits"),
    ({"players": ["Ann", "B/ob"], "rules": "2-4"}, "without '/'"),
    ({"players": "Ann", "rules": "2-4"}, "2 to 4 players"),
    ({"players": ["Ann", "Bob"], "rules": "mahjong"}, "Unknown rules 'mahjong'"),
    ({"players": ["Ann", "Bob"], "rules": "2-4", "game": []}, "Unknown game"),
])
def test_game_settings_follow_the_schema(client, body, says):
    assert says in _one_line_400(client.post("/api/games", json=body))
    assert client.get("/api/games").get_json()["games"] == []


def _nested(depth: int) -> bytes:
    return b"[" * depth + b"]" * depth


@pytest.mark.parametrize("path", ["/api/settle", "/api/games", "/api/games/{t}/rounds",
                                  "/api/games/{t}/rounds/1/hands/Ann"])
def test_deep_nesting_is_400_never_a_500(client, path):
    token = _game(client)
    client.post(f"/api/games/{token}/rounds")
    method = client.put if path.endswith("Ann") else client.post
    for depth in (MAX_JSON_DEPTH + 1, 5_000, 30_000):
        response = method(path.format(t=token), data=_nested(depth), content_type="application/json")
        assert "nested" in _one_line_400(response)
    nested_inside = b'{"rules": "2-4", "players": {"Ann": ' + _nested(5_000) + b"}}"
    assert "nested" in _one_line_400(client.post("/api/settle", data=nested_inside, content_type="application/json"))


def test_json_depth_and_parse():
    assert json_depth(1) == 0 and json_depth([]) == 1 and json_depth({"a": [[1]]}) == 3
    assert parse_json(_nested(MAX_JSON_DEPTH)) is not None
    with pytest.raises(ValueError):
        parse_json(_nested(MAX_JSON_DEPTH + 1))
    with pytest.raises(ValueError):
        parse_json(_nested(100_000))
    for constant in (b"NaN", b"-Infinity", b'{"stake": Infinity}'):
        with pytest.raises(ValueError, match="not a JSON number"):
            parse_json(constant)


def test_a_large_json_body_is_refused_as_json(client):
    body = json.dumps({"rules": "2-4", "players": {"Ann": "x" * MAX_JSON_BYTES}})
    response = client.post("/api/settle", data=body, content_type="application/json")
    assert response.status_code == 413 and "too large" in response.get_json()["error"]


def test_405_names_the_allowed_methods(client):
    token = _game(client)
    for method, path, allowed in (("delete", "/api/games", {"GET", "POST"}),
                                  ("patch", f"/api/games/{token}/rounds/1", {"GET", "PUT"}),
                                  ("get", "/api/settle", {"POST"})):
        response = getattr(client, method)(path)
        assert response.status_code == 405
        assert allowed <= {m.strip() for m in response.headers["Allow"].split(",")}
        assert response.get_json()["status"] == 405


def test_every_published_schema_is_valid_json_schema(client):
    document = client.get("/api/openapi.json").get_json()
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            schemas = [p["schema"] for p in operation.get("parameters", [])]
            for part in [operation.get("requestBody", {}), *operation["responses"].values()]:
                schemas += [c["schema"] for c in part.get("content", {}).values()]
            for schema in schemas:
                Draft202012Validator.check_schema(schema)
    for schema in document["components"]["schemas"].values():
        Draft202012Validator.check_schema(schema)


def test_openapi_paths_are_flask_rules_rewritten():
    assert openapi_path("/api/games/<token>/rounds/<int:number>") == "/api/games/{token}/rounds/{number}"


@pytest.mark.parametrize("form, says", [
    ({"photo": (io.BytesIO(b"x"), "a.jpg"), "mode": "wild"}, "mode must be 'loose'"),
    ({"mode": "loose"}, "multipart field 'photo'"),
])
def test_photo_forms_follow_the_schema(client, form, says):
    token = _game(client)
    client.post(f"/api/games/{token}/rounds")
    for path in ("/api/read", f"/api/games/{token}/rounds/1/hands/Ann/photo"):
        sent = {k: (io.BytesIO(v[0].getvalue()), v[1]) if isinstance(v, tuple) else v for k, v in form.items()}
        assert says in _one_line_400(client.post(path, data=sent, content_type="multipart/form-data"))
    assert client.get(f"/api/games/{token}/rounds/1").get_json()["uploads"] == []


def test_a_photo_in_strict_mode_is_accepted(client):
    token = _game(client)
    client.post(f"/api/games/{token}/rounds")
    response = client.post(f"/api/games/{token}/rounds/1/hands/Ann/photo", content_type="multipart/form-data",
                           data={"photo": (io.BytesIO(jpeg_bytes()), "a.jpg"), "mode": "strict"})
    assert response.status_code == 201, response.get_json()
