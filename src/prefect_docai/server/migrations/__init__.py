"""Alembic migrations, run by :meth:`Database.migrate` when the service starts.

No ``alembic.ini`` or ``env.py``: the revisions in ``versions/`` are applied through
Alembic's API on the service's own engine. A database made by ``create_all`` before
migrations existed (tables, no ``alembic_version``) is stamped with the first revision,
which is that schema, and then upgraded like any other.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from alembic.config import Config
from alembic.runtime.environment import EnvironmentContext
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import MetaData, inspect
from sqlalchemy.engine import Connection

HERE = Path(__file__).resolve().parent
BASELINE = "0001"
"""The schema every database had before migrations: ``clients``, ``jobs``, ``job_files``."""


def script_directory() -> ScriptDirectory:
    config = Config()
    config.set_main_option("script_location", str(HERE))
    return ScriptDirectory.from_config(config)


def upgrade(connection: Connection, target_metadata: MetaData, revision: str = "head") -> None:
    """Bring the schema on ``connection`` (inside its transaction) to ``revision``."""
    script = script_directory()
    tables = set(inspect(connection).get_table_names())
    if "alembic_version" not in tables and "clients" in tables:
        MigrationContext.configure(connection).stamp(script, BASELINE)

    def steps(rev: Any, _context: Any) -> Any:
        return script._upgrade_revs(revision, rev)

    config = Config()
    config.set_main_option("script_location", str(HERE))
    with EnvironmentContext(config, script, fn=steps, destination_rev=revision) as env:
        # Batch mode: SQLite alters a table by copying it.
        env.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
        env.run_migrations()


def current(connection: Connection) -> str | None:
    return MigrationContext.configure(connection).get_current_revision()
