"""Round pages: each player's hand (photo, camera, webcam, manual, surrender, natural; Big Two: cards
left, who went out, an instant-win claim), review, corrections (move, swap, the legal fix, undo), settlement,
re-opening, and the stored photos.

Every change a form sends carries the version its page showed (hidden field if_match, or an If-Match header); one
from an older version changes nothing and re-renders the page (412) with what changed since."""
from __future__ import annotations

from typing import Any, Callable

from flask import (Blueprint, abort, current_app, flash, g, jsonify, redirect, render_template, request,
                   send_file, session, url_for)
from sqlalchemy import select

from webapp import access, reader, rounds
from webapp.db import get_session
from webapp.games import standings
from webapp.jobs.status import photo_jobs
from webapp.models import Game, Round, Upload
from webapp.photos import UploadRejected
from webapp.rounds import live
from webapp.settlement_view import settlement_view
from webapp.webcam import WebcamUnavailable, capture_jpeg
from webapp.webcam import available as webcam_available  # the button only for a camera that is there

bp = Blueprint("rounds", __name__)


def _wants_json() -> bool:
    return request.headers.get("X-Requested-With") == "fetch" or request.accept_mimetypes.best == "application/json"


FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def device_name(token: str | None) -> str | None:
    """The name this device chose on the game's page (POST /g/<token>/me), or None."""
    return (session.get("me") or {}).get(token) if token else None


@bp.before_app_request
def _live_request() -> None:
    """Who is acting (X-Actor, else the device's chosen name) and, for a change to a round, the version the
    device saw (If-Match header, or a form's if_match field): the round operations read both."""
    args = request.view_args or {}
    tags = None
    if request.method not in ("GET", "HEAD", "OPTIONS") and "number" in args:
        sent = request.headers.get("If-Match")
        if sent is None and request.mimetype in FORM_TYPES:
            sent = request.form.get("if_match")
        tags = live.parse_if_match(sent)
    g.if_match = tags
    g.live_token = live.begin(request.headers.get("X-Actor") or device_name(args.get("token")), tags)


@bp.teardown_app_request
def _live_request_end(_exc: BaseException | None) -> None:
    token = g.pop("live_token", None)
    if token is not None:
        try:
            live.end(token)
        except ValueError:  # set in another context (a test client's nested request); nothing to undo
            pass


def live_context(rnd: Round, changed_since: list[dict[str, Any]] | None = None,
                 warnings: dict[str, list[dict[str, Any]]] | None = None) -> dict[str, Any]:
    """What the round and hand pages need for the live round: the ETag (the forms' if_match), per hand the foul
    (reason and legal fix), the natural the cards make and what is missing, the change lines, undo's line, who
    this device is, and after a 412 what changed since the page was loaded."""
    game = rnd.game
    return {"etag": rounds.etag(rnd), "changes": rounds.recent_changes(rnd), "undo": rounds.undo_preview(rnd),
            "fouls": {rounds.hand_label(h): rounds.foul_of(game, h) for h in rnd.hands},
            "naturals": {rounds.hand_label(h): rounds.natural_of(game, h) for h in rnd.hands},
            "missing": rounds.missing_by_player(rnd, warnings), "me": device_name(game.token),
            "changed_since": changed_since,
            # photos a reading job has not finished (REDIS_URL), or could not read, per (player, hand set)
            "photo_jobs": photo_jobs(rnd, int(current_app.config["JOBS_STUCK_AFTER_S"]))}


def _stale_json(token: str, number: int, err: rounds.StaleRound):  # type: ignore[no-untyped-def]
    get_session().rollback()
    _game, rnd = _load(token, number)
    response = jsonify(rounds.stale_json(rnd, err.seen_version, str(err)))
    response.headers["ETag"] = rounds.etag(rnd)
    return response, 412


def _changed_since(token: str, number: int, err: rounds.StaleRound) -> list[dict[str, Any]]:
    get_session().rollback()
    _game, rnd = _load(token, number)
    return rounds.changes_since(rnd, err.seen_version)


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


def _hand_set(game: Game) -> int:
    """The set this request is about: under criss cross /s/<1|2> in the path (views/hand_sets.py), else 0; 404
    for a set the game does not deal."""
    try:
        return rounds.hand_set_of(game, g.get("set_number"))
    except rounds.RoundError as err:
        abort(err.status, description=str(err))


@bp.post("/g/<token>/rounds")
def create(token: str):  # type: ignore[no-untyped-def]
    game = access.game_or_404(token)
    try:
        rnd, _created = rounds.new_round(get_session(), game, request.form.get("create_key"))
    except rounds.RoundError as err:  # the game has ended (a page left open elsewhere)
        get_session().rollback()
        flash(str(err), "error")
        return redirect(url_for("games.show", token=token), 303)
    return redirect(url_for("rounds.show", token=token, number=rnd.number), 303)


@bp.get("/g/<token>/r/<int:number>")
def show(token: str, number: int, error: str | None = None, form: Any = None,
         status: int = 200, changed_since: list[dict[str, Any]] | None = None):  # type: ignore[no-untyped-def]
    game, rnd = _load(token, number)
    warnings = rounds.hand_warnings(rnd)
    # Running totals as they stood after this round.
    table = standings(game, [r for r in game.rounds if r.number <= rnd.number]) if rnd.status == "settled" else None
    return render_template("round.html", game=game, rnd=rnd, warnings=warnings,
                           round_warnings=rounds.round_warnings(rnd), ready=rounds.ready_to_settle(rnd, warnings),
                           standings=table, settlement=settlement_view(rnd.settlement, game.player_names),
                           bigtwo=rounds.bigtwo_rules(game) if game.is_bigtwo else None,
                           error=error, details=form, **live_context(rnd, changed_since, warnings)), status


@bp.get("/g/<token>/r/<int:number>/p/<int:seat>")
def hand(token: str, number: int, seat: int, error: str | None = None, status: int = 200,
         typed: str | None = None,
         changed_since: list[dict[str, Any]] | None = None):  # type: ignore[no-untyped-def]
    """The player's hand; after a refused entry, `error` says why and `typed` keeps what was typed."""
    game, rnd = _load(token, number)
    player = _player(game, seat)
    hand_set = _hand_set(game)
    the_hand = rounds.find_hand(rnd.hands, player, hand_set)
    summary = reader.summarise(the_hand.upload.reading) if the_hand.upload else None
    warnings = rounds.hand_warnings(rnd)[rounds.hand_label(the_hand)]
    low = rounds.cards_to_look_at(summary)
    return render_template(
        "hand.html", game=game, rnd=rnd, hand=the_hand, seat=seat, summary=summary, warnings=warnings, low=low,
        set_number=rounds.set_number(the_hand),
        suggestions=rounds.unsure_suggestions(rnd, player, hand_set),
        alternatives=rounds.card_alternatives(rnd, player, hand_set),
        error=error, webcam=webcam_available(str(current_app.config.get("WEBCAM_DEVICE", ""))),
        layout=rounds.layout(game), typed=typed, bigtwo=rounds.bigtwo_rules(game) if game.is_bigtwo else None,
        **live_context(rnd, changed_since),
    ), status


def _act(token: str, number: int, seat: int, action: Callable[[Game, Round, str], Any],
         typed: str | None = None):  # type: ignore[no-untyped-def]
    """Run one change to a player's hand; errors come back on the same page (or as JSON) with a 4xx,
    with what was `typed` still in the box. A form with return=round goes back to the round page."""
    game, rnd = _load(token, number)
    player = _player(game, seat)
    back = url_for("rounds.hand", token=token, number=number, seat=seat, set_number=g.get("set_number"))
    if request.form.get("return") == "round":
        back = url_for("rounds.show", token=token, number=number)
    try:
        action(game, rnd, player)
    except rounds.StaleRound as err:
        if _wants_json():
            return _stale_json(token, number, err)
        return hand(token, number, seat, error=str(err), status=412, typed=typed,
                    changed_since=_changed_since(token, number, err))
    except (rounds.RoundError, UploadRejected, WebcamUnavailable) as err:
        get_session().rollback()
        code = getattr(err, "status", 503 if isinstance(err, WebcamUnavailable) else 400)
        if _wants_json():
            return jsonify(error=str(err), status=code), code
        return hand(token, number, seat, error=str(err), status=code, typed=typed)
    return _done(token, number, back)


def _done(token: str, number: int, back: str):  # type: ignore[no-untyped-def]
    """After a change: back to the page (303), or for fetch the page to go to and the round's new ETag."""
    if _wants_json():
        get_session().expire_all()
        _game, rnd = _load(token, number)
        response = jsonify(redirect=back, etag=rounds.etag(rnd), version=rnd.version)
        response.headers["ETag"] = rounds.etag(rnd)
        return response
    return redirect(back, 303)


def _round_act(token: str, number: int, action: Callable[[Game, Round], Any], back: str | None = None,
               flash_refusal: bool = False):  # type: ignore[no-untyped-def]
    """Run one change to the round (settle, re-open, undo, details): a refusal re-renders the round page with
    its status (412: with what changed since), or JSON for fetch; with `flash_refusal` a refusal other than 412
    is shown on the round page after a redirect (settle's "still missing", as before)."""
    game, rnd = _load(token, number)
    try:
        action(game, rnd)
    except rounds.StaleRound as err:
        if _wants_json():
            return _stale_json(token, number, err)
        return show(token, number, error=str(err), form=request.form, status=412,
                    changed_since=_changed_since(token, number, err))
    except rounds.RoundError as err:
        get_session().rollback()
        if _wants_json():
            return jsonify(error=str(err), status=err.status), err.status
        if flash_refusal:
            flash(str(err), "error")
            return redirect(url_for("rounds.show", token=token, number=number), 303)
        return show(token, number, error=str(err), form=request.form, status=err.status)
    return _done(token, number, back or url_for("rounds.show", token=token, number=number))


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
                         loose=request.form.get("mode") == "loose", read_slots=_read_slots(),
                         hand_set=_hand_set(rnd.game))
    return _act(token, number, seat, action)


@bp.post("/g/<token>/r/<int:number>/p/<int:seat>/webcam")
def webcam(token: str, number: int, seat: int):  # type: ignore[no-untyped-def]
    def action(_game: Game, rnd: Round, player: str) -> None:
        rounds.require_open(rnd)
        data = capture_jpeg(str(current_app.config.get("WEBCAM_DEVICE", "")))
        rounds.add_photo(get_session(), _store(), rnd, player, data, source="webcam", read_slots=_read_slots(),
                         hand_set=_hand_set(rnd.game))
    return _act(token, number, seat, action)


@bp.post("/g/<token>/r/<int:number>/p/<int:seat>/manual")
def manual(token: str, number: int, seat: int):  # type: ignore[no-untyped-def]
    typed = request.form.get("rows", "")

    def action(game: Game, rnd: Round, player: str) -> None:
        rounds.set_manual(get_session(), rnd, player, rounds.parse_typed(game, player, typed),
                          hand_set=_hand_set(game))
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
    def action(game: Game, rnd: Round) -> None:
        order = [request.form.get(f"place{i}", "") for i in range(1, len(game.players) + 1)]
        rounds.set_round_details(get_session(), rnd, order if "place1" in request.form else rnd.finish_order,
                                 request.form.get("failed_to_block") or None)
    return _round_act(token, number, action)


@bp.post("/g/<token>/r/<int:number>/p/<int:seat>/surrender")
def surrender(token: str, number: int, seat: int):  # type: ignore[no-untyped-def]
    def action(_game: Game, rnd: Round, player: str) -> None:
        rounds.set_surrender(get_session(), rnd, player, request.form.get("value", "1") == "1",
                             hand_set=_hand_set(rnd.game))
    return _act(token, number, seat, action)


@bp.post("/g/<token>/r/<int:number>/p/<int:seat>/natural")
def natural(token: str, number: int, seat: int):  # type: ignore[no-untyped-def]
    def action(_game: Game, rnd: Round, player: str) -> None:
        rounds.set_natural(get_session(), rnd, player, request.form.get("value", "1") == "1",
                           hand_set=_hand_set(rnd.game))
    return _act(token, number, seat, action)


def _index(field: str = "index", blank: bool = False) -> int | None:
    """A card's 0-based position from the form; with `blank`, an empty field means None (the row's end)."""
    value = request.form.get(field, "").strip()
    if blank and not value:
        return None
    try:
        return int(value)
    except ValueError:
        raise rounds.RoundError(f"Which card? ('{field}' must be a card's position, 0 first)") from None


@bp.post("/g/<token>/r/<int:number>/p/<int:seat>/correct")
def correct(token: str, number: int, seat: int):  # type: ignore[no-untyped-def]
    def action(_game: Game, rnd: Round, player: str) -> None:
        rounds.correct_card(get_session(), rnd, player, request.form.get("row", ""), _index(),
                            request.form.get("code", ""), hand_set=_hand_set(rnd.game))
    return _act(token, number, seat, action)


@bp.post("/g/<token>/r/<int:number>/p/<int:seat>/remove")
def remove(token: str, number: int, seat: int):  # type: ignore[no-untyped-def]
    def action(_game: Game, rnd: Round, player: str) -> None:
        rounds.remove_card(get_session(), rnd, player, request.form.get("row", ""), _index(),
                           hand_set=_hand_set(rnd.game))
    return _act(token, number, seat, action)


@bp.post("/g/<token>/r/<int:number>/p/<int:seat>/move")
def move(token: str, number: int, seat: int):  # type: ignore[no-untyped-def]
    """Move one card (row, index) to (to_row, to_index; blank: the end of that row)."""
    def action(_game: Game, rnd: Round, player: str) -> None:
        rounds.move_card(get_session(), rnd, player, request.form.get("row", ""), _index(),
                         request.form.get("to_row", ""), _index("to_index", blank=True),
                         hand_set=_hand_set(rnd.game))
    return _act(token, number, seat, action)


@bp.post("/g/<token>/r/<int:number>/p/<int:seat>/swapcards")
def swapcards(token: str, number: int, seat: int):  # type: ignore[no-untyped-def]
    def action(_game: Game, rnd: Round, player: str) -> None:
        rounds.swap_cards(get_session(), rnd, player, request.form.get("row", ""), _index(),
                          request.form.get("other_row", ""), _index("other_index"), hand_set=_hand_set(rnd.game))
    return _act(token, number, seat, action)


@bp.post("/g/<token>/r/<int:number>/p/<int:seat>/fix")
def fix(token: str, number: int, seat: int):  # type: ignore[no-untyped-def]
    """Rearrange a fouled hand as its legal fix (worked out again on the server)."""
    def action(_game: Game, rnd: Round, player: str) -> None:
        rounds.apply_fix(get_session(), rnd, player, hand_set=_hand_set(rnd.game))
    return _act(token, number, seat, action)


@bp.post("/g/<token>/r/<int:number>/p/<int:seat>/swap")
def swap(token: str, number: int, seat: int):  # type: ignore[no-untyped-def]
    def action(_game: Game, rnd: Round, player: str) -> None:
        first, _, second = request.form.get("rows", "").partition(",")
        rounds.swap_rows(get_session(), rnd, player, first, second, hand_set=_hand_set(rnd.game))
    return _act(token, number, seat, action)


@bp.post("/g/<token>/r/<int:number>/settle")
def settle(token: str, number: int):  # type: ignore[no-untyped-def]
    """Settle what the page showed: the form must say which version that was (if_match), so a page from before
    another phone's change cannot settle hands its holder has not seen."""
    if g.get("if_match") is None:
        message = "Reload the round before settling: this form did not say which version of the round it showed."
        if _wants_json():
            return jsonify(error=message, status=428), 428
        return show(token, number, error=message, status=428)

    def action(game: Game, rnd: Round) -> None:
        rounds.settle(get_session(), game, rnd)
    return _round_act(token, number, action, flash_refusal=True)


@bp.post("/g/<token>/r/<int:number>/reopen")
def reopen(token: str, number: int):  # type: ignore[no-untyped-def]
    return _round_act(token, number, lambda _game, rnd: rounds.reopen(get_session(), rnd))


@bp.post("/g/<token>/r/<int:number>/undo")
def undo(token: str, number: int):  # type: ignore[no-untyped-def]
    """Revert the last change in the round (from any phone); a form with a seat goes back to that hand."""
    back = None
    if request.form.get("seat", "").isdigit():
        back = url_for("rounds.hand", token=token, number=number, seat=int(request.form["seat"]),
                       set_number=int(request.form["set"]) if request.form.get("set", "") in ("1", "2") else None)
    return _round_act(token, number, lambda _game, rnd: rounds.undo(get_session(), rnd), back)


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
