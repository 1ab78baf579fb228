"""Big Two: a game's type, each hand's cards left, a round's finishing order and 頂大 player.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22
"""
import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Games that exist already are Chinese poker; hands that exist already have no cards left.
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("game_type", sa.String(16), nullable=False, server_default="chinese-poker"))
    with op.batch_alter_table("hands") as batch:
        batch.add_column(sa.Column("cards", sa.JSON(), nullable=False, server_default=sa.text("'[]'")))
    with op.batch_alter_table("rounds") as batch:
        batch.add_column(sa.Column("finish_order", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("failed_to_block", sa.String(40), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rounds") as batch:
        batch.drop_column("failed_to_block")
        batch.drop_column("finish_order")
    with op.batch_alter_table("hands") as batch:
        batch.drop_column("cards")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("game_type")
