"""SQL lives in the service's store modules only (issue 13): routes, the job runner, mail,
retention and the rest call named store functions."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SERVER = Path(__file__).resolve().parents[2] / "src" / "prefect_docai" / "server"
# The tables and the database handle; the job store; accounts and clients (their
# charge/refund join a job's transaction); the token throttle's buckets; the web platform's
# accounts, sessions and link tokens; schema migrations.
STORES = {"db.py", "jobstore.py", "accounts.py", "throttle.py", "web/store.py"}
# Error classes to catch are not statements.
ALLOWED = {"sqlalchemy.exc"}


def sqlalchemy_imports(source: str) -> list[str]:
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        found += [
            name for name in names if name.split(".")[0] == "sqlalchemy" and name not in ALLOWED
        ]
    return found


def _modules() -> list[Path]:
    return sorted(
        path
        for path in SERVER.rglob("*.py")
        if path.relative_to(SERVER).as_posix() not in STORES
        and path.relative_to(SERVER).parts[0] != "migrations"
    )


@pytest.mark.parametrize("path", _modules(), ids=lambda p: p.relative_to(SERVER).as_posix())
def test_no_sql_outside_the_stores(path: Path) -> None:
    assert sqlalchemy_imports(path.read_text()) == []


def test_the_check_sees_sql() -> None:
    assert sqlalchemy_imports("from sqlalchemy import select\nimport sqlalchemy.orm\n") == [
        "sqlalchemy",
        "sqlalchemy.orm",
    ]
    assert sqlalchemy_imports("from sqlalchemy.exc import IntegrityError\n") == []
