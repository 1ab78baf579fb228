"""Live shared round: a version every change bumps (the round's ETag), who made each change, and the round as
it stood after each change (what undo puts back).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""
import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rounds") as batch:
        batch.add_column(sa.Column("version", sa.Integer(), nullable=False, server_default="0"))
    with op.batch_alter_table("round_events") as batch:
        batch.add_column(sa.Column("actor", sa.String(40), nullable=True))
        batch.add_column(sa.Column("state", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("round_events") as batch:
        batch.drop_column("state")
        batch.drop_column("actor")
    with op.batch_alter_table("rounds") as batch:
        batch.drop_column("version")
