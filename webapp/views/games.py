"""Game pages: the new-game form, the game's page (rounds, totals, chart), who this device is, PIN, exports."""
from __future__ import annotations

import json
import secrets

from flask import Blueprint, Response, abort, current_app, flash, jsonify, redirect, render_template, request, session, url_for

from webapp import access, game_admin, rounds as round_ops, rules
from webapp.chart import standings_chart
from webapp.db import get_session
from webapp.export import download_headers, game_csv, game_export, settle_up_csv
from webapp.games import SettingsInvalid, create_game, find_game, settings_from_form, standings, validate
from webapp.models import CHINESE_POKER, GAME_TYPES
from webapp.option_labels import in_words, option_help, option_label, split_common
from webapp.settle_up import Scope, payments_of, record_payment, settle_up, undo_payment
from webapp.share import qr_png

bp = Blueprint("games", __name__)


@bp.route("/games/new", methods=["GET", "POST"])
def new_game():  # type: ignore[no-untyped-def]
    presets = rules.presets()
    errors: list[str] = []
    form = request.form
    # The game is picked first (links at the top of the form); only its presets are offered.
    game = request.values.get("game", "")
    game = game if game in GAME_TYPES else CHINESE_POKER
    if request.method == "POST":
        settings, errors = settings_from_form(form, presets)
        if errors:  # every problem at once: what parsing found, then the settings' own checks
            errors += [e for e in validate(settings, presets) if e not in errors]
        else:
            try:
                game = create_game(get_session(), settings)
            except SettingsInvalid as err:
                errors = err.messages
            else:
                access.remember_game(game.token)
                if settings.pin:
                    access.remember_unlocked(game)
                return redirect(url_for("games.show", token=game.token), 303)
    offered = {name: info for name, info in presets.items() if info["game"] == game}
    errors = [in_words(e, presets.get(form.get("preset", ""), {}).get("options", {})) for e in errors]
    return render_template("new_game.html", presets=offered, game=game, games=GAME_TYPES, errors=errors,
                           form=form, option_label=option_label, option_help=option_help,
                           split_common=split_common), 400 if errors else 200


@bp.before_app_request
def _require_pin():  # type: ignore[no-untyped-def]
    """Pages of a PIN-protected game ask for the PIN first (the API checks its own header)."""
    if request.blueprint not in ("games", "rounds") or not request.view_args:
        return None
    token = request.view_args.get("token")
    if not token or request.endpoint == "games.unlock":
        return None
    game = access.game_or_404(token)
    if not access.is_unlocked(game):
        return redirect(url_for("games.unlock", token=token, next=request.path))
    return None


@bp.route("/g/<token>/unlock", methods=["GET", "POST"])
def unlock(token: str):  # type: ignore[no-untyped-def]
    game = access.game_or_404(token)
    wrong, status, message, headers = False, 200, None, {}
    if request.method == "POST":
        try:
            if access.unlock(game, request.form.get("pin", "")):
                access.remember_game(game.token)
                return redirect(url_for("games.show", token=token), 303)
            wrong, status = True, 403
        except access.TooManyPinTries as err:
            status, message, headers = 429, str(err), {"Retry-After": str(err.retry_after)}
    return render_template("unlock.html", game=game, wrong=wrong, message=message), status, headers


@bp.get("/g/<token>")
def show(token: str):  # type: ignore[no-untyped-def]
    game = access.game_or_404(token)
    access.remember_game(game.token)
    rounds = list(game.rounds)
    table = standings(game, rounds)
    newest = max((r.number for r in rounds), default=0)
    scope = Scope.parse(request.args.get("from"), request.args.get("to"), newest)
    return render_template(
        "game.html", game=game, rounds=rounds, standings=table,
        chart=standings_chart(table["players"], table["series"]),
        create_key=secrets.token_urlsafe(16), rematch_key=secrets.token_urlsafe(16), share_url=url_for("games.show", token=token, _external=True),
        me=(session.get("me") or {}).get(token), game_etag=round_ops.game_etag(get_session(), game),
        scope=scope, newest=newest,
        settle_up=settle_up(game, rounds, payments_of(get_session(), game), scope),
    )


def _back_to_settle_up(token: str, scope: Scope):  # type: ignore[no-untyped-def]
    args = {} if scope.first is None else {"from": scope.first, "to": scope.last}
    return redirect(url_for("games.show", token=token, **args) + "#settle-up", 303)


@bp.post("/g/<token>/settle-up/paid")
def mark_paid(token: str):  # type: ignore[no-untyped-def]
    """Record one transfer of the settle-up as paid; sent twice (a reconnect), the second finds it paid already."""
    game = access.game_or_404(token)
    scope = Scope.from_key(request.form.get("scope", ""))
    if scope is None:
        abort(400, description="The settle-up's rounds are not given as 'all' or 'first-last'.")
    message = record_payment(get_session(), game, scope, request.form.get("from", ""),
                             request.form.get("to", ""), request.form.get("amount", ""))
    if message:
        flash(message, "info")
    return _back_to_settle_up(token, scope)


@bp.post("/g/<token>/settle-up/unpaid")
def mark_unpaid(token: str):  # type: ignore[no-untyped-def]
    """Take back a "paid" mark (a mistap): the transfer is owed again."""
    game = access.game_or_404(token)
    scope = undo_payment(get_session(), game, request.form.get("payment", ""))
    return _back_to_settle_up(token, scope or Scope())


@bp.get("/g/<token>/settle-up.csv")
def settle_up_export(token: str):  # type: ignore[no-untyped-def]
    game = access.game_or_404(token)
    rounds = list(game.rounds)
    scope = Scope.parse(request.args.get("from"), request.args.get("to"), max((r.number for r in rounds), default=0))
    rows = settle_up(game, rounds, payments_of(get_session(), game), scope)
    return Response(settle_up_csv(rows), mimetype="text/csv", headers=download_headers(game, "settle-up", "csv"))


@bp.get("/g/<token>/qr.png")
def qr(token: str):  # type: ignore[no-untyped-def]
    """The game's link as a QR code, for the other phones at the table to scan."""
    game = access.game_or_404(token)
    body = qr_png(url_for("games.show", token=game.token, _external=True))
    return Response(body, mimetype="image/png", headers={"Cache-Control": "private, max-age=86400"})


@bp.post("/g/<token>/me")
def me(token: str):  # type: ignore[no-untyped-def]
    """This device is one of the players (field `name`; blank: nobody): its changes are shown as theirs."""
    game = access.game_or_404(token)
    name = request.form.get("name", "").strip()
    if name and name not in game.player_names:
        abort(400, description=f"'{name}' is not a player in this game; choose one of {', '.join(game.player_names)}.")
    chosen = dict(session.get("me") or {})
    chosen.pop(token, None)
    if name:
        chosen[token] = name  # newest last; the cookie keeps the last few games only
    session["me"] = dict(list(chosen.items())[-access.KNOWN_GAMES_LIMIT:])
    if request.headers.get("X-Requested-With") == "fetch":
        return jsonify(me=name or None)
    return redirect(url_for("games.show", token=token), 303)


@bp.get("/g/<token>/export.json")
def export_json(token: str):  # type: ignore[no-untyped-def]
    game = access.game_or_404(token)
    body = json.dumps(game_export(game, list(game.rounds)), ensure_ascii=False, indent=2)
    return Response(body, mimetype="application/json", headers=download_headers(game, "", "json"))


@bp.get("/g/<token>/export.csv")
def export_csv(token: str):  # type: ignore[no-untyped-def]
    game = access.game_or_404(token)
    return Response(game_csv(game, list(game.rounds)), mimetype="text/csv",
                    headers=download_headers(game, "", "csv"))


@bp.post("/g/<token>/end")
def end(token: str):  # type: ignore[no-untyped-def]
    """End the game (no more rounds) or, with ended=0, carry on playing."""
    game = access.game_or_404(token)
    game_admin.end_game(get_session(), game, request.form.get("ended", "1") != "0")
    return redirect(url_for("games.show", token=token), 303)


@bp.post("/g/<token>/rematch")
def rematch(token: str):  # type: ignore[no-untyped-def]
    """Same players, rules and stakes, a new game; the page's key makes a double tap one rematch, not two."""
    game = access.game_or_404(token)
    key = request.form.get("rematch_key", "")[:64]
    made = dict(session.get("rematches") or {})
    if key and key in made and find_game(get_session(), made[key]) is not None:
        return redirect(url_for("games.show", token=made[key]), 303)
    copy = game_admin.rematch(get_session(), game)
    if key:
        made[key] = copy.token
        session["rematches"] = dict(list(made.items())[-access.KNOWN_GAMES_LIMIT:])
    access.remember_game(copy.token)
    if game.pin_hash and access.is_unlocked(game):
        access.remember_unlocked(copy)
    return redirect(url_for("games.show", token=copy.token), 303)


@bp.post("/g/<token>/delete")
def delete(token: str):  # type: ignore[no-untyped-def]
    """Delete the game with its rounds and photos, once the box saying so is ticked."""
    game = access.game_or_404(token)
    if request.form.get("confirm") != "yes":
        abort(400, description="Tick the box to confirm: deleting a game removes its rounds and photos for good.")
    title = game.title
    game_admin.delete_game(get_session(), game, current_app.extensions["webapp.photos"])
    session["games"] = [t for t in session.get("games", []) if t != token]
    flash(f"Deleted “{title}” with its rounds and photos.", "info")
    return redirect(url_for("home.index"), 303)


@bp.post("/g/<token>/rename")
def rename(token: str):  # type: ignore[no-untyped-def]
    game = access.game_or_404(token)
    old, new = request.form.get("old", "").strip(), request.form.get("new", "").strip()
    problem = game_admin.rename_player(get_session(), game, old, new)
    if problem:
        flash(problem, "error")
    else:
        mine = dict(session.get("me") or {})
        if mine.get(token) == old:
            mine[token] = new
            session["me"] = mine
    return redirect(url_for("games.show", token=token), 303)
