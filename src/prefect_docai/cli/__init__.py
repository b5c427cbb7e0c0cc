"""The ``docai`` command.

Each sub-command lives in its own module and imports heavy dependencies inside the
command function, so ``docai --help`` stays fast.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence
from typing import Any

import typer
from typer.core import TyperGroup


class OneLineErrors(TyperGroup):
    """Usage errors as one line on stderr (``docai admin add-credits: error: …``, exit 2).

    Typer renders them as a rich box under the usage text; the CLI's house style is one
    line per error, as the commands' own errors are. Help (``--help``, no arguments) is
    unchanged.
    """

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        try:
            # Without standalone mode Typer returns exit codes (typer.Exit, Ctrl+C → 130)
            # and raises usage errors and aborts to the caller instead of printing them.
            code = super().main(args, prog_name, complete_var, False, **extra)
        except typer.TyperException as exc:
            # Typer 0.29 vendors Click (typer._click); its ClickException family derives
            # from the public TyperException. "No arguments" is help: the rich help was
            # printed while the error was built (plain help is its message). Typer too
            # tells it by name (typer.rich_utils).
            if type(exc).__name__ == "NoArgsIsHelpError":
                if exc.format_message().strip():
                    typer.echo(exc.format_message(), err=True)
            else:
                ctx = getattr(exc, "ctx", None)
                where = ctx.command_path if ctx is not None else "docai"
                message = " ".join(exc.format_message().split())
                typer.echo(f"{where}: error: {message}", err=True)
            sys.exit(exc.exit_code)
        except typer.Abort:
            typer.echo("docai: aborted", err=True)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


app = typer.Typer(
    name="docai",
    cls=OneLineErrors,
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
