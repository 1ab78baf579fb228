"""The live round through the page forms (issue 63): each form sends the version its page showed (if_match); one
from an older version re-renders its page with 412 and what changed since, and changes nothing; settle forms must
say which version they showed; move, swap cards, the legal fix and undo as form posts (and as fetch: JSON)."""
from __future__ import annotations

import html as htmllib

from webapp_testkit import ANN, BOB, create_game, csrf_token, enter_rows, new_round, round_etag

ANN_FOULED = "2S 7H 9D / 4H 5H 6C 7C 8D / 3C 3D 8S JH KC"


def _table(client, ann: str = ANN) -> tuple[str, int]:
    token = create_game(client)
    number = new_round(client, token)
    assert enter_rows(client, token, number, 0, ann).status_code == 303
    assert enter_rows(client, token, number, 1, BOB).status_code == 303
    return token, number


def _round(client, token: str, number: int) -> dict:
    return client.get(f"/api/games/{token}/rounds/{number}").get_json()


def _form(client, tag: str, **fields) -> dict:
    return {"csrf_token": csrf_token(client), "if_match": tag, **fields}


def _bob_swaps_anns_rows(app, token: str, number: int) -> None:
    """Another phone (Bob's) changes the round."""
    phone = app.test_client()
    phone.post(f"/g/{token}/me", data={"csrf_token": csrf_token(phone), "name": "Bob"})
    response = phone.post(f"/g/{token}/r/{number}/p/0/swap",
                          data=_form(phone, round_etag(phone, token, number), rows="middle,back"))
    assert response.status_code == 303


def test_a_stale_settle_form_settles_nothing_and_says_what_changed(app, client):
    token, number = _table(client)
    seen = round_etag(client, token, number)
    _bob_swaps_anns_rows(app, token, number)
    response = client.post(f"/g/{token}/r/{number}/settle", data=_form(client, seen))
    assert response.status_code == 412
    page = htmllib.unescape(response.get_data(as_text=True))
    assert "Bob swapped Ann's middle and back rows" in page
    assert _round(client, token, number)["status"] == "open"
    # the re-rendered page carries the new version: settling from it works
    assert f'name="if_match" value="{round_etag(client, token, number)}"' in page
    assert client.post(f"/g/{token}/r/{number}/settle",
                       data=_form(client, round_etag(client, token, number))).status_code == 303
    assert _round(client, token, number)["status"] == "settled"


def test_a_settle_form_without_its_version_is_refused(client):
    token, number = _table(client)
    response = client.post(f"/g/{token}/r/{number}/settle", data={"csrf_token": csrf_token(client)})
    assert response.status_code == 428 and "Reload the round before settling" in response.get_data(as_text=True)
    assert _round(client, token, number)["status"] == "open"


def test_a_stale_correction_form_re_renders_the_hand_with_412_and_changes_nothing(app, client):
    token, number = _table(client)
    seen = round_etag(client, token, number)
    _bob_swaps_anns_rows(app, token, number)
    before = _round(client, token, number)
    response = client.post(f"/g/{token}/r/{number}/p/0/correct",
                           data=_form(client, seen, row="front", index="0", code="AC"))
    assert response.status_code == 412
    assert "Bob swapped Ann's middle and back rows" in htmllib.unescape(response.get_data(as_text=True))
    assert _round(client, token, number)["hands"] == before["hands"]
    fetch = client.post(f"/g/{token}/r/{number}/p/0/correct", headers={"X-Requested-With": "fetch"},
                        data=_form(client, seen, row="front", index="0", code="AC"))
    assert fetch.status_code == 412 and fetch.get_json()["round"]["etag"] == before["etag"]
    assert fetch.get_json()["changes"][0]["text"] == "Bob swapped Ann's middle and back rows"


def test_move_swap_cards_fix_and_undo_as_forms(client):
    token, number = _table(client, ANN_FOULED)
    base = f"/g/{token}/r/{number}"
    start = _round(client, token, number)
    assert start["hands"][0]["foul"] is not None
    moved = client.post(f"{base}/p/0/move", data=_form(client, start["etag"], row="middle", index="0",
                                                        to_row="back", to_index=""))
    assert moved.status_code == 303 and moved.headers["Location"].endswith(f"{base}/p/0")
    ann = _round(client, token, number)["hands"][0]
    assert ann["middle"] == ["5H", "6C", "7C", "8D"] and ann["back"][-1] == "4H"
    client.post(f"{base}/undo", data=_form(client, round_etag(client, token, number)))
    assert _round(client, token, number)["hands"] == start["hands"]
    swapped = client.post(f"{base}/p/0/swapcards", headers={"X-Requested-With": "fetch"},
                          data=_form(client, round_etag(client, token, number), row="front", index="0",
                                     other_row="front", other_index="2"))
    assert swapped.status_code == 200 and swapped.get_json()["etag"] == round_etag(client, token, number)
    assert _round(client, token, number)["hands"][0]["front"] == ["9D", "7H", "2S"]
    fixed = client.post(f"{base}/p/0/fix", data=_form(client, round_etag(client, token, number), **{"return": "round"}))
    assert fixed.status_code == 303 and fixed.headers["Location"].endswith(base)
    data = _round(client, token, number)
    assert data["hands"][0]["foul"] is None and data["ready"] is True
    refused = client.post(f"{base}/p/0/fix", data=_form(client, round_etag(client, token, number)))
    assert refused.status_code == 409 and "not fouled" in refused.get_data(as_text=True)
    back_to_hand = client.post(f"{base}/undo", data=_form(client, round_etag(client, token, number), seat="0"))
    assert back_to_hand.headers["Location"].endswith(f"{base}/p/0")
    assert _round(client, token, number)["hands"][0]["foul"] is not None


def test_a_bad_move_form_says_why_in_one_line(client):
    token, number = _table(client)
    response = client.post(f"/g/{token}/r/{number}/p/0/move",
                           data=_form(client, round_etag(client, token, number), row="front", index="x",
                                      to_row="back"))
    assert response.status_code == 400
    assert "'index' must be a card's position" in htmllib.unescape(response.get_data(as_text=True))


def test_the_round_and_hand_pages_get_the_live_context(app, client):
    token, number = _table(client, ANN_FOULED)
    tag = round_etag(client, token, number)
    for path in (f"/g/{token}/r/{number}", f"/g/{token}/r/{number}/p/0"):
        page = client.get(path).get_data(as_text=True)
        assert f'name="if_match" value="{tag}"' in htmllib.unescape(page)
