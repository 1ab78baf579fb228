"""The translations are complete: every message the web app can show is in the en, zh_Hant and zh_Hans catalogs
(extracted with pybabel, as a translator would), the Chinese pages show no English words of the UI, simplified
pages no traditional characters, and scoring's sentences are all of a form the web layer translates."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

import scoring
from tests.webapp.webapp_testkit import (ANN, BOB, CY, DEE, create_game, csrf_token, enter_rows, new_round,
                                        round_etag)

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "webapp" / "translations"
LOCALES = ("en", "zh_Hant", "zh_Hans")
PYBABEL = Path(sys.executable).with_name("pybabel")
# What may stay in Latin letters on a Chinese page: card codes and ranks, players' names the tests type, units,
# abbreviations and the option values people type (JSON), the language chips.
ALLOWED_WORDS = {"PIN", "QR", "CSV", "JSON", "API", "English", "Ann", "Bob", "Cy", "Dee", "Test", "table", "SHDC",
                 "JQKA", "QKA", "KA", "A", "K", "Q", "J", "T", "AS", "null", "true", "false", "px", "MB", "Ann-Bob"}


@pytest.fixture(scope="module")
def extracted(tmp_path_factory) -> set[str]:
    """Every message id in the code and templates, as `pybabel extract` finds it (babel.cfg)."""
    pot = tmp_path_factory.mktemp("pot") / "messages.pot"
    subprocess.run([str(PYBABEL), "-q", "extract", "-F", "babel.cfg", "-k", "N_", "-k", "translate",
                    "-k", "translate_or:1", "-o", str(pot), "webapp"], cwd=ROOT, check=True)
    with pot.open("rb") as handle:
        return {message.id for message in read_po(handle) if message.id}


def _catalog(locale: str):
    with (TRANSLATIONS / locale / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        return read_po(handle, locale=locale)


@pytest.mark.parametrize("locale", LOCALES)
def test_every_message_has_a_translation(extracted, locale):
    catalog = _catalog(locale)
    missing = sorted(msgid for msgid in extracted if not (catalog.get(msgid) and catalog.get(msgid).string))
    fuzzy = sorted(str(m.id) for m in catalog if m.id and m.fuzzy)
    assert not missing, f"{locale}: no translation for {missing[:20]} (run pybabel update, then translate)"
    assert not fuzzy, f"{locale}: fuzzy entries {fuzzy[:20]}"


@pytest.mark.parametrize("locale", ("zh_Hant", "zh_Hans"))
def test_translations_keep_the_placeholders_and_hold_no_japanese(locale):
    for message in _catalog(locale):
        if not message.id:
            continue
        english = _catalog_en().get(message.id).string
        assert set(re.findall(r"{(\w+)}", message.string)) <= set(re.findall(r"{(\w+)}", english.lower())), message.id
        assert not re.search(r"[\u3040-\u30ff]|竜|対|追加点", message.string), (message.id, message.string)


def _catalog_en():
    global _EN
    try:
        return _EN
    except NameError:
        _EN = _catalog("en")
        return _EN


def test_the_simplified_catalog_uses_simplified_characters():
    """A character of the traditional catalog that the simplified one never uses is a traditional form
    (雙, 鐵, 龍 …); none may appear in the simplified catalog (the 简体 page once showed 雙炒)."""
    traditional = {ch for m in _catalog("zh_Hant") if m.id for ch in m.string}
    simplified = {ch for m in _catalog("zh_Hans") if m.id for ch in m.string}
    only_traditional = traditional - simplified
    assert {"雙", "鐵", "龍", "對", "勝", "輸"} <= only_traditional
    for message in _catalog("zh_Hans"):
        assert not set(message.string) & only_traditional - set(message.id), (message.id, message.string)


def test_the_catalogs_name_every_preset_and_every_name_scoring_writes():
    from webapp import i18n_ids
    from webapp.rounds.review import WARNING_TEXT

    presets = {ids[0] for ids in i18n_ids.PRESETS}
    assert {f"preset_{name}" for name in scoring.list_presets()} <= presets
    assert {f"warn_{key}" for key in WARNING_TEXT} <= set(i18n_ids.WARNINGS)
    from scoring.bigtwo.instant import NAMES
    from scoring.bigtwo.rules import presets as bigtwo_presets
    from scoring.hand_names import CATEGORY_NAMES_ZH
    from scoring.rules import presets as chinese_poker_presets

    written = {zh.partition("（")[0] for _, zh in NAMES.values()} | set(CATEGORY_NAMES_ZH.values())
    for preset in [*chinese_poker_presets().values(), *bigtwo_presets().values()]:
        written |= set(preset["terms"].values()) | set((preset.get("category_names_zh") or {}).values())
        written |= {natural["zh"] for natural in preset.get("naturals") or []}
    assert len(written) > 40 and written <= set(i18n_ids.SCORING_NAMES), sorted(written - set(i18n_ids.SCORING_NAMES))


def _only_traditional() -> set[str]:
    """Characters the traditional catalog uses and the simplified one never does (雙, 鐵, 龍 …), but for the
    language chips' own names."""
    traditional = {ch for m in _catalog("zh_Hant") if m.id for ch in m.string}
    return traditional - {ch for m in _catalog("zh_Hans") if m.id for ch in m.string} - set("繁體中文")


def _only_simplified() -> set[str]:
    """Characters the simplified catalog uses and the traditional one never does (双, 铁, 龙 …), but for the
    language chips' own names."""
    simplified = {ch for m in _catalog("zh_Hans") if m.id for ch in m.string}
    return simplified - {ch for m in _catalog("zh_Hant") if m.id for ch in m.string} - set("简体中文")


def _visible_text(html: str) -> str:
    """What a person reads on the page: text outside tags, scripts and styles, plus titles and labels."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.DOTALL)
    visible = re.findall(r'(?:title|aria-label|placeholder|alt)="([^"]*)"', html)
    text = re.sub(r"<[^>]+>", " ", html)
    text = re.sub(r"&[a-z]+;|&#\d+;", " ", text)
    return " ".join([text, *visible])


def _english_words(html: str) -> set[str]:
    """Latin words a person reads on the page."""
    text = re.sub(r"\{[^{}]*\}|\S*/\S*", " ", _visible_text(html))   # JSON examples of values people type; paths
    words = set(re.findall(r"[A-Za-z][A-Za-z'-]*[A-Za-z]|[A-Za-z]", text))
    return {w for w in words if w not in ALLOWED_WORDS and not re.fullmatch(r"(10|[2-9TJQKA])?[SHDC]?", w)}


def _settled_round(client, preset: str, hands: tuple[str, ...], **extra) -> tuple[str, int]:
    token = create_game(client, players=("Ann", "Bob", "Cy", "Dee")[:len(hands)], preset=preset, **extra)
    number = new_round(client, token)
    for seat, rows in enumerate(hands):
        enter_rows(client, token, number, seat, rows)
    settled = client.post(f"/g/{token}/r/{number}/settle", data={"csrf_token": csrf_token(client),
                                                                 "if_match": round_etag(client, token, number)})
    assert settled.status_code == 303, settled.get_data(as_text=True)[:500]
    return token, number


FOULED = "AS AH AD / 3C 3D 8S JH KC / 4H 5H 6C 7C 8D"   # trips in front over a pair in the middle


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans"])
def test_chinese_pages_show_no_english(client, lang):
    client.post("/lang", data={"csrf_token": csrf_token(client), "lang": lang})
    token, number = _settled_round(client, "hk", (ANN, BOB, CY, DEE.replace("3S 5D 8H", "KH KD 8H").replace(
        "QC QH KS", "QC QH 3S").replace("AC AH", "AC 5D")))
    fouled, fouled_round = _settled_round(client, "2-4", (FOULED.replace("AS AH AD", "AS AH 2S"), BOB))
    open_round = new_round(client, fouled, key="k2")
    enter_rows(client, fouled, open_round, 0, ANN)
    enter_rows(client, fouled, open_round, 1, BOB.replace("QS", "2S"))
    bigtwo = create_game(client, preset="bigtwo-hk", game="bigtwo")
    criss = create_game(client, preset="criss-cross")
    criss_round = new_round(client, criss)
    for seat, hand_set, rows in ((0, 1, ANN), (0, 2, BOB), (1, 1, CY), (1, 2, DEE)):   # criss cross: two sets each
        client.post(f"/g/{criss}/r/{criss_round}/p/{seat}/s/{hand_set}/manual",
                    data={"csrf_token": csrf_token(client), "rows": rows})
    client.post(f"/g/{criss}/r/{criss_round}/settle", data={"csrf_token": csrf_token(client),
                                                            "if_match": round_etag(client, criss, criss_round)})
    assert 'id="settlement"' in client.get(f"/g/{criss}/r/{criss_round}").get_data(as_text=True)
    pages = {"/": None, "/games/new": None, f"/g/{token}": None, f"/g/{token}/r/{number}": None,
             f"/g/{token}/r/{number}/p/0": None, f"/g/{fouled}/r/{fouled_round}": None,
             f"/g/{fouled}/r/{open_round}": None, f"/g/{fouled}/r/{open_round}/p/1": None, f"/g/{bigtwo}": None,
             f"/g/{token}/r/{number}/p/0/hindsight": None, f"/g/{criss}/r/{criss_round}": None, "/g/no-such-game": None, "/offline": None,
             f"/g/{create_game(client, pin='4321')}/unlock": None}
    other_script = _only_traditional() if lang == "zh-Hans" else _only_simplified()
    for path in pages:
        html = client.get(path).get_data(as_text=True)
        pages[path] = sorted(_english_words(html) | (set(_visible_text(html)) & other_script))
    leftover = {path: words for path, words in pages.items() if words}
    assert not leftover, "\n".join(f"{path}: {words}" for path, words in leftover.items())


def test_the_language_is_remembered_on_this_device(app, client):
    response = client.post("/lang", data={"csrf_token": csrf_token(client), "lang": "zh-Hans"})
    cookie = response.headers.get("Set-Cookie", "")
    assert "lang=zh-Hans" in [part.strip() for part in response.headers.getlist("Set-Cookie")[-1].split(";")] or \
        "lang=zh-Hans" in cookie
    assert any("Max-Age=" in header and header.startswith("lang=") for header in response.headers.getlist("Set-Cookie"))
    other = app.test_client()   # a fresh session: only the language cookie carries over
    other.set_cookie("lang", "zh-Hans")
    assert "新牌局" in other.get("/").get_data(as_text=True)
    stranger = app.test_client()
    page = stranger.get("/", headers={"Accept-Language": "zh-TW,zh;q=0.9"}).get_data(as_text=True)
    assert "建立" in page or "牌局" in page
    assert "New game" in app.test_client().get("/", headers={"Accept-Language": "fr"}).get_data(as_text=True)


def test_every_sentence_scoring_writes_is_translated(app):
    """Settle many rounds under every Chinese-poker preset and Big Two's, and translate each sentence: a form the
    web layer does not know would come back in English."""
    import random

    from webapp import scoring_text
    from webapp.settlement_view import settlement_view

    rng = random.Random(69)
    deck = [r + s for r in "23456789TJQKA" for s in "SHDC"]
    untranslated = set()
    with app.test_request_context("/", headers={"Cookie": "lang=zh-Hant"}):
        for name, info in scoring.list_presets().items():
            if name == "criss-cross":
                continue
            for _ in range(40):
                rng.shuffle(deck)
                if info.get("game") == "bigtwo":
                    players = {p: " ".join(deck[i * 13: i * 13 + rng.randint(1, 13)]) for i, p in enumerate("ABCD")}
                    players["A"] = ""
                    data = {"game": "bigtwo", "rules": name, "players": players, "stakes": {"per_point": 1}}
                    if name == "bigtwo-rank":
                        data = {"game": "bigtwo", "rules": name, "players": list("ABCD"), "order": list("BADC")}
                else:
                    players = {p: {"front": deck[i * 13: i * 13 + 3], "middle": deck[i * 13 + 3: i * 13 + 8],
                                   "back": deck[i * 13 + 8: i * 13 + 13]} for i, p in enumerate("ABCD")}
                    if rng.random() < 0.2 and info.get("options", {}).get("surrender"):
                        players["D"] = {"surrender": True}
                    data = {"rules": name, "players": players, "stakes": {"per_point": 1}}
                    if "banker" in str(info.get("options", {}).get("mode", {})):
                        data["banker"] = "A"
                try:
                    view = settlement_view(scoring.settle(data), list("ABCD"))
                except scoring.ScoringError:
                    continue
                notes = view["notes"] + [n for pair in view["pairs"] for n in pair["notes"]]
                for note in notes:
                    text = scoring_text.explain(note)
                    if re.search(r"[a-z]{3,}", text):
                        untranslated.add(text)
    assert not untranslated, sorted(untranslated)[:10]


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans"])
def test_error_messages_read_in_chinese(client, lang):
    """The form's errors (ours and scoring's), a refused hand and an unknown game, all in the chosen language."""
    client.post("/lang", data={"csrf_token": csrf_token(client), "lang": lang})
    page = client.post("/games/new", data={
        "csrf_token": csrf_token(client, "/games/new"), "title": "t", "preset": "2-4", "stake": "1..2",
        "player1": "Ann", "player2": "Ann", "pin": "12", "pair_stakes": "Ann Bob 2",
        "opt-2-4-scoop_multiplier": "0"}).get_data(as_text=True)
    errors = re.search(r'<ul class="warnings" role="alert" id="form-errors">(.*?)</ul>', page, re.DOTALL).group(1)
    assert errors.count("<li") >= 4 and not _english_words(errors), errors
    token = create_game(client)
    number = new_round(client, token)
    refused = enter_rows(client, token, number, 0, "AS KS / QS JS").get_data(as_text=True)
    assert "Write three rows" not in refused and not _english_words(
        re.search(r'id="error">(.*?)</p>', refused, re.DOTALL).group(1))
    missing = client.get("/g/no-such-game").get_data(as_text=True)
    assert "No such game" not in missing and ("沒有這個牌局" in missing or "没有这个牌局" in missing)


def test_export_headers_follow_the_language(client):
    token = create_game(client)
    assert client.get(f"/g/{token}/export.csv").get_data(as_text=True).startswith("round,status,banker,player")
    client.post("/lang", data={"csrf_token": csrf_token(client), "lang": "zh-Hans"})
    header = client.get(f"/g/{token}/export.csv").get_data(as_text=True).splitlines()[0]
    assert header.startswith("局,状态,庄家,玩家,头道") and not re.search(r"[a-z]", header)


def test_english_pages_name_the_seeds_terms_in_chinese_not_japanese(client):
    """Scoring's English descriptions and help quote the seeds' terms; the seed written in Japanese (擺烏竜, 降りる,
    追加点) is shown with the Chinese names, and a Chinese name is written one way (青龍, not 靑龍)."""
    page = client.get("/games/new").get_data(as_text=True) + client.get("/games/new?game=bigtwo").get_data(as_text=True)
    assert not re.search(r"[\u3040-\u30ff]|竜|対|追加点|靑", page)
    assert "擺烏龍" in page and "投降" in page


CHANGE_DETAILS = {  # a plausible detail per kind of change whose line needs one
    "read": {"source": "photo"}, "table": {"filled": {"Ann": 0, "Bob": 1}},
    "read_failed": {"error": "No such photo in this game."},
    "correct": {"row": "front", "before": "2S", "after": "7S"}, "remove": {"row": "middle", "before": "KC"},
    "move": {"card": "7S", "from_row": "middle", "to_row": "back"}, "swap_cards": {"a": "2S", "b": "4H"},
    "swap": {"rows": ["middle", "back"]}, "fix": {"moved": 4}, "natural": {"declared": True},
    "settle": {"revision": 2},
}


def test_every_kind_of_change_has_a_chinese_line_and_label(app):
    """Each kind of change the round records (read from rounds/changes.py, so a new kind fails here until it is
    translated) reads in Chinese, as a line and as the history's label."""
    from flask import session

    from webapp.models import RoundEvent
    from webapp.rounds.changes import describe
    from webapp.change_text import EVENT_KINDS, change_text, event_kind

    source = (ROOT / "webapp" / "rounds" / "changes.py").read_text()
    kinds = set(re.findall(r'kind == "(\w+)"', source))
    for group in re.findall(r"kind in \(([^)]*)\)", source):
        kinds |= set(re.findall(r'"(\w+)"', group))
    assert kinds and kinds <= set(EVENT_KINDS), sorted(kinds - set(EVENT_KINDS))
    for lang in ("zh-Hant", "zh-Hans"):
        with app.test_request_context("/"):
            session["lang"] = lang
            for kind in sorted(kinds - {"undo"}):
                event = RoundEvent(id=1, kind=kind, player="Ann", actor="Bob", detail=CHANGE_DETAILS.get(kind, {}))
                line = change_text(describe(event, {}))
                leftover = re.sub(r"\b(Ann|Bob|10|[2-9AKQJ])\b|[♠♥♦♣]", "", line + event_kind(kind))
                assert not re.search(r"[A-Za-z]{2,}", leftover), (kind, line)


def test_catalogs_are_compiled_when_missing_or_older_than_their_po(tmp_path):
    """A fresh clone has no .mo files (they are built, not committed): setup compiles them, and so does the app's
    start for any that is missing or stale."""
    import os
    import shutil

    from babel.support import Translations

    from webapp.i18n import compile_catalogs

    folder = tmp_path / "translations"
    shutil.copytree(TRANSLATIONS, folder, ignore=shutil.ignore_patterns("*.mo"))
    assert len(compile_catalogs(folder)) == 3 and compile_catalogs(folder) == []
    assert Translations.load(str(folder), ["zh_Hans"]).gettext("new_game") == "新牌局"
    po = folder / "zh_Hant" / "LC_MESSAGES" / "messages.po"
    later = po.with_suffix(".mo").stat().st_mtime + 10
    os.utime(po, (later, later))
    assert compile_catalogs(folder) == [po.with_suffix(".mo")]


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans"])
def test_what_stops_settling_reads_in_chinese(client, lang):
    """Under rules that refuse a fouled hand (fujian's 相公) the round says per player what is missing, the foul
    included, and a settle from a page without its version is refused, both in the chosen language."""
    client.post("/lang", data={"csrf_token": csrf_token(client), "lang": lang})
    token = create_game(client, preset="fujian")
    number = new_round(client, token)
    enter_rows(client, token, number, 0, "QH QC KS / 3C 8D 9D TC JH / 7S 7H 7D 7C KC")
    refused = client.post(f"/g/{token}/r/{number}/settle", data={"csrf_token": csrf_token(client)})
    assert refused.status_code == 428
    html = refused.get_data(as_text=True)
    assert not _english_words(html), sorted(_english_words(html))
    assert re.search(r'id="settle-missing">.*(相公|头道).*</p>', html, re.DOTALL)


def test_table_photo_messages_read_in_chinese(app):
    """The table photo's refusals and report lines (written in English by rounds.table_photos and views.table)."""
    from flask import session

    from webapp.error_text import error_text
    from webapp.rounds import table_photos
    from webapp.views import table

    skipped = [table_photos.skip_line({"side": side, "cards": 13, "player": "Ann", "reason": reason})
               for side, reason in (("right", "surrendered"), ("left", "went_out"), ("top", "no_player"))]
    empty = table_photos.empty_seat_line({"player": "Bob", "side": "bottom"})
    messages = [table.READING, table_photos.CRISS_CROSS_TABLE, f"{table_photos.NO_HAND_FOUND}: make sure the whole "
                "table and every hand's cards are in the picture.", "No hand was filled: " + "; ".join(skipped) + ".",
                *(line[0].upper() + line[1:] + "." for line in [*skipped, empty])]
    with app.test_request_context("/"):
        session["lang"] = "zh-Hant"
        for message in messages:
            said = error_text(message)
            assert not re.search(r"[A-Za-z]{2,}", re.sub(r"\b(Ann|Bob)\b", "", said)), (message, said)


def test_every_option_check_of_scoring_reads_in_chinese(app):
    """Bad values for every option of every preset (as the new-game form names them, by label): each message scoring
    writes is of a form the web layer translates, not shown in English after the lead-in."""
    from flask import session

    from webapp.error_text import error_text
    from webapp.option_labels import in_words

    bad_values = ["zzz", -5, 2.5, True, {"zzz": 1}, ["zzz"], {}, {"back": {"zzz": 1}}, {"zzz": {"a": 1}},
                  {"back": 3}, {"2": 1}, {"0": 2}, {"AS": -1}, {"ZZ": 1}, [1], [1, 2, 3, 4, 5], "SHD",
                  {"dragon": 0}]
    messages = set()
    for preset, info in scoring.list_presets().items():
        for name in info.get("options", {}):
            for value in bad_values:
                try:
                    scoring.validate_settings(preset, {name: value})
                except scoring.ScoringError as err:
                    messages.add(in_words(str(err), info["options"]))
    assert len(messages) > 300  # every option was tried, most values refused
    for lang, lead_in in (("zh-Hant", "出錯了"), ("zh-Hans", "出错了")):
        with app.test_request_context("/"):  # one language a request (Flask-Babel keeps the request's locale)
            session["lang"] = lang
            assert error_text("an English line of no known form").startswith(lead_in)
            english = sorted(m for m in messages if error_text(m).startswith(lead_in))
            assert not english, english[:5]
