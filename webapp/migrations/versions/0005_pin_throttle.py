"""PIN throttle: wrong-PIN counts per game and per client / network, shared by every app process.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""
import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "pin_throttle",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("bucket", sa.String(80), nullable=False),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("last_failure", sa.Float(), nullable=False),
        sa.Column("locked_until", sa.Float(), nullable=False),
        sa.UniqueConstraint("game_id", "bucket", name="uq_pin_throttle_game_bucket"),
    )
    op.create_index("ix_pin_throttle_game_id", "pin_throttle", ["game_id"])


def downgrade() -> None:
    op.drop_index("ix_pin_throttle_game_id", table_name="pin_throttle")
    op.drop_table("pin_throttle")
