"""Home page (this browser's games) and the language switch."""
from __future__ import annotations

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
    target = request.form.get("next", "")
    # Only same-site paths: never bounce the user to another host.
    if not target.startswith("/") or target.startswith("//"):
        target = url_for("home.index")
    return redirect(target)
