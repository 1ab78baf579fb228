"""One photo of the whole table fills a round (issue 67): the seats asked once per game, remembered, changeable;
every mapped hand filled as a hand's photo would be (summary, review, one change other phones see, one undo); the
photo's warnings and the hands it did not use shown on the round page; Big Two's cards left read loose; bad photos
refused with one line and nothing kept. The reader is the contract's stand-in (table_testkit)."""
from __future__ import annotations

import os
import re
from pathlib import Path

from table_testkit import post_table_photo, table_reading, use_table_reader
from webapp_testkit import ANN, BOB, CY, DEE, create_game, csrf_token, new_round

FOUR = ("Ann", "Bob", "Cy", "Dee")
# Ann at the bottom, Bob on the left, Cy at the top, Dee on the right: the tests' table.
SEATED = {0: ANN, 1: BOB, 2: CY, 3: DEE}
# Whole-table scenes rendered by vision.synth (the `table` reader's examples, 4000 x 3000, shrunk to 2000 x 1500 at
# JPEG quality 80 to stay small; still read exactly right) and what they show, per seat.
DATA = Path(__file__).with_name("data")
FOUR_HANDS_PHOTO = DATA / "table_four_hands.jpg"
FOUR_HANDS = {0: "8C 3D 9C / 5C TC 6S 7C 7D / 9D JC 2C 5D 8S", 1: "4H 8H AD / JH 2S 7S 3C AH / 9S 6H 6C AS KH",
              2: "3S 7H TH / 9H 2H 4C QS QC / KC KS 8D QD TD", 3: "2D 5S 4D / JS 3H 4S TS QH / KD 6D 5H JD AC"}
BIG_TWO_PHOTO = DATA / "table_big_two.jpg"  # Big Two: each seat's cards left, one loose group per seat
BIG_TWO = {0: "6H JD", 1: "8C 5S 8D 2D 7D KS", 2: "AD 7S", 3: "2H 6S AH 5D 3S 3H 5C 4D KH 2S JH KD"}


def round_json(client, token: str, number: int) -> dict:
    return client.get(f"/api/games/{token}/rounds/{number}").get_json()


def rows_of(hand: dict) -> str:
    return " / ".join(" ".join(hand[row]) for row in ("front", "middle", "back"))


def seat_form(client, page_url: str, seats: dict[int, str]) -> dict[str, str]:
    return {"csrf_token": csrf_token(client, page_url), **{f"seat{seat}": name for seat, name in seats.items()}}


def first_table_round(client, monkeypatch, reading: dict | None = None, players=FOUR):
    """A new game's first round with a table photo posted: (token, number, the response, the fake reader)."""
    fake = use_table_reader(monkeypatch, reading or table_reading(SEATED))
    token = create_game(client, players)
    number = new_round(client, token)
    return token, number, post_table_photo(client, token, number), fake


def test_the_first_table_photo_asks_the_seats_then_fills_all_four_hands(client, monkeypatch):
    token, number, response, _fake = first_table_round(client, monkeypatch)
    assert response.status_code == 303
    seat_page = response.headers["Location"]
    assert re.search(rf"/g/{token}/r/{number}/table/\d+$", seat_page)
    before = round_json(client, token, number)
    assert [h["state"] for h in before["hands"]] == ["empty"] * 4  # nothing filled before the seats are known

    html = client.get(seat_page).get_data(as_text=True)
    assert html.count('class="hand-outline"') == 4  # each hand outlined and numbered on the photo
    assert html.count('class="panel seat-pick"') == 4
    # One tap each: the players are offered per hand (here the proposal is already right: game order, clockwise)
    assert re.search(r'name="seat0" value="Ann" checked', html)

    filled = client.post(seat_page, data=seat_form(client, seat_page, {0: "Ann", 1: "Bob", 2: "Cy", 3: "Dee"}))
    assert filled.status_code == 303 and filled.headers["Location"].endswith(f"/g/{token}/r/{number}")
    after = round_json(client, token, number)
    assert {h["player"]: rows_of(h) for h in after["hands"]} == {"Ann": ANN, "Bob": BOB, "Cy": CY, "Dee": DEE}
    assert all(h["source"] == "table" and h["state"] == "cards" for h in after["hands"])
    assert after["ready"] is True
    # One change other phones see (one version), described as one line, undone in one step.
    assert after["version"] == before["version"] + 1
    assert after["changes"][0]["text"] == "Someone read 4 hands from a table photo"
    # Every hand points to its own upload of the same stored photo; the table photo is one upload of kind "table".
    photos = {h["photo"] for h in after["hands"]}
    assert len(photos) == 1 and None not in photos


def test_the_seats_are_remembered_for_the_game_and_changeable(client, app, monkeypatch):
    token, number, response, _fake = first_table_round(client, monkeypatch)
    seat_page = response.headers["Location"]
    client.post(seat_page, data=seat_form(client, seat_page, {0: "Bob", 1: "Ann", 2: "Cy", 3: "Dee"}))
    assert client.get(f"/api/games/{token}/table-seats").get_json()["seats"] == {
        "0": "Bob", "1": "Ann", "2": "Cy", "3": "Dee"}
    hands = {h["player"]: rows_of(h) for h in round_json(client, token, number)["hands"]}
    assert hands["Bob"] == ANN and hands["Ann"] == BOB  # the seat decides whose hand it is, not the order

    # Round 2: no question asked, straight back to the round with every hand filled.
    second = new_round(client, token, key="k2")
    again = post_table_photo(client, token, second)
    assert again.status_code == 303 and again.headers["Location"].endswith(f"/g/{token}/r/{second}")
    assert {h["player"]: rows_of(h) for h in round_json(client, token, second)["hands"]}["Bob"] == ANN

    # Changed from the game page: Ann really sits at the bottom. The next photo follows.
    page = f"/g/{token}/seats"
    assert "game-seats-form" in client.get(page).get_data(as_text=True)
    changed = client.post(page, data={"csrf_token": csrf_token(client, page), "seat0": "Ann", "seat1": "Bob",
                                      "seat2": "Cy", "seat3": "Dee"})
    assert changed.status_code == 303
    third = new_round(client, token, key="k3")
    post_table_photo(client, token, third)
    assert {h["player"]: rows_of(h) for h in round_json(client, token, third)["hands"]}["Ann"] == ANN
    assert "Bottom <strong>Ann</strong>" in client.get(f"/g/{token}").get_data(as_text=True)

    # Forgotten: the next table photo asks again.
    client.post(page, data={"csrf_token": csrf_token(client, page), "forget": "1"})
    fourth = new_round(client, token, key="k4")
    assert re.search(r"/table/\d+$", post_table_photo(client, token, fourth).headers["Location"])


def test_a_hand_at_a_seat_nobody_sits_at_is_reported_not_dropped_silently(client, monkeypatch):
    reading = table_reading({0: ANN, 1: BOB, 2: CY})  # three players, three hands … and a fourth seat shown below
    reading["hands"].append(table_reading({3: DEE})["hands"][0])
    token, number, response, _fake = first_table_round(client, monkeypatch, reading, players=("Ann", "Bob", "Cy"))
    seat_page = response.headers["Location"]
    client.post(seat_page, data=seat_form(client, seat_page, {0: "Ann", 1: "Bob", 2: "Cy", 3: ""}))
    html = client.get(f"/g/{token}/r/{number}").get_data(as_text=True)
    assert "the hand at the right seat (13 cards): no player sits there" in html
    assert [h["state"] for h in round_json(client, token, number)["hands"]] == ["cards"] * 3


def test_a_photo_showing_fewer_hands_than_players_says_so_on_the_seats_page(client, monkeypatch):
    token, number, response, _fake = first_table_round(client, monkeypatch, table_reading({0: ANN, 1: BOB, 3: DEE}))
    seat_page = response.headers["Location"]
    html = client.get(seat_page).get_data(as_text=True)
    assert "The photo shows 3 hands for 4 players: a hand it missed stays as it is" in html
    client.post("/lang", data={"csrf_token": csrf_token(client), "lang": "zh-Hant"})
    assert "照片中只找到 3 家的牌，但有 4 位玩家" in client.get(seat_page).get_data(as_text=True)
    # every player's hand found: nothing said
    token, number, response, _fake = first_table_round(client, monkeypatch)
    assert 'id="hands-missing"' not in client.get(response.headers["Location"]).get_data(as_text=True)


def test_the_photos_warnings_and_a_hand_of_twelve_show_on_the_round_page(client, monkeypatch):
    short_dee = DEE.rsplit(" ", 1)[0]  # Dee's back row read with 4 cards
    between = "card between two hands: 9S lies between the top and right hands; not given to either"
    reading = table_reading({0: ANN, 1: BOB, 2: CY, 3: short_dee}, warnings=[between],
                            hand_warnings={3: ["expected 13 cards, found 12"]})
    token, number, response, _fake = first_table_round(client, monkeypatch, reading)
    seat_page = response.headers["Location"]
    assert between in client.get(seat_page).get_data(as_text=True)  # already on the seat page
    client.post(seat_page, data=seat_form(client, seat_page, {0: "Ann", 1: "Bob", 2: "Cy", 3: "Dee"}))
    html = client.get(f"/g/{token}/r/{number}").get_data(as_text=True)
    assert between in html and 'id="table-fill"' in html
    dee = round_json(client, token, number)["hands"][3]
    assert any(w["key"] == "missing" and w["params"]["row"] == "back" for w in dee["warnings"])
    assert round_json(client, token, number)["ready"] is False


def test_big_two_reads_the_cards_left_loose_one_group_per_seat(client, monkeypatch):
    reading = table_reading({0: "3S 4H 9D", 1: "KD", 2: "5C 6C 7C 8C 2H"})
    fake = use_table_reader(monkeypatch, reading)
    token = create_game(client, ("Ann", "Bob", "Cy"), preset="bigtwo-hk", game="bigtwo")
    number = new_round(client, token)
    # Cy went out: the winner holds no cards, so a group read at Cy's seat is not used (and said so).
    client.post(f"/g/{token}/r/{number}/p/2/out", data={"csrf_token": csrf_token(client), "value": "1"})
    seat_page = post_table_photo(client, token, number).headers["Location"]
    assert fake.calls == [True]  # loose mode, whatever the client says
    client.post(seat_page, data=seat_form(client, seat_page, {0: "Ann", 1: "Bob", 2: "Cy"}))
    hands = {h["player"]: h for h in round_json(client, token, number)["hands"]}
    assert hands["Ann"]["cards"] == ["3S", "4H", "9D"] and hands["Bob"]["cards"] == ["KD"]
    assert hands["Cy"]["state"] == "out"
    assert "Cy went out (holds no cards), so it was not used" in client.get(
        f"/g/{token}/r/{number}").get_data(as_text=True)


def test_a_bad_photo_gets_one_line_and_nothing_is_kept(client, app, monkeypatch):
    token, number, _response, _fake = first_table_round(client, monkeypatch)
    before = round_json(client, token, number)
    refused = post_table_photo(client, token, number, b"GIF89a not a photo")
    assert refused.status_code == 415
    assert "Only JPEG, PNG or WebP photos are accepted." in refused.get_data(as_text=True)
    use_table_reader(monkeypatch, {"hands": [], "warnings": ["no card found: retake the photo"]})
    empty = post_table_photo(client, token, number)
    assert empty.status_code == 422
    assert "No hand found on this table photo: no card found: retake the photo" in empty.get_data(as_text=True)
    after = round_json(client, token, number)
    assert after["hands"] == before["hands"] and after["uploads"] == before["uploads"]
    if not os.environ.get("REDIS_URL"):  # a reading job says on the round why it kept nothing (one change)
        assert after["version"] == before["version"]


def test_a_player_at_two_seats_is_refused_and_changes_nothing(client, monkeypatch):
    token, number, response, _fake = first_table_round(client, monkeypatch)
    seat_page = response.headers["Location"]
    refused = client.post(seat_page, data=seat_form(client, seat_page, {0: "Ann", 1: "Ann", 2: "Cy", 3: "Dee"}))
    assert refused.status_code == 400
    assert "Ann cannot sit at two seats" in refused.get_data(as_text=True)
    assert client.get(f"/api/games/{token}/table-seats").get_json()["seats"] is None
    assert [h["state"] for h in round_json(client, token, number)["hands"]] == ["empty"] * 4


def test_one_undo_reverts_the_whole_table_photo(client, monkeypatch):
    token, number, response, _fake = first_table_round(client, monkeypatch)
    seat_page = response.headers["Location"]
    client.post(seat_page, data=seat_form(client, seat_page, {0: "Ann", 1: "Bob", 2: "Cy", 3: "Dee"}))
    assert client.post(f"/api/games/{token}/rounds/{number}/undo").status_code == 200
    assert [h["state"] for h in round_json(client, token, number)["hands"]] == ["empty"] * 4
    assert 'id="table-fill"' not in client.get(f"/g/{token}/r/{number}").get_data(as_text=True)


def test_renaming_a_player_renames_their_seat(client, monkeypatch):
    token, _number, response, _fake = first_table_round(client, monkeypatch)
    seat_page = response.headers["Location"]
    client.post(seat_page, data=seat_form(client, seat_page, {0: "Ann", 1: "Bob", 2: "Cy", 3: "Dee"}))
    client.post(f"/g/{token}/rename", data={"csrf_token": csrf_token(client), "old": "Ann", "new": "Annie"})
    assert client.get(f"/api/games/{token}/table-seats").get_json()["seats"]["0"] == "Annie"


def test_the_reader_fills_four_hands_from_a_rendered_table_photo(client):
    """The real reader (vision.read_table) on a rendered whole-table scene: every seat's rows, in the right hands."""
    token = create_game(client, FOUR)
    number = new_round(client, token)
    seat_page = post_table_photo(client, token, number, FOUR_HANDS_PHOTO.read_bytes()).headers["Location"]
    client.post(seat_page, data=seat_form(client, seat_page, {0: "Ann", 1: "Bob", 2: "Cy", 3: "Dee"}))
    hands = {h["player"]: rows_of(h) for h in round_json(client, token, number)["hands"]}
    assert hands == {"Ann": FOUR_HANDS[0], "Bob": FOUR_HANDS[1], "Cy": FOUR_HANDS[2], "Dee": FOUR_HANDS[3]}


def test_the_reader_reads_big_twos_cards_left_per_seat(client):
    """Big Two's table photo read loose by the real reader: each seat's group of cards left is that player's."""
    token = create_game(client, FOUR, preset="bigtwo-hk", game="bigtwo")
    number = new_round(client, token)
    response = post_table_photo(client, token, number, BIG_TWO_PHOTO.read_bytes())
    seat_page = response.headers["Location"]
    client.post(seat_page, data=seat_form(client, seat_page, {0: "Ann", 1: "Bob", 2: "Cy", 3: "Dee"}))
    hands = {h["player"]: sorted(h["cards"]) for h in round_json(client, token, number)["hands"]}
    assert hands == {name: sorted(BIG_TWO[seat].split()) for seat, name in enumerate(FOUR)}


def test_a_reading_is_taken_as_its_valid_seats_each_outlined_around_its_cards():
    from table_testkit import hand_entry

    from webapp.table_reading import table_hands

    bad = [{"seat": 7, "cards": []}, {"seat": True, "cards": []}, "not a hand", hand_entry(1, BOB)]
    hands = table_hands({"hands": [hand_entry(2, CY), *bad, hand_entry(2, DEE)]})
    assert [(h.seat, h.side) for h in hands] == [(1, "left"), (2, "top")]  # seat 2's repeat is left out
    assert hands[1].reading["rows"]["front"] == CY.split(" / ")[0].split()
    for hand in hands:
        x0, y0, x1, y1 = hand.outline
        boxes = [card["box"] for card in hand.reading["cards"]]
        assert x0 < min(b[0] for b in boxes) and y0 < min(b[1] for b in boxes)
        assert x1 > max(b[2] for b in boxes) and y1 > max(b[3] for b in boxes)


def test_the_servers_webcam_takes_the_table_photo(client, monkeypatch):
    from webapp.views import table as table_views
    from webapp_testkit import jpeg_bytes

    monkeypatch.setattr(table_views, "capture_jpeg", lambda device: jpeg_bytes(seed=7))
    use_table_reader(monkeypatch, table_reading(SEATED))
    token = create_game(client, FOUR)
    number = new_round(client, token)
    shot = client.post(f"/g/{token}/r/{number}/table/webcam", data={"csrf_token": csrf_token(client)})
    assert re.search(r"/table/\d+$", shot.headers["Location"])
    kept = round_json(client, token, number)["uploads"]
    assert [(u["player"], u["source"]) for u in kept] == [("", "webcam")]  # the table photo, no hand yet
    api_shot = client.post(f"/api/games/{token}/rounds/{number}/table-webcam")
    assert api_shot.status_code == 202 and api_shot.get_json()["needs_seats"] is True  # the seats are still unknown


def test_saving_the_seats_goes_back_only_to_a_page_of_this_game(client):
    token = create_game(client, FOUR)
    page = f"/g/{token}/seats"
    for target, expected in ((f"/g/{token}/r/1/table", f"/g/{token}/r/1/table"),
                             ("https://elsewhere.example/", f"/g/{token}"), (f"/g/{token}//evil", f"/g/{token}")):
        saved = client.post(page, data={"csrf_token": csrf_token(client, page), "seat0": "Ann", "next": target})
        assert saved.status_code == 303 and saved.headers["Location"].endswith(expected)
    assert client.get(f"/api/games/{token}/table-seats").get_json()["seats"] == {"0": "Ann"}
