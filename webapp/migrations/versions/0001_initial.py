"""Initial schema: games, players, rounds, photos, uploads, hands, round events.

Revision ID: 0001
Revises:
Create Date: 2026-11-21
"""
import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("token", sa.String(64), nullable=False),
        sa.Column("title", sa.String(100), nullable=False),
        sa.Column("preset", sa.String(40), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("stake", sa.String(32), nullable=False),
        sa.Column("pair_stakes", sa.JSON(), nullable=False),
        sa.Column("banker_seat", sa.Integer(), nullable=True),
        sa.Column("rotate_banker", sa.Boolean(), nullable=False),
        sa.Column("pin_hash", sa.String(200), nullable=True),
        sa.Column("created_at", TS, nullable=False),
        sa.UniqueConstraint("token", name="uq_games_token"),
    )
    op.create_table(
        "photos",
        sa.Column("sha256", sa.String(64), primary_key=True),
        sa.Column("content_type", sa.String(40), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("created_at", TS, nullable=False),
    )
    op.create_table(
        "players",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.UniqueConstraint("game_id", "seat", name="uq_players_game_seat"),
        sa.UniqueConstraint("game_id", "name", name="uq_players_game_name"),
    )
    op.create_index("ix_players_game_id", "players", ["game_id"])
    op.create_table(
        "rounds",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("create_key", sa.String(64), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("banker", sa.String(40), nullable=True),
        sa.Column("revision", sa.Integer(), nullable=False),
        sa.Column("settlement", sa.JSON(), nullable=True),
        sa.Column("created_at", TS, nullable=False),
        sa.Column("settled_at", TS, nullable=True),
        sa.UniqueConstraint("game_id", "number", name="uq_rounds_game_number"),
        sa.UniqueConstraint("game_id", "create_key", name="uq_rounds_game_create_key"),
    )
    op.create_index("ix_rounds_game_id", "rounds", ["game_id"])
    op.create_table(
        "uploads",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("round_id", sa.Integer(), sa.ForeignKey("rounds.id", ondelete="CASCADE"), nullable=False),
        sa.Column("player", sa.String(40), nullable=False),
        sa.Column("photo_sha256", sa.String(64), sa.ForeignKey("photos.sha256"), nullable=False),
        sa.Column("source", sa.String(16), nullable=False),
        sa.Column("reading", sa.JSON(), nullable=False),
        sa.Column("created_at", TS, nullable=False),
    )
    op.create_index("ix_uploads_round_id", "uploads", ["round_id"])
    op.create_index("ix_uploads_photo_sha256", "uploads", ["photo_sha256"])
    op.create_table(
        "hands",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("round_id", sa.Integer(), sa.ForeignKey("rounds.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("player", sa.String(40), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("front", sa.JSON(), nullable=False),
        sa.Column("middle", sa.JSON(), nullable=False),
        sa.Column("back", sa.JSON(), nullable=False),
        sa.Column("declared_natural", sa.Boolean(), nullable=False),
        sa.Column("source", sa.String(16), nullable=True),
        sa.Column("upload_id", sa.Integer(), sa.ForeignKey("uploads.id"), nullable=True),
        sa.Column("updated_at", TS, nullable=False),
        sa.UniqueConstraint("round_id", "player", name="uq_hands_round_player"),
    )
    op.create_index("ix_hands_round_id", "hands", ["round_id"])
    op.create_table(
        "round_events",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("round_id", sa.Integer(), sa.ForeignKey("rounds.id", ondelete="CASCADE"), nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("player", sa.String(40), nullable=True),
        sa.Column("detail", sa.JSON(), nullable=False),
        sa.Column("created_at", TS, nullable=False),
    )
    op.create_index("ix_round_events_round_id", "round_events", ["round_id"])


def downgrade() -> None:
    for table in ("round_events", "hands", "uploads", "rounds", "players", "photos", "games"):
        op.drop_table(table)
