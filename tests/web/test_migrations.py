"""Alembic migrations on start: from an empty database and from the database the release
before migrations made, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from typer.testing import CliRunner

from prefect_docai.cli import app
from prefect_docai.server import migrations
from prefect_docai.server.db import Base, Database
from prefect_docai.server.embedded import EmbeddedService
from tests.api.postgres import PostgresServer, start_server
from tests.web.legacy_schema import CLIENT_ID, JOB_ID, SECRET, make_legacy_database


@pytest.fixture(scope="module")
def postgres() -> Iterator[PostgresServer]:
    server = start_server()
    yield server
    server.stop()


def _schema_matches_models(db: Database) -> None:
    with db.engine.connect() as connection:
        assert migrations.current(connection) == migrations.script_directory().get_current_head()
        assert compare_metadata(MigrationContext.configure(connection), Base.metadata) == []


def _check_empty(url: str) -> None:
    db = Database(url)
    try:
        db.migrate()
        db.migrate()  # a second start finds nothing to do
        _schema_matches_models(db)
    finally:
        db.dispose()


def _check_legacy(
    url: str, data_dir: Path, monkeypatch: pytest.MonkeyPatch, throttle: bool = False
) -> None:
    make_legacy_database(url, throttle=throttle)
    if not url.startswith("sqlite"):
        monkeypatch.setenv("DOCAI_DATABASE_URL", url)
    with EmbeddedService(data_dir, workers=1) as service:
        token = httpx.post(
            service.token_url,
            data={
                "grant_type": "client_credentials",
                "client_id": CLIENT_ID,
                "client_secret": SECRET,
            },
        )
        assert token.status_code == 200, token.text
        auth = {"Authorization": f"Bearer {token.json()['access_token']}"}
        balance = httpx.get(service.base_url + "/api/Account/v1/Credits", headers=auth).json()
        assert balance["credits"] == 42
        old = httpx.get(f"{service.base_url}/api/Result/v1/JobResults/{JOB_ID}/json", headers=auth)
        assert old.status_code == 200 and old.json()["error"]["code"] == "engine_error"
    db = Database(url)
    try:
        _schema_matches_models(db)
    finally:
        db.dispose()
    runner = CliRunner()
    listed = runner.invoke(app, ["admin", "accounts", "--json", "--data-dir", str(data_dir)])
    assert listed.exit_code == 0, listed.output
    (account,) = json.loads(listed.stdout)
    # The client got an account of its own, holding the client's balance.
    assert account["account_id"] == CLIENT_ID and account["credits"] == 42
    assert account["email"] is None and account["clients"] == 1
    added = runner.invoke(
        app, ["admin", "add-credits", CLIENT_ID, "8", "--data-dir", str(data_dir)]
    )
    assert added.exit_code == 0 and added.stdout.strip() == "50", added.output


def test_empty_sqlite(tmp_path: Path) -> None:
    _check_empty(f"sqlite:///{tmp_path / 'docai.sqlite3'}")


def test_legacy_sqlite(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DOCAI_DATABASE_URL", raising=False)
    _check_legacy(f"sqlite:///{tmp_path / 'docai.sqlite3'}", tmp_path, monkeypatch)


def test_legacy_sqlite_that_has_the_throttle_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DOCAI_DATABASE_URL", raising=False)
    _check_legacy(f"sqlite:///{tmp_path / 'docai.sqlite3'}", tmp_path, monkeypatch, throttle=True)


def test_empty_postgresql(postgres: PostgresServer) -> None:
    _check_empty(postgres.url(postgres.create_database()))


def test_legacy_postgresql(
    postgres: PostgresServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = postgres.url(postgres.create_database())
    _check_legacy(
        url.replace("postgresql://", "postgresql+psycopg://"), tmp_path, monkeypatch, throttle=True
    )


def test_accounts_share_credits_across_clients(tmp_path: Path) -> None:
    runner = CliRunner()
    first = runner.invoke(
        app,
        [
            "admin",
            "create-client",
            "--name",
            "a",
            "--credits",
            "5",
            "--json",
            "--data-dir",
            str(tmp_path),
        ],
    )
    client_a = json.loads(first.stdout)["client_id"]
    second = runner.invoke(
        app,
        [
            "admin",
            "create-client",
            "--name",
            "b",
            "--account",
            client_a,
            "--json",
            "--data-dir",
            str(tmp_path),
        ],
    )
    assert second.exit_code == 0, second.output
    client_b = json.loads(second.stdout)["client_id"]
    added = runner.invoke(app, ["admin", "add-credits", client_a, "3", "--data-dir", str(tmp_path)])
    assert added.stdout.strip() == "8"
    listed = json.loads(
        runner.invoke(app, ["admin", "clients", "--json", "--data-dir", str(tmp_path)]).stdout
    )
    assert {row["client_id"]: row["credits"] for row in listed} == {client_a: 8, client_b: 8}
    unknown = runner.invoke(
        app,
        ["admin", "create-client", "--name", "c", "--account", "nope", "--data-dir", str(tmp_path)],
    )
    assert unknown.exit_code == 1 and "no account with id 'nope'" in unknown.output
