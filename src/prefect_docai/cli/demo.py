"""``docai demo``: sample batch → embedded service → ``process_documents`` → Parquet."""

from __future__ import annotations

from pathlib import Path

import typer

from prefect_docai.cli import app
from prefect_docai.cli.extras import extra_required


@app.command()
def demo(
    output: Path = typer.Option(Path("docai-output"), "--output", "-o", help="Dataset folder."),
    samples_dir: Path = typer.Option(
        Path("docai-samples"), "--samples", help="Where the generated batch is written."
    ),
    count: int = typer.Option(12, "--count", "-n", min=1, help="Files in the sample batch."),
    seed: int = typer.Option(0, "--seed", help="Seed of the sample batch."),
    concurrency: int = typer.Option(8, "--concurrency", min=1, help="Documents in flight."),
) -> None:
    """Run the main job end to end on this machine and show what landed.

    Generates a mixed batch (invoices incl. an e-invoice, receipts, letters, delivery notes,
    a report, scans, a multi-document stream), starts the service in this process, runs the
    batch flow into OUTPUT and prints row counts and a DuckDB query. Running it again skips
    what is already done.
    """
    from prefect_docai.cli.run import print_row_counts, print_summary, run_batch
    from prefect_docai.datasets import DatasetStore
    from prefect_docai.flows import BatchOptions
    from prefect_docai.flows.report import duckdb_query

    with extra_required("samples", "the demo's sample batch"):
        from prefect_docai.samples.batch import write_batch

        manifest = write_batch(samples_dir, count=count, seed=seed)
    pages = sum(int(d["pages"]) for d in manifest["documents"])
    typer.echo(f"samples: {len(manifest['documents'])} files, {pages} pages in {samples_dir}/")

    destination = str(output.resolve())
    summary = run_batch(
        str(samples_dir.resolve()), destination, None, BatchOptions(max_concurrency=concurrency)
    )
    print_summary(summary)
    store = DatasetStore(destination)
    print_row_counts(store)

    query = duckdb_query(store)
    typer.echo("\nquery the datasets with DuckDB:\n")
    typer.echo(query)
    try:
        import duckdb
    except ImportError:
        return
    typer.echo("")
    relation = duckdb.sql(query)
    if relation is None:
        return
    rows = relation.fetchall()
    names = relation.columns
    typer.echo(" | ".join(names))
    for row in rows:
        typer.echo(" | ".join("" if v is None else str(v) for v in row))
