"""The web platform's SQL: accounts, sign-in sessions, single-use link tokens, the account's
jobs, and deleting an account with everything it owns.

Cookie and link tokens are random 256-bit values; only their SHA-256 is stored, so a copy
of the database opens no session and confirms or resets nothing.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError

from prefect_docai.server import storage
from prefect_docai.server.db import (
    AccountRow,
    AccountTokenRow,
    ClientRow,
    Database,
    JobFileRow,
    JobRow,
    WebSessionRow,
    utcnow,
)
from prefect_docai.server.storage import BlobStore

CONFIRM = "confirm"
RESET = "reset"
LINK_TTL = {CONFIRM: timedelta(hours=24), RESET: timedelta(hours=1)}


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class Account:
    id: str
    email: str
    first_name: str
    last_name: str
    credits: int
    confirmed: bool
    password_hash: str | None


def _account(row: AccountRow) -> Account:
    return Account(
        row.id,
        row.email or "",
        row.first_name or "",
        row.last_name or "",
        row.credits,
        row.confirmed_at is not None,
        row.password_hash,
    )


def create_account(
    db: Database, email: str, first_name: str, last_name: str, password_hash: str
) -> str | None:
    """A new unconfirmed account with its web client; None when the e-mail is taken."""
    account_id = secrets.token_hex(16)
    now = utcnow()
    try:
        with db.transaction() as session:
            session.add(
                AccountRow(
                    id=account_id,
                    email=email,
                    first_name=first_name,
                    last_name=last_name,
                    password_hash=password_hash,
                    credits=0,
                    consented_at=now,
                    created_at=now,
                )
            )
            session.flush()
            session.add(_web_client_row(account_id))
    except IntegrityError:
        return None
    return account_id


def by_email(db: Database, email: str) -> Account | None:
    with db.session() as session:
        row = session.scalar(select(AccountRow).where(AccountRow.email == email))
        return None if row is None else _account(row)


def by_id(db: Database, account_id: str) -> Account | None:
    with db.session() as session:
        row = session.get(AccountRow, account_id)
        return None if row is None else _account(row)


def issue_link(db: Database, account_id: str, purpose: str) -> str:
    """A new single-use link token; earlier unused ones of the same purpose stop working."""
    token = secrets.token_urlsafe(32)
    now = utcnow()
    with db.transaction() as session:
        session.execute(
            update(AccountTokenRow)
            .where(
                AccountTokenRow.account_id == account_id,
                AccountTokenRow.purpose == purpose,
                AccountTokenRow.used_at.is_(None),
            )
            .values(used_at=now)
        )
        session.add(
            AccountTokenRow(
                id=digest(token),
                account_id=account_id,
                purpose=purpose,
                created_at=now,
                expires_at=now + LINK_TTL[purpose],
            )
        )
    return token


def link_account(db: Database, token: str, purpose: str) -> str | None:
    """The account a usable (unused, unexpired) link token belongs to, without using it."""
    with db.session() as session:
        row = session.get(AccountTokenRow, digest(token))
        if row is None or row.purpose != purpose or row.used_at is not None:
            return None
        return row.account_id if row.expires_at > utcnow() else None


def use_link(db: Database, token: str, purpose: str) -> str | None:
    """Use a link token once; returns its account, or None (unknown, used or expired)."""
    now = utcnow()
    with db.transaction() as session:
        account_id = session.scalar(
            update(AccountTokenRow)
            .where(
                AccountTokenRow.id == digest(token),
                AccountTokenRow.purpose == purpose,
                AccountTokenRow.used_at.is_(None),
                AccountTokenRow.expires_at > now,
            )
            .values(used_at=now)
            .returning(AccountTokenRow.account_id)
        )
    return account_id


def confirm(db: Database, account_id: str, signup_credits: int) -> None:
    """Mark the e-mail confirmed; the sign-up credits come with the first confirmation."""
    with db.transaction() as session:
        session.execute(
            update(AccountRow)
            .where(AccountRow.id == account_id, AccountRow.confirmed_at.is_(None))
            .values(confirmed_at=utcnow(), credits=AccountRow.credits + signup_credits)
        )


def set_password(db: Database, account_id: str, password_hash: str) -> None:
    """New password; every sign-in of the account ends."""
    with db.transaction() as session:
        session.execute(
            update(AccountRow)
            .where(AccountRow.id == account_id)
            .values(password_hash=password_hash)
        )
        session.execute(delete(WebSessionRow).where(WebSessionRow.account_id == account_id))


def start_session(db: Database, account_id: str, ttl: int) -> str:
    token = secrets.token_urlsafe(32)
    now = utcnow()
    with db.transaction() as session:
        session.add(
            WebSessionRow(
                id=digest(token),
                account_id=account_id,
                created_at=now,
                expires_at=now + timedelta(seconds=ttl),
            )
        )
        # Expired sessions of anyone carry no state; this keeps the table small.
        session.execute(delete(WebSessionRow).where(WebSessionRow.expires_at < now))
    return token


def session_account(db: Database, token: str) -> Account | None:
    with db.session() as session:
        row = session.execute(
            select(AccountRow)
            .join(WebSessionRow, WebSessionRow.account_id == AccountRow.id)
            .where(WebSessionRow.id == digest(token), WebSessionRow.expires_at > utcnow())
        ).scalar()
        return None if row is None else _account(row)


def end_session(db: Database, token: str) -> None:
    with db.transaction() as session:
        session.execute(delete(WebSessionRow).where(WebSessionRow.id == digest(token)))


def web_client(db: Database, account_id: str) -> str:
    """The id of the account's own client for uploads from the web pages (made on demand
    for accounts that predate the web platform)."""
    with db.transaction() as session:
        client_id = session.scalar(
            select(ClientRow.id).where(ClientRow.account_id == account_id, ClientRow.kind == "web")
        )
        if client_id is None:
            row = _web_client_row(account_id)
            session.add(row)
            client_id = row.id
    return client_id


def _web_client_row(account_id: str) -> ClientRow:
    return ClientRow(
        id=secrets.token_hex(16),
        account_id=account_id,
        kind="web",
        name="web platform",
        # No secret hashes to this: the web client never gets a token.
        secret_hash="-",
        scopes="accounting consumption",
        created_at=utcnow(),
    )


@dataclass(frozen=True)
class JobSummary:
    id: str
    client_id: str
    client_name: str
    client_kind: str
    tool: str
    file_name: str
    page_count: int
    credits_charged: int
    status: str
    created_at: datetime
    completed_at: datetime | None
    error_detail: str | None


def _summary(job: JobRow, name: str, kind: str) -> JobSummary:
    return JobSummary(
        job.id,
        job.client_id,
        name,
        kind,
        job.tool,
        job.file_name,
        job.page_count,
        job.credits_charged,
        job.status,
        job.created_at,
        job.completed_at,
        job.error_detail,
    )


def jobs(db: Database, account_id: str, limit: int = 200) -> list[JobSummary]:
    """The account's newest jobs, from every one of its clients."""
    with db.session() as session:
        rows = session.execute(
            select(JobRow, ClientRow.name, ClientRow.kind)
            .join(ClientRow, ClientRow.id == JobRow.client_id)
            .where(ClientRow.account_id == account_id)
            .order_by(JobRow.created_at.desc())
            .limit(limit)
        ).all()
    return [_summary(job, name, kind) for job, name, kind in rows]


def job(db: Database, account_id: str, job_id: str) -> JobSummary | None:
    """One job, only when one of the account's clients made it."""
    with db.session() as session:
        row = session.execute(
            select(JobRow, ClientRow.name, ClientRow.kind)
            .join(ClientRow, ClientRow.id == JobRow.client_id)
            .where(JobRow.id == job_id, ClientRow.account_id == account_id)
        ).first()
    return None if row is None else _summary(row[0], row[1], row[2])


def delete_account(db: Database, blobs: BlobStore, account_id: str) -> None:
    """The account, its clients and sessions, its jobs and every stored file of them."""
    with db.session() as session:
        client_ids = list(
            session.scalars(select(ClientRow.id).where(ClientRow.account_id == account_id))
        )
        job_ids = list(session.scalars(select(JobRow.id).where(JobRow.client_id.in_(client_ids))))
    # Files first: if this stops halfway the rows still point at what is left.
    for job_id in job_ids:
        blobs.delete_prefix(storage.result_prefix(job_id))
        blobs.delete(storage.input_key(job_id))
    with db.transaction() as session:
        session.execute(delete(JobFileRow).where(JobFileRow.job_id.in_(job_ids)))
        session.execute(delete(JobRow).where(JobRow.id.in_(job_ids)))
        session.execute(delete(ClientRow).where(ClientRow.account_id == account_id))
        session.execute(delete(WebSessionRow).where(WebSessionRow.account_id == account_id))
        session.execute(delete(AccountTokenRow).where(AccountTokenRow.account_id == account_id))
        session.execute(delete(AccountRow).where(AccountRow.id == account_id))
