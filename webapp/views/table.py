"""A round filled from one photo of the whole table: the photo page (upload, live camera, the server's webcam), the
seat page (the photo with each hand outlined and numbered; one tap per hand picks its player), the game's seats
(changeable from the game page), and the same as JSON API operations.

Routes hang on the existing blueprints (rounds and games: the PIN applies as on every round page; api: the
OpenAPI validation and error handlers apply). The work itself is in webapp.rounds.table_photos and webapp.table_seats."""
from __future__ import annotations

from typing import Any, Callable

from flask import abort, current_app, flash, jsonify, redirect, render_template, request, url_for

from webapp import access, rounds, table_seats
from webapp.db import get_session
from webapp.models import Game, Round
from webapp.photos import UploadRejected
from webapp.rounds.table_photos import (TABLE, TableFill, empty_seat_line, failed_table_photo, fill_from_table,
                                        filled_by, latest_table_fill, reading_table_photo, skip_line,
                                        store_table_photo, table_upload, waiting_table_photo)
from webapp.table_reading import SIDES, TableHand, photo_warnings, table_hands
from webapp.validation import parse_json
from webapp.views import api, games
from webapp.views.rounds import _done, _load, _read_slots, _store, _wants_json
from webapp.views.rounds import bp as rounds_bp
from webapp.webcam import WebcamUnavailable, capture_jpeg
from webapp.webcam import available as webcam_available

READING = "The table photo is being read; the hands appear here when it is done (or the seats are asked)."


# ---------------------------------------------------------------- pages

@rounds_bp.get("/g/<token>/r/<int:number>/table")
def table_page(token: str, number: int, error: str | None = None, status: int = 200):  # type: ignore[no-untyped-def]
    """Take or choose one photo of the whole table."""
    game, rnd = _load(token, number)
    return render_template("table_photo.html", game=game, rnd=rnd, error=error, sides=SIDES,
                           seats=table_seats.remembered(game), waiting=waiting_table_photo(rnd),
                           webcam=webcam_available(str(current_app.config.get("WEBCAM_DEVICE", "")))), status


@rounds_bp.post("/g/<token>/r/<int:number>/table/photo")
def table_photo(token: str, number: int):  # type: ignore[no-untyped-def]
    def shoot() -> bytes:
        upload = request.files.get("photo")
        if upload is None or not upload.filename:
            raise UploadRejected("Choose a photo first.", 400)
        return upload.read()
    return _take(token, number, shoot, "camera" if request.form.get("source") == "camera" else "photo")


@rounds_bp.post("/g/<token>/r/<int:number>/table/webcam")
def table_webcam(token: str, number: int):  # type: ignore[no-untyped-def]
    return _take(token, number, lambda: capture_jpeg(str(current_app.config.get("WEBCAM_DEVICE", ""))), "webcam")


def _take(token: str, number: int, shoot: Callable[[], bytes], source: str):  # type: ignore[no-untyped-def]
    """Read and keep the table photo; then fill the round when the game knows every seat the photo shows a hand
    at, else go to the seat page. A refusal comes back on the photo page (or as JSON) and keeps nothing."""
    game, rnd = _load(token, number)
    try:
        rounds.require_open(rnd)
        upload = store_table_photo(get_session(), _store(), rnd, shoot(), source=source, read_slots=_read_slots())
    except rounds.StaleRound as err:
        get_session().rollback()
        if _wants_json():
            return jsonify(error=str(err), status=412), 412
        return table_page(token, number, error=str(err), status=412)
    except (rounds.RoundError, UploadRejected, WebcamUnavailable) as err:
        get_session().rollback()
        code = getattr(err, "status", 503 if isinstance(err, WebcamUnavailable) else 400)
        if _wants_json():
            return jsonify(error=str(err), status=code), code
        return table_page(token, number, error=str(err), status=code)
    upload_id = upload.id
    round_url = url_for("rounds.show", token=token, number=number)
    if upload.status != "read":  # a reading job has it (REDIS_URL): the round page shows the hands once read
        flash(READING, "ok")
        return _done(token, number, round_url)
    seats_url = url_for("rounds.table_seats_page", token=token, number=number, upload_id=upload_id)
    if filled_by(rnd, upload_id) is not None:  # the reading job (run at once) filled the round already
        return _done(token, number, round_url)
    found = [hand.seat for hand in table_hands(upload.reading)]
    if not table_seats.knows(game, found):
        return _done(token, number, seats_url)
    try:
        report = fill_from_table(get_session(), rnd, upload_id, table_seats.remembered(game), check_version=False)
    except rounds.RoundError as err:  # e.g. every hand at a seat nobody sits at: the seat page says why
        get_session().rollback()
        flash(str(err), "error")
        return _done(token, number, seats_url)
    _flash_report(report)
    return _done(token, number, round_url)


@rounds_bp.get("/g/<token>/r/<int:number>/table/<int:upload_id>")
def table_seats_page(token: str, number: int, upload_id: int, error: str | None = None, status: int = 200,
                     chosen: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    """The photo with each hand outlined and numbered, and per hand the players to pick from (one tap)."""
    game, rnd = _load(token, number)
    upload = _table_upload_or_404(rnd, upload_id)
    hands = table_hands(upload.reading)
    offered = table_seats.proposal(game, [hand.seat for hand in hands])
    if chosen:
        offered.update({seat: name for seat, name in chosen.items() if seat in offered})
    return render_template("table_seats.html", game=game, rnd=rnd, upload=upload, hands=hands, chosen=offered,
                           warnings=photo_warnings(upload.reading), error=error,
                           remembered=table_seats.remembered(game),
                           used=any(e.kind == TABLE and (e.detail or {}).get("upload") == upload_id
                                    for e in rnd.events)), status


@rounds_bp.post("/g/<token>/r/<int:number>/table/<int:upload_id>")
def table_seats_save(token: str, number: int, upload_id: int):  # type: ignore[no-untyped-def]
    """Remember who sits where, then fill every mapped seat's hand from the photo."""
    game, rnd = _load(token, number)
    chosen = {str(seat): request.form.get(f"seat{seat}", "") for seat in range(len(SIDES))
              if f"seat{seat}" in request.form}
    try:
        _table_upload_or_404(rnd, upload_id)
        seats = table_seats.remember(game, table_seats.parse(game, chosen))
        report = fill_from_table(get_session(), rnd, upload_id, seats)
    except rounds.StaleRound as err:
        get_session().rollback()
        if _wants_json():
            return jsonify(error=str(err), status=412), 412
        return table_seats_page(token, number, upload_id, error=str(err), status=412, chosen=chosen)
    except rounds.RoundError as err:
        get_session().rollback()
        if _wants_json():
            return jsonify(error=str(err), status=err.status), err.status
        return table_seats_page(token, number, upload_id, error=str(err), status=err.status, chosen=chosen)
    _flash_report(report)
    return _done(token, number, url_for("rounds.show", token=token, number=number))


@games.bp.route("/g/<token>/seats", methods=["GET", "POST"])
def game_seats(token: str):  # type: ignore[no-untyped-def]
    """The game's seats for table photos: change who sits where, or forget it (the next table photo asks)."""
    game = access.game_or_404(token)
    error, status = None, 200
    if request.method == "POST":
        chosen = {str(seat): request.form.get(f"seat{seat}", "?") for seat in range(len(SIDES))}
        try:
            if request.form.get("forget"):
                table_seats.replace(game, None)
            else:
                table_seats.replace(game, table_seats.parse(game, {s: n for s, n in chosen.items() if n != "?"}))
        except rounds.RoundError as err:
            get_session().rollback()
            error, status = str(err), err.status
        else:
            get_session().commit()
            back = request.form.get("next", "")
            return redirect(back if _own_page(back, token) else url_for("games.show", token=token), 303)
    return render_template("game_seats.html", game=game, sides=SIDES, seats=table_seats.remembered(game),
                           error=error, next=request.values.get("next", "")), status


def _own_page(url: str, token: str) -> bool:
    """Only a path of this game's own pages is followed after saving (never another site)."""
    return url.startswith(f"/g/{token}/") and "//" not in url and "\\" not in url


def _table_upload_or_404(rnd: Round, upload_id: int):  # type: ignore[no-untyped-def]
    try:
        return table_upload(get_session(), rnd, upload_id)
    except rounds.RoundError as err:
        abort(404, description=str(err))


def _flash_report(report: TableFill) -> None:
    filled = ", ".join(f"{player} ({count})" for player, count in report.filled.items())
    flash(f"Filled from the table photo: {filled}. Check each hand below.", "ok")
    for line in [skip_line(skip) for skip in report.skipped] + [empty_seat_line(e) for e in report.empty_seats]:
        flash(line[0].upper() + line[1:] + ".", "error")


@rounds_bp.app_template_global("table_panel")
def table_panel(rnd: Round) -> dict[str, Any]:
    """What the round page says about table photos: the newest fill (the photo's warnings, the hands it left alone,
    the seats where it found none) and a table photo still waiting for its seats."""
    event = latest_table_fill(rnd)
    panel: dict[str, Any] = {"waiting": waiting_table_photo(rnd), "reading": reading_table_photo(rnd),
                             "failed": failed_table_photo(rnd), "fill": None}
    if event is not None:
        detail = event.detail or {}
        upload = next((u for u in rnd.uploads if u.id == detail.get("upload")), None)
        panel["fill"] = {
            "upload": detail.get("upload"), "photo": detail.get("photo"),
            "filled": detail.get("filled") or {},
            "warnings": photo_warnings(upload.reading) if upload is not None else [],
            "left": [skip_line(s) for s in detail.get("skipped") or []]
                    + [empty_seat_line(e) for e in detail.get("empty_seats") or []]}
    return panel


@rounds_bp.app_template_global("table_focus")
def table_focus(reading: Any) -> list[int] | None:
    """The part of a table photo a hand filled from it lies in (its outline, in photo pixels): the hand page opens
    the photo there. None for a hand's own photo."""
    if not isinstance(reading, dict) or "table_upload" not in reading:
        return None
    hands = table_hands({"hands": [{**reading, "seat": 0}]})
    outline = hands[0].outline if hands else None
    return [round(v) for v in outline] if outline else None


@games.bp.app_template_global("table_seats_of")
def table_seats_of(game: Game) -> list[tuple[str, str]]:
    """The game's remembered seats as (side, player or '') in seat order, for the game page."""
    seats = table_seats.remembered(game)
    return [(SIDES[int(seat)], name) for seat, name in sorted(seats.items())]


# ---------------------------------------------------------------- API

def _hand_json(hand: TableHand) -> dict[str, Any]:
    return {"seat": hand.seat, "side": hand.side, "cards": hand.card_count,
            "outline": list(hand.outline) if hand.outline else None}


def _api_seats(game: Game, text: str | None) -> dict[str, str] | None:
    """The multipart field `seats` (JSON: {"0": "Ann", …}), checked before any reading; None when left out."""
    if text is None or not text.strip():
        return None
    try:
        value = parse_json(text)
    except ValueError:
        value = None
    if not isinstance(value, dict):
        raise rounds.RoundError("'seats' must be a JSON object: seat number -> player, e.g. {\"0\": \"Ann\"}.")
    return table_seats.parse(game, value)


def _api_filled(token: str, number: int, upload_id: int, report: TableFill, status: int):  # type: ignore[no-untyped-def]
    body, _ = api._round_body(token, number)
    _game, rnd = api._round(token, number)
    upload = table_upload(get_session(), rnd, upload_id)
    response = jsonify(upload=upload_id, status="read", needs_seats=False, seats=table_seats.remembered(rnd.game),
                       hands=[_hand_json(h) for h in table_hands(upload.reading)],
                       warnings=photo_warnings(upload.reading), table=report.as_dict(), round=body.get_json())
    response.headers["ETag"] = body.headers["ETag"]
    return response, status


def _api_take(token: str, number: int, data_of: Callable[[], bytes], source: str,
              seats_text: str | None = None):  # type: ignore[no-untyped-def]
    game, rnd = api._round(token, number)
    given = _api_seats(game, seats_text)
    rounds.require_open(rnd)
    if given is not None:  # said with the photo: remembered first, so that a reading job fills by them too
        table_seats.remember(game, given)
        get_session().commit()
    upload = store_table_photo(get_session(), _store(), rnd, data_of(), source=source, read_slots=_read_slots())
    upload_id, status, hands = upload.id, upload.status, table_hands(upload.reading)
    done = filled_by(rnd, upload_id)
    if status != "read" or done is not None:  # a reading job has it, or has filled the round already
        body, _ = api._round_body(token, number)
        return jsonify(upload=upload_id, status=status, needs_seats=False, seats=table_seats.remembered(game),
                       hands=[_hand_json(h) for h in hands], warnings=photo_warnings(upload.reading), table=done,
                       round=body.get_json()), 202 if status != "read" else 201
    if not table_seats.knows(game, [hand.seat for hand in hands]):
        body, _ = api._round_body(token, number)
        return jsonify(upload=upload_id, status=status, needs_seats=True,
                       seats=table_seats.proposal(game, [hand.seat for hand in hands]),
                       hands=[_hand_json(h) for h in hands], warnings=photo_warnings(upload.reading),
                       table=None, round=body.get_json()), 202
    report = fill_from_table(get_session(), rnd, upload_id, table_seats.remembered(game), check_version=False)
    return _api_filled(token, number, upload_id, report, 201)


@api.bp.post("/games/<token>/rounds/<int:number>/table-photo")
def api_table_photo(token: str, number: int):  # type: ignore[no-untyped-def]
    photo = request.files.get("photo")  # the body is parsed before the database is touched
    if photo is None:
        return api._error("Send the photo as the multipart field 'photo'.", 400)
    data = photo.read()
    return _api_take(token, number, lambda: data, "api", request.form.get("seats"))


@api.bp.post("/games/<token>/rounds/<int:number>/table-webcam")
def api_table_webcam(token: str, number: int):  # type: ignore[no-untyped-def]
    return _api_take(token, number, lambda: capture_jpeg(str(current_app.config.get("WEBCAM_DEVICE", ""))), "webcam")


@api.bp.post("/games/<token>/rounds/<int:number>/table-photo/<int:upload>/seats")
def api_table_fill(token: str, number: int, upload: int):  # type: ignore[no-untyped-def]
    game, rnd = api._round(token, number)
    table_upload(get_session(), rnd, upload)
    chosen = api._body().get("seats")
    if not isinstance(chosen, dict):
        return api._error("'seats' must be an object: seat number -> player, e.g. {\"0\": \"Ann\"}.", 400)
    seats = table_seats.remember(game, table_seats.parse(game, chosen))
    report = fill_from_table(get_session(), rnd, upload, seats)
    return _api_filled(token, number, upload, report, 200)


@api.bp.get("/games/<token>/table-seats")
def api_get_seats(token: str):  # type: ignore[no-untyped-def]
    game = access.api_game(token)
    return jsonify(seats=table_seats.remembered(game) or None)


@api.bp.put("/games/<token>/table-seats")
def api_put_seats(token: str):  # type: ignore[no-untyped-def]
    game = access.api_game(token)
    chosen = api._body().get("seats")
    if chosen is not None and not isinstance(chosen, dict):
        return api._error("'seats' must be an object (seat number -> player) or null (forget).", 400)
    table_seats.replace(game, table_seats.parse(game, chosen) if chosen else None)
    get_session().commit()
    return jsonify(seats=table_seats.remembered(game) or None)
