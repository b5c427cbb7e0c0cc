"""The ``docai`` command.

Each sub-command lives in its own module and imports heavy dependencies inside the
command function, so ``docai --help`` stays fast.
"""

from __future__ import annotations

import importlib

import typer

app = typer.Typer(
    name="docai",
    help="prefect-docai: document-AI service and Prefect pipeline.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)

# Modules that add commands to ``app`` (or sub-apps to it) when imported. A module that
# is missing is skipped, so the CLI works while layers are still being built.
_COMMAND_MODULES = (
    "prefect_docai.cli.serve",
    "prefect_docai.cli.admin",
    "prefect_docai.cli.run",
    "prefect_docai.cli.samples",
    "prefect_docai.cli.demo",
    "prefect_docai.cli.prefect_cmds",
)

for _module in _COMMAND_MODULES:
    try:
        importlib.import_module(_module)
    except ModuleNotFoundError as exc:
        if exc.name != _module:
            raise

__all__ = ["app"]
