"""The reader's unsure marks offered for a hand's free place with one tap (webapp.rounds.suggestions)."""
import re

from webapp_testkit import create_game, csrf_token, hand_read_from_photo, reading_of

ROWS = {"front": ["AS", "KS", "QS"], "middle": ["2C", "2D", "9H", "9S", "4C"], "back": ["3H", "4H", "5H", "6H"]}
UNSURE = "left out unsure marks: 7H? (0.41), AS? (0.38), 8D? (0.30)"


def _offered(page: str) -> list[tuple[str, str, str]]:
    """(row, index, code) of each suggestion button on the hand page."""
    section = re.search(r'<div class="suggest" id="suggestions">(.*?)</div>', page, re.S)
    if section is None:
        return []
    return re.findall(r'name="row" value="(\w+)"><input type="hidden" name="index" value="(\d+)">\s*'
                      r'<button[^>]*name="code" value="(\w+)"', section.group(1))


def test_unsure_marks_are_offered_for_the_free_place_surest_first_and_one_tap_adds_one(client, monkeypatch):
    token, number = hand_read_from_photo(client, monkeypatch, reading_of(ROWS, [UNSURE]))
    page = client.get(f"/g/{token}/r/{number}/p/0").get_data(as_text=True)
    # AS is already in the hand: not offered; the back row is the one short of a card
    assert _offered(page) == [("back", "4", "7H"), ("back", "4", "8D")]
    response = client.post(f"/g/{token}/r/{number}/p/0/correct", data={
        "csrf_token": csrf_token(client), "row": "back", "index": "4", "code": "7H"})
    assert response.status_code == 303
    hand = client.get(f"/api/games/{token}/rounds/{number}").get_json()["hands"][0]
    assert hand["back"] == ["3H", "4H", "5H", "6H", "7H"]
    page = client.get(f"/g/{token}/r/{number}/p/0").get_data(as_text=True)
    assert _offered(page) == []  # the hand is full


def test_nothing_is_offered_without_unsure_marks_or_a_free_place(client, monkeypatch):
    token, number = hand_read_from_photo(client, monkeypatch, reading_of(ROWS, []))
    assert _offered(client.get(f"/g/{token}/r/{number}/p/0").get_data(as_text=True)) == []
    full = dict(ROWS, back=ROWS["back"] + ["7H"])
    token, number = hand_read_from_photo(client, monkeypatch, reading_of(full, [UNSURE]))
    assert _offered(client.get(f"/g/{token}/r/{number}/p/0").get_data(as_text=True)) == []


def test_a_card_another_hand_holds_is_not_offered(client, monkeypatch):
    from webapp_testkit import enter_rows

    token, number = hand_read_from_photo(client, monkeypatch, reading_of(ROWS, [UNSURE]))
    response = enter_rows(client, token, number, 1, "8D 8C 8S / 3C 3D 3S 4D 4S / 5C 5D 5S 6C 6D")
    assert response.status_code == 303
    assert _offered(client.get(f"/g/{token}/r/{number}/p/0").get_data(as_text=True)) == [("back", "4", "7H")]


def test_the_offer_is_translated(client, monkeypatch):
    token, number = hand_read_from_photo(client, monkeypatch, reading_of(ROWS, [UNSURE]))
    client.post("/lang", data={"csrf_token": csrf_token(client), "lang": "zh-Hant"})
    page = client.get(f"/g/{token}/r/{number}/p/0").get_data(as_text=True)
    assert "缺牌？讀取時不確定的牌如下" in page and _offered(page)


def test_big_two_cards_left_are_offered_the_unsure_marks_too(client, monkeypatch):
    reading = reading_of({"cards": ["3D", "4C", "KH"]}, ["left out unsure marks: 2S? (0.52)"])
    token = create_game(client, players=("Ann", "Bob", "Cy"), preset="bigtwo-hk", game="bigtwo")
    token, number = hand_read_from_photo(client, monkeypatch, reading, token=token, seat=1)
    page = client.get(f"/g/{token}/r/{number}/p/1").get_data(as_text=True)
    assert _offered(page) == [("cards", "3", "2S")]
    client.post(f"/g/{token}/r/{number}/p/1/correct", data={
        "csrf_token": csrf_token(client), "row": "cards", "index": "3", "code": "2S"})
    assert client.get(f"/api/games/{token}/rounds/{number}").get_json()["hands"][1]["cards"] == ["3D", "4C", "KH", "2S"]


def _next_guesses(page: str) -> dict[str, str]:
    """Each card button's code on the hand page with its data-alternatives (the reader's runner-ups offered)."""
    return dict(re.findall(r'data-code="(\w+)" data-alternatives="([\w ]*)"', page))


def test_a_cards_runner_up_codes_are_offered_when_it_is_tapped_unless_another_hand_holds_them(client, monkeypatch):
    from webapp_testkit import enter_rows

    full = dict(ROWS, back=ROWS["back"] + ["7H"])
    reading = reading_of(full, [])
    seven = next(card for card in reading["cards"] if card["code"] == "7H")
    # 2C is in this hand, 8D will be in Bob's; "XX" and a bare number are not card codes; AD is the fifth valid one
    seven["alternatives"] = [{"code": "7D", "confidence": 0.2}, {"code": "2C", "confidence": 0.1},
                             {"code": "XX", "confidence": 0.05}, "8d", {"code": 7}, {"code": "TH", "confidence": 0.01},
                             {"code": "AD", "confidence": 0.005}]
    token, number = hand_read_from_photo(client, monkeypatch, reading)
    guesses = _next_guesses(client.get(f"/g/{token}/r/{number}/p/0").get_data(as_text=True))
    assert guesses["7H"] == "7D 2C 8D"  # the first three valid codes; 2C is this hand's own
    assert guesses["AS"] == ""  # read without runner-ups
    assert enter_rows(client, token, number, 1, "8D 8C 8S / 3C 3D 3S 4D 4S / 5C 5D 5S 6C 6D").status_code == 303
    assert _next_guesses(client.get(f"/g/{token}/r/{number}/p/0").get_data(as_text=True))["7H"] == "7D 2C TH"


def test_a_card_the_second_look_doubts_is_marked_and_offers_its_code_first(client, monkeypatch):
    full = dict(ROWS, back=ROWS["back"] + ["7H"])
    reading = reading_of(full, ["second look doubts: KS (KD? 0.62), 9H (none? 0.55)"])
    king = next(card for card in reading["cards"] if card["code"] == "KS")
    king["alternatives"] = [{"code": "KC", "confidence": 0.02}, {"code": "KD", "confidence": 0.01}]
    token, number = hand_read_from_photo(client, monkeypatch, reading)
    page = client.get(f"/g/{token}/r/{number}/p/0").get_data(as_text=True)
    guesses = _next_guesses(page)
    assert guesses["KS"] == "KD KC"  # the second look's code first, once
    assert guesses["9H"] == ""  # `none` is no card to offer
    marked = set(re.findall(r'class="card[^"]*\bunsure\b[^"]* fix" data-row="\w+" data-index="\d+" data-code="(\w+)"', page))
    assert marked == {"KS", "9H"}  # read surely, but doubted: marked for a look like low-confidence cards
