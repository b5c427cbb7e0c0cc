"""What a batch did, as a model, a table artifact and a markdown report."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from prefect_docai.datasets import DATASETS, DatasetStore


class BatchSummary(BaseModel):
    run_id: str
    source: str
    destination: str
    service: str = ""
    dry_run: bool = False
    files_found: int = 0
    processed: int = 0
    partial: int = 0
    failed: int = 0
    skipped: int = 0
    """Already in the destination's ledger."""
    resumed: int = 0
    """Finished by an interrupted run; committed by this one without new requests."""
    duplicates: int = 0
    """Same bytes as another file of this batch."""
    deferred: int = 0
    """Not finished for reasons outside the document (service, credits); next run retries."""
    over_budget: int = 0
    """Not started because the credit budget could have been exceeded."""
    pages: int = 0
    segments_by_type: dict[str, int] = Field(default_factory=dict)
    credits_used: int = 0
    errors: int = 0
    estimated_credits_low: int | None = None
    estimated_credits_high: int | None = None
    failed_files: list[str] = Field(default_factory=list)
    """Names of the files that failed (unusable, or no stage succeeded)."""
    left_out: list[str] = Field(default_factory=list)
    """Files of the source folder that no pattern matches (e.g. ``.txt``): not processed."""
    rows: dict[str, int] = Field(default_factory=dict)
    """Rows this run committed, per dataset."""
    wall_seconds: float = 0.0

    @property
    def complete(self) -> bool:
        return self.deferred == 0 and self.over_budget == 0

    def table(self) -> list[dict[str, Any]]:
        """Rows for a Prefect table artifact."""
        rows: list[dict[str, Any]] = [
            {"metric": "files found", "value": self.files_found},
            {"metric": "documents processed", "value": self.processed},
            {"metric": "documents partial", "value": self.partial},
            {"metric": "documents failed", "value": self.failed},
            {"metric": "left out (no pattern matches)", "value": len(self.left_out)},
            {"metric": "skipped (already done)", "value": self.skipped},
            {"metric": "resumed from checkpoints", "value": self.resumed},
            {"metric": "deferred to next run", "value": self.deferred},
            {"metric": "not started (budget)", "value": self.over_budget},
            {"metric": "pages", "value": self.pages},
            {"metric": "credits used", "value": self.credits_used},
            {"metric": "errors", "value": self.errors},
        ]
        rows += [
            {"metric": f"segments: {doc_type}", "value": count}
            for doc_type, count in sorted(self.segments_by_type.items())
        ]
        if self.dry_run:
            rows += [
                {"metric": "estimated credits (lowest)", "value": self.estimated_credits_low},
                {"metric": "estimated credits (highest)", "value": self.estimated_credits_high},
            ]
        return rows


def duckdb_query(store: DatasetStore) -> str:
    """A query to start from: invoices with their source files."""
    setup = "" if store.url("x").startswith("/") else "INSTALL httpfs; LOAD httpfs;\n"
    return (
        f"{setup}SELECT d.file_name, i.invoice_number, i.invoice_date, i.currency, i.gross,\n"
        f"       i.totals_consistent, i.ingest_date\n"
        f"FROM read_parquet('{store.glob_url('invoices')}', hive_partitioning = true) AS i\n"
        f"JOIN read_parquet('{store.glob_url('documents')}', hive_partitioning = true) AS d\n"
        f"  USING (document_id)\n"
        f"ORDER BY i.invoice_date;"
    )


def _cell(text: str) -> str:
    """A file name inside a markdown table cell: pipes and backticks would break the row."""
    return text.replace("|", "\\|").replace("`", "'")


def markdown_report(summary: BatchSummary, store: DatasetStore) -> str:
    lines = [
        f"# DocAI batch `{summary.run_id}`",
        "",
        f"- source: `{summary.source}`",
        f"- destination: `{summary.destination}`",
        f"- service: {summary.service}",
        f"- wall time: {summary.wall_seconds:.1f} s",
        "",
        "| documents | processed | partial | failed | skipped | resumed | deferred | pages | credits |",
        "|---|---|---|---|---|---|---|---|---|",
        f"| {summary.files_found} | {summary.processed} | {summary.partial} | {summary.failed} "
        f"| {summary.skipped} | {summary.resumed} | {summary.deferred} | {summary.pages} "
        f"| {summary.credits_used} |",
        "",
    ]
    if summary.failed_files or summary.left_out:
        lines += ["## Files not processed", "", "| file | why |", "|---|---|"]
        lines += [f"| `{_cell(name)}` | failed (see the `errors` dataset) |" for name in summary.failed_files]
        lines += [f"| `{_cell(url)}` | left out: no pattern matches it |" for url in summary.left_out]
        lines.append("")
    if summary.segments_by_type:
        lines += ["## Segments by type", "", "| type | segments |", "|---|---|"]
        lines += [f"| {t} | {n} |" for t, n in sorted(summary.segments_by_type.items())]
        lines.append("")
    if summary.rows:
        lines += ["## Rows written", "", "| dataset | rows |", "|---|---|"]
        lines += [f"| `{name}` | {summary.rows.get(name, 0)} |" for name in DATASETS]
        lines.append("")
    lines += [
        "## Query it",
        "",
        "```sql",
        duckdb_query(store),
        "```",
        "",
        "Every dataset sits under `<destination>/<dataset>/ingest_date=…/run_id=…/`; "
        "`document_id` (sha256 of the source file) and `segment_id` join them.",
    ]
    return "\n".join(lines)
