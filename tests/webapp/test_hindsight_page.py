"""The round page's "How else could it have been set?": offered only once settled, computed only on request."""
from __future__ import annotations

import re

import scoring

from webapp_testkit import ANN, BOB, CY, create_game, csrf_token, enter_rows, new_round, round_etag


def _settled_round(client, preset: str = "2-4") -> tuple[str, int]:
    token = create_game(client, players=("Ann", "Bob", "Cy"), preset=preset)
    number = new_round(client, token)
    for seat, rows in enumerate((ANN, BOB, CY)):
        assert enter_rows(client, token, number, seat, rows).status_code == 303
    return token, number


def _settle(client, token: str, number: int) -> None:
    response = client.post(f"/g/{token}/r/{number}/settle", data={"if_match": round_etag(client, token, number),
                                                                  "csrf_token": csrf_token(client)})
    assert response.status_code == 303


def test_not_offered_or_answered_before_settling(client):
    token, number = _settled_round(client)
    page = client.get(f"/g/{token}/r/{number}").get_data(as_text=True)
    assert "data-hindsight-url" not in page
    response = client.get(f"/g/{token}/r/{number}/p/0/hindsight")
    assert response.status_code == 409


def test_after_settling_each_player_gets_a_fold_whose_answer_matches_scoring(client):
    token, number = _settled_round(client)
    _settle(client, token, number)
    page = client.get(f"/g/{token}/r/{number}").get_data(as_text=True)
    urls = re.findall(r'data-hindsight-url="([^"]+)"', page)
    assert urls == [f"/g/{token}/r/{number}/p/{seat}/hindsight" for seat in range(3)]
    assert "How else could it have been set?" in page
    assert 'id="hindsight-result"' not in page            # nothing computed until asked for

    expected = scoring.hindsight({"rules": "2-4", "players": {"Ann": ANN, "Bob": BOB, "Cy": CY}})["players"]
    for seat, name in enumerate(("Ann", "Bob", "Cy")):
        html = client.get(urls[seat]).get_data(as_text=True)
        result = html[html.index('id="hindsight-result"'):]
        entry = expected[name]
        if entry["best"].get("as_played"):
            assert f"{entry['net']} points as played" in result
        else:
            assert f"would have scored {entry['best']['net']} points instead of {entry['net']}" in result
            for code in entry["best"]["back"]:
                assert f'title="{code}"' in result
        assert "Best in general" in result and "points per opponent" in result


def test_chinese_and_unknown_seat(client):
    token, number = _settled_round(client)
    _settle(client, token, number)
    with client.session_transaction() as session:
        session["lang"] = "zh-Hant"
    html = client.get(f"/g/{token}/r/{number}/p/1/hindsight").get_data(as_text=True)
    assert "還可以怎樣擺？" in html and ("對著桌上各家的牌" in html)
    assert client.get(f"/g/{token}/r/{number}/p/7/hindsight").status_code == 404
