"""Settle-up: transfers marked paid, per game and scope (whole game or a range of rounds); a game's end.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""
import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "settle_payments",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("scope", sa.String(32), nullable=False),
        sa.Column("payer", sa.String(40), nullable=False),
        sa.Column("payee", sa.String(40), nullable=False),
        sa.Column("amount", sa.String(64), nullable=False),
        sa.Column("paid_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_settle_payments_game_id", "settle_payments", ["game_id"])
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("ended_at")
    op.drop_index("ix_settle_payments_game_id", table_name="settle_payments")
    op.drop_table("settle_payments")
