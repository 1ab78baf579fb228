"""Home page (this browser's games) and the language switch."""
from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

from flask import Blueprint, current_app, jsonify, redirect, render_template, request, send_from_directory, session, url_for
from sqlalchemy import select

from webapp.db import get_session
from webapp.i18n import LANGUAGES, remember_language, translate
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
    response = redirect(own_path(request.form.get("next", "")) or url_for("home.index"))
    if lang in LANGUAGES:
        remember_language(response, lang)
    return response


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


@bp.get("/manifest.webmanifest")
def manifest():  # type: ignore[no-untyped-def]
    """What a phone needs to add the app to its home screen."""
    body = jsonify({
        "name": translate("app_title"), "short_name": translate("app_short"), "start_url": "/", "scope": "/",
        "display": "standalone", "background_color": "#f3f3f1", "theme_color": "#0b6e4f",
        "icons": [{"src": url_for("static", filename=f"icon-{size}.png"), "sizes": f"{size}x{size}", "type": "image/png"}
                  for size in (192, 512)]
                 + [{"src": url_for("static", filename="icon-maskable-512.png"), "sizes": "512x512",
                     "type": "image/png", "purpose": "maskable"}],
    })
    body.mimetype = "application/manifest+json"
    return body


@bp.get("/sw.js")
def service_worker():  # type: ignore[no-untyped-def]
    """The service worker, served from the root so that its scope is the whole site; never cached for long, so
    a new version reaches phones at their next visit."""
    response = send_from_directory(current_app.static_folder or "static", "sw.js", mimetype="text/javascript",
                                   max_age=0)
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/offline")
def offline():  # type: ignore[no-untyped-def]
    """Shown by the service worker for a page this phone never opened while online."""
    return render_template("offline.html")
