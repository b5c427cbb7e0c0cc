"""Tables and the database handle (SQLAlchemy 2; SQLite by default, PostgreSQL by URL)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    create_engine,
    event,
    text,
)
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker
from sqlalchemy.types import TypeDecorator


def utcnow() -> datetime:
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """Timezone-aware UTC datetimes on every backend (SQLite stores naive values)."""

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        return value.astimezone(UTC).replace(tzinfo=None)

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        return None if value is None else value.replace(tzinfo=UTC)


class Base(DeclarativeBase):
    pass


class AccountRow(Base):
    """Who owns credits: a person signed up on the web platform, or (without e-mail) the
    account made for an API client created by ``docai admin``."""

    __tablename__ = "accounts"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    email: Mapped[str | None] = mapped_column(String(320), nullable=True, unique=True)
    first_name: Mapped[str | None] = mapped_column(String(100), nullable=True)
    last_name: Mapped[str | None] = mapped_column(String(100), nullable=True)
    password_hash: Mapped[str | None] = mapped_column(String(200), nullable=True)
    credits: Mapped[int] = mapped_column(Integer, default=0)
    max_pages_per_job: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The account's plan: pages one upload may have (None: the service's
    ``DOCAI_MAX_PAGES_PER_JOB``)."""
    locale: Mapped[str | None] = mapped_column(String(8), nullable=True)
    consented_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    confirmed_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class ClientRow(Base):
    __tablename__ = "clients"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), index=True)
    # "api": credentials for /oauth/token; "web": the account's own client for uploads made
    # on the web pages (its secret hash matches no secret).
    kind: Mapped[str] = mapped_column(String(10), default="api")
    name: Mapped[str] = mapped_column(String(200))
    secret_hash: Mapped[str] = mapped_column(String(128))
    scopes: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    last_used_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)


class WebSessionRow(Base):
    """A signed-in browser; the cookie holds a random token, the table its SHA-256."""

    __tablename__ = "web_sessions"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)


class AccountTokenRow(Base):
    """A single-use link token (e-mail confirmation, password reset), stored hashed."""

    __tablename__ = "account_tokens"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), index=True)
    purpose: Mapped[str] = mapped_column(String(20))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)


class JobRow(Base):
    __tablename__ = "jobs"
    __table_args__ = (
        UniqueConstraint("client_id", "idempotency_key"),
        # The upload rate: a client's latest job of a tool.
        Index("ix_jobs_client_tool_created", "client_id", "tool", "created_at"),
    )

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    client_id: Mapped[str] = mapped_column(ForeignKey("clients.id"), index=True)
    tool: Mapped[str] = mapped_column(String(40))
    status: Mapped[str] = mapped_column(String(20), index=True)
    file_name: Mapped[str] = mapped_column(String(300))
    media_type: Mapped[str] = mapped_column(String(100))
    sha256: Mapped[str] = mapped_column(String(64))
    size: Mapped[int] = mapped_column(Integer)
    page_count: Mapped[int] = mapped_column(Integer)
    credits_charged: Mapped[int] = mapped_column(Integer)
    cost: Mapped[int] = mapped_column(Integer, default=0)
    """Estimated work in page units (``server/cost.py``): pages for a PDF, pixels for an
    image. Fair turns and the small-job lane count it, not pages."""
    pages_done: Mapped[int] = mapped_column(Integer, default=0)
    """Pages of a job run in batches whose partial outcome is stored (``server/batches.py``)."""
    output_formats: Mapped[str] = mapped_column(String(100))
    # Text: a hint of many languages expands to more Tesseract packs than a short VARCHAR
    # holds, and PostgreSQL (unlike SQLite) enforces the length. "" when the upload named
    # no language (``EngineOptions.language_hinted`` False: English, a scan's language found).
    languages: Mapped[str] = mapped_column(Text)
    threshold: Mapped[float | None] = mapped_column(Float, nullable=True)
    email: Mapped[str | None] = mapped_column(String(320), nullable=True)
    idempotency_key: Mapped[str | None] = mapped_column(String(200), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    completed_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    expired_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    lease_owner: Mapped[str | None] = mapped_column(String(64), nullable=True)
    lease_expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    error_code: Mapped[str | None] = mapped_column(String(100), nullable=True)
    error_detail: Mapped[str | None] = mapped_column(Text, nullable=True)
    warnings: Mapped[list[str]] = mapped_column(JSON, default=list)
    email_status: Mapped[str | None] = mapped_column(String(20), nullable=True, index=True)
    email_attempts: Mapped[int] = mapped_column(Integer, default=0)
    email_next_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    email_error: Mapped[str | None] = mapped_column(Text, nullable=True)


class JobFileRow(Base):
    __tablename__ = "job_files"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    job_id: Mapped[str] = mapped_column(ForeignKey("jobs.id"), index=True)
    name: Mapped[str] = mapped_column(String(300))
    media_type: Mapped[str] = mapped_column(String(100))
    output_type: Mapped[str | None] = mapped_column(String(20), nullable=True)
    size: Mapped[int] = mapped_column(Integer)
    path: Mapped[str] = mapped_column(String(500))


class ThrottleRow(Base):
    """A token bucket of a limit every replica shares (throttle.py): ``tokens`` as of
    ``updated`` (epoch seconds); ``full_at`` is when it has refilled, after which the row
    carries no state and is deleted."""

    __tablename__ = "throttle_buckets"

    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    tokens: Mapped[float] = mapped_column(Float)
    updated: Mapped[float] = mapped_column(Float)
    full_at: Mapped[float] = mapped_column(Float, index=True)


class OwnerTurnRow(Base):
    """Fair scheduling across accounts (every replica claims by it): an account's queued
    jobs wait until ``turn_at`` (epoch seconds) comes before every other account's; each
    job it starts moves its turn on by the job's pages."""

    __tablename__ = "owner_turns"

    owner: Mapped[str] = mapped_column(String(64), primary_key=True)
    turn_at: Mapped[float] = mapped_column(Float)


def normalize_url(url: str) -> str:
    """``postgresql://`` and ``postgres://`` URLs use psycopg 3, the driver the ``server``
    extra installs (SQLAlchemy's default for them is psycopg2)."""
    parsed = make_url(url)
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed.render_as_string(hide_password=False)


def libpq_url(url: str) -> str:
    """The SQLAlchemy URL (``postgresql+psycopg://…``) as psycopg's own connection URL."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


# Any constant: replicas starting together serialise their migrations on it (two
# concurrent upgrades can both see the old revision and one then fails).
_SCHEMA_LOCK = 0x646F6361


class Database:
    """Engine + session factory. Sessions are short and used from worker threads."""

    def __init__(self, url: str) -> None:
        self.url = normalize_url(url)
        backend = make_url(self.url).get_backend_name()
        self.is_sqlite = backend == "sqlite"
        self.is_postgresql = backend == "postgresql"
        # Enough connections for the request thread pool (40 threads) plus the job loops, so
        # a burst of requests waits on the database, not on the connection pool.
        kwargs: dict[str, Any] = {
            "pool_size": 10,
            "max_overflow": 40,
            "pool_timeout": 60,
            "pool_pre_ping": not self.is_sqlite,
        }
        if self.is_sqlite:
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
        elif self.is_postgresql and "connect_timeout" not in make_url(self.url).query:
            # libpq waits forever for a server that accepts the connection but never
            # answers; a stuck start or request should fail instead.
            kwargs["connect_args"] = {"connect_timeout": 10}
        if self.is_sqlite:
            _private_sqlite_file(make_url(self.url).database)
        self.engine: Engine = create_engine(self.url, **kwargs)
        if self.is_sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    def migrate(self) -> None:
        """Bring the schema to the newest migration (an empty database included)."""
        from prefect_docai.server import migrations

        if self.is_sqlite:
            # Batch migrations copy a table to alter it; with foreign keys on, dropping the
            # old copy of a referenced table would fail. PRAGMA is a no-op inside a
            # transaction, so it is set around it.
            with self.engine.connect() as connection:
                connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
                connection.commit()
                try:
                    with connection.begin():
                        migrations.upgrade(connection, Base.metadata)
                finally:
                    connection.exec_driver_sql("PRAGMA foreign_keys=ON")
                    connection.commit()
            return
        with self.engine.begin() as connection:
            if self.is_postgresql:
                connection.execute(
                    text("SELECT pg_advisory_xact_lock(:key)"), {"key": _SCHEMA_LOCK}
                )
            migrations.upgrade(connection, Base.metadata)

    # The name callers used before migrations existed.
    create_all = migrate

    @property
    def sqlite_file(self) -> Path | None:
        """The SQLite database's path as the URL names it (None on other backends)."""
        database = make_url(self.url).database if self.is_sqlite else None
        return Path(database) if database else None

    def ping(self) -> None:
        """Raises when the database does not answer."""
        with self.session() as session:
            session.execute(text("SELECT 1"))

    @contextmanager
    def session(self) -> Iterator[Session]:
        with self._sessions() as session:
            yield session

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        with self._sessions() as session, session.begin():
            yield session

    def dispose(self) -> None:
        self.engine.dispose()


def _private_sqlite_file(database: str | None) -> None:
    """The database file readable by the service's user only (SQLite gives its -wal and
    -shm files the database file's permissions)."""
    if not database or database == ":memory:" or database.startswith("file:"):
        return
    path = Path(database)
    if not path.parent.is_dir():
        return
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        if path.stat().st_mode & 0o077:
            path.chmod(0o600)


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    # WAL lets readers (result fetches, token checks) run while an upload writes.
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()
