"""Three schema additions made together so parallel work shares one migration:
criss-cross (a second 13-card set per player: `hands.hand_set`, `uploads.hand_set`), photo reading as jobs
(`uploads.status`, `attempts`, `error`), and the whole-table photo (`uploads.kind`, `games.table_seats`).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02
"""
import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("hands") as batch:
        batch.add_column(sa.Column("hand_set", sa.Integer(), nullable=False, server_default="0"))
        batch.drop_constraint("uq_hands_round_player", type_="unique")
        batch.create_unique_constraint("uq_hands_round_player_set", ["round_id", "player", "hand_set"])
    with op.batch_alter_table("uploads") as batch:
        batch.add_column(sa.Column("hand_set", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("kind", sa.String(16), nullable=False, server_default="hand"))
        batch.add_column(sa.Column("status", sa.String(16), nullable=False, server_default="read"))
        batch.add_column(sa.Column("attempts", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("error", sa.String(500), nullable=True))
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("table_seats", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("table_seats")
    with op.batch_alter_table("uploads") as batch:
        for column in ("error", "attempts", "status", "kind", "hand_set"):
            batch.drop_column(column)
    with op.batch_alter_table("hands") as batch:
        batch.drop_constraint("uq_hands_round_player_set", type_="unique")
        batch.create_unique_constraint("uq_hands_round_player", ["round_id", "player"])
        batch.drop_column("hand_set")
