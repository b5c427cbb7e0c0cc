"""``docai admin``: accounts, API clients and credits, straight in the service's database."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from prefect_docai.cli import app

if TYPE_CHECKING:
    from prefect_docai.server.db import Database

admin = typer.Typer(help="Manage accounts, their API clients and credits.", no_args_is_help=True)
app.add_typer(admin, name="admin")

DataDir = Annotated[
    Path | None,
    typer.Option(help="The service's data folder (default: $DOCAI_DATA_DIR or ./docai-data)."),
]


def _fail(message: str) -> typer.Exit:
    typer.echo(f"error: {' '.join(message.split())}", err=True)
    return typer.Exit(1)


def _database(data_dir: Path | None) -> Database:
    from pydantic import ValidationError

    from prefect_docai.server.db import Database
    from prefect_docai.server.settings import Settings

    try:
        settings = Settings(data_dir=data_dir) if data_dir is not None else Settings()
    except ValidationError as exc:
        raise _fail(f"invalid settings: {exc}") from None
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    db = Database(settings.sqlalchemy_url)
    db.migrate()
    return db


@admin.command("create-client")
def create_client(
    name: Annotated[str, typer.Option(help="A friendly name for the client.")],
    credits: Annotated[int, typer.Option(help="Starting balance (1 credit = 1 page).")] = 0,
    scope: Annotated[
        list[str] | None, typer.Option(help="accounting and/or consumption (default: both).")
    ] = None,
    account: Annotated[
        str | None,
        typer.Option(help="Add the client to this account (id); default: an account of its own."),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print {client_id, client_secret} as JSON.")
    ] = False,
    data_dir: DataDir = None,
) -> None:
    """Create an API client. The secret is shown once; only its hash is stored."""
    from prefect_docai.server import accounts

    if credits < 0:
        raise _fail("--credits must not be negative")
    db = _database(data_dir)
    try:
        creds = accounts.create_client(
            db, name, credits, scope or accounts.SCOPES, account_id=account
        )
    except (ValueError, accounts.UnknownAccountError) as exc:
        raise _fail(str(exc)) from None
    finally:
        db.dispose()
    secret = creds.client_secret.get_secret_value()
    if as_json:
        typer.echo(json.dumps({"client_id": creds.client_id, "client_secret": secret}))
    else:
        typer.echo(
            f"client_id:     {creds.client_id}\nclient_secret: {secret}\n(the secret is not shown again)"
        )


@admin.command("add-credits")
def add_credits(
    target: Annotated[
        str, typer.Argument(help="An account (id or e-mail) or one of its clients (id).")
    ],
    credits: Annotated[int, typer.Argument(help="Credits to add (negative to remove).")],
    data_dir: DataDir = None,
) -> None:
    """Add credits to an account (every client of it draws from them); prints the new balance."""
    from prefect_docai.server import accounts

    db = _database(data_dir)
    try:
        try:
            balance = accounts.add_account_credits(db, target, credits)
        except accounts.UnknownAccountError:
            balance = accounts.add_credits(db, target, credits)
    except (accounts.UnknownClientError, ValueError) as exc:
        raise _fail(str(exc)) from None
    finally:
        db.dispose()
    typer.echo(str(balance))


@admin.command("set-page-cap")
def set_page_cap(
    account: Annotated[str, typer.Argument(help="An account (id or e-mail).")],
    pages: Annotated[
        int,
        typer.Argument(help="Pages one upload of this account may have; 0: the service default."),
    ],
    data_dir: DataDir = None,
) -> None:
    """Set an account's plan: its page cap per job (DOCAI_MAX_PAGES_PER_JOB when 0)."""
    from prefect_docai.server import accounts

    if pages < 0:
        raise _fail("the page cap must not be negative")
    db = _database(data_dir)
    try:
        accounts.set_max_pages(db, account, pages or None)
    except (accounts.UnknownAccountError, ValueError) as exc:
        raise _fail(str(exc)) from None
    finally:
        db.dispose()
    typer.echo(f"{account}: {pages or 'the service default'} page(s) per job")


@admin.command("clients")
def clients(
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON list.")] = False,
    data_dir: DataDir = None,
) -> None:
    """List clients and their balances."""
    from prefect_docai.server import accounts

    db = _database(data_dir)
    try:
        rows = accounts.list_clients(db)
    finally:
        db.dispose()
    if as_json:
        typer.echo(
            json.dumps(
                [
                    {
                        "client_id": r.client_id,
                        "account_id": r.account_id,
                        "name": r.name,
                        "credits": r.credits,
                        "scopes": list(r.scopes),
                        "created_at": r.created_at.isoformat(),
                    }
                    for r in rows
                ]
            )
        )
        return
    if not rows:
        typer.echo("no clients")
        return
    width = max(len(r.name) for r in rows)
    for r in rows:
        typer.echo(f"{r.client_id}  {r.name:<{width}}  {r.credits:>10}  {' '.join(r.scopes)}")


@admin.command("accounts")
def accounts_list(
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON list.")] = False,
    data_dir: DataDir = None,
) -> None:
    """List accounts: id, e-mail (none for an admin-made client's account), balance, clients."""
    from prefect_docai.server import accounts

    db = _database(data_dir)
    try:
        rows = accounts.list_accounts(db)
    finally:
        db.dispose()
    if as_json:
        typer.echo(
            json.dumps(
                [
                    {
                        "account_id": r.account_id,
                        "email": r.email,
                        "credits": r.credits,
                        "clients": r.clients,
                        "created_at": r.created_at.isoformat(),
                    }
                    for r in rows
                ]
            )
        )
        return
    if not rows:
        typer.echo("no accounts")
        return
    width = max(len(r.email or "-") for r in rows)
    for r in rows:
        typer.echo(
            f"{r.account_id}  {r.email or '-':<{width}}  {r.credits:>10}  {r.clients} client(s)"
        )
