"""The table photo through the JSON API: 202 with the hands and a seat proposal when the game does not know the
seats yet, 201 filled when it does (or the request says them), the seats fill step, If-Match, the game's seats."""
from __future__ import annotations

import io
import json

from table_testkit import table_reading, use_table_reader
from webapp_testkit import ANN, BOB, CY, DEE, csrf_token, jpeg_bytes

SEATED = {0: ANN, 1: BOB, 2: CY, 3: DEE}


def api_game(client, players=("Ann", "Bob", "Cy", "Dee")) -> tuple[str, str]:
    token = client.post("/api/games", json={"players": list(players), "rules": "2-4"}).get_json()["token"]
    created = client.post(f"/api/games/{token}/rounds")
    assert created.status_code == 201
    return token, f"/api/games/{token}/rounds/{created.get_json()['number']}"


def send_photo(client, round_url: str, seats: dict | str | None = None, **headers):
    data = {"photo": (io.BytesIO(jpeg_bytes()), "table.jpg")}
    if seats is not None:
        data["seats"] = seats if isinstance(seats, str) else json.dumps(seats)
    return client.post(f"{round_url}/table-photo", data=data, content_type="multipart/form-data", headers=headers)


def test_unknown_seats_answer_202_then_the_seats_fill_the_round(client, monkeypatch):
    use_table_reader(monkeypatch, table_reading(SEATED))
    token, round_url = api_game(client)
    kept = send_photo(client, round_url)
    assert kept.status_code == 202
    body = kept.get_json()
    assert body["needs_seats"] is True and body["table"] is None
    assert [(h["seat"], h["side"], h["cards"]) for h in body["hands"]] == [
        (0, "bottom", 13), (1, "left", 13), (2, "top", 13), (3, "right", 13)]
    assert all(len(h["outline"]) == 4 for h in body["hands"])
    assert body["seats"] == {"0": "Ann", "1": "Bob", "2": "Cy", "3": "Dee"}  # the proposal
    assert all(h["state"] == "empty" for h in body["round"]["hands"])

    filled = client.post(f"{round_url}/table-photo/{body['upload']}/seats",
                         json={"seats": {"0": "Dee", "1": "Cy", "2": "Bob", "3": "Ann"}})
    assert filled.status_code == 200, filled.get_json()
    result = filled.get_json()
    assert result["table"]["filled"] == {"Dee": 13, "Cy": 13, "Bob": 13, "Ann": 13}
    hands = {h["player"]: h for h in result["round"]["hands"]}
    assert hands["Dee"]["front"] == ANN.split(" / ")[0].split() and hands["Ann"]["back"] == DEE.split(" / ")[2].split()
    assert filled.headers["ETag"] == client.get(round_url).headers["ETag"]
    assert client.get(f"/api/games/{token}/table-seats").get_json()["seats"]["0"] == "Dee"

    # Remembered: the next photo fills at once (201).
    again = send_photo(client, round_url)
    assert again.status_code == 201 and again.get_json()["needs_seats"] is False


def test_seats_sent_with_the_photo_are_checked_before_reading_and_remembered(client, monkeypatch):
    fake = use_table_reader(monkeypatch, table_reading(SEATED))
    token, round_url = api_game(client)
    refused = send_photo(client, round_url, {"0": "Ann", "1": "Ann"})
    assert refused.status_code == 400 and "Ann cannot sit at two seats" in refused.get_json()["error"]
    assert send_photo(client, round_url, "{not json").status_code == 400
    assert fake.calls == []  # refused before the photo was read
    filled = send_photo(client, round_url, {"0": "Ann", "1": "Bob", "2": "Cy", "3": "Dee"})
    assert filled.status_code == 201
    assert filled.get_json()["table"]["filled"] == {"Ann": 13, "Bob": 13, "Cy": 13, "Dee": 13}
    assert client.get(f"/api/games/{token}/table-seats").get_json()["seats"] == {
        "0": "Ann", "1": "Bob", "2": "Cy", "3": "Dee"}


def test_the_fill_respects_if_match(client, monkeypatch):
    use_table_reader(monkeypatch, table_reading(SEATED))
    _token, round_url = api_game(client)
    upload = send_photo(client, round_url).get_json()["upload"]
    seen = client.get(round_url).headers["ETag"]
    client.put(f"{round_url}/hands/Ann", json={"rows": ANN})  # another phone's change meanwhile
    stale = client.post(f"{round_url}/table-photo/{upload}/seats", headers={"If-Match": seen},
                        json={"seats": {"0": "Ann", "1": "Bob", "2": "Cy", "3": "Dee"}})
    assert stale.status_code == 412
    assert stale.get_json()["changes"][0]["text"] == "Someone typed Ann's cards"
    assert [h["state"] for h in client.get(round_url).get_json()["hands"]] == ["cards", "empty", "empty", "empty"]
    current = client.get(round_url).headers["ETag"]
    fresh = client.post(f"{round_url}/table-photo/{upload}/seats", headers={"If-Match": current},
                        json={"seats": {"0": "Ann", "1": "Bob", "2": "Cy", "3": "Dee"}})
    assert fresh.status_code == 200


def test_the_games_seats_can_be_read_set_and_forgotten(client, monkeypatch):
    token, _round_url = api_game(client)
    url = f"/api/games/{token}/table-seats"
    assert client.get(url).get_json() == {"seats": None}
    assert client.put(url, json={"seats": {"0": "Bob", "2": ""}}).get_json() == {"seats": {"0": "Bob", "2": ""}}
    unknown = client.put(url, json={"seats": {"1": "Zed"}})
    assert unknown.status_code == 400 and "'Zed' is not a player in this game." in unknown.get_json()["error"]
    assert client.put(url, json={"seats": {"5": "Ann"}}).status_code == 400  # the schema's seats are 0-3
    assert client.put(url, json={"seats": None}).get_json() == {"seats": None}


def test_a_missing_table_photo_or_a_settled_round_is_refused(client, monkeypatch):
    use_table_reader(monkeypatch, table_reading(SEATED))
    token, round_url = api_game(client)
    missing = client.post(f"{round_url}/table-photo/999/seats", json={"seats": {"0": "Ann"}})
    assert missing.status_code == 404
    settled = client.post(f"/api/games/{token}/rounds", json={
        "hands": {"Ann": ANN, "Bob": BOB, "Cy": CY, "Dee": DEE}, "settle": True}).get_json()["number"]
    refused = send_photo(client, f"/api/games/{token}/rounds/{settled}")
    assert refused.status_code == 409 and "re-open it" in refused.get_json()["error"]


def test_a_criss_cross_game_refuses_a_table_photo_and_keeps_nothing(client, monkeypatch):
    use_table_reader(monkeypatch, table_reading({0: ANN, 2: BOB}))
    token, round_url = api_game(client, players=("Ann", "Bob"))
    criss_token = client.post("/api/games", json={"players": ["Ann", "Bob"], "rules": "criss-cross"}).get_json()["token"]
    number = client.post(f"/api/games/{criss_token}/rounds").get_json()["number"]
    refused = send_photo(client, f"/api/games/{criss_token}/rounds/{number}")
    assert refused.status_code == 409 and "two sets" in refused.get_json()["error"]
    assert client.get(f"/api/games/{criss_token}/rounds/{number}").get_json()["uploads"] == []
    page = client.get(f"/g/{criss_token}/r/{number}").get_data(as_text=True)
    assert 'id="table-photo"' not in page
    assert 'id="table-photo"' in client.get(round_url.replace("/api/games/", "/g/").replace("/rounds/", "/r/")).get_data(as_text=True)


def test_the_round_json_names_each_uploads_kind(client, monkeypatch):
    use_table_reader(monkeypatch, table_reading(SEATED))
    token, round_url = api_game(client)
    assert send_photo(client, round_url, seats={str(k): v for k, v in
                                                 {0: "Ann", 1: "Bob", 2: "Cy", 3: "Dee"}.items()}).status_code == 201
    kinds = sorted(u["kind"] for u in client.get(round_url).get_json()["uploads"])
    assert kinds == ["hand"] * 4 + ["table"]


def test_a_hand_filled_from_a_table_photo_names_its_source_in_words(client, monkeypatch):
    use_table_reader(monkeypatch, table_reading(SEATED))
    token, round_url = api_game(client)
    assert send_photo(client, round_url, seats={"0": "Ann", "1": "Bob", "2": "Cy", "3": "Dee"}).status_code == 201
    page_url = round_url.replace("/api/games/", "/g/").replace("/rounds/", "/r/")
    for lang, words in (("en", "table photo"), ("zh-Hant", "整桌照片"), ("zh-Hans", "整桌照片")):
        client.post("/lang", data={"csrf_token": csrf_token(client), "lang": lang})
        page = client.get(page_url).get_data(as_text=True)
        assert "src_" not in page and words in page, lang
