"""繁體 and 简体 on a phone-sized Chromium: the language chosen once with the header's chip stays on this device
(a new tab, after the session is gone), and the pages a table uses — home, new game with its options unfolded,
game, a settled round with the audit unfolded (fouled hand, natural), a hand, Big Two — show no English word of
the UI. Screenshots go to $TEST_ARTEFACTS/translations (default /tmp/test-artefacts/translations)."""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from test_browser import CHROMIUM, PHONE, browser, live_server  # noqa: F401 - fixtures
from test_translations import ALLOWED_WORDS, _only_traditional
from webapp_testkit import BOB, CY

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed")

ARTEFACTS = Path(os.environ.get("TEST_ARTEFACTS", "/tmp/test-artefacts")) / "translations"
FOULED = "QH QC KS / 3C 8D 9D TC JH / 7S 7H 7D 7C KC"        # a pair in front over a high card in the middle
SIX_PAIRS = "2S 3S 3D / 4H 4C 5H 5D 6D / 6C 8S 8H AH AC"      # 六對半, a natural under the Hong Kong rules
# Every word a person reads: the text shown, and the words of titles, labels and placeholders.
VISIBLE_TEXT = """() => {
  const words = [document.title, document.body.innerText];
  for (const el of document.querySelectorAll('[title], [aria-label], [placeholder], [alt]')) {
    if (el.offsetParent !== null || el.tagName === 'IMG') {
      for (const a of ['title', 'aria-label', 'placeholder', 'alt']) {
        if (el.getAttribute(a)) words.push(el.getAttribute(a));
      }
    }
  }
  return words.join('\\n');
}"""


def english_words(text: str) -> set[str]:
    text = re.sub(r"\{[^{}]*\}|\S*/\S*", " ", text)   # JSON values typed in option fields; paths
    words = set(re.findall(r"[A-Za-z][A-Za-z'-]*[A-Za-z]|[A-Za-z]", text))
    return {w for w in words if w not in ALLOWED_WORDS and not re.fullmatch(r"(10|[2-9TJQKA])?[SHDC]?", w)}


def shot(page, name: str) -> None:
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(ARTEFACTS / f"{name}.png"), full_page=True)


def check(page, name: str, found: dict[str, list[str]]) -> None:
    """Screenshot the page and note any English word on it (and on a 简体 page, any traditional character)."""
    shot(page, name)
    text = page.evaluate(VISIBLE_TEXT)
    words = english_words(text) | (set(text) & _only_traditional() if name.startswith("zh-Hans") else set())
    if words:
        found[name] = sorted(words)


def played(page, server: str) -> tuple[str, str]:
    """A Hong Kong game (Ann banks) with a settled round holding a fouled hand and a natural, and a Big Two game
    with a settled hand; their tokens."""
    token = page.request.post(f"{server}/api/games", data={
        "players": ["Ann", "Bob", "Cy", "Dee"], "rules": "hk", "title": "T1"}).json()["token"]
    hands = {"Ann": BOB, "Bob": FOULED, "Cy": CY, "Dee": SIX_PAIRS}
    settled = page.request.post(f"{server}/api/games/{token}/rounds", data={"hands": hands, "settle": True})
    assert settled.status == 201, settled.text()
    bigtwo = page.request.post(f"{server}/api/games", data={
        "game": "bigtwo", "players": ["Ann", "Bob", "Cy"], "rules": "bigtwo-hk", "title": "T2"}).json()["token"]
    hand = {"Ann": "", "Bob": "3S 4S 5S 6S 7S 8S 9S TS", "Cy": "KD 2H"}
    assert page.request.post(f"{server}/api/games/{bigtwo}/rounds", data={"hands": hand, "settle": True}).status == 201
    return token, bigtwo


@pytest.mark.parametrize("lang, chip", [("zh-Hant", "繁體中文"), ("zh-Hans", "简体中文")])
def test_chinese_pages_on_a_phone_have_no_english(live_server, browser, lang, chip):  # noqa: F811
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    token, bigtwo = played(page, live_server)
    page.goto(live_server + "/")
    page.get_by_role("button", name=chip).click()
    page.wait_for_load_state()
    assert page.locator("html").get_attribute("lang") == lang
    # Remembered on this device: a fresh tab without the session cookie still opens in the chosen language.
    context.clear_cookies(name="session")
    page.goto(live_server + "/")
    assert page.locator("html").get_attribute("lang") == lang
    found: dict[str, list[str]] = {}
    check(page, f"{lang}-01-home", found)
    # The header stays one line on a phone (the chips are 44 px tall; two lines would be ~100 px).
    assert page.locator("header.top").bounding_box()["height"] < 70

    page.goto(live_server + "/games/new")
    for fold in page.locator("details.more-options, fieldset.options:visible details").all():
        if fold.is_visible():
            fold.evaluate("el => el.open = true")
    check(page, f"{lang}-02-new-game", found)
    page.goto(live_server + "/games/new?game=bigtwo")
    check(page, f"{lang}-03-new-game-bigtwo", found)

    page.goto(f"{live_server}/g/{token}")
    check(page, f"{lang}-04-game", found)
    page.goto(f"{live_server}/g/{token}/r/1")
    page.locator("#audit").evaluate("el => el.open = true")
    for fold in page.locator("#audit details.pair").all():
        fold.evaluate("el => el.open = true")
    page.locator("#history").evaluate("el => el.open = true")
    check(page, f"{lang}-05-round-settled", found)
    page.goto(f"{live_server}/g/{token}/r/1/p/1")
    check(page, f"{lang}-06-hand-fouled", found)

    page.goto(f"{live_server}/g/{bigtwo}/r/1")
    page.locator("#audit").evaluate("el => el.open = true")
    check(page, f"{lang}-07-bigtwo-round", found)
    context.close()
    assert not found, found
