"""Round pages: each player's hand (photo, camera, webcam, manual, surrender, natural; Big Two: cards
left, who went out, an instant-win claim), review, corrections, settlement, re-opening, and the stored photos."""
from __future__ import annotations

from typing import Any, Callable

from flask import (Blueprint, abort, current_app, flash, jsonify, redirect, render_template, request,
                   send_file, url_for)
from sqlalchemy import select

from webapp import access, reader, rounds
from webapp.db import get_session
from webapp.games import standings
from webapp.models import Game, Round, Upload
from webapp.photos import UploadRejected
from webapp.settlement_view import settlement_view
from webapp.webcam import WebcamUnavailable, capture_jpeg

bp = Blueprint("rounds", __name__)


def _wants_json() -> bool:
    return request.headers.get("X-Requested-With") == "fetch" or request.accept_mimetypes.best == "application/json"


def _load(token: str, number: int) -> tuple[Game, Round]:
    game = access.game_or_404(token)
    rnd = rounds.find_round(get_session(), game, number)
    if rnd is None:
        abort(404, description=f"This game has no round {number}.")
    return game, rnd


def _player(game: Game, seat: int) -> str:
    if not 0 <= seat < len(game.players):
        abort(404, description="No such player in this game.")
    return game.players[seat].name


@bp.post("/g/<token>/rounds")
def create(token: str):  # type: ignore[no-untyped-def]
    game = access.game_or_404(token)
    rnd, _created = rounds.new_round(get_session(), game, request.form.get("create_key"))
    return redirect(url_for("rounds.show", token=token, number=rnd.number), 303)


@bp.get("/g/<token>/r/<int:number>")
def show(token: str, number: int, error: str | None = None, form: Any = None,
         status: int = 200):  # type: ignore[no-untyped-def]
    game, rnd = _load(token, number)
    warnings = rounds.hand_warnings(rnd)
    # Running totals as they stood after this round.
    table = standings(game, [r for r in game.rounds if r.number <= rnd.number]) if rnd.status == "settled" else None
    return render_template("round.html", game=game, rnd=rnd, warnings=warnings,
                           round_warnings=rounds.round_warnings(rnd), ready=rounds.ready_to_settle(rnd),
                           standings=table, settlement=settlement_view(rnd.settlement, game.player_names),
                           bigtwo=rounds.bigtwo_rules(game) if game.is_bigtwo else None,
                           error=error, details=form), status


@bp.get("/g/<token>/r/<int:number>/p/<int:seat>")
def hand(token: str, number: int, seat: int, error: str | None = None, status: int = 200,
         typed: str | None = None):  # type: ignore[no-untyped-def]
    """The player's hand; after a refused entry, `error` says why and `typed` keeps what was typed."""
    game, rnd = _load(token, number)
    player = _player(game, seat)
    the_hand = next(h for h in rnd.hands if h.player == player)
    summary = reader.summarise(the_hand.upload.reading) if the_hand.upload else None
    warnings = rounds.hand_warnings(rnd)[player]
    low = rounds.cards_to_look_at(summary)
    return render_template(
        "hand.html", game=game, rnd=rnd, hand=the_hand, seat=seat, summary=summary, warnings=warnings, low=low,
        suggestions=rounds.unsure_suggestions(rnd, player), alternatives=rounds.card_alternatives(rnd, player),
        error=error, webcam=bool(str(current_app.config.get("WEBCAM_DEVICE", "")).strip()),
        layout=rounds.layout(game), typed=typed, bigtwo=rounds.bigtwo_rules(game) if game.is_bigtwo else None,
    ), status


def _act(token: str, number: int, seat: int, action: Callable[[Game, Round, str], Any],
         typed: str | None = None):  # type: ignore[no-untyped-def]
    """Run one change to a player's hand; errors come back on the same page (or as JSON) with a 4xx,
    with what was `typed` still in the box. A form with return=round goes back to the round page."""
    game, rnd = _load(token, number)
    player = _player(game, seat)
    back = url_for("rounds.hand", token=token, number=number, seat=seat)
    if request.form.get("return") == "round":
        back = url_for("rounds.show", token=token, number=number)
    try:
        action(game, rnd, player)
    except (rounds.RoundError, UploadRejected, WebcamUnavailable) as err:
        get_session().rollback()
        code = getattr(err, "status", 503 if isinstance(err, WebcamUnavailable) else 400)
        if _wants_json():
            return jsonify(error=str(err)), code
        return hand(token, number, seat, error=str(err), status=code, typed=typed)
    if _wants_json():
        return jsonify(redirect=back)
    return redirect(back, 303)


def _store():  # type: ignore[no-untyped-def]
    return current_app.extensions["webapp.photos"]


def _read_slots() -> int:
    return int(current_app.config["READ_SLOTS"])


@bp.post("/g/<token>/r/<int:number>/p/<int:seat>/photo")
def photo(token: str, number: int, seat: int):  # type: ignore[no-untyped-def]
    def action(_game: Game, rnd: Round, player: str) -> None:
        upload = request.files.get("photo")
        if upload is None or not upload.filename:
            raise UploadRejected("Choose a photo first.", 400)
        source = "camera" if request.form.get("source") == "camera" else "photo"
        rounds.add_photo(get_session(), _store(), rnd, player, upload.read(), source=source,
                         loose=request.form.get("mode") == "loose", read_slots=_read_slots())
    return _act(token, number, seat, action)


@bp.post("/g/<token>/r/<int:number>/p/<int:seat>/webcam")
def webcam(token: str, number: int, seat: int):  # type: ignore[no-untyped-def]
    def action(_game: Game, rnd: Round, player: str) -> None:
        rounds.require_open(rnd)
        data = capture_jpeg(str(current_app.config.get("WEBCAM_DEVICE", "")))
        rounds.add_photo(get_session(), _store(), rnd, player, data, source="webcam", read_slots=_read_slots())
    return _act(token, number, seat, action)


@bp.post("/g/<token>/r/<int:number>/p/<int:seat>/manual")
def manual(token: str, number: int, seat: int):  # type: ignore[no-untyped-def]
    typed = request.form.get("rows", "")

    def action(game: Game, rnd: Round, player: str) -> None:
        rounds.set_manual(get_session(), rnd, player, rounds.parse_typed(game, player, typed))
    return _act(token, number, seat, action, typed=typed)


@bp.post("/g/<token>/r/<int:number>/p/<int:seat>/out")
def out(token: str, number: int, seat: int):  # type: ignore[no-untyped-def]
    """Big Two: this player went out (value=1) or did not (value=0)."""
    def action(_game: Game, rnd: Round, player: str) -> None:
        rounds.set_out(get_session(), rnd, player, request.form.get("value", "1") == "1")
    return _act(token, number, seat, action)


@bp.post("/g/<token>/r/<int:number>/p/<int:seat>/instant")
def instant(token: str, number: int, seat: int):  # type: ignore[no-untyped-def]
    """Big Two: this player claims an instant win (value=1) with the cards entered for them, or does not."""
    def action(_game: Game, rnd: Round, player: str) -> None:
        rounds.set_instant_win(get_session(), rnd, player, request.form.get("value", "1") == "1")
    return _act(token, number, seat, action)


@bp.post("/g/<token>/r/<int:number>/details")
def details(token: str, number: int):  # type: ignore[no-untyped-def]
    """Big Two: the finishing order (place1, place2, …) and who failed to block (頂大)."""
    game, rnd = _load(token, number)
    order = [request.form.get(f"place{i}", "") for i in range(1, len(game.players) + 1)]
    try:
        rounds.set_round_details(get_session(), rnd, order if "place1" in request.form else rnd.finish_order,
                                 request.form.get("failed_to_block") or None)
    except rounds.RoundError as err:
        get_session().rollback()
        return show(token, number, error=str(err), form=request.form, status=err.status)
    return redirect(url_for("rounds.show", token=token, number=number), 303)


@bp.post("/g/<token>/r/<int:number>/p/<int:seat>/surrender")
def surrender(token: str, number: int, seat: int):  # type: ignore[no-untyped-def]
    def action(_game: Game, rnd: Round, player: str) -> None:
        rounds.set_surrender(get_session(), rnd, player, request.form.get("value", "1") == "1")
    return _act(token, number, seat, action)


@bp.post("/g/<token>/r/<int:number>/p/<int:seat>/natural")
def natural(token: str, number: int, seat: int):  # type: ignore[no-untyped-def]
    def action(_game: Game, rnd: Round, player: str) -> None:
        rounds.set_natural(get_session(), rnd, player, request.form.get("value", "1") == "1")
    return _act(token, number, seat, action)


def _index() -> int:
    try:
        return int(request.form.get("index", ""))
    except ValueError:
        raise rounds.RoundError("Which card? (index missing)") from None


@bp.post("/g/<token>/r/<int:number>/p/<int:seat>/correct")
def correct(token: str, number: int, seat: int):  # type: ignore[no-untyped-def]
    def action(_game: Game, rnd: Round, player: str) -> None:
        rounds.correct_card(get_session(), rnd, player, request.form.get("row", ""), _index(),
                            request.form.get("code", ""))
    return _act(token, number, seat, action)


@bp.post("/g/<token>/r/<int:number>/p/<int:seat>/remove")
def remove(token: str, number: int, seat: int):  # type: ignore[no-untyped-def]
    def action(_game: Game, rnd: Round, player: str) -> None:
        rounds.remove_card(get_session(), rnd, player, request.form.get("row", ""), _index())
    return _act(token, number, seat, action)


@bp.post("/g/<token>/r/<int:number>/p/<int:seat>/swap")
def swap(token: str, number: int, seat: int):  # type: ignore[no-untyped-def]
    def action(_game: Game, rnd: Round, player: str) -> None:
        first, _, second = request.form.get("rows", "").partition(",")
        rounds.swap_rows(get_session(), rnd, player, first, second)
    return _act(token, number, seat, action)


@bp.post("/g/<token>/r/<int:number>/settle")
def settle(token: str, number: int):  # type: ignore[no-untyped-def]
    game, rnd = _load(token, number)
    try:
        rounds.settle(get_session(), game, rnd)
    except rounds.RoundError as err:
        get_session().rollback()
        flash(str(err), "error")
    return redirect(url_for("rounds.show", token=token, number=number), 303)


@bp.post("/g/<token>/r/<int:number>/reopen")
def reopen(token: str, number: int):  # type: ignore[no-untyped-def]
    _game, rnd = _load(token, number)
    rounds.reopen(get_session(), rnd)
    return redirect(url_for("rounds.show", token=token, number=number), 303)


@bp.get("/g/<token>/photo/<sha>")
def photo_file(token: str, sha: str):  # type: ignore[no-untyped-def]
    game = access.game_or_404(token)
    owned = get_session().scalar(
        select(Upload.id).join(Round).where(Round.game_id == game.id, Upload.photo_sha256 == sha).limit(1))
    path = _store().find(sha) if owned else None
    if path is None:
        abort(404, description="No such photo in this game.")
    # Content-addressed: the bytes behind this URL never change.
    return send_file(path, max_age=31536000, conditional=True)
