"""Home page (this browser's games) and the language switch."""
from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

from flask import Blueprint, redirect, render_template, request, session, url_for
from sqlalchemy import select

from webapp.db import get_session
from webapp.i18n import LANGUAGES
from webapp.models import Game

bp = Blueprint("home", __name__)


@bp.get("/")
def index():  # type: ignore[no-untyped-def]
    tokens = session.get("games", [])
    games = get_session().scalars(select(Game).where(Game.token.in_(tokens))).all() if tokens else []
    games = sorted(games, key=lambda g: tokens.index(g.token))
    return render_template("index.html", games=games)


@bp.post("/lang")
def set_language():  # type: ignore[no-untyped-def]
    lang = request.form.get("lang", "")
    if lang in LANGUAGES:
        session["lang"] = lang
    return redirect(own_path(request.form.get("next", "")) or url_for("home.index"))


def own_path(target: str) -> str | None:
    """`target` if it is a path on this site, else None: never bounce the user to another host.

    Browsers drop tabs and newlines inside a URL, strip leading spaces and control characters and read a
    backslash as a slash, so a "next" of slash, tab, slash, host would leave the site: any such character
    refuses the target outright rather than being cleaned up."""
    if not target.startswith("/") or target.startswith("//"):
        return None
    if any(not ch.isprintable() or ch.isspace() or ch == "\\" for ch in target):
        return None
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not parts.path.startswith("/") or parts.path.startswith("//"):  # belt and braces
        return None
    return urlunsplit(("", "", parts.path, parts.query, parts.fragment))
