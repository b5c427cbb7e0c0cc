"""Accounts, their API clients and the credit balance every client of an account draws from."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from pydantic import SecretStr
from sqlalchemy import ScalarSelect, or_, select, update
from sqlalchemy.orm import Session

from prefect_docai.server.db import AccountRow, ClientRow, Database, utcnow

SCOPES: tuple[str, ...] = ("accounting", "consumption")

# "Last used" is a day-level fact for people; writing it on every token request would put
# a write on the hottest path.
_LAST_USED_RESOLUTION = timedelta(minutes=1)


@dataclass(frozen=True)
class ClientCredentials:
    client_id: str
    client_secret: SecretStr


@dataclass(frozen=True)
class ClientInfo:
    client_id: str
    name: str
    credits: int
    scopes: tuple[str, ...]
    created_at: datetime
    account_id: str = ""
    last_used_at: datetime | None = None


@dataclass(frozen=True)
class AccountInfo:
    account_id: str
    email: str | None
    credits: int
    clients: int
    created_at: datetime


class UnknownClientError(LookupError):
    pass


class UnknownAccountError(LookupError):
    pass


def hash_secret(secret: str) -> str:
    # Secrets are 256-bit random tokens, not passwords: a fast hash is enough to keep a
    # database leak from yielding usable credentials, and keeps the token endpoint fast.
    return hashlib.sha256(secret.encode()).hexdigest()


def normalize_scopes(scopes: Iterable[str]) -> tuple[str, ...]:
    wanted = {scope.strip() for scope in scopes if scope.strip()}
    unknown = wanted - set(SCOPES)
    if unknown:
        raise ValueError(
            f"unknown scope(s): {', '.join(sorted(unknown))}; known: {', '.join(SCOPES)}"
        )
    if not wanted:
        raise ValueError("a client needs at least one scope")
    return tuple(scope for scope in SCOPES if scope in wanted)


def clean_client_name(name: str) -> str:
    cleaned = name.strip()
    if not cleaned:
        raise ValueError("the client name must not be empty")
    if len(cleaned) > 200 or not cleaned.isprintable():
        raise ValueError("the client name must be printable and at most 200 characters")
    return cleaned


def new_client_row(
    account_id: str, name: str, scopes: Iterable[str] = SCOPES, client_id: str | None = None
) -> tuple[ClientRow, ClientCredentials]:
    """An API client row for ``account_id`` and its credentials (the secret only here)."""
    granted = normalize_scopes(scopes)
    client_id = client_id or secrets.token_hex(16)
    secret = secrets.token_urlsafe(32)
    row = ClientRow(
        id=client_id,
        account_id=account_id,
        kind="api",
        name=clean_client_name(name),
        secret_hash=hash_secret(secret),
        scopes=" ".join(granted),
        created_at=utcnow(),
    )
    return row, ClientCredentials(client_id, SecretStr(secret))


def create_client(
    db: Database,
    name: str,
    credits: int = 0,
    scopes: Iterable[str] = SCOPES,
    account_id: str | None = None,
) -> ClientCredentials:
    """A new client; the secret is returned once and only its hash is stored.

    Without ``account_id`` the client gets an account of its own holding ``credits``; with
    it, the client draws from that account's balance (and ``credits`` are added to it).
    """
    if credits < 0:
        raise ValueError("credits must not be negative")
    client_id = secrets.token_hex(16)
    with db.transaction() as session:
        if account_id is None:
            # Same id as its client, like the accounts the migration made for old clients.
            account_id = client_id
            session.add(AccountRow(id=account_id, credits=credits, created_at=utcnow()))
            session.flush()
        else:
            account = session.get(AccountRow, account_id, with_for_update=True)
            if account is None:
                raise UnknownAccountError(f"no account with id {account_id!r}")
            account.credits += credits
        row, creds = new_client_row(account_id, name, scopes, client_id)
        session.add(row)
    return creds


def _account_of(client_id: str) -> ScalarSelect[str]:
    return (
        select(ClientRow.account_id)
        .where(ClientRow.id == client_id, ClientRow.revoked_at.is_(None))
        .scalar_subquery()
    )


def charge(session: Session, client_id: str, pages: int) -> int | None:
    """Take ``pages`` credits from the client's account inside ``session``'s transaction.

    Returns ``None`` when charged, else the balance that was too small; raises
    :class:`UnknownClientError` for a client that is gone or revoked.
    """
    charged = session.execute(
        update(AccountRow)
        .where(AccountRow.id == _account_of(client_id), AccountRow.credits >= pages)
        .values(credits=AccountRow.credits - pages)
        .execution_options(synchronize_session=False)
    )
    if getattr(charged, "rowcount", 0) == 1:
        return None
    balance = session.scalar(
        select(AccountRow.credits).where(AccountRow.id == _account_of(client_id))
    )
    if balance is None:
        raise UnknownClientError(f"no client with id {client_id!r}")
    return int(balance)


def refund(session: Session, client_id: str, credits: int) -> None:
    """Give ``credits`` back to the account of ``client_id`` (revoked clients included: the
    job was paid by the account)."""
    account_id = select(ClientRow.account_id).where(ClientRow.id == client_id).scalar_subquery()
    session.execute(
        update(AccountRow)
        .where(AccountRow.id == account_id)
        .values(credits=AccountRow.credits + credits)
        .execution_options(synchronize_session=False)
    )


def add_account_credits(db: Database, account: str, credits: int) -> int:
    """Add (or, negative, remove) credits to an account given by id or e-mail; returns the
    new balance."""
    with db.transaction() as session:
        row = session.scalar(
            select(AccountRow)
            .where(or_(AccountRow.id == account, AccountRow.email == account.strip().lower()))
            .with_for_update()
        )
        if row is None:
            raise UnknownAccountError(f"no account with id or e-mail {account!r}")
        if row.credits + credits < 0:
            raise ValueError("the balance cannot become negative")
        row.credits += credits
        return row.credits


def add_credits(db: Database, client_id: str, credits: int) -> int:
    """Add credits to the account of a client; returns the account's new balance."""
    with db.session() as session:
        account_id = session.scalar(select(ClientRow.account_id).where(ClientRow.id == client_id))
    if account_id is None:
        raise UnknownClientError(f"no client with id {client_id!r}")
    return add_account_credits(db, account_id, credits)


def set_max_pages(db: Database, account: str, pages: int | None) -> None:
    """The account's plan: at most ``pages`` pages per upload (None: the service default).
    ``account`` is an id or an e-mail address."""
    if pages is not None and pages < 1:
        raise ValueError("the page cap must be at least 1")
    with db.transaction() as session:
        result = session.execute(
            update(AccountRow)
            .where(or_(AccountRow.id == account, AccountRow.email == account.strip().lower()))
            .values(max_pages_per_job=pages)
            .execution_options(synchronize_session=False)
        )
        if getattr(result, "rowcount", 0) != 1:
            raise UnknownAccountError(f"no account with id or e-mail {account!r}")


def max_pages(db: Database, client_id: str) -> int | None:
    """The page cap of the client's account's plan (None: the service default applies)."""
    with db.engine.connect() as connection:
        value = connection.scalar(
            select(AccountRow.max_pages_per_job).where(AccountRow.id == _account_of(client_id))
        )
    return None if value is None else int(value)


def get_client(db: Database, client_id: str) -> ClientInfo:
    with db.session() as session:
        row = session.execute(
            select(ClientRow, AccountRow.credits)
            .join(AccountRow, AccountRow.id == ClientRow.account_id)
            .where(ClientRow.id == client_id, ClientRow.revoked_at.is_(None))
        ).first()
        if row is None:
            raise UnknownClientError(f"no client with id {client_id!r}")
        return _info(row[0], row[1])


def confirmed_email(db: Database, client_id: str) -> str | None:
    """The e-mail address the owner of ``client_id``'s account confirmed, if any."""
    with db.session() as session:
        return session.scalar(
            select(AccountRow.email)
            .join(ClientRow, ClientRow.account_id == AccountRow.id)
            .where(ClientRow.id == client_id, AccountRow.confirmed_at.is_not(None))
        )


def list_clients(db: Database, account_id: str | None = None) -> list[ClientInfo]:
    """Active API clients (of one account, or all), oldest first."""
    query = (
        select(ClientRow, AccountRow.credits)
        .join(AccountRow, AccountRow.id == ClientRow.account_id)
        .where(ClientRow.kind == "api", ClientRow.revoked_at.is_(None))
        .order_by(ClientRow.created_at, ClientRow.id)
    )
    if account_id is not None:
        query = query.where(ClientRow.account_id == account_id)
    with db.session() as session:
        return [_info(client, credits) for client, credits in session.execute(query)]


def list_accounts(db: Database) -> list[AccountInfo]:
    with db.session() as session:
        accounts = list(session.scalars(select(AccountRow).order_by(AccountRow.created_at)))
        counts: dict[str, int] = {}
        for account_id in session.scalars(
            select(ClientRow.account_id).where(
                ClientRow.kind == "api", ClientRow.revoked_at.is_(None)
            )
        ):
            counts[account_id] = counts.get(account_id, 0) + 1
    return [
        AccountInfo(a.id, a.email, a.credits, counts.get(a.id, 0), a.created_at) for a in accounts
    ]


def revoke_client(db: Database, account_id: str, client_id: str) -> bool:
    """Revoke one of the account's API clients; False when it has no such client."""
    with db.transaction() as session:
        result = session.execute(
            update(ClientRow)
            .where(
                ClientRow.id == client_id,
                ClientRow.account_id == account_id,
                ClientRow.kind == "api",
                ClientRow.revoked_at.is_(None),
            )
            .values(revoked_at=utcnow())
        )
    return getattr(result, "rowcount", 0) == 1


def authenticate(db: Database, client_id: str, secret: str) -> ClientInfo | None:
    clients, accounts = ClientRow.__table__, AccountRow.__table__
    # A Core query: the token endpoint is the hottest path and needs no ORM state.
    with db.engine.connect() as connection:
        row = (
            connection.execute(
                select(clients, accounts.c.credits)
                .join(accounts, accounts.c.id == clients.c.account_id)
                .where(
                    clients.c.id == client_id,
                    clients.c.kind == "api",
                    clients.c.revoked_at.is_(None),
                )
            )
            .mappings()
            .first()
        )
    expected = row["secret_hash"] if row is not None else hash_secret(secrets.token_hex(8))
    ok = hmac.compare_digest(expected, hash_secret(secret))
    if row is None or not ok:
        return None
    now = utcnow()
    last_used = row["last_used_at"]
    if last_used is None or last_used < now - _LAST_USED_RESOLUTION:
        with db.transaction() as session:
            session.execute(
                update(ClientRow).where(ClientRow.id == client_id).values(last_used_at=now)
            )
    return ClientInfo(
        row["id"],
        row["name"],
        row["credits"],
        tuple(row["scopes"].split()),
        row["created_at"],
        row["account_id"],
        now,
    )


def _info(row: ClientRow, credits: int) -> ClientInfo:
    return ClientInfo(
        row.id,
        row.name,
        credits,
        tuple(row.scopes.split()),
        row.created_at,
        row.account_id,
        row.last_used_at,
    )
