"""Accounts own the credits; web sessions, single-use link tokens, shared throttle buckets.

Every existing client gets an account of its own (same id) holding the client's balance;
the balance column moves from ``clients`` to ``accounts``.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("email", sa.String(320), nullable=True, unique=True),
        sa.Column("first_name", sa.String(100), nullable=True),
        sa.Column("last_name", sa.String(100), nullable=True),
        sa.Column("password_hash", sa.String(200), nullable=True),
        sa.Column("credits", sa.Integer(), nullable=False),
        sa.Column("locale", sa.String(8), nullable=True),
        sa.Column("consented_at", sa.DateTime(), nullable=True),
        sa.Column("confirmed_at", sa.DateTime(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.execute(
        "INSERT INTO accounts (id, credits, created_at) SELECT id, credits, created_at FROM clients"
    )
    with op.batch_alter_table("clients") as batch:
        batch.add_column(sa.Column("account_id", sa.String(64), nullable=True))
        batch.add_column(sa.Column("kind", sa.String(10), nullable=False, server_default="api"))
        batch.add_column(sa.Column("last_used_at", sa.DateTime(), nullable=True))
        batch.add_column(sa.Column("revoked_at", sa.DateTime(), nullable=True))
    op.execute("UPDATE clients SET account_id = id")
    with op.batch_alter_table("clients") as batch:
        batch.alter_column("account_id", existing_type=sa.String(64), nullable=False)
        batch.alter_column("kind", existing_type=sa.String(10), server_default=None)
        batch.create_foreign_key("fk_clients_account_id", "accounts", ["account_id"], ["id"])
        batch.create_index("ix_clients_account_id", ["account_id"])
        batch.drop_column("credits")
    op.create_table(
        "web_sessions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.String(64), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_web_sessions_account_id", "web_sessions", ["account_id"])
    op.create_table(
        "account_tokens",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.String(64), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("purpose", sa.String(20), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        sa.Column("used_at", sa.DateTime(), nullable=True),
    )
    op.create_index("ix_account_tokens_account_id", "account_tokens", ["account_id"])
    # The shared throttle buckets came shortly before migrations: a database made by
    # create_all may have them already.
    if "throttle_buckets" not in sa.inspect(op.get_bind()).get_table_names():
        op.create_table(
            "throttle_buckets",
            sa.Column("key", sa.String(200), primary_key=True),
            sa.Column("tokens", sa.Float(), nullable=False),
            sa.Column("updated", sa.Float(), nullable=False),
            sa.Column("full_at", sa.Float(), nullable=False),
        )
        op.create_index("ix_throttle_buckets_full_at", "throttle_buckets", ["full_at"])


def downgrade() -> None:
    op.drop_table("account_tokens")
    op.drop_table("web_sessions")
    with op.batch_alter_table("clients") as batch:
        batch.add_column(sa.Column("credits", sa.Integer(), nullable=False, server_default="0"))
    op.execute(
        "UPDATE clients SET credits = (SELECT accounts.credits FROM accounts"
        " WHERE accounts.id = clients.account_id) WHERE kind = 'api'"
    )
    with op.batch_alter_table("clients") as batch:
        batch.drop_index("ix_clients_account_id")
        batch.drop_constraint("fk_clients_account_id", type_="foreignkey")
        batch.drop_column("revoked_at")
        batch.drop_column("last_used_at")
        batch.drop_column("kind")
        batch.drop_column("account_id")
    op.drop_table("accounts")
