"""English / 繁體中文 / 简体中文 through Flask-Babel: gettext catalogs in webapp/translations (en, zh_Hant,
zh_Hans), the language this device chose (a cookie), else the browser's Accept-Language.

Two kinds of message ids (docs/webapp.md): a page's labels are short keys (``new_game``; the en
catalog holds their English), and sentences the server or `scoring` writes in English (change lines, settlement
explanations, foul reasons, errors) have that English template as their id (webapp.sentence_forms reads them)."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from flask import Flask, Response, has_request_context, request, session
from flask_babel import Babel, gettext

LANGUAGES = {"en": "English", "zh-Hant": "繁體中文", "zh-Hans": "简体中文"}
DEFAULT_LANGUAGE = "en"
LOCALES = {"en": "en", "zh-Hant": "zh_Hant", "zh-Hans": "zh_Hans"}   # our codes -> the catalogs' folders
LANGUAGE_COOKIE = "lang"
LANGUAGE_COOKIE_AGE = 400 * 24 * 3600   # the longest browsers keep a cookie
TRANSLATIONS = Path(__file__).with_name("translations")


def N_(msgid: str) -> str:
    """Marks a message id for extraction where the text is looked up later (a key chosen at run time)."""
    return msgid


# Ids a template or module builds at run time (`_(row)`, `_('src_' ~ source)`), listed so that extraction finds them.
RUN_TIME_IDS = (
    N_("front"), N_("middle"), N_("back"), N_("cards"), N_("open"), N_("settled"),
    N_("src_manual"), N_("src_photo"), N_("src_camera"), N_("src_webcam"), N_("src_api"), N_("src_table"),
    N_("game_chinese-poker"), N_("game_bigtwo"),
    N_("instant_cards_n"), N_("cards_left_n"), N_("settle_blocked_rank"), N_("settle_blocked_bigtwo"),
    N_("settle_blocked"), N_("waiting_hint_bigtwo"), N_("waiting_hint"), N_("tap_to_move"), N_("tap_to_fix"),
    N_("manual_help_instant"), N_("manual_help_bigtwo"), N_("manual_help"),
)


def current_language() -> str:
    """en, zh-Hant or zh-Hans: this device's choice (cookie; the session of older pages), else Accept-Language."""
    if not has_request_context():
        return DEFAULT_LANGUAGE
    chosen = request.cookies.get(LANGUAGE_COOKIE) or session.get("lang") or ""
    if chosen in LANGUAGES:
        return chosen
    best = request.accept_languages.best_match(
        ["en", "zh-TW", "zh-HK", "zh-MO", "zh-Hant", "zh-CN", "zh-SG", "zh-Hans", "zh"]) or DEFAULT_LANGUAGE
    if best in ("zh-CN", "zh-SG", "zh-Hans"):
        return "zh-Hans"
    return "zh-Hant" if best.startswith("zh") else DEFAULT_LANGUAGE


def remember_language(response: Response, lang: str) -> None:
    """Keeps the choice on this device (phones share no account, so the device is the person)."""
    session["lang"] = lang
    response.set_cookie(LANGUAGE_COOKIE, lang, max_age=LANGUAGE_COOKIE_AGE, samesite="Lax", httponly=True,
                        secure=request.is_secure)


def _locale() -> str:
    return LOCALES[current_language()]


def translate(msgid: str, **values: Any) -> str:
    """The message in the page's language, its {placeholders} filled in."""
    text = gettext(msgid)
    return text.format(**values) if values else text


def translate_or(msgid: str, fallback: str, **values: Any) -> str:
    """Like translate, but `fallback` where the catalogs have no such id (a key made from data, e.g. an option
    scoring added after the catalogs were written) or translate it as itself."""
    text = gettext(msgid)
    if text == msgid:
        return fallback
    return text.format(**values) if values else text


def is_english() -> bool:
    return current_language() == "en"


def warning_text(note: dict[str, Any]) -> str:
    """A review warning in the reader's language (English: the review's own text). A reader warning the review
    does not restate has no key: it is shown as an error line (translated when it is of a known form)."""
    from webapp.error_text import error_text
    from webapp.sentence_forms import set_labels

    text, key = str(note.get("text", "")), note.get("key")
    if is_english():
        return text
    if not key:
        return error_text(text)
    params = dict(note.get("params") or {})
    if "row" in params:
        params["row"] = translate(str(params["row"]))
    msgid = f"warn_{key}"  # a run-time id, listed for extraction
    return set_labels(translate_or(msgid, text, **params))


def preset_label(name: str) -> str:
    msgid = f"preset_{name}"  # a run-time id, listed for extraction
    return translate_or(msgid, name)


def chinese(text: str) -> str:
    """A Chinese name from `scoring` (written in traditional characters) in the script the reader chose; English
    pages show it in traditional characters."""
    from webapp.scoring_text import name_text

    return name_text(text)


def compile_catalogs(folder: Path = TRANSLATIONS) -> list[Path]:
    """Writes each messages.mo that is missing or older than its .po (scripts/setup.sh runs `pybabel compile`;
    this keeps a checkout that pulled new strings right without it). Returns the files written."""
    written = []
    for po_path in sorted(folder.glob("*/LC_MESSAGES/messages.po")):
        mo_path = po_path.with_suffix(".mo")
        if mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
            continue
        with po_path.open("rb") as po_file:
            catalog = read_po(po_file, locale=po_path.parent.parent.name)
        tmp = mo_path.with_name(f"messages.{os.getpid()}.tmp")   # processes starting at once do not share it
        with tmp.open("wb") as mo_file:
            write_mo(mo_file, catalog, use_fuzzy=False)
        tmp.replace(mo_path)   # atomic: another process never reads half a file
        written.append(mo_path)
    return written


def init_app(app: Flask) -> None:
    from webapp.change_text import change_text, event_kind
    from webapp.error_text import error_text
    from webapp.option_labels import choice_label, option_help, option_label
    from webapp.rules import option_text
    from webapp.scoring_text import (explain, foul_reason, hand_description, natural_text, preset_description,
                                     row_word, vs)
    from webapp.sentence_forms import set_labels

    try:
        compile_catalogs()
    except OSError as err:   # a read-only install: setup compiled them
        app.logger.warning("could not compile the translations: %s", err)
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS))
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT_LANGUAGE)
    Babel(app, locale_selector=_locale)
    app.jinja_env.filters.update(row_word=row_word, error_text=error_text)

    @app.after_request
    def _error_in_language(response: Response) -> Response:
        """A page's own fetch (not the API) refused with JSON gets the error in the reader's language as
        "message" beside the English "error" (app.js shows it)."""
        if response.status_code >= 400 and response.is_json and not request.path.startswith("/api/") \
                and not is_english():
            data = response.get_json(silent=True)
            if isinstance(data, dict) and isinstance(data.get("error"), str) and "message" not in data:
                data["message"] = error_text(data["error"])
                response.set_data(json.dumps(data, ensure_ascii=False))
        return response

    app.jinja_env.globals.update(
        _=translate, LANGUAGES=LANGUAGES, current_language=current_language, zh=chinese,
        option_text=option_text, option_label=option_label, option_help=option_help, choice_label=choice_label,
        preset_label=preset_label, preset_description=preset_description,
        warning_text=warning_text, error_text=error_text, change_text=change_text, event_kind=event_kind,
        explain=explain, natural_text=natural_text, foul_reason=foul_reason, hand_description=hand_description,
        row_word=row_word, set_labels=set_labels, vs=vs,
    )
