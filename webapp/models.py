"""Tables: games, their players, rounds, each player's hand in a round, photos, uploads, events."""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from sqlalchemy import JSON, DateTime, Float, ForeignKey, Integer, String, UniqueConstraint, false, text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


CHINESE_POKER = "chinese-poker"  # the game names scoring uses ("game" in a round and in list_presets)
BIG_TWO = "bigtwo"
GAME_TYPES = (CHINESE_POKER, BIG_TWO)


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


class Base(DeclarativeBase):
    type_annotation_map = {dict[str, Any]: JSON, list[Any]: JSON, datetime: DateTime(timezone=True)}


class Game(Base):
    __tablename__ = "games"
    __table_args__ = (UniqueConstraint("token", name="uq_games_token"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    # The unguessable part of the game's link: knowing it is what grants access.
    token: Mapped[str] = mapped_column(String(64))
    title: Mapped[str] = mapped_column(String(100))
    # chinese-poker or bigtwo; games made before Big Two existed are Chinese poker.
    game_type: Mapped[str] = mapped_column(String(16), default=CHINESE_POKER, server_default=CHINESE_POKER)
    preset: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(default=dict)
    # Money is kept as decimal text so no float rounding creeps into settlements.
    stake: Mapped[str] = mapped_column(String(32), default="1")
    # [{"players": [a, b], "per_point": "2"}], the shape scoring reads.
    pair_stakes: Mapped[list[Any]] = mapped_column(default=list)
    banker_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    rotate_banker: Mapped[bool] = mapped_column(default=False)
    pin_hash: Mapped[str | None] = mapped_column(String(200), nullable=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # Set when the table ends the game: no new rounds; the page shows the final standings and settle-up.
    ended_at: Mapped[datetime | None] = mapped_column(nullable=True)
    # Whole-table photo: which player sits at which seat of the photo ({"0": "Ann", ...}), asked once per game.
    table_seats: Mapped[dict[str, Any] | None] = mapped_column(nullable=True)

    players: Mapped[list[Player]] = relationship(
        back_populates="game", order_by="Player.seat", cascade="all, delete-orphan"
    )
    rounds: Mapped[list[Round]] = relationship(
        back_populates="game", order_by="Round.number", cascade="all, delete-orphan"
    )

    @property
    def player_names(self) -> list[str]:
        return [p.name for p in self.players]

    @property
    def is_bigtwo(self) -> bool:
        return self.game_type == BIG_TWO


class Player(Base):
    __tablename__ = "players"
    __table_args__ = (
        UniqueConstraint("game_id", "seat", name="uq_players_game_seat"),
        UniqueConstraint("game_id", "name", name="uq_players_game_name"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int]
    name: Mapped[str] = mapped_column(String(40))

    game: Mapped[Game] = relationship(back_populates="players")


class Round(Base):
    __tablename__ = "rounds"
    __table_args__ = (
        UniqueConstraint("game_id", "number", name="uq_rounds_game_number"),
        # A resubmitted "new round" form or API call carries the same key: one round, not two.
        UniqueConstraint("game_id", "create_key", name="uq_rounds_game_create_key"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]
    create_key: Mapped[str | None] = mapped_column(String(64), nullable=True)
    status: Mapped[str] = mapped_column(String(16), default="open")  # open | settled
    banker: Mapped[str | None] = mapped_column(String(40), nullable=True)
    # Big Two only: the finishing order (first place first) for points by place, and the player
    # who failed to block (頂大/顧牌) and pays everyone's losses.
    finish_order: Mapped[list[Any] | None] = mapped_column(nullable=True)
    failed_to_block: Mapped[str | None] = mapped_column(String(40), nullable=True)
    revision: Mapped[int] = mapped_column(default=0)  # how many times it has been settled
    # Bumped by every change to the round or its hands: the round's ETag (live pages, If-Match).
    version: Mapped[int] = mapped_column(default=0, server_default=text("0"))
    settlement: Mapped[dict[str, Any] | None] = mapped_column(nullable=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    settled_at: Mapped[datetime | None] = mapped_column(nullable=True)

    game: Mapped[Game] = relationship(back_populates="rounds")
    hands: Mapped[list[Hand]] = relationship(
        back_populates="round", cascade="all, delete-orphan", order_by="[Hand.seat, Hand.hand_set]"
    )
    events: Mapped[list[RoundEvent]] = relationship(
        back_populates="round", cascade="all, delete-orphan", order_by="RoundEvent.id"
    )
    uploads: Mapped[list[Upload]] = relationship(
        back_populates="round", cascade="all, delete-orphan", order_by="Upload.id"
    )


class Photo(Base):
    """A stored image, addressed by the sha256 of its bytes (the file lives under PHOTO_DIR)."""

    __tablename__ = "photos"

    sha256: Mapped[str] = mapped_column(String(64), primary_key=True)
    content_type: Mapped[str] = mapped_column(String(40))
    size: Mapped[int]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Upload(Base):
    """Every photo ever submitted for a hand; nothing is overwritten, so nothing is lost."""

    __tablename__ = "uploads"

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id", ondelete="CASCADE"), index=True)
    player: Mapped[str] = mapped_column(String(40))
    photo_sha256: Mapped[str] = mapped_column(ForeignKey("photos.sha256"), index=True)
    source: Mapped[str] = mapped_column(String(16))  # photo | camera | webcam | api
    reading: Mapped[dict[str, Any]] = mapped_column(default=dict)
    hand_set: Mapped[int] = mapped_column(default=0, server_default=text("0"))
    kind: Mapped[str] = mapped_column(String(16), default="hand", server_default="hand")  # hand | table
    # read | queued | reading | failed: photos read in-process are "read" at once; with REDIS_URL a job reads them.
    status: Mapped[str] = mapped_column(String(16), default="read", server_default="read")
    attempts: Mapped[int] = mapped_column(default=0, server_default=text("0"))
    error: Mapped[str | None] = mapped_column(String(500), nullable=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    round: Mapped[Round] = relationship(back_populates="uploads")


class Hand(Base):
    """One player's cards in one round, as last read or corrected."""

    __tablename__ = "hands"
    __table_args__ = (UniqueConstraint("round_id", "player", "hand_set", name="uq_hands_round_player_set"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int]
    player: Mapped[str] = mapped_column(String(40))
    # Criss-cross deals each player two 13-card sets (0 and 1), each compared on its own; every other game uses 0.
    hand_set: Mapped[int] = mapped_column(default=0, server_default=text("0"))
    # empty | cards | surrender (Chinese poker) | out (Big Two: went out, the winner, holds no cards)
    state: Mapped[str] = mapped_column(String(16), default="empty")
    front: Mapped[list[Any]] = mapped_column(default=list)
    middle: Mapped[list[Any]] = mapped_column(default=list)
    back: Mapped[list[Any]] = mapped_column(default=list)
    # Big Two: the cards left in hand, in reading (or typing) order.
    cards: Mapped[list[Any]] = mapped_column(default=list, server_default=text("'[]'"))
    declared_natural: Mapped[bool] = mapped_column(default=False)
    # Big Two: this player claims an instant win (一條龍, four 2s …); `cards` are then the 13 dealt.
    instant_win: Mapped[bool] = mapped_column(default=False, server_default=false())
    source: Mapped[str | None] = mapped_column(String(16), nullable=True)
    upload_id: Mapped[int | None] = mapped_column(ForeignKey("uploads.id"), nullable=True)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)

    round: Mapped[Round] = relationship(back_populates="hands")
    upload: Mapped[Upload | None] = relationship()

    def rows(self) -> dict[str, list[str]]:
        return {"front": list(self.front), "middle": list(self.middle), "back": list(self.back)}


class RoundEvent(Base):
    """The audit trail: readings, corrections, swaps, settlements and re-openings."""

    __tablename__ = "round_events"

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(32))
    player: Mapped[str | None] = mapped_column(String(40), nullable=True)
    # Who made the change (the name a device chose on the game page), for the live change line.
    actor: Mapped[str | None] = mapped_column(String(40), nullable=True)
    detail: Mapped[dict[str, Any]] = mapped_column(default=dict)
    # The round as it stood after this change (hands, Big Two details): what undo puts back. Deferred: only undo
    # reads it, so listing a round's history never loads it.
    state: Mapped[dict[str, Any] | None] = mapped_column(nullable=True, deferred=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    round: Mapped[Round] = relationship(back_populates="events")


class PinThrottle(Base):
    """Wrong-PIN counts per game and per bucket (one client, or one network), shared by every app process.

    Times are epoch seconds (time.time()), which compare the same way on SQLite and PostgreSQL."""

    __tablename__ = "pin_throttle"
    __table_args__ = (UniqueConstraint("game_id", "bucket", name="uq_pin_throttle_game_bucket"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    # "client:<hmac>" or "network:<hmac>": keyed hashes, so no address is stored as such.
    bucket: Mapped[str] = mapped_column(String(80))
    failures: Mapped[int] = mapped_column(default=0)
    last_failure: Mapped[float] = mapped_column(Float, default=0.0)
    locked_until: Mapped[float] = mapped_column(Float, default=0.0)


class SettlePayment(Base):
    """A settle-up transfer marked paid ("Bob paid Ann 15"), for the whole game or a range of rounds."""

    __tablename__ = "settle_payments"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    scope: Mapped[str] = mapped_column(String(32), default="all")  # "all" or "<first>-<last>" round numbers
    payer: Mapped[str] = mapped_column(String(40))
    payee: Mapped[str] = mapped_column(String(40))
    amount: Mapped[str] = mapped_column(String(64))  # exact decimal or fraction text, as settle-up showed it
    paid_at: Mapped[datetime] = mapped_column(default=utcnow)
