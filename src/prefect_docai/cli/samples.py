"""``docai samples DIR``: write a realistic mixed batch of sample documents."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import typer

from prefect_docai.cli import app
from prefect_docai.cli.extras import extra_required


@app.command()
def samples(
    directory: Path = typer.Argument(..., help="Folder to write the sample files into."),
    count: int = typer.Option(20, "--count", "-n", min=1, help="Number of files."),
    seed: int = typer.Option(0, "--seed", help="Seed; the same seed gives the same files."),
) -> None:
    """Generate invoices (incl. a ZUGFeRD e-invoice), receipts, letters, delivery notes,
    a report, scanned variants and a multi-document stream, with manifest.json truth."""
    with extra_required("samples", "generating sample documents"):
        from prefect_docai.samples.batch import MANIFEST, write_batch

        manifest = write_batch(directory, count=count, seed=seed)
    docs = manifest["documents"]
    kinds = Counter(f"{d['docType']}/{d['variant']}" for d in docs)
    pages = sum(int(d["pages"]) for d in docs)
    typer.echo(f"wrote {len(docs)} files ({pages} pages) to {directory}")
    for kind, n in sorted(kinds.items()):
        typer.echo(f"  {n:3d}  {kind}")
    typer.echo(f"truth: {Path(directory) / MANIFEST}")
