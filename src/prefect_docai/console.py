"""The ``docai`` console script: the CLI (:mod:`prefect_docai.cli`) with Ctrl+C ending it as
a shell expects, at any moment.

Python turns a SIGINT into ``KeyboardInterrupt`` from its first import on, and Typer turns
it into exit 130 only once Click's ``main`` runs. In between — while Typer and the
commands' modules are imported and while Typer builds the command tree from the
commands' signatures — a Ctrl+C printed a traceback. The CLI is imported inside
:func:`main` so that window is covered too; a command's own handling (``docai serve``
installs its handler before the server's imports) is unchanged.
"""

from __future__ import annotations

import sys


def main() -> None:
    """Run ``docai``; a Ctrl+C before a command takes it over exits 130 with one line."""
    try:
        from prefect_docai.cli import app

        app()
    except KeyboardInterrupt:
        sys.stderr.write("docai: interrupted\n")
        sys.exit(130)
