"""A whole-table photo's own warnings (vision.table, vision.table_closer: a code read twice, a card deduced, a card in
no hand, a card another seat's closer read took) read in Chinese on the Chinese pages, in both scripts, with the
seats named as the seats page names them; English pages show them as vision wrote them. The warnings are made by the
vision code itself on small hands, so a change of their wording there is noticed here."""
from __future__ import annotations

import re

import cv2
import numpy as np
import pytest

from vision import table_closer
from vision.cards import Card, IndexReading
from vision.crops import CARD_CODES
from vision.results import ReadResult
from vision.table import NOT_IN_A_HAND, one_deck, repeats_warned, table_of

CODE = re.compile(r"\b[2-9TJQKA][SHDC]\b")
LEAD_INS = {"zh-Hant": "出錯了", "zh-Hans": "出错了"}


def rows_hand(seat: int, codes: list[str]) -> dict:
    cards = [{"code": c, "confidence": 0.99, "sure": True, "alternatives": [], "box": [0, 0, 20, 40],
              "row": "front" if j < 3 else "middle" if j < 8 else "back"} for j, c in enumerate(codes)]
    return {"seat": seat, "cards": cards, "rows": {"front": codes[:3], "middle": codes[3:8], "back": codes[8:]},
            "warnings": []}


def deduced_warnings() -> list[str]:
    """vision.table.one_deck on a whole deck with one code read twice (the code no card was read deduced), and on
    three hands (its likeliest other code deduced): the renamed copy's hand and the other copy's hand are warned."""
    hands = [CARD_CODES[13 * k:13 * k + 13] for k in range(4)]
    misread = hands[3][:12] + [hands[0][5]]
    table = {"hands": [rows_hand(k, hands[k]) for k in range(3)] + [rows_hand(3, misread)], "unassigned": [],
             "warnings": []}
    table["hands"][3]["cards"][12].update(confidence=0.8, sure=False,
                                          alternatives=[{"code": hands[3][12], "confidence": 0.15}])
    whole = one_deck(table)
    three = one_deck(dict(table, hands=[table["hands"][k] for k in (0, 1, 3)]))
    return [w for read in (whole, three) for hand in read["hands"] for w in hand["warnings"]]


def repeat_warnings() -> list[str]:
    """vision.table.repeats_warned: a code in two seats, in a seat and in no hand, in three seats."""
    def hand(seat: int, codes: list[str]) -> dict:
        return {"seat": seat, "cards": [{"code": c} for c in codes], "rows": None, "warnings": []}

    table = {"hands": [hand(0, ["AS", "KH", "7D"]), hand(1, ["KH", "2C", "7D"]), hand(2, ["7D"])],
             "unassigned": [{"code": "2C"}], "warnings": []}
    return [w for hand in repeats_warned(table)["hands"] for w in hand["warnings"]]


def index(code: str, x: float, y: float, probability: float = 0.99, unnamed: bool = False) -> IndexReading:
    return IndexReading((x, y, x + 20.0, y + 40.0), code, probability, 0.9, unnamed=unnamed)


def loose_table_warnings() -> list[str]:
    """vision.table.table_of on a loose read: a seat of six cards (one named unsurely, an unnamed box beside them)
    and a card lying apart from it, in no hand."""
    seat = [index(code, 1000.0 + 30 * k, 1000.0, 0.5 if k == 2 else 0.99) for k, code in enumerate(CARD_CODES[:6])]
    apart = index("QH", 1000.0, 1400.0)
    unnamed = index("9S", 1000.0 + 30 * 6, 1000.0, 0.08, unnamed=True)
    cards = [Card(r.code, [r]) for r in seat + [apart]]
    read = table_of(ReadResult(cards, None, [], 1.0, readings=seat + [apart, unnamed]), (4000, 3000), loose=True)
    return read["warnings"] + [w for hand in read["hands"] for w in hand["warnings"]]


class StandInReader:
    """Reads every region as the same hand of 13 in rows, surely (vision.table_closer's closer look)."""

    def __init__(self, codes: list[str]):
        self.codes = codes

    def read(self, data: bytes, loose: bool = False):
        h, w = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR).shape[:2]
        cards = [{"code": code, "confidence": 0.95, "box": [w // 2 - 60 + 10 * k, h // 2, w // 2 - 40 + 10 * k,
                                                             h // 2 + 40], "row": None, "sure": True,
                  "alternatives": []} for k, code in enumerate(self.codes)]
        rows = {"front": self.codes[:3], "middle": self.codes[3:8], "back": self.codes[8:]}
        return type("Read", (), {"to_dict": lambda _: {"cards": cards, "rows": rows, "warnings": []}})()


def closer_warnings(monkeypatch) -> list[str]:
    """vision.table_closer.closer_looks: a short hand read closer takes back the card another seat was filled with
    unsurely; both hands are warned (the other one of its count too)."""
    monkeypatch.setattr(table_closer, "quick", lambda reader: reader)
    monkeypatch.setattr(table_closer, "EMPTY_SEAT_LOOKS", False)
    codes = CARD_CODES[:13]

    def placed(seat: int, hand_codes: list[str], y: float) -> dict:
        hand = rows_hand(seat, hand_codes)
        for k, card in enumerate(hand["cards"]):
            card["box"] = [800.0 + 30 * k, y, 820.0 + 30 * k, y + 40]
        hand["warnings"] = [] if len(hand_codes) == 13 else [f"expected 13 cards, found {len(hand_codes)}"]
        return hand

    short, filled = placed(0, codes[:12], 1100.0), placed(2, CARD_CODES[13:25] + codes[12:13], 100.0)
    filled["cards"][-1].update(confidence=0.45, sure=False)
    photo = cv2.imencode(".jpg", np.full((1500, 2000, 3), 90, np.uint8))[1].tobytes()
    read = table_closer.closer_looks(StandInReader(codes), photo, {"hands": [short, filled], "unassigned": [],
                                                                    "warnings": []})
    return [w for hand in read["hands"] for w in hand["warnings"]]


@pytest.fixture
def table_warnings(monkeypatch) -> list[str]:
    warnings = deduced_warnings() + repeat_warnings() + loose_table_warnings() + closer_warnings(monkeypatch)
    shapes = [" deduced: read as ", "; no card read ", "; its likeliest other code, no card read ",
              ": read too in seat ", "card seen twice: ", " and no hand: ", " and seat 2: ", f"{NOT_IN_A_HAND}: ",
              "left out unsure marks: ", "low confidence: ", "expected 13 cards, found ",
              "'s hand read closer names it surely", " also read, unsurely, in seat "]
    missing = [shape for shape in shapes if not any(shape in w for w in warnings)]
    assert not missing, (missing, warnings)  # each shape was made by the vision code
    return list(dict.fromkeys(warnings))


def english_left(said: str) -> list[str]:
    return re.findall(r"[A-Za-z]{2,}", CODE.sub("", said))


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans"])
def test_every_table_photo_warning_reads_in_chinese(app, table_warnings, lang):
    from flask import session

    from webapp.error_text import error_text
    from webapp.rounds.table_photos import no_hand_problem

    with app.test_request_context("/"):  # one language a request (Flask-Babel keeps the request's locale)
        session["lang"] = lang
        assert error_text("an English line of no known form").startswith(LEAD_INS[lang])
        for warning in table_warnings:
            said = error_text(warning)
            assert not said.startswith(LEAD_INS[lang]) and not english_left(said), (warning, said)
            assert set(CODE.findall(said)) == set(CODE.findall(warning)), (warning, said)  # the cards it names
        # no hand found: the photo's warnings each said in Chinese, a card in no hand's advice with its line
        photo = {"hands": [], "warnings": [w for w in table_warnings if w.startswith(NOT_IN_A_HAND)] * 2}
        said = error_text(no_hand_problem(photo))
        assert not english_left(said), said


@pytest.mark.parametrize("lang, script_words", [("zh-Hant", ("右方座位", "上方座位的牌", "讀成")),
                                                ("zh-Hans", ("右方座位", "上方座位的牌", "读成"))])
def test_seats_and_confidence_are_named_as_the_pages_name_them(app, lang, script_words):
    """Seat numbers as the seats page names the sides (0 bottom, 1 left, 2 top, 3 right); confidence in percent."""
    from flask import session

    from webapp.error_text import error_text

    with app.test_request_context("/"):
        session["lang"] = lang
        read_too = error_text("KS: read too in seat 3, taken there for another card: check it")
        closer = error_text("KS left out: seat 2's hand read closer names it surely, here it was unsure")
        deduced = error_text("JS deduced: read as JC (0.83), a card seat 1 holds too; no card read JS: check it")
        repeated = error_text("card seen twice: 7D in seat 0 and seat 1 and no hand: one of them is another card")
    assert script_words[0] in read_too and script_words[1] in closer and script_words[2] in deduced
    assert "左方座位" in deduced and "83%" in deduced
    assert "下方座位" in repeated and "左方座位" in repeated and "手牌以外" in repeated


def test_english_pages_show_the_warnings_as_written(app, table_warnings):
    from flask import session

    from webapp.error_text import error_text

    with app.test_request_context("/"):
        session["lang"] = "en"
        assert [error_text(w) for w in table_warnings] == table_warnings


def listed(html: str, list_id: str) -> str:
    found = re.search(rf'<ul class="warnings" id="{list_id}">(.*?)</ul>', html, re.DOTALL)
    assert found, list_id
    return re.sub(r"<[^>]+>", " ", found[1])


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans"])
def test_the_seats_page_and_the_round_page_say_the_photos_warnings_in_chinese(client, monkeypatch, lang):
    """The photo's own warnings (a card in no hand, the reader's own: a card seen twice far apart), a hand's (a copy
    renamed in another seat) and the hand the round did not use, on the seats page and the round's table panel."""
    from table_testkit import post_table_photo, table_reading, use_table_reader
    from webapp_testkit import ANN, BOB, CY, DEE, create_game, csrf_token, new_round

    in_no_hand = f"{NOT_IN_A_HAND}: 9S at [700, 500, 720, 540] lies apart from every hand; add it to its hand by hand"
    read_too = "AS: read too in seat 2, taken there for another card: check it"
    reading = table_reading({0: ANN, 1: BOB, 2: CY, 3: DEE},
                            warnings=[in_no_hand, "card seen twice: 9S appears 2 times far apart"],
                            hand_warnings={0: [read_too]})
    use_table_reader(monkeypatch, reading)
    client.post("/lang", data={"csrf_token": csrf_token(client), "lang": lang})
    token = create_game(client, ("Ann", "Bob", "Cy", "Dee"))
    number = new_round(client, token)
    seat_page = post_table_photo(client, token, number).headers["Location"]
    said = listed(client.get(seat_page).get_data(as_text=True), "table-warnings")
    assert "9S" in said and not english_left(said), said
    client.post(seat_page, data={"csrf_token": csrf_token(client, seat_page), "seat0": "Ann", "seat1": "Bob",
                                 "seat2": "Cy", "seat3": ""})  # the right seat's hand: nobody, not used
    html = client.get(f"/g/{token}/r/{number}").get_data(as_text=True)
    said = listed(html, "table-fill-warnings")
    assert "9S" in said and "右方" in said and not english_left(said), said
    assert {"zh-Hant": "AS：上方座位也讀到這張牌", "zh-Hans": "AS：上方座位也读到这张牌"}[lang] in html  # Ann's note
    assert read_too not in html
