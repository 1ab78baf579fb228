"""Big Two: a hand may claim an instant win (一條龍, four 2s …), its cards then being the 13 dealt.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-24
"""
import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Hands that exist already claim nothing.
    with op.batch_alter_table("hands") as batch:
        batch.add_column(sa.Column("instant_win", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("hands") as batch:
        batch.drop_column("instant_win")
