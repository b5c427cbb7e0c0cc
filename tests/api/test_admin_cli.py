"""``docai admin`` against a data folder the service then uses."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from prefect_docai.cli import app
from prefect_docai.server.embedded import EmbeddedService

runner = CliRunner()


def test_create_client_add_credits_and_list(tmp_path: Path) -> None:
    created = runner.invoke(
        app,
        [
            "admin",
            "create-client",
            "--name",
            "Acme",
            "--credits",
            "5",
            "--json",
            "--data-dir",
            str(tmp_path),
        ],
    )
    assert created.exit_code == 0, created.output
    creds = json.loads(created.stdout)
    assert set(creds) == {"client_id", "client_secret"}
    added = runner.invoke(
        app, ["admin", "add-credits", creds["client_id"], "7", "--data-dir", str(tmp_path)]
    )
    assert added.exit_code == 0 and added.stdout.strip() == "12"
    listed = runner.invoke(app, ["admin", "clients", "--json", "--data-dir", str(tmp_path)])
    (row,) = json.loads(listed.stdout)
    assert row["client_id"] == creds["client_id"] and row["name"] == "Acme" and row["credits"] == 12
    table = runner.invoke(app, ["admin", "clients", "--data-dir", str(tmp_path)])
    assert creds["client_id"] in table.stdout and "12" in table.stdout
    # The secret is stored hashed only.
    assert creds["client_secret"].encode() not in (tmp_path / "docai.sqlite3").read_bytes()

    with EmbeddedService(tmp_path, workers=1) as service:
        import httpx

        token = httpx.post(
            service.token_url,
            data={
                "grant_type": "client_credentials",
                "client_id": creds["client_id"],
                "client_secret": creds["client_secret"],
            },
        ).json()["access_token"]
        balance = httpx.get(
            service.base_url + "/api/Account/v1/Credits", headers={"accessToken": token}
        ).json()
        assert balance["credits"] == 12


def test_bad_input_gives_one_line_errors(tmp_path: Path) -> None:
    cases = [
        (["admin", "add-credits", "nobody", "3"], "no client with id 'nobody'"),
        (
            ["admin", "create-client", "--name", "x", "--credits", "-1"],
            "--credits must not be negative",
        ),
        (["admin", "create-client", "--name", "x", "--scope", "admin"], "unknown scope(s): admin"),
        (["admin", "create-client", "--name", "  "], "the client name must not be empty"),
        (
            ["admin", "create-client", "--name", "x" * 201],
            "the client name must be printable and at most 200 characters",
        ),
    ]
    for args, message in cases:
        result = runner.invoke(app, [*args, "--data-dir", str(tmp_path)])
        assert result.exit_code == 1, result.output
        assert result.stderr.strip() == f"error: {message}" or result.stderr.strip().startswith(
            f"error: {message}"
        )
        assert len(result.stderr.strip().splitlines()) == 1
    created = runner.invoke(
        app, ["admin", "create-client", "--name", "y", "--json", "--data-dir", str(tmp_path)]
    )
    client_id = json.loads(created.stdout)["client_id"]
    result = runner.invoke(
        app, ["admin", "add-credits", "--data-dir", str(tmp_path), "--", client_id, "-5"]
    )
    assert (
        result.exit_code == 1
        and result.stderr.strip() == "error: the balance cannot become negative"
    )


def test_usage_errors_are_one_line_on_the_real_command() -> None:
    """Typer's usage errors (bad value, missing argument, unknown command/option) as one
    line on stderr with exit status 2, through the installed ``docai`` script."""
    docai = str(Path(sys.executable).with_name("docai"))
    cases = [
        (
            ["admin", "add-credits", "X", "notanumber"],
            "docai admin add-credits: error: Invalid value for 'credits':",
        ),
        (["admin", "add-credits"], "docai admin add-credits: error: Missing argument"),
        (["nosuch"], "docai: error: No such command 'nosuch'."),
        (["serve", "--port", "99999"], "docai serve: error: Invalid value for '--port':"),
        (["admin", "clients", "--bogus"], "docai admin clients: error: No such option: --bogus"),
    ]
    # A wide terminal and forced colour are where Typer draws its boxes.
    env = {**os.environ, "COLUMNS": "200", "FORCE_COLOR": "1", "TERM": "xterm-256color"}
    for args, prefix in cases:
        done = subprocess.run(
            [docai, *args], capture_output=True, text=True, env=env, timeout=60, check=False
        )
        assert done.returncode == 2, (args, done.stderr)
        assert done.stdout == ""
        lines = done.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith(prefix), (args, done.stderr)
    # No arguments still shows the help (not an error line).
    bare = subprocess.run([docai], capture_output=True, text=True, env=env, timeout=60)
    assert bare.returncode == 2 and "admin" in bare.stdout and "error" not in bare.stderr


def test_set_page_cap_sets_and_clears_an_accounts_plan(tmp_path: Path) -> None:
    from prefect_docai.server import accounts
    from prefect_docai.server.db import Database

    created = runner.invoke(
        app, ["admin", "create-client", "--name", "Plan", "--json", "--data-dir", str(tmp_path)]
    )
    client = json.loads(created.stdout)["client_id"]  # its account has its id

    def cap() -> int | None:
        db = Database(f"sqlite:///{tmp_path / 'docai.sqlite3'}")
        try:
            return accounts.max_pages(db, client)
        finally:
            db.dispose()

    done = runner.invoke(app, ["admin", "set-page-cap", client, "50", "--data-dir", str(tmp_path)])
    assert done.exit_code == 0, done.output
    assert "50 page(s) per job" in done.stdout and cap() == 50
    cleared = runner.invoke(app, ["admin", "set-page-cap", client, "0", "--data-dir", str(tmp_path)])
    assert cleared.exit_code == 0 and cap() is None
    unknown = runner.invoke(app, ["admin", "set-page-cap", "nobody", "5", "--data-dir", str(tmp_path)])
    assert unknown.exit_code != 0 and "no account" in unknown.output
    negative = runner.invoke(app, ["admin", "set-page-cap", client, "-1", "--data-dir", str(tmp_path)])
    assert negative.exit_code != 0
