"""The tables the release before migrations made with ``create_all`` (frozen copy), and a
database in that state with one client, its balance and one finished job."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime

from sqlalchemy import (
    JSON,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    create_engine,
)

metadata = MetaData()
clients = Table(
    "clients",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("name", String(200), nullable=False),
    Column("secret_hash", String(128), nullable=False),
    Column("scopes", String(200), nullable=False),
    Column("credits", Integer, nullable=False),
    Column("created_at", DateTime, nullable=False),
)
jobs = Table(
    "jobs",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("client_id", ForeignKey("clients.id"), nullable=False, index=True),
    Column("tool", String(40), nullable=False),
    Column("status", String(20), nullable=False, index=True),
    Column("file_name", String(300), nullable=False),
    Column("media_type", String(100), nullable=False),
    Column("sha256", String(64), nullable=False),
    Column("size", Integer, nullable=False),
    Column("page_count", Integer, nullable=False),
    Column("credits_charged", Integer, nullable=False),
    Column("output_formats", String(100), nullable=False),
    Column("languages", Text, nullable=False),
    Column("threshold", Float, nullable=True),
    Column("email", String(320), nullable=True),
    Column("idempotency_key", String(200), nullable=True),
    Column("created_at", DateTime, nullable=False),
    Column("started_at", DateTime, nullable=True),
    Column("completed_at", DateTime, nullable=True),
    Column("expired_at", DateTime, nullable=True),
    Column("attempts", Integer, nullable=False),
    Column("lease_owner", String(64), nullable=True),
    Column("lease_expires_at", DateTime, nullable=True),
    Column("error_code", String(100), nullable=True),
    Column("error_detail", Text, nullable=True),
    Column("warnings", JSON, nullable=False),
    Column("email_status", String(20), nullable=True, index=True),
    Column("email_attempts", Integer, nullable=False),
    Column("email_next_at", DateTime, nullable=True),
    Column("email_error", Text, nullable=True),
    UniqueConstraint("client_id", "idempotency_key"),
)
job_files = Table(
    "job_files",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("job_id", ForeignKey("jobs.id"), nullable=False, index=True),
    Column("name", String(300), nullable=False),
    Column("media_type", String(100), nullable=False),
    Column("output_type", String(20), nullable=True),
    Column("size", Integer, nullable=False),
    Column("path", String(500), nullable=False),
)

# Made by create_all in the last release before migrations (the token throttle's buckets).
throttle_buckets = Table(
    "throttle_buckets",
    MetaData(),
    Column("key", String(200), primary_key=True),
    Column("tokens", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("full_at", Float, nullable=False, index=True),
)

CLIENT_ID = "0123456789abcdef0123456789abcdef"
SECRET = "legacy-secret-legacy-secret-legacy-secret"
JOB_ID = "11111111-2222-3333-4444-555555555555"


def make_legacy_database(url: str, credits: int = 42, throttle: bool = False) -> None:
    engine = create_engine(url)
    now = datetime.now(UTC).replace(tzinfo=None)
    with engine.begin() as connection:
        metadata.create_all(connection)
        if throttle:
            throttle_buckets.create(connection)
        connection.execute(
            clients.insert().values(
                id=CLIENT_ID,
                name="legacy",
                secret_hash=hashlib.sha256(SECRET.encode()).hexdigest(),
                scopes="accounting consumption",
                credits=credits,
                created_at=now,
            )
        )
        connection.execute(
            jobs.insert().values(
                id=JOB_ID,
                client_id=CLIENT_ID,
                tool="Classify",
                status="failed",
                file_name="old.pdf",
                media_type="application/pdf",
                sha256="0" * 64,
                size=10,
                page_count=1,
                credits_charged=0,
                output_formats="JSON",
                languages="eng",
                created_at=now,
                completed_at=now,
                attempts=1,
                error_code="engine_error",
                error_detail="old failure",
                warnings=[],
                email_attempts=0,
            )
        )
    engine.dispose()
