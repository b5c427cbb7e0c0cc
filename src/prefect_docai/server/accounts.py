"""API clients and their credit balances."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from pydantic import SecretStr
from sqlalchemy import select, update

from prefect_docai.server.db import ClientRow, Database, utcnow

SCOPES: tuple[str, ...] = ("accounting", "consumption")


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


class UnknownClientError(LookupError):
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


def create_client(
    db: Database, name: str, credits: int = 0, scopes: Iterable[str] = SCOPES
) -> ClientCredentials:
    """A new client; the secret is returned once and only its hash is stored."""
    if not name.strip():
        raise ValueError("the client name must not be empty")
    if len(name.strip()) > 200 or not name.strip().isprintable():
        raise ValueError("the client name must be printable and at most 200 characters")
    if credits < 0:
        raise ValueError("credits must not be negative")
    granted = normalize_scopes(scopes)
    client_id = secrets.token_hex(16)
    secret = secrets.token_urlsafe(32)
    with db.transaction() as session:
        session.add(
            ClientRow(
                id=client_id,
                name=name.strip(),
                secret_hash=hash_secret(secret),
                scopes=" ".join(granted),
                credits=credits,
                created_at=utcnow(),
            )
        )
    return ClientCredentials(client_id, SecretStr(secret))


def add_credits(db: Database, client_id: str, credits: int) -> int:
    """Add (or, negative, remove) credits; returns the new balance."""
    with db.transaction() as session:
        result = session.execute(
            update(ClientRow)
            .where(ClientRow.id == client_id, ClientRow.credits + credits >= 0)
            .values(credits=ClientRow.credits + credits)
        )
        if getattr(result, "rowcount", 0) != 1:
            if session.get(ClientRow, client_id) is None:
                raise UnknownClientError(f"no client with id {client_id!r}")
            raise ValueError("the balance cannot become negative")
        balance = session.scalar(select(ClientRow.credits).where(ClientRow.id == client_id))
    return int(balance or 0)


def get_client(db: Database, client_id: str) -> ClientInfo:
    with db.session() as session:
        row = session.get(ClientRow, client_id)
        if row is None:
            raise UnknownClientError(f"no client with id {client_id!r}")
        return _info(row)


def list_clients(db: Database) -> list[ClientInfo]:
    with db.session() as session:
        rows = session.scalars(select(ClientRow).order_by(ClientRow.created_at, ClientRow.id))
        return [_info(row) for row in rows]


def authenticate(db: Database, client_id: str, secret: str) -> ClientInfo | None:
    clients = ClientRow.__table__
    # A Core query: the token endpoint is the hottest path and needs no ORM state.
    with db.engine.connect() as connection:
        row = (
            connection.execute(select(clients).where(clients.c.id == client_id)).mappings().first()
        )
    expected = row["secret_hash"] if row is not None else hash_secret(secrets.token_hex(8))
    ok = hmac.compare_digest(expected, hash_secret(secret))
    if row is None or not ok:
        return None
    return ClientInfo(
        row["id"], row["name"], row["credits"], tuple(row["scopes"].split()), row["created_at"]
    )


def _info(row: ClientRow) -> ClientInfo:
    return ClientInfo(row.id, row.name, row.credits, tuple(row.scopes.split()), row.created_at)
