"""CSRF protection for the cookie-authorised forms: Flask-WTF's CSRFProtect.

The field (`csrf_token`) and header (`X-CSRF-Token`) are the ones the pages, app.js and the tests have always used.
Tokens are signed copies of a per-session secret and last as long as the session: a game page left open all
evening still submits. The JSON API is exempt: it is authorised by the game's token in the URL (plus PIN), not by
cookies, so a forged cross-site request gains nothing there."""
from __future__ import annotations

from flask import Flask, jsonify, render_template, session
from flask_wtf.csrf import CSRFError, CSRFProtect, generate_csrf, validate_csrf
from wtforms import ValidationError

FIELD = "csrf_token"
HEADER = "X-CSRF-Token"
EXPIRED = "The form expired or came from another site; reload the page and try again."

protect = CSRFProtect()


PAGE_TOKEN = "csrf_page_token"


def csrf_token() -> str:
    """The token a page puts in its forms (and app.js in its header): one per session, the same on every page.

    Flask-WTF signs a fresh copy for each request; a live page compares its regions with a newly fetched copy of
    itself and would see every form as changed (and redraw the one the person is typing in), so the first copy is
    kept in the session and reused while it is valid."""
    kept = session.get(PAGE_TOKEN)
    if isinstance(kept, str) and header_is_valid(kept):
        return kept
    token = generate_csrf()
    session[PAGE_TOKEN] = token
    return token


def header_is_valid(value: str) -> bool:
    """Whether `value` is this session's token: what a page of this site, and only such a page, can send."""
    try:
        validate_csrf(value)
    except ValidationError:
        return False
    return True


def init_app(app: Flask) -> None:
    app.config.setdefault("WTF_CSRF_ENABLED", app.config.get("CSRF_ENABLED", True))
    app.config.setdefault("WTF_CSRF_FIELD_NAME", FIELD)
    app.config.setdefault("WTF_CSRF_HEADERS", [HEADER, "X-CSRFToken"])
    app.config.setdefault("WTF_CSRF_TIME_LIMIT", None)  # valid for the session, not an hour
    # HTTPS' strict check wants a Referer naming this site, and the app sends Referrer-Policy: no-referrer.
    app.config.setdefault("WTF_CSRF_SSL_STRICT", False)
    protect.init_app(app)
    # After init_app, which offers its own csrf_token (a freshly signed copy each time) as a global and to every
    # template's context: ours replaces both.
    app.jinja_env.globals["csrf_token"] = csrf_token
    app.context_processor(lambda: {"csrf_token": csrf_token})
    from webapp.views.api import bp as api

    protect.exempt(api)

    @app.errorhandler(CSRFError)
    def _refused(_err: CSRFError):  # type: ignore[no-untyped-def]
        from webapp import _wants_json

        if _wants_json():
            return jsonify(error=EXPIRED, status=400), 400
        return render_template("error.html", code=400, message=EXPIRED), 400
