"""Rounds: creation, each player's hand (photo, webcam, manual, surrender, natural), corrections,
warnings, settlement and re-opening. Every change leaves a RoundEvent.

A Chinese-poker hand is three rows (front, middle, back: 3/5/5 cards). A Big Two hand is one list,
the cards left in hand (the `cards` "row", up to the rules' max_cards), or state "out" for the one
player who went out; the round may also carry the finishing order (points by place) and the player
who failed to block (頂大)."""
from __future__ import annotations

import re
from collections import Counter
from datetime import datetime, timezone
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, selectinload

from webapp import reader, rules
from webapp.games import banker_for_round
from webapp.models import Game, Hand, Photo, Round, RoundEvent, Upload
from webapp.photos import PhotoStore, sniff_content_type

ROWS = ("front", "middle", "back")
ROW_SIZES = {"front": 3, "middle": 5, "back": 5}
CARDS_LEFT = "cards"  # a Big Two hand's only row
# Reader warnings that this module states itself, up to date after corrections.
_RESTATED_READER_WARNING = re.compile(
    r"^(low confidence|expected \d+ cards, found|(front|middle|back) row has \d+ card)", re.IGNORECASE)


class RoundError(ValueError):
    """A request the round cannot accept (settled round, unknown player, bad cards); `status` is HTTP."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


# ---------------------------------------------------------------- loading

def find_round(session: Session, game: Game, number: int) -> Round | None:
    return session.scalars(
        select(Round).where(Round.game_id == game.id, Round.number == number)
        .options(selectinload(Round.hands), selectinload(Round.events), selectinload(Round.uploads))
    ).first()


def _locked_round(session: Session, round_id: int) -> Round:
    """The round row locked for this transaction (PostgreSQL row lock; SQLite is already serialised)."""
    rnd = session.scalars(
        select(Round).where(Round.id == round_id).with_for_update().execution_options(populate_existing=True)
    ).one()
    return rnd


def _locked_hand(session: Session, rnd: Round, player: str) -> Hand:
    hand = session.scalars(
        select(Hand).where(Hand.round_id == rnd.id, Hand.player == player)
        .with_for_update().execution_options(populate_existing=True)
    ).first()
    if hand is None:
        raise RoundError(f"'{player}' is not a player in this game.", 404)
    return hand


def require_open(rnd: Round) -> None:
    if rnd.status != "open":
        raise RoundError("This round is settled; re-open it before changing anything.", 409)


def _event(session: Session, rnd: Round, kind: str, player: str | None = None, **detail: Any) -> None:
    session.add(RoundEvent(round_id=rnd.id, kind=kind, player=player, detail=detail))


def layout(game: Game) -> dict[str, int]:
    """A hand's rows and their sizes: front/middle/back 3/5/5, or Big Two's cards left (at most max_cards)."""
    if game.is_bigtwo:
        return {CARDS_LEFT: bigtwo_rules(game)["max_cards"]}
    return dict(ROW_SIZES)


def bigtwo_rules(game: Game) -> dict[str, Any]:
    """scheme (cards | rank), max_cards and block_rule of a Big Two game's rules."""
    return rules.bigtwo_rules(game.preset, game.options)


def _require_game(game: Game, bigtwo: bool, what: str) -> None:
    if game.is_bigtwo != bigtwo:
        raise RoundError(f"{what} is for {'Big Two' if bigtwo else 'Chinese-poker'} games only.")


def _require_holding(hand: Hand) -> None:
    """A Big Two player marked as gone out holds no cards: say so instead of storing cards for them."""
    if hand.state == "out":
        raise RoundError(f"{hand.player} went out (the winner holds no cards); un-mark {hand.player} as the "
                         f"winner before entering cards left.", 409)


# ---------------------------------------------------------------- creation

def new_round(session: Session, game: Game, create_key: str | None = None) -> tuple[Round, bool]:
    """A new open round with an empty hand per player; (round, created).

    The same `create_key` always yields the same round, so a double-submitted form or a retried
    API call cannot make two rounds; the numbering race is settled by the unique constraint."""
    create_key = (create_key or "").strip()[:64] or None
    for _attempt in range(5):
        if create_key:
            existing = session.scalars(
                select(Round).where(Round.game_id == game.id, Round.create_key == create_key)
            ).first()
            if existing is not None:
                session.commit()
                return existing, False
        number = (session.scalar(select(func.max(Round.number)).where(Round.game_id == game.id)) or 0) + 1
        rnd = Round(game_id=game.id, number=number, create_key=create_key, status="open",
                    banker=banker_for_round(game, number), revision=0,
                    hands=[Hand(seat=p.seat, player=p.name, state="empty", front=[], middle=[], back=[], cards=[])
                           for p in game.players])
        session.add(rnd)
        try:
            session.flush()
            _event(session, rnd, "create")
            session.commit()
            return rnd, True
        except IntegrityError:
            session.rollback()
    raise RoundError("Could not create the round (too many at once); try again.", 409)


# ---------------------------------------------------------------- hands

def parse_rows(text: str) -> dict[str, list[str]]:
    """'AS KS QS / 2C 2D 9H 9S 4C / …' (or 13 codes in order) -> rows of normalised codes."""
    text = text.replace(",", " ").strip()
    parts = [p.split() for p in text.split("/")] if "/" in text else None
    if parts is None:
        codes = text.split()
        if len(codes) != 13:
            raise RoundError(f"Expected 13 cards (front 3 / middle 5 / back 5), got {len(codes)}.")
        parts = [codes[:3], codes[3:8], codes[8:]]
    if len(parts) != 3:
        raise RoundError("Write three rows separated by '/': front / middle / back.")
    rows: dict[str, list[str]] = {}
    for row, codes in zip(ROWS, parts):
        if len(codes) != ROW_SIZES[row]:
            raise RoundError(f"The {row} row needs {ROW_SIZES[row]} cards, got {len(codes)}.")
        rows[row] = [normalise(code) for code in codes]
    return rows


def parse_typed(game: Game, player: str, text: str) -> dict[str, list[str]]:
    """Typed cards for the game: three rows (Chinese poker) or the cards left (Big Two)."""
    return parse_cards_left(game, player, text) if game.is_bigtwo else parse_rows(text)


def parse_cards_left(game: Game, player: str, text: str) -> dict[str, list[str]]:
    """A Big Two player's cards left, typed ('2S KD 5C', commas or spaces) -> {"cards": [codes]}.

    Codes that are not cards and repeats get scoring's own message; more than max_cards too."""
    try:
        codes = rules.parse_cards_left(text.replace("/", " "), player)
    except rules.ScoringError as err:
        raise RoundError(str(err)) from err
    limit = layout(game)[CARDS_LEFT]
    if len(codes) > limit:
        raise RoundError(f"{player}: {len(codes)} cards left, but a hand holds at most {limit} (option max_cards).")
    if not codes:
        raise RoundError(f"{player}: no cards typed. A player who went out holds none: mark them as the winner.")
    return {CARDS_LEFT: codes}


def normalise(code: str) -> str:
    try:
        return rules.normalise_card(code)
    except (rules.ScoringError, ValueError) as err:
        raise RoundError(f"'{code}' is not a card: {err}") from err


def set_manual(session: Session, rnd: Round, player: str, rows: dict[str, list[str]]) -> Hand:
    """Typed cards: {"front", "middle", "back"} (Chinese poker) or {"cards"} (Big Two's cards left)."""
    rnd = _locked_round(session, rnd.id)
    require_open(rnd)
    hand = _locked_hand(session, rnd, player)
    _require_holding(hand)
    before = {row: list(getattr(hand, row)) for row in rows} if hand.state == "cards" else None
    hand.state, hand.source, hand.upload_id = "cards", "manual", None
    for row, codes in rows.items():
        setattr(hand, row, codes)
    _event(session, rnd, "manual", player, before=before, after=rows)
    session.commit()
    return hand


def set_surrender(session: Session, rnd: Round, player: str, surrender: bool = True) -> Hand:
    _require_game(rnd.game, False, "Surrender")
    rnd = _locked_round(session, rnd.id)
    require_open(rnd)
    hand = _locked_hand(session, rnd, player)
    if surrender:
        hand.state = "surrender"
    else:
        hand.state = "cards" if hand.front or hand.middle or hand.back else "empty"
    _event(session, rnd, "surrender" if surrender else "unsurrender", player)
    session.commit()
    return hand


def set_natural(session: Session, rnd: Round, player: str, declared: bool) -> Hand:
    _require_game(rnd.game, False, "Declaring a natural")
    rnd = _locked_round(session, rnd.id)
    require_open(rnd)
    hand = _locked_hand(session, rnd, player)
    hand.declared_natural = declared
    _event(session, rnd, "natural", player, declared=declared)
    session.commit()
    return hand


def set_out(session: Session, rnd: Round, player: str, out: bool = True) -> Hand:
    """Big Two: mark the player who went out (the winner, no cards); whoever was marked before is not."""
    _require_game(rnd.game, True, "Marking who went out")
    rnd = _locked_round(session, rnd.id)
    require_open(rnd)
    hand = _locked_hand(session, rnd, player)
    replaced = []
    if out:
        for other in session.scalars(select(Hand).where(Hand.round_id == rnd.id, Hand.player != player,
                                                        Hand.state == "out").with_for_update()):
            other.state = "cards" if other.cards else "empty"  # cards stored before stay: nothing is lost
            replaced.append(other.player)
        hand.state = "out"
    elif hand.state == "out":
        hand.state = "cards" if hand.cards else "empty"
    _event(session, rnd, "out" if out else "not_out", player, replaced=replaced)
    session.commit()
    return hand


def set_round_details(session: Session, rnd: Round, order: list[str] | None = None,
                      failed_to_block: str | None = None) -> Round:
    """Big Two: the finishing order (first place first; points by place) and who failed to block (頂大).

    Names are checked here; whether the rules use them is scoring's to say when settling."""
    _require_game(rnd.game, True, "A finishing order or 頂大")
    names = [h.player for h in rnd.hands]
    order = [name for name in order or [] if name]
    for name in order + ([failed_to_block] if failed_to_block else []):
        if name not in names:
            raise RoundError(f"'{name}' is not a player in this game.", 404)
    repeated = sorted({name for name in order if order.count(name) > 1})
    if repeated:
        raise RoundError(f"{', '.join(repeated)} cannot take two places in the finishing order.")
    rnd = _locked_round(session, rnd.id)
    require_open(rnd)
    before = {"order": rnd.finish_order, "failed_to_block": rnd.failed_to_block}
    rnd.finish_order, rnd.failed_to_block = order or None, failed_to_block or None
    _event(session, rnd, "details", before=before, after={"order": rnd.finish_order,
                                                          "failed_to_block": rnd.failed_to_block})
    session.commit()
    return rnd


def _check_row(game: Game, row: str) -> int:
    """The row's size (Big Two: the most cards left); RoundError for a row this game's hands lack."""
    sizes = layout(game)
    if row not in sizes:
        raise RoundError(f"Unknown row '{row}'; use {', '.join(sizes)}.")
    return sizes[row]


def correct_card(session: Session, rnd: Round, player: str, row: str, index: int, code: str) -> Hand:
    size = _check_row(rnd.game, row)
    new_code = normalise(code)
    rnd = _locked_round(session, rnd.id)
    require_open(rnd)
    hand = _locked_hand(session, rnd, player)
    _require_holding(hand)
    cards = list(getattr(hand, row))
    if index == len(cards) and len(cards) < size:
        cards.append(new_code)  # filling a card the reader missed
        old = None
    elif 0 <= index < len(cards):
        old, cards[index] = cards[index], new_code
    else:
        raise RoundError(f"The {row} row has no card number {index + 1}.")
    setattr(hand, row, cards)
    hand.state = "cards"
    _event(session, rnd, "correct", player, row=row, index=index, before=old, after=new_code)
    session.commit()
    return hand


def remove_card(session: Session, rnd: Round, player: str, row: str, index: int) -> Hand:
    _check_row(rnd.game, row)
    rnd = _locked_round(session, rnd.id)
    require_open(rnd)
    hand = _locked_hand(session, rnd, player)
    cards = list(getattr(hand, row))
    if not 0 <= index < len(cards):
        raise RoundError(f"The {row} row has no card number {index + 1}.")
    old = cards.pop(index)
    setattr(hand, row, cards)
    _event(session, rnd, "remove", player, row=row, index=index, before=old)
    session.commit()
    return hand


def swap_rows(session: Session, rnd: Round, player: str, first: str, second: str) -> Hand:
    if first not in ROWS or second not in ROWS or first == second:
        raise RoundError("Choose two different rows to swap (front, middle, back).")
    rnd = _locked_round(session, rnd.id)
    require_open(rnd)
    hand = _locked_hand(session, rnd, player)
    a, b = list(getattr(hand, first)), list(getattr(hand, second))
    setattr(hand, first, b)
    setattr(hand, second, a)
    _event(session, rnd, "swap", player, rows=[first, second])
    session.commit()
    return hand


def _insert_photo_once(session: Session, sha: str, content_type: str, size: int) -> None:
    """Insert the photo row unless it exists (two phones may send the very same bytes at once)."""
    dialect = session.get_bind().dialect.name
    values = {"sha256": sha, "content_type": content_type, "size": size, "created_at": datetime.now(timezone.utc)}
    if dialect == "postgresql":
        stmt = postgresql.insert(Photo).values(**values).on_conflict_do_nothing()
    elif dialect == "sqlite":
        stmt = sqlite.insert(Photo).values(**values).on_conflict_do_nothing()
    else:  # other databases: check, then insert (a rare race would fail loudly, not silently)
        if session.get(Photo, sha) is None:
            session.add(Photo(**values))
        return
    session.execute(stmt)


def add_photo(session: Session, store: PhotoStore, rnd: Round, player: str, data: bytes, *,
              source: str = "photo", loose: bool = False, read_slots: int = 0) -> tuple[Hand, dict[str, Any]]:
    """Read a photo of one player's rows and make it that player's hand; (hand, vision's JSON).

    The slow reading happens outside any transaction so four phones can upload at once; the
    photo is stored only after the reader accepted it."""
    if player not in {h.player for h in rnd.hands}:
        raise RoundError(f"'{player}' is not a player in this game.", 404)
    require_open(rnd)
    bigtwo = rnd.game.is_bigtwo
    if bigtwo:
        _require_holding(next(h for h in rnd.hands if h.player == player))
        loose = True  # cards left in hand lie loose, never in 3/5/5 rows
    round_id = rnd.id
    content_type = sniff_content_type(data)
    session.commit()  # end the read transaction: no lock is held while reading
    try:
        reading = reader.read(data, loose=loose, slots=read_slots)
    except reader.ReaderUnavailable as err:
        reading = {"cards": [], "rows": {r: [] for r in ROWS},
                   "warnings": [f"{err}; enter or correct the cards by hand."]}
    summary = reader.summarise(reading)
    sha = store.save(data, content_type)
    rnd = _locked_round(session, round_id)
    require_open(rnd)
    _insert_photo_once(session, sha, content_type, len(data))
    upload = Upload(round_id=rnd.id, player=player, photo_sha256=sha, source=source, reading=reading)
    session.add(upload)
    session.flush()
    hand = _locked_hand(session, rnd, player)
    _require_holding(hand)
    if bigtwo:
        hand.cards = [card["code"] for card in summary["cards"]]  # in reading order
    else:
        hand.front, hand.middle, hand.back = (summary["rows"][r] for r in ROWS)
    hand.state, hand.source, hand.upload_id = "cards", source, upload.id
    _event(session, rnd, "read", player, upload=upload.id, photo=sha, source=source,
           cards=len(summary["cards"]) if bigtwo else sum(len(summary["rows"][r]) for r in ROWS))
    session.commit()
    return hand, reading


# ---------------------------------------------------------------- review

def hand_warnings(rnd: Round) -> dict[str, list[dict[str, Any]]]:
    """Per player: what stops settling ('error') and what deserves a look ('warn')."""
    game = rnd.game
    sizes = layout(game)
    out: dict[str, list[dict[str, Any]]] = {h.player: [] for h in rnd.hands}
    if game.is_bigtwo and bigtwo_rules(game)["scheme"] == "rank":
        return out  # points by place: only the finishing order counts (round_warnings)
    owners: dict[str, list[str]] = {}
    for hand in rnd.hands:
        if hand.state != "cards":
            continue
        for row in sizes:
            for code in getattr(hand, row):
                owners.setdefault(code, []).append(hand.player)
    for hand in rnd.hands:
        notes = out[hand.player]
        if hand.state == "empty":
            notes.append(_note("error", "no_cards_left" if game.is_bigtwo else "no_cards"))
            continue
        if hand.state in ("surrender", "out"):
            continue
        codes = [c for row in sizes for c in getattr(hand, row)]
        if game.is_bigtwo:
            if not codes:
                notes.append(_note("error", "no_cards_left"))
            elif len(codes) > sizes[CARDS_LEFT]:
                notes.append(_note("error", "too_many", n=len(codes), limit=sizes[CARDS_LEFT]))
        else:
            for row, size in sizes.items():
                have = len(getattr(hand, row))
                if have < size:
                    notes.append(_note("error", "missing", row=row, n=size - have))
                elif have > size:
                    notes.append(_note("error", "extra", row=row, n=have - size))
        for code in sorted(c for c in set(codes) if not _valid(c)):
            notes.append(_note("error", "not_card", code=code))
        for code, count in sorted(Counter(codes).items()):
            if count > 1:
                notes.append(_note("error", "repeated", code=code, n=count))
        for code in sorted(set(codes)):
            others = sorted(set(p for p in owners.get(code, []) if p != hand.player))
            if others:
                notes.append(_note("error", "shared", code=code, players=", ".join(others)))
        if hand.upload is not None:
            summary = reader.summarise(hand.upload.reading)
            for card in summary["cards"]:
                if card["confidence"] < reader.LOW_CONFIDENCE and card["code"] in codes:
                    notes.append(_note("warn", "low", code=card["code"], percent=round(card["confidence"] * 100)))
            for text in summary["warnings"]:
                if _RESTATED_READER_WARNING.match(text):
                    continue  # counts and confidence are re-checked above against the hand as it is now
                notes.append({"level": "warn", "text": text})
    return out


def round_warnings(rnd: Round) -> list[dict[str, Any]]:
    """What the round as a whole lacks before settling: Big Two's winner or finishing order."""
    game = rnd.game
    if not game.is_bigtwo:
        return []
    if bigtwo_rules(game)["scheme"] == "rank":
        order = rnd.finish_order or []
        return [] if sorted(order) == sorted(h.player for h in rnd.hands) else [_note("error", "no_order")]
    return [] if any(h.state == "out" for h in rnd.hands) else [_note("error", "no_winner")]


# English wording of the review warnings; webapp.i18n has the Chinese ones under the same keys.
WARNING_TEXT = {
    "no_cards": "No cards yet.",
    "missing": "{Row} row: {n} card(s) missing.",
    "extra": "{Row} row: {n} card(s) too many.",
    "not_card": "'{code}' is not a card; tap it to correct it.",
    "repeated": "{code} appears {n} times in this hand.",
    "shared": "{code} was also read for {players}.",
    "low": "{code} was read with low confidence ({percent}%).",
    "no_cards_left": "No cards left yet: take a photo or type them, or mark this player as the one who went out.",
    "too_many": "{n} cards left, but a hand holds at most {limit}.",
    "no_winner": "Mark the player who went out (the winner).",
    "no_order": "Give the finishing order: every player once, first place first.",
}


def _note(level: str, key: str, **params: Any) -> dict[str, Any]:
    """A warning with its English text (for the API) and its key and values (for translation)."""
    text = WARNING_TEXT[key].format(Row=str(params.get("row", "")).capitalize(), **params)
    return {"level": level, "text": text, "key": key, "params": params}


def _valid(code: str) -> bool:
    try:
        return rules.normalise_card(code) == code
    except (rules.ScoringError, ValueError):
        return False


def ready_to_settle(rnd: Round) -> bool:
    warnings = [*hand_warnings(rnd).values(), round_warnings(rnd)]
    return all(not any(n["level"] == "error" for n in notes) for notes in warnings)


def round_input(game: Game, rnd: Round) -> dict[str, Any]:
    """The round in scoring's input shape."""
    if game.is_bigtwo:
        hands = [{"player": h.player, "state": h.state, "cards": h.cards} for h in rnd.hands]
        return rules.bigtwo_round_json(game.preset, game.options, hands, rnd.finish_order, rnd.failed_to_block,
                                       game.stake, game.pair_stakes)
    hands = [{"player": h.player, "state": h.state, "front": h.front, "middle": h.middle, "back": h.back,
              "natural": h.declared_natural} for h in rnd.hands]
    return rules.round_json(game.preset, game.options, hands, rnd.banker, game.stake, game.pair_stakes)


# ---------------------------------------------------------------- settling

NOT_READY = {
    "chinese-poker": "Every hand needs 13 valid cards (or a surrender) before settling.",
    "bigtwo": "Mark who went out and give every other player's cards left (valid, no card twice) before "
              "settling.",
}


def settle(session: Session, game: Game, rnd: Round) -> tuple[Round, bool]:
    """Settle with scoring; (round, newly_settled). Settling a settled round changes nothing,
    so a double-submitted form cannot record two settlements."""
    rnd = _locked_round(session, rnd.id)
    if rnd.status == "settled":
        session.commit()
        return rnd, False
    # Re-read every hand inside the lock: another phone may have changed one a moment ago.
    session.scalars(select(Hand).where(Hand.round_id == rnd.id).execution_options(populate_existing=True)).all()
    if not ready_to_settle(rnd):
        raise RoundError(NOT_READY[game.game_type], 409)
    round_data = round_input(game, rnd)
    try:
        result = rules.settle(round_data)
    except rules.ScoringError as err:
        raise RoundError(str(err), 422) from err
    previous = rnd.settlement
    rnd.status, rnd.settlement = "settled", result
    rnd.revision += 1
    rnd.settled_at = datetime.now(timezone.utc)
    _event(session, rnd, "settle", revision=rnd.revision, net=result.get("net"), money=result.get("money"),
           previous_net=(previous or {}).get("net"))
    session.commit()
    return rnd, True


def reopen(session: Session, rnd: Round) -> Round:
    rnd = _locked_round(session, rnd.id)
    if rnd.status != "settled":
        session.commit()
        return rnd
    rnd.status = "open"
    _event(session, rnd, "reopen", revision=rnd.revision, net=(rnd.settlement or {}).get("net"))
    session.commit()
    return rnd


# ---------------------------------------------------------------- JSON views

def hand_json(hand: Hand, game: Game) -> dict[str, Any]:
    photo = hand.upload.photo_sha256 if hand.upload else None
    if game.is_bigtwo:
        return {"player": hand.player, "state": hand.state, "cards": hand.cards, "source": hand.source,
                "photo": photo}
    return {"player": hand.player, "state": hand.state, "front": hand.front, "middle": hand.middle,
            "back": hand.back, "natural": hand.declared_natural, "source": hand.source, "photo": photo}


def round_json(rnd: Round) -> dict[str, Any]:
    warnings = hand_warnings(rnd)
    extra = {"finish_order": rnd.finish_order, "failed_to_block": rnd.failed_to_block} if rnd.game.is_bigtwo else {}
    return {
        "number": rnd.number, "status": rnd.status, "banker": rnd.banker, "revision": rnd.revision, **extra,
        "hands": [hand_json(h, rnd.game) | {"warnings": warnings[h.player]} for h in rnd.hands],
        "warnings": round_warnings(rnd), "ready": ready_to_settle(rnd), "settlement": rnd.settlement,
        "uploads": [{"id": u.id, "player": u.player, "photo": u.photo_sha256, "source": u.source,
                     "created_at": u.created_at.isoformat()} for u in rnd.uploads],
        "events": [{"kind": e.kind, "player": e.player, "detail": e.detail, "at": e.created_at.isoformat()}
                   for e in rnd.events],
        "created_at": rnd.created_at.isoformat(),
        "settled_at": rnd.settled_at.isoformat() if rnd.settled_at else None,
    }
