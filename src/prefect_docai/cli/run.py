"""``docai run SOURCE DEST``: the batch flow from the command line."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import typer

from prefect_docai.cli import app

if TYPE_CHECKING:
    from prefect_docai.datasets import DatasetStore
    from prefect_docai.flows import BatchOptions, BatchSummary


def parse_routes(routes: list[str]) -> dict[str, list[str]]:
    """``["invoice=Invoice,TableExtraction", "letter=ICR"]`` → routing table entries."""
    table: dict[str, list[str]] = {}
    for route in routes:
        doc_type, sep, tools = route.partition("=")
        if not sep or not doc_type.strip():
            raise typer.BadParameter(f"{route!r}: want TYPE=Tool[,Tool…]", param_hint="--route")
        table[doc_type.strip()] = [t.strip() for t in tools.split(",") if t.strip()]
    return table


def run_batch(
    source: str, destination: str, credentials: str | None, options: BatchOptions
) -> BatchSummary:
    """Run the flow (on the configured Prefect API, or a temporary local one)."""
    import asyncio
    import os

    from prefect.settings import temporary_settings

    from prefect_docai.flows import BatchIncomplete, aprocess_documents

    async def main() -> Any:
        return await aprocess_documents(
            source, destination, credentials, options, return_state=True
        )

    # Without PREFECT_API_URL Prefect starts a temporary server; on a busy small machine it
    # needs longer than the default 20 s (an explicit setting still wins).
    # The temporary server's telemetry only adds "database is locked" noise to the output.
    os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
    with temporary_settings(set_defaults={"server.ephemeral.startup_timeout_seconds": 180}):
        state = asyncio.run(main())
    try:
        summary: BatchSummary = state.result(raise_on_failure=True)
    except BatchIncomplete as exc:
        print_summary(exc.summary)
        typer.secho(str(exc), fg=typer.colors.YELLOW, err=True)
        raise typer.Exit(3) from exc
    except Exception as exc:
        typer.secho(f"the batch failed: {exc}", fg=typer.colors.RED, err=True)
        raise typer.Exit(1) from exc
    return summary


def print_summary(summary: BatchSummary) -> None:
    typer.echo(f"run {summary.run_id} on {summary.service or 'no service (nothing to send)'}")
    for row in summary.table():
        if row["value"] not in (0, None) or row["metric"] == "files found":
            typer.echo(f"  {row['metric']:<30} {row['value']}")
    typer.echo(f"  {'wall time':<30} {summary.wall_seconds:.1f} s")
    for name in sorted(summary.failed_files):
        typer.echo(f"  failed: {name}")
    for url in summary.left_out:
        typer.echo(f"  left out (no pattern matches): {url}")


def print_row_counts(store: DatasetStore) -> None:
    from prefect_docai.datasets import DATASETS

    counts = store.row_counts()
    typer.echo(f"datasets in {store.destination}:")
    for name in DATASETS:
        typer.echo(f"  {name:<15} {counts[name]:>7} rows")


@app.command()
def run(
    source: str = typer.Argument(..., help="Folder, file or glob on any fsspec filesystem."),
    destination: str = typer.Argument(..., help="fsspec URL of the Parquet datasets."),
    credentials: str | None = typer.Option(
        None, "--credentials", "-c",
        help="Saved DocAICredentials block; none runs the service in this process.",
    ),
    pattern: list[str] = typer.Option(
        [], "--pattern", "-p", help="File name pattern (repeatable); default: every supported type."
    ),
    split: bool = typer.Option(True, "--split/--no-split", help="Split multi-page files first."),
    threshold: float = typer.Option(0.5, "--threshold", min=0, max=1, help="Classify threshold."),
    route: list[str] = typer.Option(
        [], "--route", help="TYPE=Tool[,Tool…], e.g. letter=ICR,TableExtraction (repeatable)."
    ),
    tables_for_all: bool = typer.Option(False, "--tables-for-all", help="Tables on every segment."),
    language: str | None = typer.Option(None, "--language", "-l", help="ISO 639-1 hint for OCR."),
    concurrency: int = typer.Option(8, "--concurrency", min=1, help="Documents in flight."),
    budget: int | None = typer.Option(None, "--budget", min=0, help="Credit budget of the run."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Only estimate pages and credits."),
    retry_failed: bool = typer.Option(False, "--retry-failed", help="Retry failed documents."),
) -> None:
    """Process a batch of documents into Parquet datasets (the `process_documents` flow)."""
    from pydantic import ValidationError

    from prefect_docai.datasets import DatasetStore
    from prefect_docai.flows import BatchOptions
    from prefect_docai.flows.options import default_routing

    fields: dict[str, Any] = {
        "split": split,
        "classify_threshold": threshold,
        "tables_for_all": tables_for_all,
        "language_hint": language,
        "max_concurrency": concurrency,
        "credit_budget": budget,
        "dry_run": dry_run,
        "retry_failed": retry_failed,
    }
    if pattern:
        fields["patterns"] = pattern
    if route:
        fields["routing"] = {**default_routing(), **parse_routes(route)}
    try:
        options = BatchOptions.model_validate(fields)
    except ValidationError as exc:
        raise typer.BadParameter(str(exc)) from exc
    summary = run_batch(source, destination, credentials, options)
    print_summary(summary)
    if not dry_run:
        print_row_counts(DatasetStore(destination, options.destination_storage_options))
