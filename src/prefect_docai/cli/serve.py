"""``docai serve``: run the service in the foreground."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from prefect_docai.cli import app
from prefect_docai.cli.extras import extra_required

if TYPE_CHECKING:
    from fastapi import FastAPI

    from prefect_docai.server.settings import Settings


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to bind.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to bind.", min=0, max=65535)] = 8000,
    data_dir: Annotated[
        Path | None,
        typer.Option(
            help="Keys, database, blobs and outbox (default: $DOCAI_DATA_DIR or ./docai-data)."
        ),
    ] = None,
    workers: Annotated[
        int | None, typer.Option(help="Engine worker processes (default: CPU count).", min=1)
    ] = None,
    log_level: Annotated[str, typer.Option(help="debug, info, warning or error.")] = "info",
) -> None:
    """Run the document-AI service (FastAPI + uvicorn) until interrupted."""
    import signal

    # Until uvicorn takes the signals over, Ctrl+C ends the process at once: nothing is
    # being served yet, and a KeyboardInterrupt raised while pydantic-core builds a schema
    # in native code comes out as a SchemaError (exit 1 and a traceback, not 130).
    # A SIGINT the process was started ignoring (a background job) stays ignored.
    previous = signal.getsignal(signal.SIGINT)
    if previous is signal.default_int_handler:
        signal.signal(signal.SIGINT, _exit_interrupted)
    try:
        application, settings = _prepare(data_dir, workers, log_level)
    finally:
        signal.signal(signal.SIGINT, previous)
    from prefect_docai.server import foreground

    typer.echo(
        f"prefect-docai on http://{host}:{port} (data in {settings.data_dir.resolve()}, {settings.workers} worker(s))"
    )
    code = foreground.run(application, host, port, log_level.lower())
    if code:
        raise typer.Exit(code)


def _prepare(
    data_dir: Path | None, workers: int | None, log_level: str
) -> tuple[FastAPI, Settings]:
    """Import the server, read the settings, set up logging and build the application."""
    import logging

    with extra_required("server", "docai serve"):
        from pydantic import ValidationError

        from prefect_docai.server.app import create_app
        from prefect_docai.server.logsafe import SafeFormatter
        from prefect_docai.server.settings import Settings

    overrides: dict[str, Any] = {}
    if data_dir is not None:
        overrides["data_dir"] = data_dir
    if workers is not None:
        overrides["workers"] = workers
    try:
        settings = Settings(**overrides)
        settings.engine_overrides()
    except (ValidationError, ValueError) as exc:
        typer.echo(f"error: invalid settings: {_one_line(exc)}", err=True)
        raise typer.Exit(2) from None
    level = log_level.upper()
    if level not in {"DEBUG", "INFO", "WARNING", "ERROR"}:
        typer.echo(f"error: unknown log level {log_level!r}", err=True)
        raise typer.Exit(2)
    # One record per line whatever a client sends (control characters escaped).
    handler = logging.StreamHandler()
    handler.setFormatter(SafeFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logging.basicConfig(level=level, handlers=[handler])
    try:
        application = create_app(settings)
    except (OSError, ValueError) as exc:
        typer.echo(f"error: cannot start: {_one_line(exc)}", err=True)
        raise typer.Exit(1) from None
    return application, settings


def _exit_interrupted(signum: int, frame: object) -> None:
    import os
    import sys

    sys.stderr.write("docai serve: interrupted\n")
    sys.stderr.flush()
    os._exit(128 + signum)


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())
