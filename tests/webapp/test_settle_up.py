"""Settle-up (issue 69): the fewest transfers against brute force, marking paid once, ranges of rounds, per-pair
stakes, the API's and the exports' copies, the QR code of the game's link."""
from __future__ import annotations

import csv
import io
import json
import random
import re
from fractions import Fraction
from itertools import permutations

import cv2
import numpy as np
import pytest

from webapp.settle_up import Scope
from webapp.settlement_view import transfers
from webapp_testkit import ANN, BOB, CY, DEE, csrf_token, qr_text


def _partitions(items: list[int]):
    """Every way to split `items` into non-empty groups (plain recursion, independent of the bitmask code)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for split in _partitions(rest):
        yield [[first]] + split
        for i in range(len(split)):
            yield split[:i] + [[first] + split[i]] + split[i + 1:]


def _fewest_by_brute_force(balances: list[Fraction]) -> int:
    """Each group of k players squaring among themselves needs k - 1 payments; try every split of the debtors and
    creditors into groups that each add up to zero."""
    owing = [i for i, v in enumerate(balances) if v != 0]
    best = len(owing)  # never more than one group: len - 1 payments
    for split in _partitions(owing):
        if all(sum(balances[i] for i in group) == 0 for group in split):
            best = min(best, len(owing) - len(split))
    return best


def _random_balances(rng: random.Random, players: int) -> list[Fraction]:
    values = [Fraction(rng.choice([-12, -6, -4, -3, -2, -1, 0, 1, 2, 3, 4, 6, 12]), rng.choice([1, 1, 1, 2, 4]))
              for _ in range(players - 1)]
    return values + [-sum(values)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_fewest_transfers_match_brute_force_and_square_everyone(players):
    rng = random.Random(players)
    names = ["Ann", "Bob", "Cy", "Dee"][:players]
    for _ in range(400):
        balances = _random_balances(rng, players)
        result = transfers(dict(zip(names, (str(v) for v in balances))))
        assert len(result) == _fewest_by_brute_force(balances)
        left = dict(zip(names, balances))
        for t in result:
            amount = Fraction(t["amount"].split(" ")[0])
            assert amount > 0 and left[t["from"]] < 0 < left[t["to"]]  # debtors pay creditors, nothing round-trips
            left[t["from"]] += amount
            left[t["to"]] -= amount
        assert set(left.values()) <= {0}


def test_ties_are_settled_the_same_way_whatever_the_seat_order():
    """The documented rule: a zero-sum pair squares on its own; then the biggest debtor pays the biggest
    creditor; the list runs biggest payment first. The seat order of the players changes nothing."""
    money = {"Ann": "-5", "Bob": "5", "Cy": "-3", "Dee": "3"}
    expected = transfers(money)
    assert expected == [{"from": "Ann", "to": "Bob", "amount": "5"}, {"from": "Cy", "to": "Dee", "amount": "3"}]
    for order in permutations(money):
        assert transfers({name: money[name] for name in order}) == expected


def test_scope_from_the_form_and_back():
    assert Scope.parse("2", "4", 6).key == "2-4"
    assert Scope.parse("5", "2", 6).key == "2-5"  # reversed: swapped
    assert Scope.parse("1", "9", 6).key == "all"  # the whole game
    assert Scope.parse("", "x", 6).key == "all"
    assert Scope.from_key("2-4") == Scope(2, 4) and Scope.from_key("all") == Scope()
    assert Scope.from_key("4-2") is None and Scope.from_key("0-1") is None and Scope.from_key("x") is None


def _game_with_rounds(client, rounds: int = 2, pair_stake: str | None = "2") -> str:
    body = {"players": ["Ann", "Bob", "Cy", "Dee"], "rules": "2-4", "title": "Friday 星期五 / night"}
    if pair_stake:
        body["pair_stakes"] = [{"players": ["Ann", "Bob"], "per_point": pair_stake}]
    token = client.post("/api/games", json=body).get_json()["token"]
    hands = [{"Ann": ANN, "Bob": BOB, "Cy": CY, "Dee": DEE}, {"Ann": BOB, "Bob": ANN, "Cy": DEE, "Dee": CY}]
    for number in range(rounds):
        made = client.post(f"/api/games/{token}/rounds", json={"hands": hands[number % 2], "settle": True})
        assert made.status_code == 201, made.get_json()
    return token


def _money_per_player(client, token: str, numbers: list[int]) -> dict[str, Fraction]:
    total: dict[str, Fraction] = {}
    for number in numbers:
        money = client.get(f"/api/games/{token}/rounds/{number}").get_json()["settlement"]["money"]
        for name, value in money.items():
            total[name] = total.get(name, Fraction(0)) + Fraction(str(value))
    return total


def _squares(entries: list[dict], money: dict[str, Fraction]) -> bool:
    left = dict(money)
    for t in entries:
        amount = Fraction(t["amount"].split(" ")[0])
        left[t["from"]] += amount
        left[t["to"]] -= amount
    return set(left.values()) <= {0}


def test_api_settle_up_pays_the_money_the_per_pair_stakes_made(client):
    token = _game_with_rounds(client, rounds=1)
    money = _money_per_player(client, token, [1])
    plain = _money_per_player(client, _game_with_rounds(client, rounds=1, pair_stake=None), [1])
    assert money != plain  # the Ann-Bob stake of 2 changed who is owed what
    game = client.get(f"/api/games/{token}").get_json()
    assert game["settle_up"] and all(set(t) == {"from", "to", "amount", "paid"} for t in game["settle_up"])
    assert not any(t["paid"] for t in game["settle_up"])
    assert _squares(game["settle_up"], money)
    assert client.get(f"/api/games/{token}/export").get_json()["settle_up"] == game["settle_up"]


def _mark(client, token: str, entry: dict, scope: str = "all"):
    return client.post(f"/g/{token}/settle-up/paid", data={
        "csrf_token": csrf_token(client, f"/g/{token}"), "scope": scope, "from": entry["from"], "to": entry["to"],
        "amount": entry["amount"]})


def test_mark_paid_is_recorded_once_and_can_be_taken_back(client):
    token = _game_with_rounds(client, rounds=2)
    before = client.get(f"/api/games/{token}")
    first = before.get_json()["settle_up"][0]
    assert _mark(client, token, first).status_code == 303
    again = _mark(client, token, first)  # a double tap, or the form replayed on reconnect
    assert again.status_code == 303
    after = client.get(f"/api/games/{token}")
    assert after.headers["ETag"] != before.headers["ETag"]  # live pages see the change
    entries = after.get_json()["settle_up"]
    assert [e for e in entries if e["paid"]] == [first | {"paid": True}]
    assert sorted((e["from"], e["to"], e["amount"]) for e in entries) == \
        sorted((e["from"], e["to"], e["amount"]) for e in before.get_json()["settle_up"])
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert "is not owed now" in page  # the second tap said why it changed nothing
    payment = re.search(r'name="payment" value="(\d+)"', page).group(1)
    client.post(f"/g/{token}/settle-up/unpaid", data={"csrf_token": csrf_token(client, f"/g/{token}"),
                                                       "payment": payment})
    assert not any(e["paid"] for e in client.get(f"/api/games/{token}").get_json()["settle_up"])


def test_marking_a_transfer_that_is_not_owed_records_nothing(client):
    token = _game_with_rounds(client, rounds=1)
    entry = client.get(f"/api/games/{token}").get_json()["settle_up"][0]
    _mark(client, token, entry | {"amount": "999"})
    _mark(client, token, {"from": entry["to"], "to": entry["from"], "amount": entry["amount"]})
    assert not any(e["paid"] for e in client.get(f"/api/games/{token}").get_json()["settle_up"])
    bad_scope = _mark(client, token, entry, scope="9-x")
    assert bad_scope.status_code == 400


def test_a_range_of_rounds_settles_only_those_rounds(client):
    token = _game_with_rounds(client, rounds=2)
    page = client.get(f"/g/{token}?from=2&to=2").get_data(as_text=True)
    assert "Round 2 ·" in page and 'name="scope" value="2-2"' in page
    shown = [{"from": a, "to": b, "amount": c} for a, b, c in
             re.findall(r'name="from" value="([^"]+)"><input type="hidden" name="to" value="([^"]+)">\s*'
                        r'<input type="hidden" name="amount" value="([^"]+)"', page)]
    assert shown and _squares(shown, _money_per_player(client, token, [2]))
    _mark(client, token, shown[0], scope="2-2")
    # A payment for round 2 alone does not count against the whole game's settle-up.
    assert not any(e["paid"] for e in client.get(f"/api/games/{token}").get_json()["settle_up"])
    rows = list(csv.DictReader(io.StringIO(client.get(f"/g/{token}/settle-up.csv?from=2&to=2")
                                           .get_data(as_text=True))))
    assert [r["paid"] for r in rows].count("yes") == 1 and rows[0]["from"] == shown[0]["from"]


def test_export_names_carry_the_title_and_date(client):
    token = _game_with_rounds(client, rounds=1)
    created = client.get(f"/api/games/{token}").get_json()["created_at"][:10]
    for path, extension in (("export.csv", "csv"), ("export.json", "json"), ("settle-up.csv", "csv")):
        header = client.get(f"/g/{token}/{path}").headers["Content-Disposition"]
        ascii_name = re.search(r'filename="([^"]+)"', header).group(1)
        assert ascii_name.startswith("Friday-night-") and ascii_name.endswith(f"{created}.{extension}")
        assert "/" not in ascii_name and re.fullmatch(r"[A-Za-z0-9._-]+", ascii_name)
        assert "filename*=UTF-8''Friday-%E6%98%9F%E6%9C%9F%E4%BA%94-night" in header
    exported = json.loads(client.get(f"/g/{token}/export.json").get_data(as_text=True))
    assert exported["settle_up"] == client.get(f"/api/games/{token}").get_json()["settle_up"]


def test_qr_png_decodes_to_the_game_link(client):
    token = _game_with_rounds(client, rounds=0)
    response = client.get(f"/g/{token}/qr.png")
    assert response.status_code == 200 and response.mimetype == "image/png"
    image = cv2.imdecode(np.frombuffer(response.data, np.uint8), cv2.IMREAD_GRAYSCALE)
    text = qr_text(image)
    assert text == f"http://localhost/g/{token}"
    assert client.get("/g/no-such-game/qr.png").status_code == 404
