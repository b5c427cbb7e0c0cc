"""Fair turns by estimated work, page batches, and a page cap per account.

``jobs.cost`` (work in page units: pages, or pixels for images) and ``jobs.pages_done``
(pages of a batched job already run); ``accounts.max_pages_per_job`` (the account's plan;
NULL: the service's default).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("jobs") as batch:
        batch.add_column(sa.Column("cost", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("pages_done", sa.Integer(), nullable=False, server_default="0"))
    # Jobs queued before costs existed cost their pages, as they did.
    op.execute("UPDATE jobs SET cost = page_count")
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("max_pages_per_job", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("max_pages_per_job")
    with op.batch_alter_table("jobs") as batch:
        batch.drop_column("pages_done")
        batch.drop_column("cost")
