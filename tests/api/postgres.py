"""A throwaway PostgreSQL server for the tests: ``initdb`` into a temporary folder, then
``postgres`` on a random loopback port (password auth), stopped and deleted afterwards.

Debian's binaries live in ``/usr/lib/postgresql/<version>/bin`` (package ``postgresql``,
installed by ``scripts/setup-apt.sh``). PostgreSQL refuses to run as root, so as root the
server runs as the ``postgres`` system user the package creates. Without the binaries the
tests are skipped locally but fail in CI (``CI=true``), so CI cannot silently lose them.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


def unavailable(reason: str) -> None:
    """Fail in CI, skip elsewhere."""
    if _in_ci():
        pytest.fail(f"PostgreSQL tests cannot run in CI: {reason}", pytrace=False)
    pytest.skip(reason)


def _version(bindir: Path) -> tuple[int, ...]:
    name = bindir.parent.name
    return tuple(int(part) for part in name.split(".") if part.isdigit()) or (0,)


def find_bindir() -> Path | None:
    """``$DOCAI_TEST_PG_BINDIR``, then ``initdb`` on PATH, then Debian's newest version."""
    candidates: list[Path] = []
    if configured := os.environ.get("DOCAI_TEST_PG_BINDIR"):
        candidates.append(Path(configured))
    if on_path := shutil.which("initdb"):
        candidates.append(Path(on_path).resolve().parent)
    candidates += sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=_version, reverse=True)
    for bindir in candidates:
        if (bindir / "initdb").is_file() and (bindir / "postgres").is_file():
            return bindir
    return None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class PostgresServer:
    """One cluster; :meth:`create_database` gives each test its own database."""

    user = "docai"

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.password = secrets.token_urlsafe(16)
        self.port = 0
        self.root = Path(tempfile.mkdtemp(prefix="docai-pg-"))
        self._process: subprocess.Popen[bytes] | None = None
        self._run_as: dict[str, Any] = {}
        if os.geteuid() == 0:
            try:
                account = pwd.getpwnam("postgres")
            except KeyError:
                shutil.rmtree(self.root, ignore_errors=True)
                unavailable("running as root and there is no 'postgres' user to run the server")
                raise
            self._run_as = {"user": account.pw_uid, "group": account.pw_gid, "extra_groups": []}
            os.chown(self.root, account.pw_uid, account.pw_gid)

    @property
    def log_path(self) -> Path:
        return self.root / "postgres.log"

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-3000:]
        except OSError:
            return ""

    def start(self, timeout: float = 30.0) -> PostgresServer:
        data = self.root / "data"
        pwfile = self.root / "pwfile"
        pwfile.write_text(self.password + "\n")
        if self._run_as:
            os.chown(pwfile, self._run_as["user"], self._run_as["group"])
        initdb = subprocess.run(
            [
                str(self.bindir / "initdb"),
                "-D",
                str(data),
                "-U",
                self.user,
                f"--pwfile={pwfile}",
                "--auth-host=scram-sha-256",
                "--auth-local=scram-sha-256",
                "-E",
                "UTF8",
                "--no-locale",
                "--no-sync",
                "--no-instructions",
            ],
            capture_output=True,
            timeout=120,
            check=False,
            **self._run_as,
        )
        pwfile.unlink()
        if initdb.returncode != 0:
            raise RuntimeError(f"initdb failed: {initdb.stderr.decode(errors='replace')}")
        sockets = self.root / "sockets"
        sockets.mkdir()
        if self._run_as:
            os.chown(sockets, self._run_as["user"], self._run_as["group"])
        # A random port can be taken between choosing and binding it: try a few.
        for _attempt in range(3):
            self.port = _free_port()
            with self.log_path.open("ab") as log:
                self._process = subprocess.Popen(
                    [
                        str(self.bindir / "postgres"),
                        "-D",
                        str(data),
                        "-h",
                        "127.0.0.1",
                        "-p",
                        str(self.port),
                        "-k",
                        str(sockets),
                        # A disposable cluster: durability only costs time here.
                        "-c",
                        "fsync=off",
                        "-c",
                        "synchronous_commit=off",
                        "-c",
                        "full_page_writes=off",
                        "-c",
                        "max_connections=300",
                    ],
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    **self._run_as,
                )
            if self._wait_ready(timeout):
                return self
            self._stop_process()
        raise RuntimeError(f"PostgreSQL did not start:\n{self.log()}")

    def _wait_ready(self, timeout: float) -> bool:
        import psycopg

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._process is None or self._process.poll() is not None:
                return False
            try:
                with psycopg.connect(self.dsn("postgres"), connect_timeout=2):
                    return True
            except psycopg.OperationalError:
                time.sleep(0.1)
        return False

    def dsn(self, database: str) -> str:
        return (
            f"host=127.0.0.1 port={self.port} user={self.user} "
            f"password={self.password} dbname={database}"
        )

    def url(self, database: str) -> str:
        """A plain ``postgresql://`` URL: the service picks the psycopg 3 driver itself."""
        return f"postgresql://{self.user}:{self.password}@127.0.0.1:{self.port}/{database}"

    def create_database(self, prefix: str = "docai") -> str:
        import psycopg

        name = f"{prefix}_{secrets.token_hex(4)}"
        with psycopg.connect(self.dsn("postgres"), autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        return name

    def query(self, database: str, sql: str, *params: object) -> list[tuple[Any, ...]]:
        import psycopg

        with psycopg.connect(self.dsn(database)) as connection:
            return list(connection.execute(sql, params).fetchall())

    def _stop_process(self) -> None:
        process, self._process = self._process, None
        if process is None or process.poll() is not None:
            return
        # SIGINT is PostgreSQL's "fast" shutdown: disconnect clients, stop at once.
        process.send_signal(signal.SIGINT)
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self._stop_process()
        shutil.rmtree(self.root, ignore_errors=True)


def start_server() -> PostgresServer:
    """A running server, or skip (locally) / fail (CI) when PostgreSQL is not installed."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        unavailable("psycopg (the server extra's PostgreSQL driver) is not installed")
    bindir = find_bindir()
    if bindir is None:
        unavailable(
            "PostgreSQL server binaries (initdb, postgres) not found; "
            "install Debian's 'postgresql' (scripts/setup-apt.sh)"
        )
        raise AssertionError("unreachable")
    server = PostgresServer(bindir)
    try:
        return server.start()
    except BaseException:
        server.stop()
        raise
