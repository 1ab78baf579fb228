"""Browser test: Playwright drives Debian's headless Chromium through a whole round on a phone-sized
screen — create a game, photograph each player's rows, correct a card, settle, read history and chart.
Screenshots of the main screens go to artifacts/screenshots/."""
from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from webapp_testkit import ANN, BOB, jpeg_bytes

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "screenshots"
PHONE = {"width": 390, "height": 844}

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed")


@pytest.fixture
def live_server(app):
    """The app on 127.0.0.1 at a free port, served by a thread."""
    from werkzeug.serving import make_server

    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(timeout=5)


CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 # A synthetic camera (test pattern) so the live-camera view can be exercised.
                 "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream"]


@pytest.fixture(scope="module")
def browser():
    """One headless Debian Chromium for a test module; each test opens its own phone-sized contexts in it."""
    with playwright_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def _phone_page(bypass_csp: bool):
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True,
                                      bypass_csp=bypass_csp)
        tab = context.new_page()
        tab.set_default_timeout(15_000)
        yield tab
        context.close()
        browser.close()


@pytest.fixture
def page():
    """A phone-sized tab with the app's Content-Security-Policy enforced (its own scripts must work)."""
    yield from _phone_page(bypass_csp=False)


@pytest.fixture
def eval_page():
    """Same, but allowing Playwright's string predicates (wait_for_function), which the CSP forbids."""
    yield from _phone_page(bypass_csp=True)


def sample_photos(tmp_path: Path) -> list[Path]:
    """Rendered 3/5/5 photos from sample_images/ when the generator has made them, else our own JPEGs."""
    found = sorted((ROOT / "sample_images").glob("layout_p*.jpg"))
    if len(found) >= 2:
        return found[:2]
    made = []
    for i in range(2):
        path = tmp_path / f"hand{i}.jpg"
        path.write_bytes(jpeg_bytes(1280, 960, seed=i))
        made.append(path)
    return made


def truth_for(photo: Path) -> str | None:
    """The rows a sample render really shows, when the generator wrote them beside it."""
    label = photo.with_suffix(".json")
    if not label.exists():
        return None
    data = json.loads(label.read_text())
    rows = data.get("rows") or data
    try:
        return " / ".join(" ".join(rows[r]) for r in ("front", "middle", "back"))
    except (KeyError, TypeError):
        return None


def review_rows(page) -> str:
    """The rows shown on the review screen, written 'front / middle / back'."""
    rows = []
    for row in ("front", "middle", "back"):
        codes = page.locator(f".review .card.fix[data-row={row}]").evaluate_all(
            "els => els.map(e => e.dataset.code).filter(Boolean)") if page.locator(".review").count() else []
        rows.append(" ".join(codes))
    return " / ".join(rows)


def settle_on_the_page(page) -> None:
    """Tap Settle on the round page (it must be enabled) and wait for the settlement."""
    settle = page.locator("#settle")
    assert settle.is_enabled()
    with page.expect_navigation():
        settle.click()
    page.wait_for_selector("#settlement")


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def test_a_round_on_a_phone(live_server, page, tmp_path):
    page.goto(live_server + "/")
    shot(page, "01-home")
    page.click("text=New game")
    page.fill("input[name=title]", "Friday table")
    page.fill("input[name=player1]", "Ann")
    page.fill("input[name=player2]", "Bob")
    page.select_option("#preset", "2-4")
    shot(page, "02-new-game")
    page.click("#create-game")
    page.wait_for_selector("#new-round")
    page.click("#new-round")
    page.wait_for_selector("#hand-0")
    shot(page, "03-round-open")

    photos = sample_photos(tmp_path)
    expected = [truth_for(photo) or fallback for photo, fallback in zip(photos, (ANN, BOB))]
    for seat, photo in enumerate(photos):
        page.click(f"#hand-{seat} a.button")
        page.wait_for_selector("#photo-input", state="attached")
        with page.expect_navigation():
            page.set_input_files("#photo-input", str(photo))
        page.wait_for_selector("#overlay[viewBox]", state="attached")  # app.js drew the boxes layer
        shot(page, f"04-review-{seat}")
        if review_rows(page) != expected[seat]:
            # The reader got something wrong: Ann types her rows, Bob taps his 13 cards on the picker.
            page.click("#manual-box summary")
            if seat == 0:
                page.fill("#manual-rows", expected[seat])
            else:
                page.click("#manual-tap")
                for code in expected[seat].replace("/", " ").split():
                    page.click(f"#picker .card[data-code='{code}']")
                assert page.input_value("#manual-rows") == expected[seat]
            with page.expect_navigation():
                page.click("#manual-save")
            assert review_rows(page) == expected[seat]
        page.click("text=← Round 1")
        page.wait_for_selector(f"#hand-{seat}")

    # Correct one card with two taps (tap it, tap the right one): Ann's first card is first made wrong,
    # then put right again, so the round stays true to the photo.
    page.click("#hand-0 a.button")
    first = page.locator(".review .card.fix[data-row=front][data-index='0']")
    right = first.get_attribute("data-code")
    used = set(" ".join(expected).replace("/", " ").split())
    wrong = next(c for c in (r + s for s in "SHDC" for r in "23456789TJQKA") if c not in used)
    for code in (wrong, right):
        page.click(".review .card.fix[data-row=front][data-index='0']")
        page.wait_for_selector("#picker", state="visible")
        if code == right:
            shot(page, "05-picker")
        with page.expect_navigation():
            page.click(f"#picker .card[data-code='{code}']")
        assert first.get_attribute("data-code") == code
    page.click("text=← Round 1")

    settle_on_the_page(page)
    shot(page, "06-settlement")
    assert "Bob" in page.inner_text("#settlement")
    page.click("#history summary")
    assert f"{wrong} → {right}" in page.inner_text("#history")

    page.click("text=Back to the game")
    page.wait_for_selector("#standings-chart")
    assert page.locator("#standings-chart polyline").count() == 2
    shot(page, "07-game-history")

    # Chinese labels on the same screens.
    page.click("button[value=zh-Hant]")
    page.wait_for_selector("text=新一局")
    page.click("a:has-text('第 1 局')")
    page.wait_for_selector("#settlement")
    shot(page, "08-settlement-zh-hant")
    assert "結算" in page.inner_text("#settlement")


def open_first_hand(page, live_server):
    """A new two-player Chinese-poker game, its first round, Ann's hand page."""
    page.goto(live_server + "/games/new")
    page.fill("input[name=player1]", "Ann")
    page.fill("input[name=player2]", "Bob")
    page.click("#create-game")
    page.click("#new-round")
    page.click("#hand-0 a.button")


def test_live_camera_capture_uploads_a_frame(live_server, eval_page):
    """getUserMedia with Chromium's fake camera: the 3/5/5 guide shows, Capture sends the frame."""
    page = eval_page
    open_first_hand(page, live_server)
    page.click("#camera-box summary")
    page.wait_for_function("document.querySelector('#camera-video').videoWidth > 0")
    assert page.locator(".guide rect").count() == 13
    shot(page, "09-live-camera")
    with page.expect_navigation():
        page.click("#camera-capture")
    page.wait_for_selector("#overlay[viewBox]", state="attached")
    # The test pattern has no cards: tap the 13 cards in on the picker instead.
    page.click("#manual-box summary")
    page.click("#manual-tap")
    for code in ANN.replace("/", " ").split():
        page.click(f"#picker .card[data-code='{code}']")
    assert page.input_value("#manual-rows") == ANN
    with page.expect_navigation():
        page.click("#manual-save")
    assert review_rows(page) == ANN
    page.click("text=← Round 1")
    assert "typed" in page.inner_text("#hand-0")
    page.click("#history summary")
    assert "(camera)" in page.inner_text("#history")  # the captured frame is kept in the round's history


def test_the_page_shrinks_a_12_megapixel_photo_before_sending_it(live_server, page, tmp_path):
    import cv2
    import numpy as np

    big = tmp_path / "big.jpg"
    image = np.zeros((3000, 4000, 3), np.uint8)
    image[:, :2000] = (0, 0, 200)  # left half red: shows the picture was not rotated or cropped
    cv2.imwrite(str(big), image)
    open_first_hand(page, live_server)
    with page.expect_navigation():
        page.set_input_files("#photo-input", str(big))
    src = page.get_attribute("#photo", "src")
    stored = cv2.imdecode(np.frombuffer(page.request.get(live_server + src).body(), np.uint8), cv2.IMREAD_COLOR)
    assert stored.shape[:2] == (1800, 2400)
    assert stored[900, 300, 2] > 150 and stored[900, 2100, 2] < 60


def test_a_big_two_round_on_a_phone(live_server, page):
    """Big Two: pick the game, mark who went out, photograph one loser's cards left (loose), tap in the
    other's on the picker, settle; the totals and the chart follow."""
    import scoring

    page.goto(live_server + "/games/new")
    with page.expect_navigation():
        page.click("#game-type a[data-game=bigtwo]")
    options = page.locator("#preset option").evaluate_all("els => els.map(e => e.value)")
    assert options and all(name.startswith("bigtwo-") for name in options)
    page.fill("input[name=title]", "Big Two night")
    for i, name in enumerate(("Ann", "Bob", "Cy"), start=1):
        page.fill(f"input[name=player{i}]", name)
    page.select_option("#preset", "bigtwo-hk")
    shot(page, "10-new-bigtwo-game")
    page.click("#create-game")
    page.wait_for_selector("#new-round")
    page.click("#new-round")
    page.wait_for_selector("#hand-0")
    with page.expect_navigation():
        page.click("#out-0")  # Ann went out
    assert "✓" in page.inner_text("#out-0")

    photo = ROOT / "sample_images" / "loose.jpg"
    truth = json.loads(photo.with_suffix(".json").read_text())["cards"]
    page.click("#hand-1 a.button")
    page.wait_for_selector("#photo-input", state="attached")
    with page.expect_navigation():
        page.set_input_files("#photo-input", str(photo))
    page.wait_for_selector("#overlay[viewBox]", state="attached")
    shot(page, "11-bigtwo-review")
    read = page.locator(".review .card.fix[data-row=cards]").evaluate_all(
        "els => els.map(e => e.dataset.code).filter(Boolean)")
    if sorted(read) != sorted(truth):  # the reader missed or added a card: type Bob's cards left instead
        page.click("#manual-box summary")
        page.fill("#manual-rows", " ".join(truth))
        with page.expect_navigation():
            page.click("#manual-save")
    assert sorted(page.locator(".review .card.fix[data-row=cards]").evaluate_all(
        "els => els.map(e => e.dataset.code).filter(Boolean)")) == sorted(truth)
    page.click("text=Cy →")
    page.click("#manual-box summary")
    page.click("#manual-tap")
    for code in ("3C", "4D", "5S"):
        page.click(f"#picker .card[data-code='{code}']")
    assert page.input_value("#manual-rows") == "3C 4D 5S"
    page.click("#picker-close")  # fewer than 13 cards: the picker stays open until closed
    with page.expect_navigation():
        page.click("#manual-save")
    page.click("text=← Round 1")
    page.wait_for_selector("#settle:enabled")
    shot(page, "13-bigtwo-round-ready")

    with page.expect_navigation():
        page.click("#settle")
    page.wait_for_selector("#settlement")
    shot(page, "12-bigtwo-settlement")
    expected = scoring.settle({"game": "bigtwo", "rules": "bigtwo-hk",
                               "players": {"Ann": "", "Bob": " ".join(truth), "Cy": "3C 4D 5S"}})["net"]
    assert expected == {"Ann": 19, "Bob": -16, "Cy": -3}
    cells = page.locator("#net-table tbody tr").evaluate_all(
        "rows => rows.map(r => [r.cells[0].textContent, r.cells[1].textContent])")
    assert {name: int(net) for name, net in cells} == expected
    page.click("text=Back to the game")
    assert page.locator("#standings-chart polyline").count() == 3
    page.click("button[value=zh-Hant]")
    page.wait_for_selector("text=鋤大弟（大老二）")


def test_an_unsure_mark_is_added_with_one_tap(live_server, page, monkeypatch, tmp_path):
    """A hand read a card short, with the reader's unsure marks: the page offers them, one tap fills the row."""
    from webapp import reader
    from webapp_testkit import reading_of

    rows = {"front": ["AS", "KS", "QS"], "middle": ["2C", "2D", "9H", "9S", "4C"], "back": ["3H", "4H", "5H", "6H"]}
    reading = reading_of(rows, ["left out unsure marks: 7H? (0.41), 8D? (0.30)"])
    monkeypatch.setattr(reader, "_read", lambda data, loose: reading)
    open_first_hand(page, live_server)
    photo = tmp_path / "hand.jpg"
    photo.write_bytes(jpeg_bytes(1280, 960))
    with page.expect_navigation():
        page.set_input_files("#photo-input", str(photo))
    page.wait_for_selector("#suggestions")
    shot(page, "09-unsure-suggestions")
    assert page.locator("#suggestions button").evaluate_all("els => els.map(e => e.value)") == ["7H", "8D"]
    with page.expect_navigation():
        page.click("#suggestions button[value='7H']")
    assert review_rows(page) == "AS KS QS / 2C 2D 9H 9S 4C / 3H 4H 5H 6H 7H"
    assert page.locator("#suggestions").count() == 0


def test_a_card_is_fixed_with_one_tap_on_the_readers_next_guess(live_server, page, monkeypatch, tmp_path):
    """A card read as 7H whose reader's runner-ups are 7D, 8D and TH (8D in Bob's hand): tapping it puts 7D and TH
    first in the picker, and one tap on 7D fixes the card."""
    from webapp import reader
    from webapp_testkit import reading_of

    rows = {"front": ["AS", "KS", "QS"], "middle": ["2C", "2D", "9H", "9S", "4C"],
            "back": ["3H", "4H", "5H", "6H", "7H"]}
    reading = reading_of(rows, ["low confidence: 7H (0.52)"])
    seven = next(card for card in reading["cards"] if card["code"] == "7H")
    seven["confidence"] = 0.52
    seven["alternatives"] = [{"code": "7D", "confidence": 0.3}, {"code": "8D", "confidence": 0.1},
                             {"code": "TH", "confidence": 0.05}]
    monkeypatch.setattr(reader, "_read", lambda data, loose: reading)
    open_first_hand(page, live_server)
    bob = page.url[:-1] + "1"  # Bob's hand, typed: it holds 8D
    page.goto(bob)
    page.click("#manual-box summary")
    page.fill("#manual-rows", "8D 8C 8S / 3C 3D 3S 4D 4S / 5C 5D 5S 6C 6D")
    with page.expect_navigation():
        page.click("#manual-save")
    page.goto(bob[:-1] + "0")
    photo = tmp_path / "hand.jpg"
    photo.write_bytes(jpeg_bytes(1280, 960))
    with page.expect_navigation():
        page.set_input_files("#photo-input", str(photo))
    assert page.locator("#picker-likely").is_hidden()
    page.click(".review .card.fix[data-code='7H']")
    page.wait_for_selector("#picker-likely .card")
    shot(page, "10-next-guesses")
    assert page.locator("#picker-likely .card").evaluate_all("els => els.map(e => e.dataset.code)") == ["7D", "TH"]
    page.click("#picker-close")
    page.click(".review .card.fix[data-code='4C']")  # a card read with no runner-ups: the row stays hidden
    assert page.locator("#picker-likely").is_hidden()
    page.click("#picker-close")
    page.click(".review .card.fix[data-code='7H']")
    with page.expect_navigation():
        page.click("#picker-likely .card[data-code='7D']")
    assert review_rows(page) == "AS KS QS / 2C 2D 9H 9S 4C / 3H 4H 5H 6H 7D"
