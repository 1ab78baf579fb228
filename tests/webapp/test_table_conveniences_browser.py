"""What score-keeping apps give a table (issue 69), on a phone-sized Chromium: settle-up with "mark paid", the
game link's QR code (decoded with OpenCV), copy and the share sheet. Screenshots go to
$TEST_ARTEFACTS/conveniences (default /tmp/test-artefacts/conveniences)."""
from __future__ import annotations

import os
import time
from fractions import Fraction
from pathlib import Path

import cv2
import numpy as np
import pytest

from test_browser import CHROMIUM, PHONE, browser, live_server  # noqa: F401 - fixtures
from webapp_testkit import ANN, BOB, CY, DEE, qr_text

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed")

ARTEFACTS = Path(os.environ.get("TEST_ARTEFACTS", "/tmp/test-artefacts")) / "conveniences"


def shot(page, name: str, full_page: bool = True) -> None:
    """The whole page from the top (a sticky header would otherwise be drawn mid-page), or what the screen shows."""
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    if full_page:
        page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(ARTEFACTS / f"{name}.png"), full_page=full_page)


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    tab = context.new_page()
    tab.set_default_timeout(10_000)
    yield tab
    context.close()


def wait_until(check, page, timeout_s: float = 5.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not check():
        assert time.monotonic() < deadline, "the page did not change in time"
        page.wait_for_timeout(20)


def played_game(page, server: str, rounds: int = 2) -> str:
    """A four-player game with an Ann-Bob stake of 2 and `rounds` settled rounds (made through the API); its token."""
    made = page.request.post(f"{server}/api/games", data={
        "players": ["Ann", "Bob", "Cy", "Dee"], "rules": "2-4", "title": "Friday night",
        "pair_stakes": [{"players": ["Ann", "Bob"], "per_point": "2"}]})
    token = made.json()["token"]
    hands = [{"Ann": ANN, "Bob": BOB, "Cy": CY, "Dee": DEE}, {"Ann": BOB, "Bob": ANN, "Cy": DEE, "Dee": CY}]
    for number in range(rounds):
        settled = page.request.post(f"{server}/api/games/{token}/rounds", data={"hands": hands[number % 2],
                                                                                 "settle": True})
        assert settled.status == 201
    return token


def test_settle_up_lists_the_fewest_transfers_and_marks_one_paid(live_server, phone):  # noqa: F811
    token = played_game(phone, live_server)
    money: dict[str, Fraction] = {}
    for number in (1, 2):
        for name, value in phone.request.get(f"{live_server}/api/games/{token}/rounds/{number}").json()[
                "settlement"]["money"].items():
            money[name] = money.get(name, Fraction(0)) + Fraction(str(value))
    phone.goto(f"{live_server}/g/{token}")
    rows = phone.locator("#settle-up-list li")
    assert rows.count() == len(phone.request.get(f"{live_server}/api/games/{token}").json()["settle_up"])
    for i in range(rows.count()):  # what the page shows squares everyone's money
        who = rows.nth(i).locator(".who strong").all_inner_texts()
        amount = Fraction(rows.nth(i).locator(".amount").inner_text().split(" ")[0])
        money[who[0]] += amount
        money[who[1]] -= amount
    assert set(money.values()) == {0}
    phone.locator("#settle-up").scroll_into_view_if_needed()
    shot(phone, "01-settle-up")
    first_payer = rows.nth(0).locator(".who strong").first.inner_text()
    with phone.expect_navigation():
        rows.nth(0).locator("button.mark-paid").tap()
    paid = phone.locator("#settle-up-list li.paid")
    assert paid.count() == 1 and paid.locator(".who strong").first.inner_text() == first_payer
    assert [t["paid"] for t in phone.request.get(f"{live_server}/api/games/{token}").json()["settle_up"]].count(True) == 1
    box = phone.locator("button.mark-paid").first.bounding_box()
    assert box["height"] >= 44  # a thumb's tap target
    shot(phone, "02-settle-up-one-paid")
    # Round 2 alone: its own transfers, none paid yet.
    phone.fill("#settle-up-range input[name=from]", "2")
    with phone.expect_navigation():
        phone.locator("#settle-up-range button").tap()
    assert "Round 2 ·" in phone.locator("#settle-up").inner_text()
    assert phone.locator("#settle-up-list li.paid").count() == 0
    shot(phone, "03-settle-up-round-2")


def test_the_qr_code_on_the_game_page_decodes_to_its_link(live_server, phone):  # noqa: F811
    token = played_game(phone, live_server, rounds=0)
    phone.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server)
    phone.goto(f"{live_server}/g/{token}")
    phone.locator("#share summary").tap()
    qr = phone.locator("#share-qr")
    qr.scroll_into_view_if_needed()
    wait_until(lambda: qr.evaluate("img => img.complete && img.naturalWidth > 0"), phone)
    shot(phone, "04-share-qr", full_page=False)
    image = cv2.imdecode(np.frombuffer(qr.screenshot(), np.uint8), cv2.IMREAD_GRAYSCALE)
    text = qr_text(image)
    link = phone.locator("#share-url").input_value()
    assert text == link == f"{live_server}/g/{token}"
    phone.locator("#share-copy").tap()
    playwright_api.expect(phone.locator("#share-copy")).to_have_text("Copied")  # after the clipboard took it
    assert phone.evaluate("navigator.clipboard.readText()") == link
    # Desktop-Linux Chromium has no share sheet: its button stays hidden rather than failing when tapped.
    assert phone.locator("#share-native").is_hidden() == (not phone.evaluate("!!navigator.share"))


def test_the_share_button_hands_the_link_to_the_system_sheet(live_server, browser):  # noqa: F811
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    # A phone's browser has navigator.share; this one records what it was given.
    context.add_init_script("navigator.share = function (data) { window.shared = data; return Promise.resolve(); };")
    page = context.new_page()
    try:
        token = played_game(page, live_server, rounds=0)
        page.goto(f"{live_server}/g/{token}")
        page.locator("#share summary").tap()
        page.locator("#share-native").tap()
        assert page.evaluate("window.shared") == {"title": "Friday night", "url": f"{live_server}/g/{token}"}
    finally:
        context.close()


def test_the_new_game_form_in_words_shows_every_error_at_once(live_server, phone):  # noqa: F811
    phone.goto(f"{live_server}/games/new")
    phone.fill("input[name=player1]", "Ann")
    phone.fill("input[name=player2]", "Bob")
    phone.select_option("#preset", "hk")
    banker = phone.locator("#banker-box select option")
    assert banker.all_inner_texts()[:2] == ["Ann", "Bob"]  # the names as typed, not "Player 1"
    phone.locator("#options-hk > summary").tap()
    options = phone.locator('fieldset[data-preset="hk"]')
    assert "Scoop multiplier (打槍)" in options.inner_text() and "scoop_multiplier" not in options.inner_text()
    assert phone.locator("#more-options-hk").evaluate("d => !d.open")  # the rare ones folded
    height = phone.evaluate("document.documentElement.scrollHeight")
    shot(phone, "05-new-game-options")
    assert height < 3000, height  # was about 5,200 px with every Hong Kong option open
    phone.fill('input[name="opt-hk-scoop_multiplier"]', "x")
    phone.fill("input[name=stake]", "abc")
    with phone.expect_navigation():
        phone.locator("#create-game").tap()
    errors = phone.locator("#form-errors li").all_inner_texts()
    assert any("stake" in e for e in errors) and any("Scoop multiplier" in e for e in errors), errors
    shot(phone, "06-new-game-errors")


def test_tap_targets_are_at_least_44_px(live_server, phone):  # noqa: F811
    token = played_game(phone, live_server, rounds=1)
    phone.goto(f"{live_server}/g/{token}/r/1")
    small = []
    for selector in (".lang .chip", ".crumbs a", ".hand h2 a"):
        for box in (phone.locator(selector).nth(i).bounding_box() for i in range(phone.locator(selector).count())):
            if box["height"] < 44 or box["width"] < 44:
                small.append((selector, box))
    assert phone.request.post(f"{live_server}/api/games/{token}/rounds", data={}).status == 201  # an open round
    phone.goto(f"{live_server}/g/{token}/r/2/p/0")
    loose = phone.locator('label.check:has(input[name="mode"][value="loose"])')
    assert loose.count() == 1
    box = loose.bounding_box()
    if box["height"] < 44:
        small.append(("loose checkbox", box))
    assert not small, small
    header = phone.locator("header.top").bounding_box()
    assert header["height"] < 80  # the bigger chips still fit the phone's header on one line
    shot(phone, "07-hand-page-targets", full_page=False)


def test_chart_labels_and_managing_a_game(live_server, phone):  # noqa: F811
    token = played_game(phone, live_server, rounds=2)
    phone.goto(f"{live_server}/g/{token}")
    labels = phone.locator("#standings-chart .end-label").all_text_contents()
    assert sorted(label.split(" ")[0] for label in labels) == ["Ann", "Bob", "Cy", "Dee"]
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    phone.locator("#game-chart").screenshot(path=str(ARTEFACTS / "08-chart-labels.png"))
    phone.locator("#manage > summary").tap()
    phone.select_option("#rename-form select[name=old]", "Cy")
    phone.fill("#rename-form input[name=new]", "Cyrus")
    with phone.expect_navigation():
        phone.locator("#rename-save").tap()
    assert "Cyrus" in phone.locator("#game-totals").inner_text()
    phone.locator("#manage > summary").tap()
    with phone.expect_navigation():
        phone.locator("#end-game").tap()
    assert phone.locator("#game-ended").is_visible() and phone.locator("#new-round").count() == 0
    shot(phone, "09-game-ended")
    with phone.expect_navigation():
        phone.locator("#rematch-top").tap()
    assert phone.url != f"{live_server}/g/{token}"
    assert phone.request.get(phone.url.replace("/g/", "/api/games/")).json()["players"] == ["Ann", "Bob", "Cyrus", "Dee"]
    rematch_url = phone.url
    phone.locator("#manage > summary").tap()
    phone.locator("#delete-game").tap()  # not ticked: the browser asks for the box first, nothing is sent
    assert phone.url == rematch_url
    phone.locator("#delete-confirm").check()
    with phone.expect_navigation():
        phone.locator("#delete-game").tap()
    assert phone.url.rstrip("/") == live_server and "Deleted" in phone.locator("main").inner_text()
    assert phone.request.get(rematch_url).status == 404
    shot(phone, "10-deleted")


def test_installable_and_read_only_when_offline(live_server, browser):  # noqa: F811
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        token = played_game(page, live_server, rounds=1)
        for path in ("/", "/games/new", f"/g/{token}", f"/g/{token}/r/1"):
            page.goto(live_server + path)
            assert page.locator('link[rel="manifest"]').get_attribute("href") == "/manifest.webmanifest", path
        manifest = page.request.get(f"{live_server}/manifest.webmanifest")
        assert manifest.headers["content-type"].startswith("application/manifest+json")
        icons = manifest.json()["icons"]
        assert {"192x192", "512x512"} <= {icon["sizes"] for icon in icons} and manifest.json()["display"] == "standalone"
        for icon in icons:
            assert page.request.get(live_server + icon["src"]).headers["content-type"] == "image/png"
        page.goto(f"{live_server}/g/{token}")
        scope = page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)")
        assert scope == live_server + "/"
        page.reload()  # now under the worker's control: this page's copy is kept
        assert page.evaluate("!!navigator.serviceWorker.controller")
        totals = page.locator("#game-totals").inner_text()
        context.set_offline(True)
        page.reload()
        assert page.locator("#offline-banner").is_visible()
        assert page.locator("#game-totals").inner_text() == totals  # the last state, shown
        assert page.locator("#settle-up button.mark-paid").first.is_disabled()  # read-only
        page.evaluate("document.querySelector('#settle-up form').requestSubmit()")  # a submit that gets through
        shot(page, "11-offline-game")
        page.goto(f"{live_server}/g/{token}/r/99")  # never opened online: the offline page says so
        assert page.locator("#offline-page").is_visible()
        context.set_offline(False)
        page.goto(f"{live_server}/g/{token}")
        page.evaluate("window.dispatchEvent(new Event('online'))")
        assert page.locator("#offline-banner").is_hidden()
        assert page.locator("#settle-up button.mark-paid").first.is_enabled()
        # The form sent while offline was stopped, not queued: back online, nothing was recorded behind our back.
        assert not any(t["paid"] for t in page.request.get(f"{live_server}/api/games/{token}").json()["settle_up"])
    finally:
        context.close()
