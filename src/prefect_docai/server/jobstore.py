"""The job store: every SQL statement on jobs and their files, as named functions.

The queue and its leases (``FOR UPDATE SKIP LOCKED`` claiming), uploads (credits reserved
and the job inserted in one transaction, Idempotency-Key replays), outcomes (credits
refunded on failure), mail delivery state and retention. Routes, the job runner, the mail
sender and the purger call these and hold no SQL; the tables are in ``db.py``, accounts'
and clients' statements in ``accounts.py`` (``charge``/``refund`` join a job's
transaction here), the token throttle's in ``throttle.py``.

Rows handed out are detached: read them, change nothing through them.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import ColumnElement, case, delete, func, literal, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from prefect_docai.server import accounts
from prefect_docai.server.cost import units as cost_units
from prefect_docai.server.db import (
    ClientRow,
    Database,
    JobFileRow,
    JobRow,
    OwnerTurnRow,
    UTCDateTime,
    libpq_url,
    utcnow,
)

if TYPE_CHECKING:
    import psycopg

JOBS_CHANNEL = "docai_jobs"
"""PostgreSQL: notified in the transaction that queues a job, so every replica's listener
(``server/jobwake.py``) wakes its runner when it commits."""

ENDED = ("succeeded", "failed")
LIVE = ("queued", "processing")
_CHUNK = 500  # ids per IN (…) query


class InsufficientCredits(Exception):
    """The client's balance is below the job's page count."""

    def __init__(self, balance: int) -> None:
        super().__init__(f"balance {balance}")
        self.balance = balance


class RateLimited(Exception):
    """The client's previous accepted upload of this tool is too recent."""

    def __init__(self, wait: float) -> None:
        super().__init__(f"wait {wait:.3f} s")
        self.wait = wait


class MailQuotaExceeded(Exception):
    """The account asked for its quota of mails in the last 24 hours already."""

    def __init__(self, quota: int, wait: float) -> None:
        super().__init__(f"{quota} mails a day")
        self.quota = quota
        self.wait = wait


MAIL_WINDOW = timedelta(hours=24)


class IdempotencyKeyTaken(Exception):
    """Another request committed a job with the same client and Idempotency-Key first."""


# --- uploads ----------------------------------------------------------------------------


def find_by_idempotency_key(db: Database, client_id: str, key: str) -> JobRow | None:
    with db.session() as session:
        return session.scalar(
            select(JobRow).where(JobRow.client_id == client_id, JobRow.idempotency_key == key)
        )


def upload_wait(db: Database, client_id: str, tool: str, interval: float, burst: int = 1) -> float:
    """Seconds until ``client_id`` may upload to ``tool`` again (0: now): at most ``burst``
    accepted uploads in any ``burst × interval`` seconds (``burst`` 1: uploads ``interval``
    seconds apart), counted from the accepted ones."""
    with db.engine.connect() as connection:
        oldest = connection.scalar(_window_start(client_id, tool, burst))
    return _wait(oldest, burst * interval)


def _window_start(client_id: str, tool: str, burst: int) -> Any:
    """The ``burst``-th latest upload of the client and tool (the index
    ``ix_jobs_client_tool_created`` serves it)."""
    return (
        select(JobRow.created_at)
        .where(JobRow.client_id == client_id, JobRow.tool == tool)
        .order_by(JobRow.created_at.desc())
        .offset(max(1, burst) - 1)
        .limit(1)
    )


def _wait(latest: datetime | None, interval: float) -> float:
    if latest is None:
        return 0.0
    if latest.tzinfo is None:  # a Core scalar skips the column type's conversion on SQLite
        latest = latest.replace(tzinfo=UTC)
    return max(0.0, (latest + timedelta(seconds=interval) - utcnow()).total_seconds())


def charge_and_insert(
    db: Database,
    job: JobRow,
    *,
    interval: float = 0.0,
    burst: int = 1,
    mail_quota: int | None = None,
) -> None:
    """Reserve ``job.credits_charged`` from its client and insert the queued job, in one
    transaction. Raises ``accounts.UnknownClientError`` (client gone or revoked),
    :class:`InsufficientCredits`, :class:`RateLimited` (``burst`` accepted uploads of the
    same client and tool in the last ``burst × interval`` seconds), :class:`MailQuotaExceeded` (a job
    with ``email`` past the account's ``mail_quota`` in 24 hours), or
    :class:`IdempotencyKeyTaken` when a concurrent upload with the same key won.

    Charging first takes the account's row lock (the write lock on SQLite), so the checks
    after it see every upload committed before, on any replica: the limits are exact, and
    only accepted uploads count.
    """
    price = job.credits_charged
    try:
        with db.transaction() as session:
            balance = accounts.charge(session, job.client_id, price)
            if balance is not None:
                raise InsufficientCredits(balance)
            oldest = session.scalar(_window_start(job.client_id, job.tool, burst))
            wait = _wait(oldest, burst * interval)
            if wait > 0:
                raise RateLimited(wait)
            if job.email is not None and mail_quota is not None:
                _check_mail_quota(session, job.client_id, mail_quota)
            session.add(job)
            _notify_queued(db, session)
    except IntegrityError as exc:
        if job.idempotency_key is None:
            raise
        raise IdempotencyKeyTaken(job.idempotency_key) from exc


def _check_mail_quota(session: Session, client_id: str, quota: int) -> None:
    since = utcnow() - MAIL_WINDOW
    account = select(ClientRow.account_id).where(ClientRow.id == client_id).scalar_subquery()
    # email_status stays when a job is anonymised (email cleared): it still counts.
    mailed = (
        select(JobRow.created_at)
        .join(ClientRow, ClientRow.id == JobRow.client_id)
        .where(
            ClientRow.account_id == account,
            JobRow.created_at >= since,
            or_(JobRow.email.is_not(None), JobRow.email_status.is_not(None)),
        )
        .order_by(JobRow.created_at.desc())
        .limit(quota)
    )
    times = list(session.scalars(mailed))
    if len(times) >= quota:
        oldest = times[-1] if times else utcnow()
        raise MailQuotaExceeded(quota, (oldest + MAIL_WINDOW - utcnow()).total_seconds())


# --- reading jobs -----------------------------------------------------------------------


def get_job(db: Database, job_id: str) -> JobRow | None:
    with db.session() as session:
        return session.get(JobRow, job_id)


def get_job_files(db: Database, job_id: str) -> list[JobFileRow]:
    with db.session() as session:
        return list(
            session.scalars(
                select(JobFileRow).where(JobFileRow.job_id == job_id).order_by(JobFileRow.id)
            )
        )


def get_client_job(
    db: Database, job_id: str, client_id: str, *, with_files: bool = True
) -> tuple[JobRow, list[JobFileRow]] | None:
    """The job and its files if it belongs to ``client_id``, else None.

    Core queries and detached rows: the ORM's identity-map machinery is most of the cost of
    a result fetch, and nothing here is written back.
    """
    jobs, job_files = JobRow.__table__, JobFileRow.__table__
    with db.engine.connect() as connection:
        row = connection.execute(select(jobs).where(jobs.c.id == job_id)).mappings().first()
        if row is None or row["client_id"] != client_id:
            return None
        files: list[JobFileRow] = []
        if with_files:
            query = select(job_files).where(job_files.c.job_id == job_id).order_by(job_files.c.id)
            files = [JobFileRow(**dict(f)) for f in connection.execute(query).mappings()]
    return JobRow(**dict(row)), files


# --- the queue and leases ----------------------------------------------------------------


@dataclass(frozen=True)
class Claim:
    """A job moved to processing: which pages to run now (all, or the next batch)."""

    job_id: str
    page_count: int
    cost: int
    first: int
    """First page to run (1-based); 1 unless earlier batches ran."""
    last: int

    @property
    def batched(self) -> bool:
        return self.first > 1 or self.last < self.page_count


def claim_next(
    db: Database,
    owner: str,
    lease: timedelta,
    *,
    max_cost: int | None = None,
    batch_pages: int | None = None,
    batched_tools: Collection[str] = (),
    exclude: Collection[str] = (),
) -> Claim | None:
    """Move the next queued job, fairly chosen, to processing under ``owner``'s lease;
    None when nothing (of at most ``max_cost``) is queued.

    Fair: the job of the account whose turn comes first (``owner_turns``; an account never
    served comes first), oldest first within an account. Starting work moves its account's
    turn on by that work's cost in page units (``server/cost.py``; from now, or from its
    turn if that is later still), so an account that started 1000 pages or a huge image
    waits behind accounts that started a few pages, and accounts with small jobs take turns.
    A job of a tool in ``batched_tools`` with more than ``batch_pages`` pages is claimed one
    batch at a time (from its ``pages_done``), each claim costing that batch's share.
    ``exclude``: ids the caller still runs (a job whose batch just ended is queued again
    before its runner has let go of it).
    ``FOR UPDATE SKIP LOCKED``: replicas claim different rows;
    the turn row serialises their claims for one account. One row per claim, in two
    statements (``SELECT … FOR UPDATE SKIP LOCKED LIMIT 1``, then an ``UPDATE`` of that
    row): PostgreSQL may rerun an ``IN (SELECT … SKIP LOCKED)`` subquery and so claim more
    than asked. The status guard makes a claim of a row that changed meanwhile a no-op.
    """
    turn = (
        select(OwnerTurnRow.turn_at)
        .where(OwnerTurnRow.owner == ClientRow.account_id)
        .correlate(ClientRow)
        .scalar_subquery()
    )
    candidates = (
        select(
            JobRow.id,
            JobRow.page_count,
            JobRow.cost,
            JobRow.pages_done,
            JobRow.tool,
            ClientRow.account_id,
        )
        .join(ClientRow, ClientRow.id == JobRow.client_id)
        .where(JobRow.status == "queued")
        .order_by(turn.asc().nulls_first(), JobRow.created_at)
        .limit(1)
        .with_for_update(skip_locked=True, of=JobRow)
    )
    if max_cost is not None:
        candidates = candidates.where(JobRow.cost <= max_cost)
    if exclude:
        candidates = candidates.where(JobRow.id.not_in(list(exclude)))
    now = utcnow()
    with db.transaction() as session:
        found = session.execute(candidates).first()
        if found is None:
            return None
        job_id, pages, cost, done, tool, account = found
        first, last = 1, int(pages)
        if batch_pages is not None and tool in batched_tools and pages > batch_pages:
            first = min(int(done), int(pages) - 1) + 1
            last = min(int(pages), first + batch_pages - 1)
        claimed = session.execute(
            update(JobRow)
            .where(JobRow.id == job_id, JobRow.status == "queued")
            .values(
                status="processing",
                lease_owner=owner,
                lease_expires_at=now + lease,
                # A batched job started with its first batch.
                started_at=func.coalesce(JobRow.started_at, literal(now, UTCDateTime())),
                attempts=JobRow.attempts + 1,
            )
            .execution_options(synchronize_session=False)
        )
        if getattr(claimed, "rowcount", 0) != 1:
            return None
        work = cost_units(int(cost), int(pages), last - first + 1)
        epoch = now.timestamp()
        insert = postgresql.insert if db.is_postgresql else sqlite.insert
        statement = insert(OwnerTurnRow).values(owner=account, turn_at=epoch + work)
        later = case((OwnerTurnRow.turn_at > epoch, OwnerTurnRow.turn_at), else_=epoch)
        session.execute(
            statement.on_conflict_do_update(
                index_elements=[OwnerTurnRow.owner], set_={"turn_at": later + work}
            )
        )
        return Claim(str(job_id), int(pages), int(cost), first, last)


def _notify_queued(db: Database, session: Session) -> None:
    """A job is queued in ``session``'s transaction: on PostgreSQL, tell every replica's
    listener when it commits (nothing is sent if it rolls back). SQLite has no other
    process to tell that polling would not reach."""
    if db.is_postgresql:
        session.execute(select(func.pg_notify(JOBS_CHANNEL, "")))


def listen_for_queued_jobs(url: str, connect_timeout: int = 10) -> psycopg.Connection[Any]:
    """PostgreSQL: a connection of its own (autocommit, for the caller to close) that
    listens on the jobs channel; its ``notifies()`` yield once per job any replica queues
    (``_notify_queued``)."""
    import psycopg

    connection = psycopg.connect(libpq_url(url), autocommit=True, connect_timeout=connect_timeout)
    try:
        connection.execute(f"LISTEN {JOBS_CHANNEL}")
    except BaseException:
        connection.close()
        raise
    return connection


def batch_done(db: Database, job_id: str, owner: str, pages_done: int) -> bool:
    """``owner``'s batch of a job is stored: the job goes back to the queue to wait for its
    turn for the next batch (its attempts start again: it made progress). False when it
    lost its lease meanwhile."""
    with db.transaction() as session:
        result = session.execute(
            update(JobRow)
            .where(JobRow.id == job_id, JobRow.status == "processing", JobRow.lease_owner == owner)
            .values(
                status="queued",
                lease_owner=None,
                lease_expires_at=None,
                attempts=0,
                pages_done=pages_done,
            )
            .execution_options(synchronize_session=False)
        )
        done = getattr(result, "rowcount", 0) == 1
        if done:
            _notify_queued(db, session)
    return done


def forget_turns(db: Database) -> int:
    """Delete turns already past (an account whose turn has come needs no row)."""
    with db.transaction() as session:
        result = session.execute(
            delete(OwnerTurnRow).where(OwnerTurnRow.turn_at < utcnow().timestamp())
        )
    return int(getattr(result, "rowcount", 0) or 0)


def renew_leases(db: Database, owner: str, job_ids: Sequence[str], lease: timedelta) -> None:
    with db.transaction() as session:
        session.execute(
            update(JobRow)
            .where(
                JobRow.id.in_(list(job_ids)),
                JobRow.status == "processing",
                JobRow.lease_owner == owner,
            )
            .values(lease_expires_at=utcnow() + lease)
        )


def expired_leases(db: Database, now: datetime) -> list[tuple[str, int]]:
    """(job id, attempts) of processing jobs whose lease ran out before ``now``."""
    with db.session() as session:
        rows = session.execute(
            select(JobRow.id, JobRow.attempts).where(
                JobRow.status == "processing", JobRow.lease_expires_at < now
            )
        )
        return [(job_id, attempts) for job_id, attempts in rows]


def _to_queue(db: Database, *where: ColumnElement[bool], refund_attempt: bool) -> None:
    """Processing jobs matching ``where`` back to the queue; ``refund_attempt``: the stop
    was not the job's fault, so it does not use up one of its attempts."""
    values: dict[str, Any] = {"status": "queued", "lease_owner": None, "lease_expires_at": None}
    if refund_attempt:
        values["attempts"] = JobRow.attempts - 1
    with db.transaction() as session:
        result = session.execute(
            update(JobRow).where(JobRow.status == "processing", *where).values(**values)
        )
        if getattr(result, "rowcount", 0):
            _notify_queued(db, session)


def requeue_expired(db: Database, job_id: str, now: datetime) -> None:
    """Back to the queue, if its lease is still expired as of ``now``."""
    _to_queue(db, JobRow.id == job_id, JobRow.lease_expires_at < now, refund_attempt=False)


def requeue(db: Database, job_id: str, owner: str, *, refund_attempt: bool = False) -> None:
    """Hand ``owner``'s processing job back to the queue."""
    _to_queue(db, JobRow.id == job_id, JobRow.lease_owner == owner, refund_attempt=refund_attempt)


def release_owned(db: Database, owner: str) -> None:
    """Every job ``owner`` processes back to the queue without using up an attempt."""
    _to_queue(db, JobRow.lease_owner == owner, refund_attempt=True)


# --- outcomes ---------------------------------------------------------------------------


def complete(
    db: Database, job_id: str, owner: str, files: list[JobFileRow], warnings: list[str]
) -> bool:
    """Mark ``owner``'s processing job succeeded with its files; False (nothing written)
    when the job lost its lease meanwhile."""
    now = utcnow()
    with db.transaction() as session:
        job = session.get(JobRow, job_id, with_for_update=True)
        if job is None or job.status != "processing" or job.lease_owner != owner:
            return False
        session.execute(delete(JobFileRow).where(JobFileRow.job_id == job_id))
        session.add_all(files)
        job.status = "succeeded"
        job.completed_at = now
        job.warnings = list(warnings)
        job.lease_owner = None
        job.lease_expires_at = None
        if job.email:
            job.email_status = "pending"
            job.email_next_at = now
    return True


def fail(db: Database, job_id: str, owner: str | None, code: str, detail: str) -> bool:
    """Fail a processing job and refund its credits (owner None: one whose lease expired);
    False (nothing written) when it is not ``owner``'s to fail."""
    now = utcnow()
    with db.transaction() as session:
        job = session.get(JobRow, job_id, with_for_update=True)
        if job is None or job.status != "processing":
            return False
        if owner is not None and job.lease_owner != owner:
            return False
        # Without an owner (lease expiry), only while the lease is still expired: another
        # replica may have requeued and claimed the job since it was seen stale.
        if owner is None and (job.lease_expires_at is None or job.lease_expires_at >= now):
            return False
        refund = job.credits_charged
        accounts.refund(session, job.client_id, refund)
        job.status = "failed"
        job.completed_at = now
        job.error_code = code
        job.error_detail = detail
        job.credits_charged = 0
        job.lease_owner = None
        job.lease_expires_at = None
        job.warnings = [*(job.warnings or []), f"{refund} credit(s) refunded"]
        if job.email:
            job.email_status = "pending"
            job.email_next_at = now
    return True


# --- mail delivery state ------------------------------------------------------------------


def claim_mail(db: Database, lease: timedelta) -> str | None:
    """The job whose mail is due first, marked ``sending`` for ``lease``; None when no mail
    is due or another sender took it first."""
    now = utcnow()
    with db.session() as session:
        job_id = session.scalar(
            select(JobRow.id)
            .where(
                or_(JobRow.email_status == "pending", JobRow.email_status == "sending"),
                JobRow.email_next_at <= now,
            )
            .order_by(JobRow.email_next_at)
            .limit(1)
        )
    if job_id is None:
        return None
    with db.transaction() as session:
        result = session.execute(
            update(JobRow)
            .where(JobRow.id == job_id, JobRow.email_next_at <= now)
            .values(
                email_status="sending",
                email_next_at=now + lease,
                email_attempts=JobRow.email_attempts + 1,
            )
        )
    return job_id if getattr(result, "rowcount", 0) == 1 else None


def postpone_mail(db: Database, job_id: str, retry_at: datetime) -> None:
    """Pending again at ``retry_at`` without using up an attempt."""
    with db.transaction() as session:
        session.execute(
            update(JobRow)
            .where(JobRow.id == job_id)
            .values(
                email_status="pending",
                email_next_at=retry_at,
                email_attempts=JobRow.email_attempts - 1,
            )
        )


def mail_failed(db: Database, job_id: str, error: str, retry_at: datetime | None) -> None:
    """A failed attempt: pending again at ``retry_at``, or given up (None)."""
    with db.transaction() as session:
        session.execute(
            update(JobRow)
            .where(JobRow.id == job_id)
            .values(
                email_status="failed" if retry_at is None else "pending",
                email_next_at=retry_at,
                email_error=error,
            )
        )


def mail_sent(db: Database, job_id: str) -> None:
    with db.transaction() as session:
        session.execute(
            update(JobRow)
            .where(JobRow.id == job_id)
            .values(email_status="sent", email_next_at=None, email_error=None)
        )


# --- retention ----------------------------------------------------------------------------


def mark_downloaded(db: Database, job_id: str, delete_at: datetime) -> None:
    """A succeeded job's result was downloaded: delete it at ``delete_at`` (first download
    only; ``expired_at`` is when its result goes)."""
    with db.transaction() as session:
        session.execute(
            update(JobRow)
            .where(JobRow.id == job_id, JobRow.status == "succeeded", JobRow.expired_at.is_(None))
            .values(expired_at=delete_at)
        )


def ended_before(db: Database, cutoff: datetime) -> list[str]:
    """Ended jobs completed before ``cutoff``, or downloaded and past their grace window,
    whose mail (if any) is settled."""
    with db.session() as session:
        return list(
            session.scalars(
                select(JobRow.id).where(
                    JobRow.status.in_(ENDED),
                    or_(JobRow.completed_at < cutoff, JobRow.expired_at <= utcnow()),
                    # A mail still being retried needs the result; it gives up in minutes.
                    or_(
                        JobRow.email_status.is_(None),
                        JobRow.email_status.in_(("sent", "failed")),
                    ),
                )
            )
        )


def expire(db: Database, job_id: str) -> None:
    """Forget an ended job's files and mark it expired (the row stays)."""
    with db.transaction() as session:
        session.execute(delete(JobFileRow).where(JobFileRow.job_id == job_id))
        session.execute(
            update(JobRow)
            .where(JobRow.id == job_id, JobRow.status.in_(ENDED))
            .values(status="expired", expired_at=func.coalesce(JobRow.expired_at, utcnow()))
        )


def anonymise_before(db: Database, cutoff: datetime) -> int:
    """Expired jobs that ended before ``cutoff`` keep only what billing needs (owner, tool,
    pages, credits, times, outcome code); returns how many were anonymised."""
    with db.transaction() as session:
        result = session.execute(
            update(JobRow)
            .where(JobRow.status == "expired", JobRow.completed_at < cutoff, JobRow.sha256 != "")
            .values(
                file_name="",
                sha256="",
                media_type="",
                size=0,
                output_formats="",
                languages="",
                threshold=None,
                email=None,
                email_error=None,
                error_detail=None,
                warnings=[],
            )
            .execution_options(synchronize_session=False)
        )
    return int(getattr(result, "rowcount", 0) or 0)


def live_among(db: Database, job_ids: Sequence[str]) -> set[str]:
    """Those of ``job_ids`` that are queued or processing."""
    live: set[str] = set()
    with db.session() as session:
        for start in range(0, len(job_ids), _CHUNK):
            chunk = list(job_ids[start : start + _CHUNK])
            live.update(
                session.scalars(
                    select(JobRow.id).where(JobRow.id.in_(chunk), JobRow.status.in_(LIVE))
                )
            )
    return live
