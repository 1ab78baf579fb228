"""Criss cross in the web app (seed 004 line 106, issue 68): each player lays two 13-card sets, entered, reviewed,
corrected and settled each on its own, through the API (`?set=1|2`, new rounds' {"sets": [first, second]}) and the
pages (`/g/<token>/r/<n>/p/<seat>/s/<set>…`); every other game keeps one hand per player, exactly as before."""
from __future__ import annotations

import csv
import io
import re
from fractions import Fraction

import pytest
import scoring
from webapp_testkit import ANN, BOB, CY, DEE, csrf_token, create_game, jpeg_bytes, new_round, round_etag

from webapp.export import CSV_COLUMNS

# The four testkit hands are one whole deck: Ann's two sets, then Bob's.
SETS = {"Ann": [ANN, BOB], "Bob": [CY, DEE]}
# Bob's second set laid fouled: the full house in the middle over two pair behind.
DEE_FOULED = "3S 5D 8H / QC QH KS AC AH / 7D 7S 4C 6D TC"


def _api_game(client, rules: str = "criss-cross", players=("Ann", "Bob"), **options) -> str:
    response = client.post("/api/games", json={"players": list(players), "rules": rules,
                                               **({"options": options} if options else {})})
    assert response.status_code == 201, response.get_json()
    return response.get_json()["token"]


def _round(client, token: str, hands: dict | None = None) -> dict:
    response = client.post(f"/api/games/{token}/rounds", json={"hands": hands} if hands else None)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def _hand(data: dict, player: str, number: int) -> dict:
    return next(h for h in data["hands"] if h["player"] == player and h["set"] == number)


def _rows(hand: dict) -> str:
    return " / ".join(" ".join(hand[row]) for row in ("front", "middle", "back"))


def _engine(hands: dict, **options) -> dict:
    return scoring.settle({"rules": "criss-cross", "options": options,
                           "players": {name: {"sets": sets} for name, sets in hands.items()}})


@pytest.mark.parametrize("criss_cross", ["each-vs-each", "set-vs-set"])
def test_a_round_entered_as_two_sets_each_settles_as_scoring_does(client, criss_cross):
    token = _api_game(client, criss_cross=criss_cross)
    data = _round(client, token, {name: {"sets": sets} for name, sets in SETS.items()})
    assert [(h["player"], h["set"]) for h in data["hands"]] == [("Ann", 1), ("Ann", 2), ("Bob", 1), ("Bob", 2)]
    assert _rows(_hand(data, "Ann", 2)) == BOB and _rows(_hand(data, "Bob", 1)) == CY
    assert data["ready"] and all(h["missing"] == [] and h["foul"] is None for h in data["hands"])
    settled = client.post(f"/api/games/{token}/rounds/{data['number']}/settle").get_json()["settlement"]
    expected = _engine(SETS, criss_cross=criss_cross)
    assert settled["net"] == expected["net"] and settled["money"] == expected["money"]
    assert settled["players"]["Ann"]["status"] == "sets" and len(settled["players"]["Ann"]["sets"]) == 2
    assert len(settled["pairs"]) == (4 if criss_cross == "each-vs-each" else 2)


def test_each_set_is_typed_on_its_own_page_and_the_round_page_shows_both(client):
    token = create_game(client, preset="criss-cross")
    number = new_round(client, token)
    page = client.get(f"/g/{token}/r/{number}").get_data(as_text=True)
    for seat in (0, 1):
        for set_number in (1, 2):
            assert f'href="/g/{token}/r/{number}/p/{seat}/s/{set_number}"' in page
    assert re.findall(r'id="(hand-[^"]+)"', page) == ["hand-0", "hand-0-2", "hand-1", "hand-1-2"]
    for seat, name in enumerate(SETS):
        for set_number, rows in enumerate(SETS[name], 1):
            response = client.post(f"/g/{token}/r/{number}/p/{seat}/s/{set_number}/manual",
                                   data={"csrf_token": csrf_token(client), "rows": rows})
            assert response.status_code == 303
            assert response.headers["Location"].endswith(f"/r/{number}/p/{seat}/s/{set_number}")
    hand_page = client.get(f"/g/{token}/r/{number}/p/0/s/2").get_data(as_text=True)
    assert 'id="set-name">Set 2<' in hand_page and BOB in hand_page.replace("\n", " ")
    assert f'action="/g/{token}/r/{number}/p/0/s/2/move"' in hand_page
    assert f'href="/g/{token}/r/{number}/p/1/s/1"' in hand_page   # next: Bob's first set
    response = client.post(f"/g/{token}/r/{number}/settle", data={
        "csrf_token": csrf_token(client), "if_match": round_etag(client, token, number)})
    assert response.status_code == 303
    data = client.get(f"/api/games/{token}/rounds/{number}").get_json()
    assert data["status"] == "settled" and data["settlement"]["net"] == _engine(SETS)["net"]
    page = client.get(f"/g/{token}/r/{number}").get_data(as_text=True)
    assert "Ann (set 1)" in page and "Bob (set 2)" in page
    shares = [Fraction(text) for text in re.findall(r'class="badge set-share"[^>]*>([^<]+)<', page)]
    net = data["settlement"]["net"]
    assert len(shares) == 4 and sum(shares[:2]) == net["Ann"] and sum(shares[2:]) == net["Bob"]


def test_a_card_in_both_of_a_players_sets_is_caught_and_blocks_settling(client):
    token = _api_game(client)
    repeated = ANN.split()[0]   # 2S: Ann's first set holds it
    second = BOB.replace("QS", repeated)
    data = _round(client, token, {"Ann": {"sets": [ANN, second]}, "Bob": {"sets": [CY, DEE]}})
    shared = [w["text"] for w in _hand(data, "Ann", 2)["warnings"] if w["key"] == "shared"]
    assert shared == [f"{repeated} was also read for Ann (set 1)."]
    assert f"{repeated} is also in Ann (set 2)'s hand" in _hand(data, "Ann", 1)["missing"]
    assert data["ready"] is False
    refused = client.post(f"/api/games/{token}/rounds/{data['number']}/settle")
    assert refused.status_code == 409 and "Ann (set 2):" in refused.get_json()["error"]
    page = client.get(f"/g/{token}/r/{data['number']}").get_data(as_text=True)
    assert re.search(r'<button class="button primary big" id="settle"\s+disabled', page)


def test_corrections_fix_and_undo_act_on_one_set(client):
    token = _api_game(client)
    data = _round(client, token, {"Ann": {"sets": [ANN, BOB]}, "Bob": {"sets": [CY, DEE_FOULED]}})
    number = data["number"]
    assert _hand(data, "Bob", 2)["foul"] is not None and _hand(data, "Bob", 1)["foul"] is None
    assert client.post(f"/api/games/{token}/rounds/{number}/hands/Bob/fix?set=1").status_code == 409
    fixed = client.post(f"/api/games/{token}/rounds/{number}/hands/Bob/fix?set=2").get_json()
    assert _hand(fixed, "Bob", 2)["foul"] is None and _rows(_hand(fixed, "Bob", 1)) == CY
    assert fixed["changes"][0]["text"].startswith("Someone rearranged Bob's set 2 fouled hand")
    assert fixed["changes"][0]["set"] == 2
    moved = client.post(f"/api/games/{token}/rounds/{number}/hands/Ann/move?set=2",
                        json={"from": {"row": "front", "index": 0}, "to": {"row": "back"}}).get_json()
    assert len(_hand(moved, "Ann", 2)["front"]) == 2 and len(_hand(moved, "Ann", 2)["back"]) == 6
    assert _rows(_hand(moved, "Ann", 1)) == ANN
    undone = client.post(f"/api/games/{token}/rounds/{number}/undo").get_json()
    assert _rows(_hand(undone, "Ann", 2)) == BOB and _hand(undone, "Bob", 2)["foul"] is None
    # The same through the pages: a swap of Ann's second set's rows, on its own URL.
    response = client.post(f"/g/{token}/r/{number}/p/0/s/2/swap",
                           data={"csrf_token": csrf_token(client), "rows": "middle,back"})
    assert response.status_code == 303 and response.headers["Location"].endswith("/p/0/s/2")
    data = client.get(f"/api/games/{token}/rounds/{number}").get_json()
    assert _hand(data, "Ann", 2)["middle"] == BOB.split(" / ")[2].split()
    assert _rows(_hand(data, "Ann", 1)) == ANN
    hand_page = client.get(f"/g/{token}/r/{number}/p/0/s/2").get_data(as_text=True)
    assert '<input type="hidden" name="set" value="2">' in hand_page   # undo from this page comes back to it
    response = client.post(f"/g/{token}/r/{number}/undo", data={
        "csrf_token": csrf_token(client), "seat": "0", "set": "2", "if_match": round_etag(client, token, number)})
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/r/{number}/p/0/s/2")
    assert _rows(_hand(client.get(f"/api/games/{token}/rounds/{number}").get_json(), "Ann", 2)) == BOB


def test_a_photo_is_read_as_the_set_it_was_sent_for(client, monkeypatch):
    from webapp import reader

    rows = {row: codes.split() for row, codes in zip(("front", "middle", "back"), DEE.split(" / "))}
    reading = {"cards": [{"code": code, "confidence": 0.97, "box": [i * 40, 10, i * 40 + 30, 50], "row": row}
                         for i, (row, code) in enumerate((r, c) for r, cs in rows.items() for c in cs)],
               "rows": rows, "warnings": []}
    monkeypatch.setattr(reader, "_read", lambda data, loose: reading)
    token = _api_game(client)
    number = _round(client, token)["number"]
    response = client.post(f"/g/{token}/r/{number}/p/1/s/2/photo", data={
        "csrf_token": csrf_token(client), "photo": (io.BytesIO(jpeg_bytes()), "x.jpg")},
        content_type="multipart/form-data")
    assert response.status_code == 303 and response.headers["Location"].endswith("/p/1/s/2")
    api = client.post(f"/api/games/{token}/rounds/{number}/hands/Ann/photo?set=2",
                      data={"photo": (io.BytesIO(jpeg_bytes(seed=1)), "y.jpg")}, content_type="multipart/form-data")
    assert api.status_code == 201
    data = api.get_json()["round"]
    assert _rows(_hand(data, "Bob", 2)) == DEE and _hand(data, "Bob", 1)["state"] == "empty"
    assert _hand(data, "Ann", 2)["state"] == "cards" and _hand(data, "Ann", 1)["state"] == "empty"
    assert [(u["player"], u["set"]) for u in data["uploads"]] == [("Bob", 2), ("Ann", 2)]
    # the same cards read for two sets: each says where else they are
    assert any(w["key"] == "shared" and "Bob (set 2)" in w["text"] for w in _hand(data, "Ann", 2)["warnings"])
    history = client.get(f"/g/{token}/r/{number}").get_data(as_text=True)
    assert re.findall(r'<span>(\w+ · Set \d)</span></a>', history) == ["Bob · Set 2", "Ann · Set 2"]
    assert re.search(r'<strong>[^<]+</strong> · Bob · Set 2', history)


def test_exports_carry_both_sets(client):
    token = _api_game(client)
    number = _round(client, token, {name: {"sets": sets} for name, sets in SETS.items()})["number"]
    client.post(f"/api/games/{token}/rounds/{number}/settle")
    exported = client.get(f"/api/games/{token}/export").get_json()
    assert [(h["player"], h["set"]) for h in exported["rounds"][0]["hands"]] == [
        ("Ann", 1), ("Ann", 2), ("Bob", 1), ("Bob", 2)]
    lines = list(csv.DictReader(io.StringIO(client.get(f"/g/{token}/export.csv").get_data(as_text=True))))
    assert [(line["player"], line["set"]) for line in lines] == [("Ann", "1"), ("Ann", "2"), ("Bob", "1"),
                                                                  ("Bob", "2")]
    assert lines[1]["front"] == BOB.split(" / ")[0]
    settlement = _engine(SETS)
    for line in lines:   # each set's share: the comparisons it took part in
        number = int(line["set"])
        assert Fraction(line["points"]) == sum(
            Fraction(str(pair["net"][line["player"]])) for pair in settlement["pairs"]
            if pair["sets"][pair["players"].index(line["player"])] == number)
    for name in SETS:   # adding up to the player's net
        assert sum(Fraction(line["points"]) for line in lines if line["player"] == name) == settlement["net"][name]
        assert Fraction([line for line in lines if line["player"] == name][-1]["total_points"]) == \
            settlement["net"][name]


@pytest.mark.parametrize("players", [("Ann", "Bob", "Cy"), ("Ann", "Bob", "Cy", "Dee")])
def test_three_or_four_players_get_scorings_one_deck_message(client, players):
    response = client.post("/api/games", json={"players": list(players), "rules": "criss-cross"})
    assert response.status_code == 400
    assert f"it needs exactly 2 players, got {len(players)}" in response.get_json()["error"]


def test_criss_cross_as_an_option_of_another_preset_deals_two_sets(client):
    token = _api_game(client, rules="2-4", criss_cross="set-vs-set")
    data = _round(client, token, {name: {"sets": sets} for name, sets in SETS.items()})
    assert len(data["hands"]) == 4 and data["ready"]


@pytest.mark.parametrize("entry, message", [
    (ANN, "criss cross needs the player's two hands"),
    ({"sets": [ANN]}, "'sets' must be the player's two hands"),
])
def test_a_new_round_needs_both_sets_of_a_player(client, entry, message):
    token = _api_game(client)
    response = client.post(f"/api/games/{token}/rounds", json={"hands": {"Ann": entry}})
    assert response.status_code == 400 and message in response.get_json()["error"]


def test_set_two_of_a_criss_cross_game_has_no_set_three(client):
    token = _api_game(client)
    number = _round(client, token)["number"]
    assert client.get(f"/g/{token}/r/{number}/p/0/s/3").status_code == 404
    response = client.put(f"/api/games/{token}/rounds/{number}/hands/Ann?set=3", json={"rows": ANN})
    assert response.status_code == 400 and response.get_json()["error"] == "'set' must be 1 or 2."


def test_a_normal_game_is_unchanged(client):
    token = create_game(client, preset="2-4")
    number = new_round(client, token)
    assert client.get(f"/g/{token}/r/{number}/p/0/s/2").status_code == 404
    assert client.post(f"/g/{token}/r/{number}/p/0/s/2/manual",
                       data={"csrf_token": csrf_token(client), "rows": ANN}).status_code == 404
    refused = client.put(f"/api/games/{token}/rounds/{number}/hands/Ann?set=2", json={"rows": ANN})
    assert refused.status_code == 404 and "one hand per player" in refused.get_json()["error"]
    assert client.put(f"/api/games/{token}/rounds/{number}/hands/Ann?set=1", json={"rows": ANN}).status_code == 200
    sets = client.post(f"/api/games/{token}/rounds", json={"hands": {"Bob": {"sets": [CY, DEE]}}})
    assert sets.status_code == 400 and "'sets' is for criss-cross games" in sets.get_json()["error"]
    data = client.put(f"/api/games/{token}/rounds/{number}/hands/Bob", json={"rows": BOB}).get_json()
    assert [(h["player"], h["set"]) for h in data["hands"]] == [("Ann", 1), ("Bob", 1)]
    assert data["changes"][0]["text"] == "Someone typed Bob's cards" and "set" not in data["changes"][0]
    page = client.get(f"/g/{token}/r/{number}").get_data(as_text=True)
    assert re.findall(r'id="(hand-[^"]+)"', page) == ["hand-0", "hand-1"] and "/s/" not in page
    client.post(f"/api/games/{token}/rounds/{number}/settle")
    header = client.get(f"/g/{token}/export.csv").get_data(as_text=True).splitlines()[0]
    assert header == ",".join(CSV_COLUMNS)


@pytest.mark.parametrize("rules", ["criss-cross", "low-middle", "eleven-point", "2-4"])
def test_the_hindsight_fold_answers_for_every_variant_per_set(client, rules):
    """The engine's hindsight for the hand (criss cross: per set), or, where the engine refuses the rules, its
    message on the page with 422: never a 500."""
    token = _api_game(client, rules=rules)
    hands = {name: {"sets": sets} for name, sets in SETS.items()} if rules == "criss-cross" else \
        {"Ann": ANN, "Bob": BOB}
    number = _round(client, token, hands)["number"]
    assert client.get(f"/g/{token}/r/{number}/p/0/hindsight").status_code == 409   # not before settling
    client.post(f"/api/games/{token}/rounds/{number}/settle")
    round_data = client.get(f"/api/games/{token}/rounds/{number}").get_json()
    try:
        expected = scoring.hindsight({"rules": rules, "players": hands}, "Ann")["players"]["Ann"]
    except scoring.ScoringError as err:
        expected, refusal = None, str(err)
    for set_number in (1, 2) if rules == "criss-cross" else (None,):
        path = f"/g/{token}/r/{number}/p/0" + (f"/s/{set_number}" if set_number else "") + "/hindsight"
        response = client.get(path)
        html = response.get_data(as_text=True)
        label = f"Ann (set {set_number})" if set_number else "Ann"
        assert f"<h1>{label} · " in html
        if expected is None:
            assert response.status_code == 422 and refusal in html.replace("&#39;", "'")
            continue
        assert response.status_code == 200, html[-2000:]
        entry = expected["sets"][set_number - 1] if set_number else expected
        if entry["best"] and not entry["best"].get("as_played"):
            assert f"{entry['best']['net']}" in html
    assert round_data["status"] == "settled"
    page = client.get(f"/g/{token}/r/{number}").get_data(as_text=True)
    folds = re.findall(r'data-hindsight-url="([^"]+)"', page)
    assert len(folds) == (4 if rules == "criss-cross" else 2)


def test_one_set_surrenders_on_its_own(client):
    token = _api_game(client)
    hands = {"Ann": {"sets": [ANN, {"surrender": True}]}, "Bob": {"sets": [CY, DEE]}}
    data = _round(client, token, hands)
    assert _hand(data, "Ann", 2)["state"] == "surrender" and _hand(data, "Ann", 1)["state"] == "cards"
    assert data["ready"]
    settled = client.post(f"/api/games/{token}/rounds/{data['number']}/settle").get_json()["settlement"]
    assert settled["net"] == _engine({name: entry["sets"] for name, entry in hands.items()})["net"]
    assert [entry["status"] for entry in settled["players"]["Ann"]["sets"]] == ["rows", "surrendered"]
    page = client.get(f"/g/{token}/r/{data['number']}").get_data(as_text=True)
    assert "Ann (set 2): surrendered" in page
    # the surrendered set has no other way to be set (or, where the engine refuses the rules, it says so)
    fold = client.get(f"/g/{token}/r/{data['number']}/p/0/s/2/hindsight")
    try:
        scoring.hindsight({"rules": "criss-cross", "players": hands}, "Ann")
    except scoring.ScoringError:
        assert fold.status_code == 422
    else:
        assert fold.status_code == 200 and "No cards to set again" in fold.get_data(as_text=True)
    reopened = client.post(f"/api/games/{token}/rounds/{data['number']}/reopen").get_json()
    assert reopened["status"] == "open"
    back = client.put(f"/api/games/{token}/rounds/{data['number']}/hands/Ann?set=2", json={"surrender": False})
    assert _hand(back.get_json(), "Ann", 2)["state"] == "empty"


def test_a_refusal_by_the_engine_is_said_on_the_page_never_a_500(client, monkeypatch):
    """Whatever preset the engine stops modelling, the fold says why: hindsight refused (422 with scoring's
    message), or only the general advice refused (the hindsight shown, the advisor's message beside it)."""
    token = _api_game(client)
    number = _round(client, token, {name: {"sets": sets} for name, sets in SETS.items()})["number"]
    client.post(f"/api/games/{token}/rounds/{number}/settle")
    path = f"/g/{token}/r/{number}/p/1/s/2/hindsight"

    def refuse(*_args, **_kwargs):
        raise scoring.ScoringError("rules criss-cross: not modelled here")

    monkeypatch.setattr(scoring, "best_arrangement", refuse)
    response = client.get(path)
    html = response.get_data(as_text=True)
    assert response.status_code == 200 and "Against the hands on the table" in html
    assert re.search(r'id="general-refused">rules criss-cross: not modelled here<', html)
    monkeypatch.setattr(scoring, "hindsight", refuse)
    response = client.get(path)
    assert response.status_code == 422 and "rules criss-cross: not modelled here" in response.get_data(as_text=True)
