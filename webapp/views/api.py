"""JSON API: everything the pages do, described by /api/openapi.json."""
from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from flask import Blueprint, Response, abort, current_app, jsonify, request, session, url_for
from sqlalchemy import select

from webapp import access, reader, rounds, rules, settle_up
from webapp.db import get_engine, get_session
from webapp.export import game_export
from webapp.games import SettingsInvalid, create_game, game_json, settings_from_json, standings
from webapp.models import Game, Round
from webapp.openapi import openapi_document
from webapp.photos import UploadRejected
from webapp.webcam import WebcamUnavailable, capture_jpeg

bp = Blueprint("api", __name__, url_prefix="/api")


def _error(message: str, status: int):  # type: ignore[no-untyped-def]
    return jsonify(error=message, status=status), status


def _body() -> dict[str, Any]:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        abort(400, description="The body must be a JSON object (Content-Type: application/json).")
    return data


@bp.errorhandler(rounds.RoundError)
@bp.errorhandler(UploadRejected)
def _round_error(err: rounds.RoundError | UploadRejected):  # type: ignore[no-untyped-def]
    get_session().rollback()
    return _error(str(err), err.status)


@bp.errorhandler(rounds.StaleRound)
def _stale(err: rounds.StaleRound):  # type: ignore[no-untyped-def]
    """412: the If-Match named an older version; nothing changed. What changed since, and the round as it is."""
    get_session().rollback()
    get_session().expire_all()
    rnd = get_session().get(Round, err.round_id)
    response = jsonify(rounds.stale_json(rnd, err.seen_version, str(err)))
    response.headers["ETag"] = rounds.etag(rnd)
    return response, 412


def _unchanged_since_poll(token: str, number: int | None = None) -> Response | None:
    """A live page's poll answered before anything else is loaded: 304 when its If-None-Match is the current tag
    and the game is readable without a PIN check (no PIN, or this browser unlocked it); None: the full path."""
    if not request.headers.get("If-None-Match"):
        return None
    found = rounds.peek_etag(get_engine(), token, number)
    if found is None:
        return None
    pin_hash, tag = found
    if pin_hash is not None and not access.is_unlocked(SimpleNamespace(pin_hash=pin_hash, token=token)):
        return None  # api_game checks the PIN header (and its throttle)
    return _not_modified(tag)


def _not_modified(tag: str) -> Response | None:
    """304 with no body when If-None-Match names the current tag (a live page's poll), else None."""
    if not rounds.if_none_match(request.headers.get("If-None-Match"), tag):
        return None
    response = Response(status=304)
    response.headers["ETag"] = tag
    return response


@bp.errorhandler(WebcamUnavailable)
def _webcam_error(err: WebcamUnavailable):  # type: ignore[no-untyped-def]
    return _error(str(err), 503)


@bp.get("/openapi.json")
def openapi():  # type: ignore[no-untyped-def]
    return jsonify(openapi_document(request.host_url.rstrip("/")))


@bp.get("/presets")
def presets():  # type: ignore[no-untyped-def]
    return jsonify(rules.presets())


@bp.post("/read")
def read():  # type: ignore[no-untyped-def]
    upload = request.files.get("photo")
    if upload is None:
        return _error("Send the photo as the multipart field 'photo'.", 400)
    mode = request.form.get("mode", "")
    if mode not in ("", "strict", "loose"):
        return _error("mode must be 'loose' (or left out).", 400)
    try:
        # The object `python -m vision read` prints for one photo: its name, then the reading.
        name = (upload.filename or "photo").replace("\\", "/").rsplit("/", 1)[-1]
        return jsonify({"photo": name, **reader.read(upload.read(), loose=mode == "loose",
                                                   slots=int(current_app.config["READ_SLOTS"]))})
    except reader.ReaderUnavailable as err:
        return _error(f"The card reader is unavailable: {err}", 503)


@bp.post("/settle")
def settle():  # type: ignore[no-untyped-def]
    try:
        return jsonify(rules.settle(_body()))
    except rules.ScoringError as err:
        return _error(str(err), 400)


# ---------------------------------------------------------------- games

@bp.get("/games")
def list_games():  # type: ignore[no-untyped-def]
    """The games this client (cookie session) created or opened; nobody can list everyone's."""
    tokens = session.get("games", [])
    games = get_session().scalars(select(Game).where(Game.token.in_(tokens))).all() if tokens else []
    return jsonify(games=[game_json(g) for g in games])


@bp.post("/games")
def new_game():  # type: ignore[no-untyped-def]
    try:
        game = create_game(get_session(), settings_from_json(_body()))
    except SettingsInvalid as err:
        return jsonify(error=str(err), errors=err.messages, status=400), 400
    access.remember_game(game.token)
    return jsonify(game_json(game) | {"url": url_for("games.show", token=game.token, _external=True)}), 201


@bp.get("/games/<token>")
def get_game(token: str):  # type: ignore[no-untyped-def]
    polled = _unchanged_since_poll(token)
    if polled is not None:
        return polled
    game = access.api_game(token)
    tag = rounds.game_etag(get_session(), game)
    unchanged = _not_modified(tag)
    if unchanged is not None:
        return unchanged
    all_rounds = list(game.rounds)
    response = jsonify(game_json(game) | {
        "rounds": [{"number": r.number, "status": r.status, "banker": r.banker,
                    "net": (r.settlement or {}).get("net") if r.status == "settled" else None}
                   for r in all_rounds],
        "standings": standings(game, all_rounds),
        "settle_up": settle_up.public(settle_up.settle_up(game, all_rounds, settle_up.payments_of(get_session(), game))),
    })
    response.headers["ETag"] = tag
    return response


@bp.get("/games/<token>/export")
def export(token: str):  # type: ignore[no-untyped-def]
    game = access.api_game(token)
    return jsonify(game_export(game, list(game.rounds)))


# ---------------------------------------------------------------- rounds

def _round(token: str, number: int) -> tuple[Game, Round]:
    game = access.api_game(token)
    rnd = rounds.find_round(get_session(), game, number)
    if rnd is None:
        abort(404, description=f"This game has no round {number}.")
    return game, rnd


def _round_body(token: str, number: int, status: int = 200):  # type: ignore[no-untyped-def]
    get_session().expire_all()
    _game, rnd = _round(token, number)
    response = jsonify(rounds.round_json(rnd))
    response.headers["ETag"] = rounds.etag(rnd)
    return response, status


@bp.post("/games/<token>/rounds")
def new_round(token: str):  # type: ignore[no-untyped-def]
    """Create a round (Idempotency-Key header: the same key returns the same round). Optional body:
    {"hands": {player: "AS KS QS / … / …" | {"surrender": true} | {"rows": …, "natural": true}},
    "settle": true} fills and settles it in one call. Big Two: {"hands": {player: "2S KD 5C" | "" (went
    out) | {"cards": …} | {"out": true}}, "order": [...], "failed_to_block": player, "settle": true}."""
    game = access.api_game(token)
    data = request.get_json(silent=True) or {}
    if not isinstance(data, dict):
        return _error("The body must be a JSON object.", 400)
    key = request.headers.get("Idempotency-Key") or data.get("idempotency_key")
    if game.is_bigtwo:
        _check_one_winner(data.get("hands") or {})
    rnd, created = rounds.new_round(get_session(), game, key)
    number = rnd.number
    if created:
        for player, entry in (data.get("hands") or {}).items():
            _apply_sets(game, rnd, player, entry)
        if "order" in data or "failed_to_block" in data:
            _set_details(rnd, data)
        if data.get("settle"):
            rounds.settle(get_session(), game, rnd)
    return _round_body(token, number, 201 if created else 200)


@bp.get("/games/<token>/rounds/<int:number>")
def get_round(token: str, number: int):  # type: ignore[no-untyped-def]
    """The round with its ETag; If-None-Match with that tag answers 304 from the version column alone."""
    polled = _unchanged_since_poll(token, number)
    if polled is not None:
        return polled
    game = access.api_game(token)
    tag = rounds.current_etag(get_session(), game, number)
    if tag is None:
        abort(404, description=f"This game has no round {number}.")
    unchanged = _not_modified(tag)
    if unchanged is not None:
        return unchanged
    rnd = rounds.find_round(get_session(), game, number)
    if rnd is None:
        abort(404, description=f"This game has no round {number}.")
    response = jsonify(rounds.round_json(rnd))
    response.headers["ETag"] = rounds.etag(rnd)  # the tag of the body sent, should a change land in between
    return response


def _set_details(rnd: Round, data: dict[str, Any]) -> None:
    order = data.get("order", rnd.finish_order)
    if order is not None and (not isinstance(order, list) or not all(isinstance(n, str) for n in order)):
        raise rounds.RoundError("'order' must be the list of players, first place first.")
    blocked = data.get("failed_to_block", rnd.failed_to_block)
    if blocked is not None and not isinstance(blocked, str):
        raise rounds.RoundError("'failed_to_block' must be a player's name (or null).")
    rounds.set_round_details(get_session(), rnd, order, blocked)


def _hand_set(game: Game) -> int:
    """The set a hand request is about, 0-based: criss cross's ?set=1|2 (1 when left out); 404 for a set the
    game does not deal."""
    return rounds.hand_set_of(game, request.args.get("set"))


def _apply_sets(game: Game, rnd: Round, player: str, entry: Any) -> None:
    """A new round's entry for a player: under criss cross {"sets": [first hand, second hand]} (each as a
    hand is given), else one hand."""
    sets = entry.get("sets") if isinstance(entry, dict) else None
    if not rounds.is_criss_cross(game):
        if sets is not None:
            raise rounds.RoundError(f"Hand of {player}: 'sets' is for criss-cross games (two hands per player); "
                                    f"this game takes one hand.")
        _apply_hand(game, rnd, player, entry)
        return
    if not isinstance(sets, list) or len(sets) != rounds.set_count(game):
        raise rounds.RoundError(f"Hand of {player}: criss cross needs the player's two hands as "
                                f"{{\"sets\": [first hand, second hand]}}.")
    for hand_set, hand in enumerate(sets):
        _apply_hand(game, rnd, player, hand, hand_set)


def _apply_hand(game: Game, rnd: Round, player: str, entry: Any, hand_set: int = 0) -> None:
    if game.is_bigtwo:
        _apply_cards_left(game, rnd, player, entry)
        return
    db = get_session()
    if isinstance(entry, str):
        entry = {"rows": entry}
    if not isinstance(entry, dict):
        raise rounds.RoundError(f"Hand of {player}: give a rows string or an object.")
    if entry.get("surrender"):
        rounds.set_surrender(db, rnd, player, True, hand_set=hand_set)
        return
    if "rows" in entry or "front" in entry:
        rows_text = entry.get("rows") or " / ".join(" ".join(entry.get(r) or []) for r in rounds.ROWS)
        rounds.set_manual(db, rnd, player, rounds.parse_rows(str(rows_text)), hand_set=hand_set)
    if "natural" in entry:
        rounds.set_natural(db, rnd, player, bool(entry["natural"]), hand_set=hand_set)


def _check_one_winner(hands: Any) -> None:
    """Big Two: one winner, gone out or claiming an instant win (scoring's rule and words), said before a
    round is made (marking a winner unmarks the one before, so the body's order would decide)."""
    if not isinstance(hands, dict):
        raise rounds.RoundError("'hands' must be an object: player -> cards.")
    def out(entry: Any) -> bool:
        if isinstance(entry, dict):
            return bool(entry.get("out")) or (entry.get("cards") in ("", []) and not entry.get("instant_win"))
        return entry in ("", [])
    players = [player for player, entry in hands.items() if out(entry)]
    claims = [player for player, entry in hands.items() if isinstance(entry, dict) and entry.get("instant_win")]
    if len(players) > 1:
        raise rounds.RoundError(f"{', '.join(players[:-1])} and {players[-1]} hold no cards: exactly one player "
                                f"goes out (the winner); give the others' cards left.")
    if len(claims) > 1:
        raise rounds.RoundError(f"{claims[0]} and {claims[1]} both claim an instant win; only one player can win")
    if claims and players:
        raise rounds.RoundError(f"{players[0]} has no cards, but {claims[0]} won instantly: enter the cards each "
                                f"loser was dealt")


def _apply_cards_left(game: Game, rnd: Round, player: str, entry: Any) -> None:
    """Big Two, as scoring reads a player: "2S KD 5C" or a list, "" for the player who went out,
    {"cards": <the 13 dealt>, "instant_win": true} for an instant win; or {"cards": …}, {"out": true|false},
    {"instant_win": true|false} (a claim with the cards already entered)."""
    db = get_session()
    if isinstance(entry, (str, list)):
        entry = {"cards": entry}
    if not isinstance(entry, dict):
        raise rounds.RoundError(f"Cards of {player}: give the cards left as a text or a list, or {{\"out\": true}}.")
    unknown = sorted(set(entry) - {"cards", "out", "instant_win"})
    if unknown:
        raise rounds.RoundError(f"Hand of {player}: unknown key '{unknown[0]}'; a Big Two hand takes 'cards' (the "
                                f"cards left), 'out' (went out) or 'instant_win' (claims an instant win).")
    claim = entry.get("instant_win")
    if claim is not None and not isinstance(claim, bool):
        raise rounds.RoundError(f"{player}: instant_win must be true or false, not {claim!r}")
    if claim and entry.get("out"):
        raise rounds.RoundError(f"{player} cannot both go out and claim an instant win: an instant win shows the "
                                f"13 cards dealt.")
    cards = entry.get("cards")
    if isinstance(cards, list):
        cards = " ".join(str(c) for c in cards)
    if cards is not None and not isinstance(cards, str):
        raise rounds.RoundError(f"Cards of {player}: 'cards' must be a text like '2S KD 5C' or a list of cards.")
    out = entry.get("out", True if cards is not None and not cards.strip() and not claim else None)
    if out and cards and cards.strip():
        raise rounds.RoundError(f"{player} went out, so holds no cards: leave 'cards' out (or empty), or "
                                f"give the cards left without \"out\": true.")
    if out is not None and not claim:
        rounds.set_out(db, rnd, player, bool(out))
    if cards and cards.strip():
        rounds.set_manual(db, rnd, player, rounds.parse_cards_left(game, player, cards), instant_win=claim)
    elif claim is not None:
        rounds.set_instant_win(db, rnd, player, claim)


@bp.put("/games/<token>/rounds/<int:number>")
def put_round(token: str, number: int):  # type: ignore[no-untyped-def]
    """Big Two: {"order": [first, second, …], "failed_to_block": player | null}."""
    _game, rnd = _round(token, number)
    _set_details(rnd, _body())
    return _round_body(token, number)


@bp.put("/games/<token>/rounds/<int:number>/hands/<player>")
def put_hand(token: str, number: int, player: str):  # type: ignore[no-untyped-def]
    game, rnd = _round(token, number)
    body = _body()
    hand_set = _hand_set(game)
    if body.get("surrender") is False:
        rounds.set_surrender(get_session(), rnd, player, False, hand_set=hand_set)
    _apply_hand(game, rnd, player, body, hand_set)
    return _round_body(token, number)


def _with_reading(token: str, number: int, reading: dict[str, Any]):  # type: ignore[no-untyped-def]
    """201 with the reading and the round as it now is (and its ETag); 202 with {"job": {"upload", "status"}} when
    a reading job will read it (REDIS_URL): the round's version changes when it is read."""
    body, _ = _round_body(token, number)
    response = jsonify(reading=reading, round=body.get_json())
    response.headers["ETag"] = body.headers["ETag"]
    return response, 202 if "job" in reading else 201


@bp.post("/games/<token>/rounds/<int:number>/hands/<player>/photo")
def post_photo(token: str, number: int, player: str):  # type: ignore[no-untyped-def]
    upload = request.files.get("photo")  # parse the body before touching the database (no lock held)
    if upload is None:
        return _error("Send the photo as the multipart field 'photo'.", 400)
    data, loose = upload.read(), request.form.get("mode") == "loose"
    game, rnd = _round(token, number)
    _hand, reading = rounds.add_photo(get_session(), current_app.extensions["webapp.photos"], rnd, player,
                                      data, source="api", loose=loose,
                                      read_slots=int(current_app.config["READ_SLOTS"]), hand_set=_hand_set(game))
    return _with_reading(token, number, reading)


@bp.post("/games/<token>/rounds/<int:number>/hands/<player>/webcam")
def post_webcam(token: str, number: int, player: str):  # type: ignore[no-untyped-def]
    game, rnd = _round(token, number)
    hand_set = _hand_set(game)
    rounds.require_open(rnd)
    data = capture_jpeg(str(current_app.config.get("WEBCAM_DEVICE", "")))
    _hand, reading = rounds.add_photo(get_session(), current_app.extensions["webapp.photos"], rnd, player,
                                      data, source="webcam", read_slots=int(current_app.config["READ_SLOTS"]),
                                      hand_set=hand_set)
    return _with_reading(token, number, reading)


@bp.post("/games/<token>/rounds/<int:number>/hands/<player>/correct")
def post_correct(token: str, number: int, player: str):  # type: ignore[no-untyped-def]
    game, rnd = _round(token, number)
    body = _body()
    try:
        index = int(body.get("index"))
    except (TypeError, ValueError):
        return _error("'index' must be the card's position in its row (0-based).", 400)
    hand_set = _hand_set(game)
    if body.get("code") in (None, ""):
        rounds.remove_card(get_session(), rnd, player, str(body.get("row")), index, hand_set=hand_set)
    else:
        rounds.correct_card(get_session(), rnd, player, str(body.get("row")), index, str(body["code"]),
                            hand_set=hand_set)
    return _round_body(token, number)


@bp.post("/games/<token>/rounds/<int:number>/hands/<player>/swap")
def post_swap(token: str, number: int, player: str):  # type: ignore[no-untyped-def]
    game, rnd = _round(token, number)
    rows = _body().get("rows")
    if not isinstance(rows, list) or len(rows) != 2:
        return _error("'rows' must name two rows, e.g. [\"front\", \"middle\"].", 400)
    rounds.swap_rows(get_session(), rnd, player, str(rows[0]), str(rows[1]), hand_set=_hand_set(game))
    return _round_body(token, number)


def _place(value: Any, what: str, index_required: bool = True) -> tuple[str, int | None]:
    """A card's place in a hand from a JSON body: {"row": "middle", "index": 2} (index optional in a move's "to")."""
    if not isinstance(value, dict) or not isinstance(value.get("row"), str):
        raise rounds.RoundError(f"'{what}' must be an object {{\"row\": \"middle\", \"index\": 2}}.")
    index = value.get("index")
    if index is None and not index_required:
        return value["row"], None
    if not isinstance(index, int) or isinstance(index, bool):
        raise rounds.RoundError(f"'{what}.index' must be the card's position in its row (0 first).")
    return value["row"], index


@bp.post("/games/<token>/rounds/<int:number>/hands/<player>/move")
def post_move(token: str, number: int, player: str):  # type: ignore[no-untyped-def]
    """Move one card: {"from": {"row", "index"}, "to": {"row", "index"?}} (no "to" index: the row's end)."""
    game, rnd = _round(token, number)
    body = _body()
    from_row, from_index = _place(body.get("from"), "from")
    to_row, to_index = _place(body.get("to"), "to", index_required=False)
    rounds.move_card(get_session(), rnd, player, from_row, from_index or 0, to_row, to_index,
                     hand_set=_hand_set(game))
    return _round_body(token, number)


@bp.post("/games/<token>/rounds/<int:number>/hands/<player>/swap-cards")
def post_swap_cards(token: str, number: int, player: str):  # type: ignore[no-untyped-def]
    """Swap two cards: {"a": {"row", "index"}, "b": {"row", "index"}}."""
    game, rnd = _round(token, number)
    body = _body()
    row_a, index_a = _place(body.get("a"), "a")
    row_b, index_b = _place(body.get("b"), "b")
    rounds.swap_cards(get_session(), rnd, player, row_a, index_a or 0, row_b, index_b or 0,
                      hand_set=_hand_set(game))
    return _round_body(token, number)


@bp.post("/games/<token>/rounds/<int:number>/hands/<player>/fix")
def post_fix(token: str, number: int, player: str):  # type: ignore[no-untyped-def]
    """Rearrange a fouled hand as its legal fix (scoring's; worked out again here)."""
    game, rnd = _round(token, number)
    rounds.apply_fix(get_session(), rnd, player, hand_set=_hand_set(game))
    return _round_body(token, number)


@bp.post("/games/<token>/rounds/<int:number>/undo")
def post_undo(token: str, number: int):  # type: ignore[no-untyped-def]
    """Revert the last change in the round not yet undone (each undo walks one change further back)."""
    _game, rnd = _round(token, number)
    rounds.undo(get_session(), rnd)
    return _round_body(token, number)


@bp.post("/games/<token>/rounds/<int:number>/settle")
def post_settle(token: str, number: int):  # type: ignore[no-untyped-def]
    game, rnd = _round(token, number)
    rounds.settle(get_session(), game, rnd)
    return _round_body(token, number)


@bp.post("/games/<token>/rounds/<int:number>/reopen")
def post_reopen(token: str, number: int):  # type: ignore[no-untyped-def]
    _game, rnd = _round(token, number)
    rounds.reopen(get_session(), rnd)
    return _round_body(token, number)
