"""Limits every replica shares: accounts' turns for fair scheduling, and an index for the
upload rate (a client's latest job of a tool).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "owner_turns",
        sa.Column("owner", sa.String(64), primary_key=True),
        sa.Column("turn_at", sa.Float(), nullable=False),
    )
    op.create_index("ix_jobs_client_tool_created", "jobs", ["client_id", "tool", "created_at"])


def downgrade() -> None:
    op.drop_index("ix_jobs_client_tool_created", table_name="jobs")
    op.drop_table("owner_turns")
