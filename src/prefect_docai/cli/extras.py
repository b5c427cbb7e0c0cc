"""A one-line message when a command needs an extra that is not installed."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import typer


@contextmanager
def extra_required(extra: str, purpose: str) -> Iterator[None]:
    """Turn a third-party ``ModuleNotFoundError`` inside the block into one line and exit 1.

    A missing ``prefect_docai`` module is a bug, not a missing extra: it propagates.
    """
    try:
        yield
    except ModuleNotFoundError as exc:
        package = (exc.name or "").partition(".")[0]
        if not package or package == "prefect_docai":
            raise
        typer.echo(
            f"error: {purpose} needs the '{extra}' extra ({package} is not installed): "
            f"pip install 'prefect-docai[{extra}]'",
            err=True,
        )
        raise typer.Exit(1) from None
