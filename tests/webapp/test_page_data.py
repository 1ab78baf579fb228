"""The page's own data: who pays whom in the fewest payments (exact), the one "sure" flag per card, and whether the
server-webcam button is offered."""
from __future__ import annotations

from fractions import Fraction
from itertools import permutations

from webapp import reader
from webapp.settlement_view import money_text, settlement_view, transfers


def _settles(money: dict[str, str], payments: list[dict[str, str]]) -> bool:
    """Every balance is exactly zero once the payments are made."""
    left = {name: Fraction(value) for name, value in money.items()}
    for p in payments:
        amount = Fraction(p["amount"].split(" ")[0])
        assert amount > 0
        left[p["from"]] += amount
        left[p["to"]] -= amount
    return all(v == 0 for v in left.values())


def test_two_separate_debts_take_two_payments_not_three():
    money = {"Ann": "5", "Bob": "-3", "Cy": "3", "Dee": "-5"}
    payments = transfers(money)
    assert len(payments) == 2
    assert {(p["from"], p["to"], p["amount"]) for p in payments} == {("Dee", "Ann", "5"), ("Bob", "Cy", "3")}


def test_payments_are_exact_and_fewest_for_every_order_of_players():
    money = {"Ann": "1.5", "Bob": "-1", "Cy": "2", "Dee": "-2.5"}
    for order in permutations(money):
        payments = transfers({name: money[name] for name in order})
        assert _settles(money, payments)
        assert len(payments) == 3  # no two players' money adds up to zero: n - 1


def test_thirds_stay_exact():
    money = {"Ann": "4/3", "Bob": "-2/3", "Cy": "-2/3"}
    payments = transfers(money)
    assert _settles(money, [{**p, "amount": "2/3"} for p in payments])
    assert all(p["amount"].startswith("2/3") for p in payments)


def test_nobody_pays_when_everyone_is_even():
    assert transfers({"Ann": "0", "Bob": 0}) == []


def test_money_text_is_exact():
    assert money_text(Fraction(3, 2)) == "1.5"
    assert money_text(Fraction(-1, 8)) == "-0.125"
    assert money_text(Fraction(7)) == "7"
    assert money_text(Fraction(2, 3)).startswith("2/3")


def test_settlement_view_carries_the_payments():
    view = settlement_view({"net": {"Ann": 4, "Bob": -4}, "money": {"Ann": "8", "Bob": "-8"}}, ["Ann", "Bob"])
    assert view["transfers"] == [{"from": "Bob", "to": "Ann", "amount": "8"}]


def test_one_sure_flag_per_card_from_the_reader_or_its_threshold():
    cards = [{"code": "JS", "confidence": 0.68}, {"code": "QS", "confidence": reader.LOW_CONFIDENCE},
             {"code": "KS", "confidence": 0.95, "sure": False}, {"code": "AS", "confidence": 0.4, "sure": True}]
    summary = reader.summarise({"cards": cards, "rows": None, "warnings": []})
    assert [c["sure"] for c in summary["cards"]] == [False, True, False, True]


def test_the_webcam_button_needs_a_camera_configured_and_found(tmp_path):
    from webapp import webcam

    assert not webcam.available("")
    assert not webcam.available("none")
    assert not webcam.available(str(tmp_path / "video7"))  # configured, not plugged in
    plugged = tmp_path / "video0"
    plugged.write_bytes(b"")
    assert webcam.available(str(plugged))
    assert webcam.available("rtsp://camera.local/table")  # only a shot can tell: offered


def test_the_hand_page_offers_the_table_camera_only_when_it_is_there(app_config, tmp_path):
    from webapp import create_app
    from webapp.db import get_engine
    from webapp_testkit import create_game, new_round

    plugged = tmp_path / "video0"
    plugged.write_bytes(b"")
    for device, offered in (("", False), (str(tmp_path / "video9"), False), (str(plugged), True)):
        app = create_app({**app_config, "WEBCAM_DEVICE": device})
        client = app.test_client()
        token = create_game(client)
        number = new_round(client, token)
        page = client.get(f"/g/{token}/r/{number}/p/0").get_data(as_text=True)
        assert ('id="webcam-shot"' in page) is offered, device
        get_engine(app).dispose()


CHANGES = [  # (kind, whose hand, detail) for every kind of change the round records
    ("create", None, {}), ("read", "Ann", {"source": "photo"}), ("read", "Ann", {"source": "webcam"}),
    ("manual", "Ann", {}), ("manual", "Bob", {}), ("correct", "Ann", {"row": "front", "before": None, "after": "7S"}),
    ("correct", "Ann", {"row": "back", "before": "2S", "after": "TH"}),
    ("remove", "Ann", {"row": "middle", "before": "KC"}),
    ("move", "Ann", {"card": "7S", "from_row": "middle", "to_row": "back"}),
    ("move", "Ann", {"card": "7S", "from_row": "back", "to_row": "back"}),
    ("swap_cards", "Ann", {"a": "2S", "b": "4H"}), ("swap", "Ann", {"rows": ["middle", "back"]}),
    ("fix", "Ann", {"moved": 4}), ("surrender", "Ann", {}), ("unsurrender", "Ann", {}),
    ("natural", "Ann", {"declared": True}), ("natural", "Ann", {"declared": False}), ("out", "Ann", {}),
    ("not_out", "Ann", {}), ("instant_win", "Ann", {}), ("no_instant_win", "Ann", {}), ("details", None, {}),
    ("settle", None, {"revision": 1}), ("settle", None, {"revision": 2}), ("reopen", None, {}),
]


def test_every_change_line_reads_in_chinese(app):
    """The change lines the server writes in English read in Chinese, whatever the change (undo included)."""
    import re

    from flask import session

    from webapp.change_text import change_text
    from webapp.models import RoundEvent
    from webapp.rounds.changes import describe

    events = [RoundEvent(id=i + 1, kind=kind, player=player, actor="Bob", detail=detail)
              for i, (kind, player, detail) in enumerate(CHANGES)]
    by_id = {e.id: e for e in events}
    events.append(RoundEvent(id=99, kind="undo", player=None, actor="Cy", detail={"reverts": 7}))
    lines = [describe(e, by_id) for e in events]
    for lang in ("zh-Hant", "zh-Hans"):
        with app.test_request_context("/"):
            session["lang"] = lang
            for line in lines:
                chinese = change_text(line)
                leftover = re.sub(r"\b(Ann|Bob|Cy|10|[2-9AKQJ])\b|[♠♥♦♣]", "", chinese)
                assert not re.search(r"[A-Za-z]{2,}", leftover), (line, chinese)
    with app.test_request_context("/"):
        session["lang"] = "zh-Hant"
        assert change_text("Bob moved 7♠ from Ann's middle to back") == "Bob 把 7♠ 從 Ann 的中道移到尾道"
        assert change_text("Ann typed their cards") == "Ann 輸入了自己的牌"
        assert change_text("Someone started the round") == "有人 開了這一局"
        session["lang"] = "en"
        assert change_text("Ann typed their cards") == "Ann typed their cards"
