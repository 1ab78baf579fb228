"""The new-game form in words (issue 69 item 5): labels instead of option names, common options first, every
error at once, unknown options refused, the banker list with the typed names; ending, deleting (with photos),
rematching a game and renaming a player."""
from __future__ import annotations

import re

import scoring
from webapp.option_labels import OPTION_IDS, readable
from webapp_testkit import ANN, BOB, CY, DEE, create_game, csrf_token, jpeg_bytes


def _errors(html: str) -> list[str]:
    return re.findall(r'<li class="error">(.*?)</li>', html)


def test_every_preset_option_has_words_and_new_ones_fall_back_readably():
    names = {n for info in scoring.list_presets().values() for n in info.get("options", {})}
    missing = sorted(names - set(OPTION_IDS))
    assert not missing, f"options shown by their raw name: {missing}"
    assert readable("home_run_multiplier") == "Home run multiplier"


def test_the_form_shows_labels_and_folds_the_rare_options(client):
    html = client.get("/games/new").get_data(as_text=True)
    hk = html[html.index('data-preset="hk"'):]
    hk = hk[:hk.index("</fieldset>")]
    assert "Home run multiplier (scoop everyone)" in hk and ">home_run_multiplier<" not in hk
    assert "natural_points {}" not in hk and "> natural_points" not in hk
    common, folded = hk.split('class="more-options"', 1)
    assert "Scoop multiplier (打槍)" in common and "A-2-3-4-5 straight" in folded
    client.post("/lang", data={"csrf_token": csrf_token(client), "lang": "zh-Hans", "next": "/games/new"})
    html = client.get("/games/new").get_data(as_text=True)
    assert "全垒打倍数" in html and "同时打枪所有对手时的倍数" in html  # simplified label and help


def test_every_error_on_the_form_at_once_with_unknown_options_named(client):
    response = client.post("/games/new", data={
        "csrf_token": csrf_token(client, "/games/new"), "preset": "hk", "player1": "Ann", "player2": "Bob",
        "stake": "abc", "opt-hk-scoop_multiplier": "x", "opt-hk-surrender_cost": "-5", "opt-hk-bogus": "3"})
    assert response.status_code == 400
    errors = _errors(response.get_data(as_text=True))
    assert any("Unknown option &#39;bogus&#39;" in e and "home_run_multiplier" in e for e in errors)
    assert any("stake per point" in e for e in errors)  # a bad stake no longer hides a bad option
    assert any("“Scoop multiplier (打槍)”" in e for e in errors)
    assert any("“Points a surrender costs”" in e for e in errors)
    assert len(errors) >= 4


def test_the_banker_list_shows_the_typed_names(client):
    response = client.post("/games/new", data={"csrf_token": csrf_token(client, "/games/new"), "preset": "hk",
                                               "player1": "Ann", "player2": "Bob", "stake": "-1"})
    options = re.findall(r'<option value="\d" data-seat[^>]*>([^<]*)<', response.get_data(as_text=True))
    assert options == ["Ann", "Bob", "Player 3", "Player 4"]


def test_an_ended_game_takes_no_new_rounds_until_resumed(client):
    token = create_game(client)
    token_csrf = csrf_token(client, f"/g/{token}")
    client.post(f"/g/{token}/end", data={"csrf_token": token_csrf})
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert 'id="game-ended"' in page and 'id="new-round"' not in page
    refused = client.post(f"/g/{token}/rounds", data={"csrf_token": token_csrf, "create_key": "late"})
    assert refused.status_code == 303 and "/r/" not in refused.headers["Location"]
    assert client.get(f"/api/games/{token}").get_json()["rounds"] == []
    api = client.post(f"/api/games/{token}/rounds", json={})
    assert api.status_code == 409 and "ended" in api.get_json()["error"]
    client.post(f"/g/{token}/end", data={"csrf_token": token_csrf, "ended": "0"})
    assert client.post(f"/api/games/{token}/rounds", json={}).status_code == 201


def test_rematch_copies_the_table_once_per_tap(client):
    token = create_game(client, players=("Ann", "Bob", "Cy"), preset="hk", stake="0.5", pair_stakes="Ann-Bob=2",
                        banker="2", rotate_banker="1")
    form = {"csrf_token": csrf_token(client, f"/g/{token}"), "rematch_key": "tap-1"}
    first = client.post(f"/g/{token}/rematch", data=form)
    again = client.post(f"/g/{token}/rematch", data=form)
    assert first.headers["Location"] == again.headers["Location"]
    copy = first.headers["Location"].rsplit("/g/", 1)[1]
    before, after = (client.get(f"/api/games/{t}").get_json() for t in (token, copy))
    for key in ("players", "rules", "options", "stake", "pair_stakes", "banker", "rotate_banker", "title"):
        assert after[key] == before[key], key
    assert copy != token and after["rounds"] == []


def test_deleting_a_game_removes_its_photos_but_not_another_games(app, client):
    from webapp.db import get_engine
    from sqlalchemy import text

    photo = jpeg_bytes(seed=3)
    tokens = [create_game(client), create_game(client)]
    for token in tokens:
        made = client.post(f"/api/games/{token}/rounds", json={}).get_json()
        client.post(f"/api/games/{token}/rounds/{made['number']}/hands/Ann/photo",
                    data={"photo": (__import__("io").BytesIO(photo), "a.jpg")})
    lone = jpeg_bytes(seed=4)
    client.post(f"/api/games/{tokens[0]}/rounds/1/hands/Bob/photo", data={"photo": (__import__("io").BytesIO(lone), "b.jpg")})
    files = lambda: sorted(p.name for p in (app.extensions["webapp.photos"].root).rglob("*.jpg"))  # noqa: E731
    assert len(files()) == 2
    refused = client.post(f"/g/{tokens[0]}/delete", data={"csrf_token": csrf_token(client)})
    assert refused.status_code == 400 and client.get(f"/g/{tokens[0]}").status_code == 200
    done = client.post(f"/g/{tokens[0]}/delete", data={"csrf_token": csrf_token(client), "confirm": "yes"})
    assert done.status_code == 303
    assert client.get(f"/g/{tokens[0]}").status_code == 404
    assert len(files()) == 1  # the shared photo stays for the other game
    with get_engine(app).connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM photos")).scalar() == 1
    assert client.get(f"/api/games/{tokens[1]}/rounds/1").status_code == 200


def test_renaming_a_player_follows_them_through_rounds_and_payments(client):
    created = client.post("/api/games", json={"players": ["Ann", "Bob", "Cy", "Dee"], "rules": "2-4",
                                              "pair_stakes": [{"players": ["Ann", "Bob"], "per_point": "2"}]})
    token = created.get_json()["token"]
    client.post(f"/api/games/{token}/rounds", json={"hands": {"Ann": ANN, "Bob": BOB, "Cy": CY, "Dee": DEE},
                                                    "settle": True})
    owed = client.get(f"/api/games/{token}").get_json()["settle_up"]
    csrf = csrf_token(client, f"/g/{token}")
    client.post(f"/g/{token}/rename", data={"csrf_token": csrf, "old": "Ann", "new": "Annie"})
    game = client.get(f"/api/games/{token}").get_json()
    assert game["players"][0] == "Annie" and game["pair_stakes"][0]["players"] == ["Annie", "Bob"]
    assert "Annie" in game["rounds"][0]["net"] and "Ann" not in game["rounds"][0]["net"]
    rename = {"Ann": "Annie"}
    assert game["settle_up"] == [t | {"from": rename.get(t["from"], t["from"]), "to": rename.get(t["to"], t["to"])}
                                 for t in owed]
    hand = client.get(f"/api/games/{token}/rounds/1").get_json()["hands"][0]
    assert hand["player"] == "Annie"
    clash = client.post(f"/g/{token}/rename", data={"csrf_token": csrf, "old": "Bob", "new": "annie"})
    assert clash.status_code == 303
    assert client.get(f"/api/games/{token}").get_json()["players"][1] == "Bob"
    assert "already called" in client.get(f"/g/{token}").get_data(as_text=True)


def test_undo_after_renaming_a_player_puts_back_their_hand_as_it_was(client):
    """Undo snapshots are keyed by player name; a rename renames them too, so undo finds the renamed hand."""
    token = client.post("/api/games", json={"players": ["Ann", "Bob"], "rules": "2-4"}).get_json()["token"]
    client.post(f"/api/games/{token}/rounds", json={"hands": {"Ann": ANN, "Bob": BOB}})
    base = f"/api/games/{token}/rounds/1"
    before = _rows(client.get(base).get_json()["hands"][0])
    assert client.post(f"{base}/hands/Ann/swap", json={"rows": ["middle", "back"]}).status_code == 200
    client.post(f"/g/{token}/rename", data={"csrf_token": csrf_token(client, f"/g/{token}"), "old": "Ann",
                                            "new": "Annie"})
    assert _rows(client.get(base).get_json()["hands"][0]) != before
    undone = client.post(f"{base}/undo")
    assert undone.status_code == 200, undone.get_json()
    hand = client.get(base).get_json()["hands"][0]
    assert hand["player"] == "Annie" and _rows(hand) == before


def _rows(hand: dict) -> list:
    return [hand["front"], hand["middle"], hand["back"]]
