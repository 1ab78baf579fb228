"""Big Two (鋤大弟) games through the pages and the API: the game type, the preset filter, a round of cards
left by typing or by photo, who went out, review, corrections, settling, history, exports."""
from __future__ import annotations

import csv
import html as htmllib
import io
import json
import re
from pathlib import Path

import pytest
from sqlalchemy import func, select

from webapp.db import get_session
from webapp.models import Game

from webapp_testkit import create_game, csrf_token, enter_rows, new_round, round_etag

ROOT = Path(__file__).resolve().parents[2]
# Cards left: Bob 3 (×1), Cy 8 (雙炒 ×2 under bigtwo-hk).
BOB_LEFT = "2S KD 5C"
CY_LEFT = "3H 4H 5D 6C 7S 8H 9D TC"


def _game(app, token: str) -> Game:
    with app.app_context():
        return get_session().scalars(select(Game).where(Game.token == token)).one()


def _round_json(client, token: str, number: int) -> dict:
    return client.get(f"/api/games/{token}/rounds/{number}").get_json()


def _bigtwo_game(client, players=("Ann", "Bob", "Cy"), preset: str = "bigtwo-hk", **extra) -> str:
    return create_game(client, players=players, preset=preset, game="bigtwo", **extra)


def _mark_out(client, token: str, number: int, seat: int, value: str = "1"):
    return client.post(f"/g/{token}/r/{number}/p/{seat}/out",
                       data={"csrf_token": csrf_token(client), "value": value, "return": "round"})


def _settle(client, token: str, number: int):
    return client.post(f"/g/{token}/r/{number}/settle", data={"if_match": round_etag(client, token, number),
                                                              "csrf_token": csrf_token(client)})


def _textarea(html: str) -> str:
    match = re.search(r'<textarea name="rows"[^>]*>(.*?)</textarea>', html, re.S)
    assert match, "no manual-entry box on the page"
    return match.group(1)


# ---------------------------------------------------------------- games

def test_create_a_big_two_game(client, app):
    token = _bigtwo_game(client, stake="2")
    game = _game(app, token)
    assert game.game_type == "bigtwo" and game.preset == "bigtwo-hk" and game.banker_seat is None
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert "Big Two" in page and "Hong Kong count" in page
    assert client.get(f"/api/games/{token}").get_json()["game"] == "bigtwo"
    client.post("/lang", data={"csrf_token": csrf_token(client), "lang": "zh-Hans"})
    assert "锄大弟 香港计分（炒）" in client.get(f"/g/{token}").get_data(as_text=True)


@pytest.mark.parametrize("game, preset, says", [
    ("bigtwo", "hk", "The rules 'hk' are Chinese poker rules; a Big Two game takes one of: bigtwo-hk"),
    ("chinese-poker", "bigtwo-hk", "The rules 'bigtwo-hk' are Big Two rules; a Chinese poker game takes one of:"),
])
def test_a_preset_of_the_other_game_is_refused(client, app, game, preset, says):
    form = {"csrf_token": csrf_token(client, "/games/new"), "game": game, "preset": preset, "title": "Mixed up",
            "player1": "Ann", "player2": "Bob", "stake": "1"}
    response = client.post("/games/new", data=form)
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    errors = re.search(r'id="form-errors">(.*?)</ul>', html, re.S)
    assert errors and says in htmllib.unescape(errors.group(1))
    assert 'value="Mixed up"' in html and 'value="Ann"' in html  # what was typed is still there
    with app.app_context():
        assert get_session().scalar(select(func.count(Game.id))) == 0
    api = client.post("/api/games", json={"game": game, "rules": preset, "players": ["Ann", "Bob"]})
    assert api.status_code == 400 and any(says in e for e in api.get_json()["errors"])


def test_the_api_takes_the_game_from_the_rules_when_it_is_left_out(client):
    response = client.post("/api/games", json={"rules": "bigtwo-tw", "players": ["Ann", "Bob"]})
    assert response.status_code == 201 and response.get_json()["game"] == "bigtwo"
    unknown = client.post("/api/games", json={"game": "mahjong", "rules": "bigtwo-tw", "players": ["Ann", "Bob"]})
    assert unknown.status_code == 400 and "Unknown game 'mahjong'" in unknown.get_json()["errors"][0]


# ---------------------------------------------------------------- rounds by typing

def test_typed_round_settles_as_scoring_does(client):
    import scoring

    token = _bigtwo_game(client)
    number = new_round(client, token)
    page = client.get(f"/g/{token}/r/{number}").get_data(as_text=True)
    assert 'id="settle" disabled' in page and "Mark who went out" in page
    assert _mark_out(client, token, number, 0).headers["Location"].endswith(f"/r/{number}")
    assert enter_rows(client, token, number, 1, "2s kd 5c").status_code == 303  # any spelling scoring reads
    assert enter_rows(client, token, number, 2, CY_LEFT.replace(" ", ", ")).status_code == 303
    data = _round_json(client, token, number)
    assert [h["state"] for h in data["hands"]] == ["out", "cards", "cards"]
    assert data["hands"][1]["cards"] == BOB_LEFT.split() and data["ready"] is True
    assert _settle(client, token, number).status_code == 303
    settled = _round_json(client, token, number)
    expected = scoring.settle({"game": "bigtwo", "rules": "bigtwo-hk",
                               "players": {"Ann": "", "Bob": BOB_LEFT, "Cy": CY_LEFT}})
    assert settled["status"] == "settled"
    assert settled["settlement"]["net"] == expected["net"] == {"Ann": 19, "Bob": -3, "Cy": -16}
    page = client.get(f"/g/{token}/r/{number}").get_data(as_text=True)
    assert 'id="settlement"' in page and "×2 (8 cards left, 8 or more) = 16" in page and "雙炒" in page


def test_the_winner_can_change_and_only_one_player_is_out(client):
    token = _bigtwo_game(client)
    number = new_round(client, token)
    enter_rows(client, token, number, 1, BOB_LEFT)
    _mark_out(client, token, number, 0)
    _mark_out(client, token, number, 1)  # Bob went out after all: Ann is no longer the winner
    hands = _round_json(client, token, number)["hands"]
    assert [h["state"] for h in hands] == ["empty", "out", "empty"]
    _mark_out(client, token, number, 1, value="0")
    hands = _round_json(client, token, number)["hands"]
    assert hands[1]["state"] == "cards" and hands[1]["cards"] == BOB_LEFT.split()  # his cards were kept


@pytest.mark.parametrize("typed, says", [
    ("2S KD ZZ", "Bob: 'ZZ' is not a card"),
    ("2S KD 2s", "Bob: 2S appears twice"),
    ("2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS 2H", "Bob: 14 cards left, but a hand holds at most 13"),
])
def test_refused_typing_is_explained_and_kept(client, typed, says):
    token = _bigtwo_game(client)
    number = new_round(client, token)
    response = enter_rows(client, token, number, 1, typed)
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert says in htmllib.unescape(re.search(r'id="error">(.*?)</p>', html, re.S).group(1))
    assert _textarea(html) == typed and '<details class="manual" open id="manual-box">' in html
    assert _round_json(client, token, number)["hands"][1]["state"] == "empty"


def test_cards_for_the_player_who_went_out_are_refused_and_kept(client):
    token = _bigtwo_game(client)
    number = new_round(client, token)
    _mark_out(client, token, number, 0)
    response = enter_rows(client, token, number, 0, "AS AH")
    html = response.get_data(as_text=True)
    assert response.status_code == 409
    assert "Ann went out (the winner holds no cards)" in htmllib.unescape(html) and _textarea(html) == "AS AH"
    assert _round_json(client, token, number)["hands"][0] == {
        "player": "Ann", "state": "out", "cards": [], "instant_win": False, "source": None, "photo": None,
        "warnings": [], "missing": []}


def test_the_same_card_for_two_players_blocks_settling(client):
    token = _bigtwo_game(client)
    number = new_round(client, token)
    _mark_out(client, token, number, 0)
    enter_rows(client, token, number, 1, BOB_LEFT)
    enter_rows(client, token, number, 2, "KD 3H")  # KD is Bob's
    data = _round_json(client, token, number)
    assert not data["ready"]
    assert any("KD was also read for Cy" in w["text"] for w in data["hands"][1]["warnings"])
    response = _settle(client, token, number)
    assert _round_json(client, token, number)["status"] == "open"
    assert "Mark who went out and give every other player's cards left" in \
        htmllib.unescape(client.get(response.headers["Location"]).get_data(as_text=True))
    # Fix Cy's card with the picker's correction and the round settles.
    client.post(f"/g/{token}/r/{number}/p/2/correct",
                data={"csrf_token": csrf_token(client), "row": "cards", "index": "0", "code": "QD"})
    assert _round_json(client, token, number)["hands"][2]["cards"] == ["QD", "3H"]
    _settle(client, token, number)
    assert _round_json(client, token, number)["settlement"]["net"] == {"Ann": 5, "Bob": -3, "Cy": -2}


def test_scorings_own_refusal_is_shown_and_nothing_is_lost(client, app):
    """頂大 named for the winner: scoring refuses at settle time; the page says why, the hands stay."""
    token = _bigtwo_game(client)
    number = new_round(client, token)
    _mark_out(client, token, number, 0)
    enter_rows(client, token, number, 1, BOB_LEFT)
    enter_rows(client, token, number, 2, CY_LEFT)
    client.post(f"/g/{token}/r/{number}/details", data={"csrf_token": csrf_token(client), "failed_to_block": "Ann"})
    response = _settle(client, token, number)
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "failed_to_block: Ann won the hand; name the loser who did not block" in page
    data = _round_json(client, token, number)
    assert data["status"] == "open" and data["hands"][2]["cards"] == CY_LEFT.split()
    client.post(f"/g/{token}/r/{number}/details", data={"csrf_token": csrf_token(client), "failed_to_block": "Bob"})
    _settle(client, token, number)
    assert _round_json(client, token, number)["settlement"]["net"] == {"Ann": 19, "Bob": -19, "Cy": 0}


def test_points_by_finishing_order(client):
    import scoring

    token = _bigtwo_game(client, preset="bigtwo-rank")
    number = new_round(client, token)
    page = client.get(f"/g/{token}/r/{number}").get_data(as_text=True)
    assert 'name="place3"' in page and "/p/0/out" not in page  # no cards and no winner button: only places
    places = {"csrf_token": csrf_token(client), "place1": "Cy", "place2": "Cy", "place3": "Ann"}
    refused = client.post(f"/g/{token}/r/{number}/details", data=places)
    html = refused.get_data(as_text=True)
    assert refused.status_code == 400 and "Cy cannot take two places" in html
    assert re.search(r'name="place2"[^>]*>.*?<option value="Cy" selected', html, re.S)  # the choice is kept
    client.post(f"/g/{token}/r/{number}/details", data=places | {"place2": "Bob"})
    assert _round_json(client, token, number)["finish_order"] == ["Cy", "Bob", "Ann"]
    _settle(client, token, number)
    expected = scoring.settle({"game": "bigtwo", "rules": "bigtwo-rank", "players": ["Ann", "Bob", "Cy"],
                               "order": ["Cy", "Bob", "Ann"]})
    assert _round_json(client, token, number)["settlement"]["net"] == expected["net"] == {"Ann": 0, "Bob": 1, "Cy": 2}


# ---------------------------------------------------------------- rounds by photo

def test_cards_left_from_a_photo_are_read_loose_and_can_be_corrected(client, monkeypatch):
    """The project's rendered loose-cards sample: whatever the reader finds becomes Bob's cards left (read in
    loose mode although the form does not ask for it); corrected to the truth, the round settles as scoring."""
    import scoring
    import vision

    from webapp import reader

    photo = ROOT / "sample_images" / "loose.jpg"
    truth = json.loads(photo.with_suffix(".json").read_text())["cards"]
    data = photo.read_bytes()
    try:
        expected_reading = vision.read_photo(data, loose=True)
    except vision.ModelError:
        pytest.skip("the reader's model is not available")
    modes = []
    real_read = reader.read
    monkeypatch.setattr(reader, "read", lambda d, **kw: modes.append(kw.get("loose")) or real_read(d, **kw))

    token = _bigtwo_game(client)
    number = new_round(client, token)
    _mark_out(client, token, number, 0)
    response = client.post(f"/g/{token}/r/{number}/p/1/photo", data={
        "csrf_token": csrf_token(client), "photo": (io.BytesIO(data), "left.jpg")}, content_type="multipart/form-data")
    assert response.status_code == 303 and modes == [True]
    read = [card["code"] for card in expected_reading["cards"]]
    hand = _round_json(client, token, number)["hands"][1]
    assert hand["cards"] == read and hand["source"] == "photo" and hand["photo"]
    page = client.get(f"/g/{token}/r/{number}/p/1").get_data(as_text=True)
    assert re.findall(r'data-row="cards" data-index="\d+" data-code="(\w*)"', page) == read + [""]
    # Put it right card by card, as the review's picker does: replace, add what was missed, remove extras.
    base = f"/g/{token}/r/{number}/p/1"
    for index, code in enumerate(truth):
        client.post(f"{base}/correct", data={"csrf_token": csrf_token(client), "row": "cards",
                                             "index": str(index), "code": code})
    for _extra in range(len(read) - len(truth)):
        client.post(f"{base}/remove", data={"csrf_token": csrf_token(client), "row": "cards",
                                            "index": str(len(truth))})
    assert _round_json(client, token, number)["hands"][1]["cards"] == truth
    enter_rows(client, token, number, 2, "3C")
    _settle(client, token, number)
    expected = scoring.settle({"game": "bigtwo", "rules": "bigtwo-hk",
                               "players": {"Ann": "", "Bob": " ".join(truth), "Cy": "3C"}})
    assert _round_json(client, token, number)["settlement"]["net"] == expected["net"]


def test_low_confidence_cards_are_flagged_on_the_review(client, monkeypatch):
    from webapp import reader
    from webapp_testkit import jpeg_bytes

    reading = {"cards": [{"code": "2S", "confidence": 0.97, "box": [10, 10, 60, 90], "row": None},
                         {"code": "KD", "confidence": 0.31, "box": [70, 10, 120, 90], "row": None}],
               "rows": None, "warnings": ["low confidence: KD (0.31)", "card seen twice: 2S appears 2 times far apart"]}
    monkeypatch.setattr(reader, "_read", lambda data, loose: reading)
    token = _bigtwo_game(client)
    number = new_round(client, token)
    client.post(f"/g/{token}/r/{number}/p/1/photo", data={
        "csrf_token": csrf_token(client), "photo": (io.BytesIO(jpeg_bytes()), "x.jpg")}, content_type="multipart/form-data")
    page = client.get(f"/g/{token}/r/{number}/p/1").get_data(as_text=True)
    assert "KD: the reader is not sure of it (31%); check this card." in page and "2S was seen 2 times far apart" in page
    assert 'class="card red unsure fix" data-row="cards" data-index="1" data-code="KD"' in page
    assert "2 cards read" in page and "2 cards left" in page
    client.post("/lang", data={"csrf_token": csrf_token(client), "lang": "zh-Hant"})
    page = client.get(f"/g/{token}/r/{number}").get_data(as_text=True)
    assert "KD：讀卡程式沒有把握（31%），請檢查這張牌。" in page and "請標明出完牌的玩家（贏家），或報即時勝出的玩家。" in page
    assert "2S 在照片中相隔很遠地出現了 2 次" in page


# ---------------------------------------------------------------- history and exports

def test_history_chart_and_exports_include_big_two_rounds(client):
    token = _bigtwo_game(client, stake="0.5")
    for key, winner in (("r1", 0), ("r2", 1)):
        number = new_round(client, token, key)
        _mark_out(client, token, number, winner)
        enter_rows(client, token, number, 1 - winner, BOB_LEFT)
        enter_rows(client, token, number, 2, CY_LEFT)
        _settle(client, token, number)
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert 'id="standings-chart"' in page and page.count("<polyline") == 3
    exported = json.loads(client.get(f"/g/{token}/export.json").get_data(as_text=True))
    assert exported["game"]["game"] == "bigtwo"
    assert [r["settlement"]["net"] for r in exported["rounds"]] == [{"Ann": 19, "Bob": -3, "Cy": -16},
                                                                   {"Ann": -3, "Bob": 19, "Cy": -16}]
    assert exported["standings"]["points"] == {"Ann": "16", "Bob": "16", "Cy": "-32"}
    rows = list(csv.DictReader(io.StringIO(client.get(f"/g/{token}/export.csv").get_data(as_text=True))))
    assert list(rows[0]) == ["round", "status", "player", "cards_left", "count", "went_out", "instant_win", "place",
                             "points", "money", "total_points"]
    cy = [r for r in rows if r["player"] == "Cy"]
    assert cy[0]["cards_left"] == CY_LEFT and cy[0]["count"] == "8" and cy[1]["total_points"] == "-32"
    assert cy[0]["money"] == "-8"  # 16 points at 0.5 a point
    assert [r["went_out"] for r in rows if r["round"] == "2"] == ["", "yes", ""]
    assert client.get(f"/api/games/{token}").get_json()["standings"]["points"]["Cy"] == "-32"


# ---------------------------------------------------------------- JSON API

def test_a_big_two_round_through_the_api(client):
    import scoring

    token = client.post("/api/games", json={"rules": "bigtwo-tw", "players": ["Ann", "Bob", "Cy", "Dee"],
                                            "stake": "2"}).get_json()["token"]
    hands = {"Ann": "", "Bob": "2S KD 5C 9H", "Cy": ["3H", "4H"], "Dee": {"cards": "QS"}}
    created = client.post(f"/api/games/{token}/rounds", json={"hands": hands, "failed_to_block": "Dee",
                                                             "settle": True})
    assert created.status_code == 201, created.get_json()
    body = created.get_json()
    expected = scoring.settle({"game": "bigtwo", "rules": "bigtwo-tw", "failed_to_block": "Dee",
                               "players": {"Ann": "", "Bob": "2S KD 5C 9H", "Cy": "3H 4H", "Dee": "QS"},
                               "stakes": {"per_point": 2}})
    assert body["settlement"]["net"] == expected["net"] and body["settlement"]["money"] == expected["money"]
    assert body["failed_to_block"] == "Dee" and body["hands"][2]["cards"] == ["3H", "4H"]

    two_out = client.post(f"/api/games/{token}/rounds", json={"hands": {"Ann": "", "Bob": []}})
    assert two_out.status_code == 400 and "Ann and Bob hold no cards" in two_out.get_json()["error"]
    assert len(client.get(f"/api/games/{token}").get_json()["rounds"]) == 1  # refused before a round was made

    client.post(f"/api/games/{token}/rounds")
    holding = client.put(f"/api/games/{token}/rounds/2/hands/Ann", json={"out": True, "cards": "AS"})
    assert holding.status_code == 400 and "Ann went out, so holds no cards" in holding.get_json()["error"]
    bad = client.put(f"/api/games/{token}/rounds/2/hands/Bob", json={"cards": "2S 2S"})
    assert bad.status_code == 400 and bad.get_json()["error"] == "Bob: 2S appears twice"
    client.put(f"/api/games/{token}/rounds/2/hands/Ann", json={"out": True})
    fixed = client.post(f"/api/games/{token}/rounds/2/hands/Bob/correct", json={"row": "cards", "index": 1,
                                                                               "code": "7c"})
    assert fixed.status_code == 400 and "no card number 2" in fixed.get_json()["error"]
    client.put(f"/api/games/{token}/rounds/2/hands/Bob", json={"cards": ["8C"]})
    fixed = client.post(f"/api/games/{token}/rounds/2/hands/Bob/correct", json={"row": "cards", "index": 0,
                                                                               "code": "7c"})
    assert fixed.get_json()["hands"][1]["cards"] == ["7C"]
    surrender = client.put(f"/api/games/{token}/rounds/2/hands/Cy", json={"surrender": True})
    assert surrender.status_code == 400 and "unknown key 'surrender'" in surrender.get_json()["error"]
    not_ready = client.post(f"/api/games/{token}/rounds/2/settle")
    assert not_ready.status_code == 409
    assert [w["key"] for w in client.get(f"/api/games/{token}/rounds/2").get_json()["hands"][2]["warnings"]] == \
        ["no_cards_left"]


def test_finishing_order_through_the_api(client):
    token = client.post("/api/games", json={"rules": "bigtwo-rank", "players": ["Ann", "Bob"]}).get_json()["token"]
    client.post(f"/api/games/{token}/rounds")
    assert client.get(f"/api/games/{token}/rounds/1").get_json()["warnings"][0]["key"] == "no_order"
    stranger = client.put(f"/api/games/{token}/rounds/1", json={"order": ["Bob", "Zed"]})
    assert stranger.status_code == 404
    ordered = client.put(f"/api/games/{token}/rounds/1", json={"order": ["Bob", "Ann"]})
    assert ordered.get_json()["ready"] is True
    settled = client.post(f"/api/games/{token}/rounds/1/settle").get_json()
    assert settled["settlement"]["net"] == {"Ann": 0, "Bob": 1}
    chinese = client.post("/api/games", json={"rules": "2-4", "players": ["Ann", "Bob"]}).get_json()["token"]
    client.post(f"/api/games/{chinese}/rounds")
    refused = client.put(f"/api/games/{chinese}/rounds/1", json={"order": ["Bob", "Ann"]})
    assert refused.status_code == 400 and "Big Two games only" in refused.get_json()["error"]


# ---------------------------------------------------------------- instant win (即時勝出)

DRAGON = "3S 4H 5D 6C 7S 8H 9D TC JS QH KD AC 2S"          # 一條龍: one of each rank
FOUR_TWOS = "2S 2H 2D 2C 3S 4S 5S 6S 7S 8S 9S TS JS"       # 四條2: an instant win only when the rules say so


def _dealt(claimed: str) -> tuple[str, str]:
    """Bob's and Cy's 13 cards dealt, from the cards the claimant does not hold."""
    rest = [rank + suit for rank in "3456789TJQKA2" for suit in "SHDC" if rank + suit not in claimed.split()]
    return " ".join(rest[:13]), " ".join(rest[13:26])


def _claim(client, token: str, number: int, seat: int, value: str = "1"):
    return client.post(f"/g/{token}/r/{number}/p/{seat}/instant",
                       data={"csrf_token": csrf_token(client), "value": value, "return": "round"})


def _scoring_refusal(players: dict, **extra) -> str:
    import scoring

    with pytest.raises(scoring.ScoringError) as refused:
        scoring.settle({"game": "bigtwo", "rules": "bigtwo-hk", "players": players, **extra})
    return str(refused.value)


def test_a_dragon_claim_settles_as_scoring_does(client, app):
    """The claimant types the 13 cards dealt, the others theirs; the round is sent to scoring in the very
    shape `python -m scoring settle` reads, and its net is scoring.settle's for the same cards."""
    import subprocess
    import sys

    import scoring

    from webapp import rounds

    bob, cy = _dealt(DRAGON)
    token = _bigtwo_game(client)
    number = new_round(client, token)
    page = client.get(f"/g/{token}/r/{number}").get_data(as_text=True)
    assert 'id="instant-0"' in page and 'id="instant-help"' not in page
    _mark_out(client, token, number, 1)
    assert _claim(client, token, number, 0).headers["Location"].endswith(f"/r/{number}")
    data = _round_json(client, token, number)
    assert [(h["state"], h["instant_win"]) for h in data["hands"]] == [("empty", True), ("empty", False),
                                                                       ("empty", False)]  # Bob is no longer out
    assert [w["key"] for w in data["hands"][0]["warnings"]] == ["no_instant_cards"] and data["warnings"] == []
    assert "Ann claims an instant win: give each other player the cards they were dealt." in \
        htmllib.unescape(client.get(f"/g/{token}/r/{number}").get_data(as_text=True))
    assert enter_rows(client, token, number, 0, DRAGON.lower()).status_code == 303
    assert enter_rows(client, token, number, 1, bob).status_code == 303
    assert enter_rows(client, token, number, 2, cy).status_code == 303
    data = _round_json(client, token, number)
    assert data["ready"] is True and data["hands"][0]["cards"] == DRAGON.split() and data["hands"][0]["instant_win"]
    with app.app_context():
        game = get_session().scalars(select(Game).where(Game.token == token)).one()
        sent = rounds.round_input(game, rounds.find_round(get_session(), game, number))
    assert sent["players"] == {"Ann": {"cards": DRAGON, "instant_win": True}, "Bob": bob, "Cy": cy}
    cli = subprocess.run([sys.executable, "-m", "scoring", "settle", "-"], input=json.dumps(sent), text=True,
                         capture_output=True, cwd=ROOT, check=True)

    assert _settle(client, token, number).status_code == 303
    settled = _round_json(client, token, number)
    expected = scoring.settle({"game": "bigtwo", "rules": "bigtwo-hk",
                               "players": {"Ann": {"cards": DRAGON, "instant_win": True}, "Bob": bob, "Cy": cy}})
    assert settled["status"] == "settled"
    assert settled["settlement"]["net"] == expected["net"] == json.loads(cli.stdout)["net"] == \
        {"Ann": 78, "Bob": -39, "Cy": -39}  # 13 cards ×3 (三炒), not ×4: the instant win replaces the tiers
    assert settled["settlement"]["instant_win"] == expected["instant_win"]
    page = htmllib.unescape(client.get(f"/g/{token}/r/{number}").get_data(as_text=True))
    shown = re.search(r'<p id="instant-win">(.*?)</p>', page, re.S)
    assert shown and "Ann won instantly" in shown.group(1) and "一條龍" in shown.group(1) and "×3" in shown.group(1)
    assert "claims an instant win" in page and "13 cards dealt (instant win)" in page
    client.post("/lang", data={"csrf_token": csrf_token(client), "lang": "zh-Hans"})
    page = htmllib.unescape(client.get(f"/g/{token}/r/{number}").get_data(as_text=True))
    assert "Ann 即时胜出" in page and "一条龙" in page and "输家各付 ×3" in page


def test_a_loser_short_of_the_13_dealt_is_refused_by_scoring_and_kept(client):
    """The review lets a loser's cards left through; scoring refuses a claim's loser short of the 13 dealt.
    The round page and the API say scoring's sentence, the round stays open with every hand as entered."""
    import scoring

    bob, cy = _dealt(DRAGON)
    short = bob.rsplit(" ", 1)[0]
    token = _bigtwo_game(client)
    number = new_round(client, token)
    _claim(client, token, number, 0)
    for seat, typed in enumerate((DRAGON, short, cy)):
        assert enter_rows(client, token, number, seat, typed).status_code == 303
    says = _scoring_refusal({"Ann": {"cards": DRAGON, "instant_win": True}, "Bob": short, "Cy": cy})
    assert says.startswith("Bob has 12 cards, but Ann won instantly")
    assert _round_json(client, token, number)["ready"] is True
    page = htmllib.unescape(client.get(_settle(client, token, number).headers["Location"]).get_data(as_text=True))
    assert says in page
    api = client.post(f"/api/games/{token}/rounds/{number}/settle")
    assert api.status_code == 422 and api.get_json()["error"] == says
    data = _round_json(client, token, number)
    assert data["status"] == "open" and [h["cards"] for h in data["hands"]] == [DRAGON.split(), short.split(),
                                                                                cy.split()]
    assert data["hands"][0]["instant_win"] is True
    enter_rows(client, token, number, 1, bob)
    _settle(client, token, number)
    expected = scoring.settle({"game": "bigtwo", "rules": "bigtwo-hk",
                               "players": {"Ann": {"cards": DRAGON, "instant_win": True}, "Bob": bob, "Cy": cy}})
    assert _round_json(client, token, number)["settlement"]["net"] == expected["net"]


def _settle_blocked(client, token: str, number: int) -> str:
    page = client.get(f"/g/{token}/r/{number}").get_data(as_text=True)
    match = re.search(r'id="settle" disabled>.*?</button>\s*<p[^>]*>(.*?)</p>', page, re.S)
    assert match, "no can't-settle-yet line on the round page"
    return htmllib.unescape(match.group(1))


def test_the_cant_settle_line_names_a_pending_claim_in_each_language(client):
    token = _bigtwo_game(client)
    number = new_round(client, token)
    enter_rows(client, token, number, 1, BOB_LEFT)
    assert _settle_blocked(client, token, number).startswith("Mark who went out")  # no claim: as before
    _claim(client, token, number, 2)
    for lang, says in (("en", "Cy claims an instant win: give the 13 cards dealt to Cy"),
                       ("zh-Hant", "Cy 報即時勝出：要先輸入 Cy 和其他每位玩家派到的 13 張牌"),
                       ("zh-Hans", "Cy 报即时胜出：要先输入 Cy 和其他每位玩家派到的 13 张牌")):
        client.post("/lang", data={"csrf_token": csrf_token(client), "lang": lang})
        assert _settle_blocked(client, token, number).startswith(says)
    client.post("/lang", data={"csrf_token": csrf_token(client), "lang": "en"})
    api = client.post(f"/api/games/{token}/rounds/{number}/settle")  # the API's refusal names it too
    assert api.status_code == 409 and api.get_json()["error"].startswith("Cy claims an instant win")
    _claim(client, token, number, 2, "0")  # withdrawn: the line no longer names it
    assert _settle_blocked(client, token, number).startswith("Mark who went out")
    api = client.post(f"/api/games/{token}/rounds/{number}/settle")
    assert api.status_code == 409 and api.get_json()["error"].startswith("Mark who went out")


@pytest.mark.parametrize("typed", [
    DRAGON.rsplit(" ", 1)[0],                   # 12 cards: one short of a dragon
    FOUR_TWOS,                                  # four 2s, which bigtwo-hk does not pay by default
    "3S 4H 5D 6C 7S 8H 9D TC JS QH KD AC AS",   # 13 cards, an ace twice over and no 2
])
def test_a_claim_that_is_no_instant_win_is_refused_and_kept(client, typed):
    token = _bigtwo_game(client)
    number = new_round(client, token)
    _claim(client, token, number, 0)
    response = enter_rows(client, token, number, 0, typed)
    html = response.get_data(as_text=True)
    says = _scoring_refusal({"Ann": {"cards": typed, "instant_win": True}, "Bob": "3H", "Cy": "3D"})
    assert response.status_code == 400 and says.startswith("Ann: ")
    assert htmllib.unescape(re.search(r'id="error">(.*?)</p>', html, re.S).group(1)) == says
    assert _textarea(html) == typed and 'id="instant"' in html and "🐉 Instant win ✓" in html
    hand = _round_json(client, token, number)["hands"][0]
    assert hand["instant_win"] is True and hand["state"] == "empty" and hand["cards"] == []


def test_the_review_refuses_a_claim_on_cards_that_make_none(client):
    """Cards entered first (as a photo would be), then claimed: the review shows scoring's message, settling
    waits; marking a player as gone out withdraws the claim and the cards settle as cards left."""
    import scoring

    token = _bigtwo_game(client)
    number = new_round(client, token)
    enter_rows(client, token, number, 0, FOUR_TWOS)
    enter_rows(client, token, number, 1, "AS KD 5C")
    assert _claim(client, token, number, 0).status_code == 303
    data = _round_json(client, token, number)
    says = _scoring_refusal({"Ann": {"cards": FOUR_TWOS, "instant_win": True}, "Bob": "3H"})
    assert data["hands"][0]["warnings"] == [{"level": "error", "text": says, "key": "instant_refused",
                                             "params": {"reason": says}}]
    assert data["ready"] is False and "四條2（四字D） is not an instant win under rules bigtwo-hk" in says
    _settle(client, token, number)
    assert _round_json(client, token, number)["status"] == "open"
    client.post("/lang", data={"csrf_token": csrf_token(client), "lang": "zh-Hant"})
    assert "即時勝出不成立：" + says in htmllib.unescape(client.get(f"/g/{token}/r/{number}").get_data(as_text=True))
    _mark_out(client, token, number, 2)  # Cy went out after all: Ann's claim is withdrawn, her cards kept
    data = _round_json(client, token, number)
    assert [(h["state"], h["instant_win"]) for h in data["hands"]] == [("cards", False), ("cards", False),
                                                                       ("out", False)]
    _settle(client, token, number)
    expected = scoring.settle({"game": "bigtwo", "rules": "bigtwo-hk",
                               "players": {"Ann": FOUR_TWOS, "Bob": "AS KD 5C", "Cy": ""}})
    assert _round_json(client, token, number)["settlement"]["net"] == expected["net"] == \
        {"Ann": -52, "Bob": -3, "Cy": 55}  # 13 cards left: 四炒 ×4


def test_four_twos_from_a_photo_when_the_rules_pay_them(client, monkeypatch):
    """Rules that pay four 2s offer them on the hand page; the claimant's 13 cards come from a photo read in
    loose mode, the claim is checked by the review, and the round settles as scoring does."""
    import scoring

    from webapp import reader
    from webapp_testkit import jpeg_bytes

    wins = {"same-suit-dragon": 3, "dragon": 3, "four-twos": 3}
    token = _bigtwo_game(client, **{"opt-bigtwo-hk-instant_wins": json.dumps(wins)})
    plain = _bigtwo_game(client)
    number = new_round(client, token)
    paid = re.search(r'id="instant-paid">(.*?)</p>', client.get(f"/g/{token}/r/{number}/p/0").get_data(as_text=True),
                     re.S).group(1)
    new_round(client, plain)
    assert "Four 2s" in paid and "Four 2s" not in client.get(f"/g/{plain}/r/1/p/0").get_data(as_text=True)
    modes = []
    reading = {"cards": [{"code": code, "confidence": 0.95, "box": [i * 10, 0, i * 10 + 8, 12], "row": None}
                         for i, code in enumerate(FOUR_TWOS.split())], "rows": None, "warnings": []}
    monkeypatch.setattr(reader, "_read", lambda data, loose: modes.append(loose) or reading)
    _claim(client, token, number, 0)
    response = client.post(f"/g/{token}/r/{number}/p/0/photo", data={
        "csrf_token": csrf_token(client), "photo": (io.BytesIO(jpeg_bytes()), "dealt.jpg")},
        content_type="multipart/form-data")
    assert response.status_code == 303 and modes == [True]
    bob, cy = _dealt(FOUR_TWOS)
    enter_rows(client, token, number, 1, bob)
    enter_rows(client, token, number, 2, cy)
    data = _round_json(client, token, number)
    assert data["hands"][0]["cards"] == FOUR_TWOS.split() and data["hands"][0]["source"] == "photo"
    assert data["ready"] is True
    _settle(client, token, number)
    expected = scoring.settle({"game": "bigtwo", "rules": "bigtwo-hk", "options": {"instant_wins": wins},
                               "players": {"Ann": {"cards": FOUR_TWOS, "instant_win": True}, "Bob": bob, "Cy": cy}})
    settlement = _round_json(client, token, number)["settlement"]
    assert settlement["net"] == expected["net"] and settlement["instant_win"]["hand"] == "four-twos"


def test_exports_include_the_instant_win(client):
    bob, cy = _dealt(DRAGON)
    token = _bigtwo_game(client)
    number = new_round(client, token)
    _claim(client, token, number, 0)
    for seat, cards in enumerate((DRAGON, bob, cy)):
        enter_rows(client, token, number, seat, cards)
    _settle(client, token, number)
    exported = json.loads(client.get(f"/g/{token}/export.json").get_data(as_text=True))
    hands = exported["rounds"][0]["hands"]
    assert [h["instant_win"] for h in hands] == [True, False, False] and hands[0]["cards"] == DRAGON.split()
    assert exported["rounds"][0]["settlement"]["instant_win"]["hand"] == "dragon"
    assert exported["standings"]["points"] == {"Ann": "78", "Bob": "-39", "Cy": "-39"}
    rows = list(csv.DictReader(io.StringIO(client.get(f"/g/{token}/export.csv").get_data(as_text=True))))
    assert [(r["player"], r["instant_win"], r["went_out"], r["count"], r["points"]) for r in rows] == [
        ("Ann", "yes", "", "13", "78"), ("Bob", "", "", "13", "-39"), ("Cy", "", "", "13", "-39")]
    assert rows[0]["cards_left"] == DRAGON
    history = client.get(f"/g/{token}/r/{number}").get_data(as_text=True)
    assert re.search(r"<strong>instant win</strong> · Ann", history)  # the claim is in the round's changes


def test_an_instant_win_through_the_api(client):
    import scoring

    token = client.post("/api/games", json={"rules": "bigtwo-hk", "players": ["Ann", "Bob", "Cy"]}).get_json()["token"]
    bob, cy = _dealt(DRAGON)
    hands = {"Ann": {"cards": DRAGON, "instant_win": True}, "Bob": bob, "Cy": cy}  # as scoring reads a round
    created = client.post(f"/api/games/{token}/rounds", json={"hands": hands, "settle": True})
    assert created.status_code == 201, created.get_json()
    body = created.get_json()
    expected = scoring.settle({"game": "bigtwo", "rules": "bigtwo-hk", "players": hands})
    assert body["settlement"]["net"] == expected["net"] and body["settlement"]["instant_win"]["hand"] == "dragon"
    assert body["hands"][0]["instant_win"] is True and body["hands"][0]["cards"] == DRAGON.split()

    for bad, says in (
        ({"Ann": {"cards": DRAGON, "instant_win": True}, "Bob": {"cards": bob, "instant_win": True}},
         "Ann and Bob both claim an instant win"),
        ({"Ann": {"cards": DRAGON, "instant_win": True}, "Bob": ""}, "Bob has no cards, but Ann won instantly"),
    ):
        refused = client.post(f"/api/games/{token}/rounds", json={"hands": bad})
        assert refused.status_code == 400 and says in refused.get_json()["error"]
    assert len(client.get(f"/api/games/{token}").get_json()["rounds"]) == 1  # refused before a round was made

    client.post(f"/api/games/{token}/rounds")
    short = DRAGON.rsplit(" ", 1)[0]
    refused = client.put(f"/api/games/{token}/rounds/2/hands/Ann", json={"cards": short, "instant_win": True})
    assert refused.status_code == 400
    assert refused.get_json()["error"] == _scoring_refusal({"Ann": {"cards": short, "instant_win": True}, "Bob": "3H"})
    assert client.get(f"/api/games/{token}/rounds/2").get_json()["hands"][0]["instant_win"] is False  # nothing kept
    for body, says in (({"instant_win": "yes"}, "instant_win must be true or false"),
                       ({"instant_win": True, "out": True}, "cannot both go out and claim an instant win")):
        refused = client.put(f"/api/games/{token}/rounds/2/hands/Ann", json=body)
        assert refused.status_code == 400 and says in refused.get_json()["error"]
    client.put(f"/api/games/{token}/rounds/2/hands/Ann", json={"cards": short})
    claimed = client.put(f"/api/games/{token}/rounds/2/hands/Ann", json={"instant_win": True}).get_json()
    assert claimed["hands"][0]["instant_win"] is True and claimed["hands"][0]["warnings"][0]["key"] == "instant_refused"
    fixed = client.post(f"/api/games/{token}/rounds/2/hands/Ann/correct", json={"row": "cards", "index": 12,
                                                                               "code": "2s"}).get_json()
    assert fixed["hands"][0]["cards"] == DRAGON.split() and fixed["hands"][0]["warnings"] == []

    rank = client.post("/api/games", json={"rules": "bigtwo-rank", "players": ["Ann", "Bob"]}).get_json()["token"]
    client.post(f"/api/games/{rank}/rounds")
    refused = client.put(f"/api/games/{rank}/rounds/1/hands/Ann", json={"instant_win": True})
    assert refused.status_code == 400 and "pay no instant win" in refused.get_json()["error"]
    document = client.get("/api/openapi.json").get_json()
    hand_body = document["paths"]["/api/games/{token}/rounds/{number}/hands/{player}"]["put"]["requestBody"]
    assert "instant_win" in hand_body["content"]["application/json"]["schema"]["properties"]
    assert "instant_win" in document["components"]["schemas"]["Round"]["properties"]["hands"]["items"]["properties"]
