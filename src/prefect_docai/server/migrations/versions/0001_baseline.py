"""The schema before migrations (what ``create_all`` made): clients, jobs, job files.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "clients",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("secret_hash", sa.String(128), nullable=False),
        sa.Column("scopes", sa.String(200), nullable=False),
        sa.Column("credits", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_table(
        "jobs",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("client_id", sa.String(64), sa.ForeignKey("clients.id"), nullable=False),
        sa.Column("tool", sa.String(40), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("file_name", sa.String(300), nullable=False),
        sa.Column("media_type", sa.String(100), nullable=False),
        sa.Column("sha256", sa.String(64), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("page_count", sa.Integer(), nullable=False),
        sa.Column("credits_charged", sa.Integer(), nullable=False),
        sa.Column("output_formats", sa.String(100), nullable=False),
        sa.Column("languages", sa.Text(), nullable=False),
        sa.Column("threshold", sa.Float(), nullable=True),
        sa.Column("email", sa.String(320), nullable=True),
        sa.Column("idempotency_key", sa.String(200), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=True),
        sa.Column("completed_at", sa.DateTime(), nullable=True),
        sa.Column("expired_at", sa.DateTime(), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("lease_owner", sa.String(64), nullable=True),
        sa.Column("lease_expires_at", sa.DateTime(), nullable=True),
        sa.Column("error_code", sa.String(100), nullable=True),
        sa.Column("error_detail", sa.Text(), nullable=True),
        sa.Column("warnings", sa.JSON(), nullable=False),
        sa.Column("email_status", sa.String(20), nullable=True),
        sa.Column("email_attempts", sa.Integer(), nullable=False),
        sa.Column("email_next_at", sa.DateTime(), nullable=True),
        sa.Column("email_error", sa.Text(), nullable=True),
        sa.UniqueConstraint("client_id", "idempotency_key"),
    )
    op.create_index("ix_jobs_client_id", "jobs", ["client_id"])
    op.create_index("ix_jobs_status", "jobs", ["status"])
    op.create_index("ix_jobs_email_status", "jobs", ["email_status"])
    op.create_table(
        "job_files",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("job_id", sa.String(64), sa.ForeignKey("jobs.id"), nullable=False),
        sa.Column("name", sa.String(300), nullable=False),
        sa.Column("media_type", sa.String(100), nullable=False),
        sa.Column("output_type", sa.String(20), nullable=True),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("path", sa.String(500), nullable=False),
    )
    op.create_index("ix_job_files_job_id", "job_files", ["job_id"])


def downgrade() -> None:
    op.drop_table("job_files")
    op.drop_table("jobs")
    op.drop_table("clients")
