"""A four-player round filled from one photo of the whole table, on a phone-sized Chromium (issue 67): upload the
table photo, tap who sits where on the photo's numbered hands, review a hand (its boxes over the table photo), settle;
the next round's photo fills at once. Screenshots go to $TEST_ARTEFACTS/table (default /tmp/test-artefacts/table)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from test_browser import (CHROMIUM, PHONE, browser, live_server, review_rows,  # noqa: F401 - fixtures
                          settle_on_the_page)
from test_table_photo import FOUR_HANDS, FOUR_HANDS_PHOTO, rows_of

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed")

ARTEFACTS = Path(os.environ.get("TEST_ARTEFACTS", "/tmp/test-artefacts")) / "table"
# The photo (a rendered table, read by the real reader): Ann's hand at the bottom, Bob's on the left, Cy's at the
# top, Dee's on the right. The game lists the players Bob, Ann, Cy, Dee, so the seat page's first guess (game order,
# clockwise from the bottom) is wrong for the bottom and left hands: one tap on "Ann" for the bottom hand swaps them.


def shot(page, name: str) -> None:
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(ARTEFACTS / f"{name}.png"), full_page=True)


@pytest.fixture
def phone(browser):  # noqa: F811
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    tab = context.new_page()
    tab.set_default_timeout(30_000)  # the real reader reads each table photo (about a second, more under load)
    yield tab
    context.close()


def upload_table_photo(page, photo: Path) -> None:
    page.click("#table-photo")
    page.wait_for_selector("#photo-input", state="attached")
    with page.expect_navigation():
        page.set_input_files("#photo-input", str(photo))


def test_a_table_photo_fills_a_four_player_round_after_the_seats(live_server, phone):  # noqa: F811
    page = phone
    photo = FOUR_HANDS_PHOTO
    made = page.request.post(f"{live_server}/api/games", data={"players": ["Bob", "Ann", "Cy", "Dee"],
                                                                "rules": "2-4", "title": "Overhead camera"})
    token = made.json()["token"]
    page.goto(f"{live_server}/g/{token}")
    with page.expect_navigation():
        page.click("#new-round")
    shot(page, "01-round-with-table-photo-button")

    upload_table_photo(page, photo)
    assert "/table/" in page.url
    page.wait_for_selector("#table-outlines.ready", state="attached")  # outlines fitted to the photo
    assert page.locator(".hand-outline").count() == 4
    box = page.locator("#table-outlines").bounding_box()
    image = page.locator("#table-photo").bounding_box()
    assert box and image and abs(box["width"] - image["width"]) < 2  # the outlines lie over the photo
    shot(page, "02-seats-asked")

    # One tap: Ann for the bottom hand (the guess had Bob there); Bob moves to the left hand by himself.
    page.click("#seat-0 label:has-text('Ann')")
    assert page.locator("#seat-1 input[value=Bob]").is_checked()
    shot(page, "03-seats-tapped")
    with page.expect_navigation():
        page.click("#seats-save")
    page.wait_for_selector("#table-fill")
    shot(page, "04-round-filled")
    for seat in range(4):
        assert page.locator(f"#hand-{seat} .rows .card").count() == 13
    filled = page.request.get(f"{live_server}/api/games/{token}/rounds/1").json()
    assert {h["player"]: rows_of(h) for h in filled["hands"]} == {
        "Ann": FOUR_HANDS[0], "Bob": FOUR_HANDS[1], "Cy": FOUR_HANDS[2], "Dee": FOUR_HANDS[3]}

    # The usual review per hand: Ann's hand page shows her boxes over the table photo.
    page.click("#hand-1 h2 a")  # the game's second player, Ann
    page.wait_for_selector("#overlay[viewBox]", state="attached")
    assert review_rows(page) == FOUR_HANDS[0]
    assert page.locator("#overlay rect.box").count() == 13
    # The photo opens on Ann's part of the table: her 13 boxes inside the frame, which is the page's width.
    page.wait_for_selector("#photo-wrap[data-focused]", state="attached")
    frame = page.locator("#photo-wrap").bounding_box()
    boxes = page.locator("#overlay rect.box").evaluate_all("els => els.map(e => e.getBoundingClientRect().toJSON())")
    inside = [b for b in boxes if b["left"] >= frame["x"] - 1 and b["right"] <= frame["x"] + frame["width"] + 1
              and b["top"] >= frame["y"] - 1 and b["bottom"] <= frame["y"] + frame["height"] + 1]
    assert len(inside) == 13 and min(b["width"] for b in boxes) > 15  # zoomed in: each card's box is readable
    shot(page, "05-review-ann")
    page.click("#photo-wrap")  # a tap shows the whole table
    assert page.locator("#photo-wrap").evaluate("e => e.classList.contains('whole')")
    shot(page, "05b-review-ann-whole-table")
    page.click("text=← Round 1")

    settle_on_the_page(page)
    shot(page, "06-settled")
    settled = page.request.get(f"{live_server}/api/games/{token}/rounds/1").json()
    assert settled["status"] == "settled"
    assert sum(int(v) for v in settled["settlement"]["net"].values()) == 0

    # The next round: the seats are remembered, so the photo fills the round at once.
    page.goto(f"{live_server}/g/{token}")
    with page.expect_navigation():
        page.click("#new-round")
    upload_table_photo(page, photo)
    page.wait_for_selector("#table-fill")
    assert page.url.endswith(f"/g/{token}/r/2")
    hands = page.request.get(f"{live_server}/api/games/{token}/rounds/2").json()["hands"]
    assert {h["player"]: rows_of(h) for h in hands}["Ann"] == FOUR_HANDS[0]
    shot(page, "07-next-round-filled-at-once")


def test_the_live_camera_sends_its_frame_and_a_photo_without_hands_says_so(live_server, browser):  # noqa: F811
    """getUserMedia with Chromium's fake camera (a test pattern, no cards): Capture sends the frame to the table
    photo, the reader finds no hand, the page says so in one line and the round is unchanged."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True,
                                  bypass_csp=True)  # wait_for_function's string predicate
    page = context.new_page()
    page.set_default_timeout(30_000)
    token = page.request.post(f"{live_server}/api/games", data={"players": ["Ann", "Bob"], "rules": "2-4"}).json()["token"]
    page.request.post(f"{live_server}/api/games/{token}/rounds")
    page.goto(f"{live_server}/g/{token}/r/1/table")
    page.click("#camera-box summary")
    page.wait_for_function("document.querySelector('#camera-video').videoWidth > 0")
    page.click("#camera-capture")
    error = page.wait_for_selector("#error")
    assert error.inner_text().startswith("No hand found on this table photo")
    shot(page, "08-live-camera-no-hands")
    assert page.request.get(f"{live_server}/api/games/{token}/rounds/1").json()["uploads"] == []
    context.close()
