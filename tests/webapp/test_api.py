"""The JSON API: read, settle, games and rounds resources, idempotency, OpenAPI coverage."""
from __future__ import annotations

import io
import re

from webapp_testkit import ANN, BOB, CY, DEE, jpeg_bytes


def _new_game(client, **extra) -> str:
    body = {"title": "API table", "players": ["Ann", "Bob", "Cy", "Dee"], "rules": "2-4"} | extra
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()["token"]


def test_settle_matches_the_scoring_package(client):
    import scoring

    round_input = {"rules": "2-4", "players": {"Ann": ANN, "Bob": BOB}}
    response = client.post("/api/settle", json=round_input)
    assert response.status_code == 200
    assert response.get_json() == scoring.settle(round_input)


def test_settle_errors_are_400_with_scoring_message(client):
    import scoring

    bad = {"rules": "2-4", "players": {"Ann": ANN, "Bob": ANN}}
    response = client.post("/api/settle", json=bad)
    assert response.status_code == 400
    try:
        scoring.settle(bad)
    except scoring.ScoringError as err:
        assert response.get_json()["error"] == str(err)
    assert client.post("/api/settle", data="nope", content_type="text/plain").status_code == 400


def test_read_refuses_non_images(client):
    response = client.post("/api/read", data={"photo": (io.BytesIO(b"%PDF-1.4 ..."), "x.pdf")},
                           content_type="multipart/form-data")
    assert response.status_code == 415 and "JPEG" in response.get_json()["error"]
    assert client.post("/api/read", data={}, content_type="multipart/form-data").status_code == 400
    bad_mode = client.post("/api/read", data={"photo": (io.BytesIO(jpeg_bytes()), "a.jpg"), "mode": "wild"},
                           content_type="multipart/form-data")
    assert bad_mode.status_code == 400


def test_read_returns_the_readers_json(client):
    import vision

    data = jpeg_bytes(seed=5)
    response = client.post("/api/read", data={"photo": (io.BytesIO(data), "a.jpg"), "mode": "loose"},
                           content_type="multipart/form-data")
    try:
        expected = vision.read_photo(data, loose=True)
    except vision.ModelError:
        assert response.status_code == 503
        return
    assert response.status_code == 200
    assert response.get_json() == {"photo": "a.jpg", **expected}


def test_game_round_lifecycle_through_the_api(client):
    token = _new_game(client)
    created = client.post(f"/api/games/{token}/rounds", headers={"Idempotency-Key": "deal-1"})
    assert created.status_code == 201
    repeat = client.post(f"/api/games/{token}/rounds", headers={"Idempotency-Key": "deal-1"})
    assert repeat.status_code == 200 and repeat.get_json()["number"] == 1
    for name, rows in (("Ann", ANN), ("Bob", BOB), ("Cy", CY), ("Dee", DEE)):
        response = client.put(f"/api/games/{token}/rounds/1/hands/{name}", json={"rows": rows})
        assert response.status_code == 200, response.get_json()
    fixed = client.post(f"/api/games/{token}/rounds/1/hands/Ann/correct",
                        json={"row": "front", "index": 0, "code": "2s"})
    assert fixed.get_json()["hands"][0]["front"][0] == "2S"
    settled = client.post(f"/api/games/{token}/rounds/1/settle").get_json()
    assert settled["status"] == "settled"
    assert sum(float(v) for v in settled["settlement"]["net"].values()) == 0
    locked = client.put(f"/api/games/{token}/rounds/1/hands/Ann", json={"surrender": True})
    assert locked.status_code == 409
    reopened = client.post(f"/api/games/{token}/rounds/1/reopen").get_json()
    assert reopened["status"] == "open"
    game = client.get(f"/api/games/{token}").get_json()
    assert game["players"] == ["Ann", "Bob", "Cy", "Dee"] and len(game["rounds"]) == 1
    export = client.get(f"/api/games/{token}/export").get_json()
    assert [e["kind"] for e in export["rounds"][0]["events"]].count("settle") == 1


def test_round_in_one_call_with_idempotency(client):
    token = _new_game(client)
    body = {"hands": {"Ann": ANN, "Bob": BOB, "Cy": CY, "Dee": {"surrender": True}}, "settle": True}
    first = client.post(f"/api/games/{token}/rounds", json=body, headers={"Idempotency-Key": "k"})
    second = client.post(f"/api/games/{token}/rounds", json=body, headers={"Idempotency-Key": "k"})
    assert first.status_code == 201 and second.status_code == 200
    assert first.get_json()["settlement"] == second.get_json()["settlement"]
    assert len(client.get(f"/api/games/{token}").get_json()["rounds"]) == 1


def test_invalid_game_settings_list_every_problem(client):
    response = client.post("/api/games", json={"players": ["Solo"], "rules": "no-such-rules"})
    assert response.status_code == 400
    errors = response.get_json()["errors"]
    assert any("2 to 4 players" in e for e in errors) and any("no-such-rules" in e for e in errors)


def test_unknown_player_and_round_are_404(client):
    token = _new_game(client)
    client.post(f"/api/games/{token}/rounds")
    assert client.put(f"/api/games/{token}/rounds/1/hands/Zed", json={"rows": ANN}).status_code == 404
    assert client.get(f"/api/games/{token}/rounds/9").status_code == 404
    assert client.get("/api/games/nope").status_code == 404


def test_photo_upload_through_the_api(client):
    token = _new_game(client)
    client.post(f"/api/games/{token}/rounds")
    response = client.post(f"/api/games/{token}/rounds/1/hands/Bob/photo",
                           data={"photo": (io.BytesIO(jpeg_bytes(seed=3)), "b.jpg")},
                           content_type="multipart/form-data")
    assert response.status_code == 201
    body = response.get_json()
    assert "cards" in body["reading"] and body["round"]["hands"][1]["photo"]


def test_openapi_documents_every_api_route(app, client):
    document = client.get("/api/openapi.json").get_json()
    assert document["openapi"].startswith("3.")
    documented = set(document["paths"])
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/") or rule.rule == "/healthz":
            path = re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", rule.rule)
            assert path in documented, f"{path} is not in the OpenAPI document"
            for method in rule.methods - {"HEAD", "OPTIONS"}:
                assert method.lower() in document["paths"][path], f"{method} {path} undocumented"


SIX_PAIRS = "8S 7S 7C / 2S 2C 3S 3H 6S / 4S 4H 5C 5H 6H"  # 六對半: pairs of 2 3 4 5 6 7


def test_declared_natural_is_settled_by_scoring(client):
    token = _new_game(client, players=["Ann", "Bob"])
    client.post(f"/api/games/{token}/rounds")
    client.put(f"/api/games/{token}/rounds/1/hands/Ann", json={"rows": SIX_PAIRS, "natural": True})
    client.put(f"/api/games/{token}/rounds/1/hands/Bob", json={"rows": BOB})
    settled = client.post(f"/api/games/{token}/rounds/1/settle")
    assert settled.status_code == 200, settled.get_json()
    natural = settled.get_json()["settlement"]["players"]["Ann"]["natural"]
    assert natural and natural["zh"]


def test_declaring_a_natural_that_is_not_there_is_refused_with_scorings_message(client):
    token = _new_game(client, players=["Ann", "Bob"])
    client.post(f"/api/games/{token}/rounds")
    client.put(f"/api/games/{token}/rounds/1/hands/Ann", json={"rows": ANN, "natural": True})
    client.put(f"/api/games/{token}/rounds/1/hands/Bob", json={"rows": BOB})
    refused = client.post(f"/api/games/{token}/rounds/1/settle")
    assert refused.status_code == 422
    assert "natural" in refused.get_json()["error"] and "Ann" in refused.get_json()["error"]
    assert client.get(f"/api/games/{token}/rounds/1").get_json()["status"] == "open"
