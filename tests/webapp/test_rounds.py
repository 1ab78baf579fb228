"""Rounds through the pages: manual entry, corrections, swaps, warnings, settling, re-opening, export."""
from __future__ import annotations

import csv
import io
import json
from fractions import Fraction

from sqlalchemy import func, select

from webapp.db import get_session
from webapp.models import Round, RoundEvent

from webapp_testkit import ANN, BOB, CY, create_game, csrf_token, enter_rows, new_round, round_etag


def _events(app, kind: str) -> list[RoundEvent]:
    with app.app_context():
        return list(get_session().scalars(select(RoundEvent).where(RoundEvent.kind == kind)))


def _round_json(client, token: str, number: int) -> dict:
    return client.get(f"/api/games/{token}/rounds/{number}").get_json()


def test_double_submitted_new_round_makes_one_round(client, app):
    token = create_game(client)
    first = new_round(client, token, key="same")
    again = new_round(client, token, key="same")
    other = new_round(client, token, key="different")
    assert first == again == 1 and other == 2
    with app.app_context():
        assert get_session().scalar(select(func.count(Round.id))) == 2


def test_manual_entry_then_settle(client):
    token = create_game(client)
    number = new_round(client, token)
    assert enter_rows(client, token, number, 0, ANN).status_code == 303
    page = client.get(f"/g/{token}/r/{number}").get_data(as_text=True)
    assert 'id="settle" disabled' in page  # Bob has no cards yet
    assert enter_rows(client, token, number, 1, BOB).status_code == 303
    data = _round_json(client, token, number)
    assert data["ready"] is True
    response = client.post(f"/g/{token}/r/{number}/settle", data={"if_match": round_etag(client, token, number),
                                                                  "csrf_token": csrf_token(client)})
    assert response.status_code == 303
    data = _round_json(client, token, number)
    assert data["status"] == "settled"
    net = data["settlement"]["net"]
    assert set(net) == {"Ann", "Bob"} and sum(float(v) for v in net.values()) == 0
    assert float(net["Bob"]) > 0  # Bob's rows beat Ann's in every row
    page = client.get(f"/g/{token}/r/{number}").get_data(as_text=True)
    assert 'id="settlement"' in page


def test_bad_manual_entry_is_shown_and_changes_nothing(client):
    token = create_game(client)
    number = new_round(client, token)
    response = enter_rows(client, token, number, 0, "AS KS / QS JS TS 9S 8S / 2C 3C 4C 5C 6C")
    assert response.status_code == 400
    assert "front row needs 3 cards" in response.get_data(as_text=True)
    response = enter_rows(client, token, number, 0, "AS KS ZZ / QS JS TS 9S 8S / 2C 3C 4C 5C 6C")
    assert response.status_code == 400 and "ZZ" in response.get_data(as_text=True)
    assert _round_json(client, token, number)["hands"][0]["state"] == "empty"


def test_same_card_for_two_players_blocks_settling(client):
    token = create_game(client)
    number = new_round(client, token)
    enter_rows(client, token, number, 0, ANN)
    enter_rows(client, token, number, 1, BOB.replace("QS", "2S"))  # 2S is Ann's
    data = _round_json(client, token, number)
    assert not data["ready"]
    texts = [w["text"] for h in data["hands"] for w in h["warnings"]]
    assert any("2S was also read for Bob" in t for t in texts)
    assert any("2S was also read for Ann" in t for t in texts)
    response = client.post(f"/g/{token}/r/{number}/settle", data={"if_match": round_etag(client, token, number),
                                                                  "csrf_token": csrf_token(client)})
    assert _round_json(client, token, number)["status"] == "open"
    assert "before settling" in client.get(response.headers["Location"]).get_data(as_text=True)


def test_correct_a_card_and_swap_rows_are_recorded(client, app):
    token = create_game(client)
    number = new_round(client, token)
    enter_rows(client, token, number, 0, ANN.replace("9D", "9S"))
    base = f"/g/{token}/r/{number}/p/0"
    response = client.post(f"{base}/correct", data={"csrf_token": csrf_token(client), "row": "front", "index": "2",
                                                    "code": "9d"})
    assert response.status_code == 303
    hand = _round_json(client, token, number)["hands"][0]
    assert hand["front"] == ["2S", "7H", "9D"]
    client.post(f"{base}/swap", data={"csrf_token": csrf_token(client), "rows": "middle,back"})
    hand = _round_json(client, token, number)["hands"][0]
    assert hand["middle"] == ANN.split(" / ")[2].split() and hand["back"] == ANN.split(" / ")[1].split()
    corrections = _events(app, "correct")
    assert [(e.detail["before"], e.detail["after"]) for e in corrections] == [("9S", "9D")]
    assert _events(app, "swap")[0].detail["rows"] == ["middle", "back"]
    page = client.get(f"/g/{token}/r/{number}").get_data(as_text=True)
    assert "9S → 9D" in page


def test_double_submitted_settle_settles_once(client, app):
    token = create_game(client)
    number = new_round(client, token)
    enter_rows(client, token, number, 0, ANN)
    enter_rows(client, token, number, 1, BOB)
    token_value = csrf_token(client)
    for _ in range(3):
        client.post(f"/g/{token}/r/{number}/settle", data={"if_match": round_etag(client, token, number),
                                                           "csrf_token": token_value})
    assert len(_events(app, "settle")) == 1
    data = client.get(f"/api/games/{token}").get_json()
    assert len(data["rounds"]) == 1 and data["rounds"][0]["status"] == "settled"


def test_reopen_correct_resettle_records_the_change(client, app):
    token = create_game(client, players=("Ann", "Bob", "Cy"))
    number = new_round(client, token)
    for seat, rows in enumerate((ANN, BOB, CY)):
        enter_rows(client, token, number, seat, rows)
    client.post(f"/g/{token}/r/{number}/settle", data={"if_match": round_etag(client, token, number),
                                                       "csrf_token": csrf_token(client)})
    before = _round_json(client, token, number)["settlement"]["net"]
    # Settled rounds refuse changes until re-opened.
    refused = enter_rows(client, token, number, 1, CY)
    assert refused.status_code == 409
    client.post(f"/g/{token}/r/{number}/reopen", data={"csrf_token": csrf_token(client)})
    client.post(f"/g/{token}/r/{number}/p/1/surrender", data={"csrf_token": csrf_token(client), "value": "1"})
    client.post(f"/g/{token}/r/{number}/settle", data={"if_match": round_etag(client, token, number),
                                                       "csrf_token": csrf_token(client)})
    data = _round_json(client, token, number)
    assert data["revision"] == 2 and data["hands"][1]["state"] == "surrender"
    assert data["settlement"]["net"] != before
    kinds = [e["kind"] for e in data["events"]]
    assert kinds.count("settle") == 2 and "reopen" in kinds and "surrender" in kinds
    last = [e for e in data["events"] if e["kind"] == "settle"][-1]
    assert last["detail"]["previous_net"] == before


def test_history_totals_chart_and_exports(client):
    token = create_game(client)
    for key in ("r1", "r2"):
        number = new_round(client, token, key)
        enter_rows(client, token, number, 0, ANN)
        enter_rows(client, token, number, 1, BOB)
        client.post(f"/g/{token}/r/{number}/settle", data={"if_match": round_etag(client, token, number),
                                                           "csrf_token": csrf_token(client)})
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert 'id="standings-chart"' in page and page.count("<polyline") == 2
    exported = json.loads(client.get(f"/g/{token}/export.json").get_data(as_text=True))
    assert [r["number"] for r in exported["rounds"]] == [1, 2]
    per_round = float(exported["rounds"][0]["settlement"]["net"]["Bob"])
    rows = list(csv.DictReader(io.StringIO(client.get(f"/g/{token}/export.csv").get_data(as_text=True))))
    assert len(rows) == 4
    bob_rows = [r for r in rows if r["player"] == "Bob"]
    assert float(bob_rows[1]["total_points"]) == 2 * per_round
    assert bob_rows[0]["front"] == "QS QD 5S"


def test_settlement_shows_hand_names_in_english_and_both_chinese_scripts(client):
    token = create_game(client)
    number = new_round(client, token)
    enter_rows(client, token, number, 0, ANN)
    enter_rows(client, token, number, 1, BOB)
    client.post(f"/g/{token}/r/{number}/settle", data={"if_match": round_etag(client, token, number),
                                                       "csrf_token": csrf_token(client)})
    english = client.get(f"/g/{token}/r/{number}").get_data(as_text=True)
    assert "Full house" in english and "葫蘆" in english
    client.post("/lang", data={"csrf_token": csrf_token(client), "lang": "zh-Hans"})
    simplified = client.get(f"/g/{token}/r/{number}").get_data(as_text=True)
    assert "葫芦" in simplified and "两对" in simplified and "葫蘆" not in simplified
    client.post("/lang", data={"csrf_token": csrf_token(client), "lang": "zh-Hant"})
    traditional = client.get(f"/g/{token}/r/{number}").get_data(as_text=True)
    assert "兩對" in traditional and "结算" not in traditional and "結算" in traditional


def test_stake_and_per_pair_stakes_reach_the_money(client):
    token = create_game(client, players=("Ann", "Bob", "Cy"), stake="0.5", pair_stakes="Ann-Bob=2")
    number = new_round(client, token)
    for seat, rows in enumerate((ANN, BOB, CY)):
        enter_rows(client, token, number, seat, rows)
    client.post(f"/g/{token}/r/{number}/settle", data={"if_match": round_etag(client, token, number),
                                                       "csrf_token": csrf_token(client)})
    pairs = {tuple(p["players"]): p for p in _round_json(client, token, number)["settlement"]["pairs"]}
    ann_bob = pairs[("Ann", "Bob")]
    assert str(ann_bob["stake"]) == "2"
    assert float(ann_bob["money"]["Bob"]) == 2 * float(ann_bob["net"]["Bob"])
    ann_cy = pairs[("Ann", "Cy")]
    assert Fraction(str(ann_cy["money"]["Cy"])) == Fraction(1, 2) * Fraction(str(ann_cy["net"]["Cy"]))


def test_review_warnings_follow_the_language(client):
    token = create_game(client)
    number = new_round(client, token)
    enter_rows(client, token, number, 0, ANN)
    enter_rows(client, token, number, 1, BOB.replace("QS", "2S"))
    assert "2S was also read for Bob." in client.get(f"/g/{token}/r/{number}").get_data(as_text=True)
    client.post("/lang", data={"csrf_token": csrf_token(client), "lang": "zh-Hant"})
    page = client.get(f"/g/{token}/r/{number}").get_data(as_text=True)
    assert "2S 也在 Bob 的牌裡讀到。" in page and "was also read" not in page
    client.post(f"/g/{token}/r/{number}/p/0/remove", data={"csrf_token": csrf_token(client), "row": "front",
                                                          "index": "0"})
    client.post("/lang", data={"csrf_token": csrf_token(client), "lang": "zh-Hans"})
    assert "头道少了 1 张牌。" in client.get(f"/g/{token}/r/{number}").get_data(as_text=True)


def test_two_settles_at_the_same_moment_record_one_settlement(app, client):
    import threading

    token = create_game(client)
    number = new_round(client, token)
    enter_rows(client, token, number, 0, ANN)
    enter_rows(client, token, number, 1, BOB)
    tabs = [app.test_client() for _ in range(2)]
    tokens = [csrf_token(tab) for tab in tabs]
    barrier = threading.Barrier(2)
    codes: list[int] = []

    def settle(i: int) -> None:
        barrier.wait()
        codes.append(tabs[i].post(f"/g/{token}/r/{number}/settle", data={"if_match": round_etag(tabs[i], token, number),
                                                                         "csrf_token": tokens[i]}).status_code)

    threads = [threading.Thread(target=settle, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert codes == [303, 303]
    assert len(_events(app, "settle")) == 1
    assert _round_json(client, token, number)["revision"] == 1
