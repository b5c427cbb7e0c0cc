"""Every engine's answer on the visible corpus, written to disk for before/after comparison.

Run: ``python -m benchmarks.snapshot OUT_DIR [--tools ICR,Classify,...]``, then
``python -m benchmarks.snapshot --compare DIR_A DIR_B``.

A refactoring that promises "behaviour unchanged" runs this at the base commit and again at
its end; the two trees must be identical. Each tool runs directly (no server) over the
corpus documents that take part in its task (manifest ``tasks``; PaperFlow over the PSS
streams) and writes ``OUT_DIR/<tool>/<id>.json``: the result JSON, page count, warnings and
the produced files (a digest of their bytes; for PDFs a digest of each page's content and
text, because a PDF's trailer ID and dates differ on every write; for ZIPs a digest of each
member, because a ZIP entry carries its write time). Timing fields are
dropped. Existing outputs are kept, so an interrupted run resumes.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("DOCAI_CORPUS", ROOT.parent / "shared" / "corpus"))
TESSERACT = {"de": "deu", "en": "eng", "fr": "fra", "nl": "nld"}
TASKS = {
    "ICR": "ocr",
    "Classify": "classification",
    "Invoice": "invoice_extraction",
    "Receipt": "receipt_extraction",
    "TableExtraction": "table_extraction",
}
TIMING_KEYS = frozenset({"seconds", "elapsed", "duration", "durationMs", "processingTime"})


def _without_timing(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_timing(v) for k, v in value.items() if k not in TIMING_KEYS}
    if isinstance(value, list):
        return [_without_timing(v) for v in value]
    return value


def _file_digest(media_type: str, data: bytes) -> dict[str, Any]:
    if media_type == "application/zip":
        import zipfile

        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return {"members": {name: hashlib.sha256(archive.read(name)).hexdigest()
                                for name in archive.namelist()}}
    if media_type != "application/pdf":
        return {"sha256": hashlib.sha256(data).hexdigest()}
    import pikepdf
    import pypdfium2 as pdfium

    pages: list[dict[str, str]] = []
    with pikepdf.open(io.BytesIO(data)) as pdf:
        contents = [_content(page.obj.get("/Contents")) for page in pdf.pages]
    document = pdfium.PdfDocument(data)
    try:
        for index, content in enumerate(contents):
            text = document[index].get_textpage().get_text_range()
            pages.append({"content": hashlib.sha256(content).hexdigest(),
                          "text": hashlib.sha256(text.encode()).hexdigest()})
    finally:
        document.close()
    return {"pages": pages}


def _content(stream: Any) -> bytes:
    """A page's content stream bytes (``/Contents`` may be an array of streams)."""
    import pikepdf

    if stream is None:
        return b""
    if isinstance(stream, pikepdf.Array):
        return b"\n".join(part.read_bytes() for part in stream)
    return bytes(stream.read_bytes())


def _jobs(tools: list[str]) -> list[tuple[str, str, Path, tuple[str, ...], tuple[str, ...]]]:
    manifest = json.loads((CORPUS / "manifest.json").read_text())
    jobs = []
    for tool in tools:
        if tool == "PaperFlow":
            for stream in manifest["pss_streams"]:
                jobs.append((tool, stream["id"], CORPUS / stream["file"], ("deu", "eng"), ()))
            continue
        for entry in manifest["documents"]:
            if TASKS[tool] not in entry["tasks"]:
                continue
            if tool == "ICR":
                languages: tuple[str, ...] = (TESSERACT[entry["lang"]],)
                formats: tuple[str, ...] = ("PDF", "TXT")
            elif tool == "TableExtraction" or tool == "Classify":
                languages, formats = ("eng",), ()
            else:
                languages, formats = ("deu", "eng"), ("JSON",)
            jobs.append((tool, entry["id"], CORPUS / entry["file"], languages, formats))
    return jobs


def snapshot(out: Path, tools: list[str]) -> None:
    try:
        from prefect_docai.engines.pluginspec import DocumentError, EngineOptions, get_engine
    except ModuleNotFoundError:  # the layout before issue 13, for the "before" run
        from prefect_docai.engines.base import (  # type: ignore[no-redef]
            DocumentError,
            EngineOptions,
        )
        from prefect_docai.engines.registry import get_engine  # type: ignore[no-redef]
    from prefect_docai.models.tools import Tool

    for tool, doc_id, path, languages, formats in _jobs(tools):
        target = out / tool / f"{doc_id}.json"
        if target.exists():
            continue
        options = EngineOptions(languages=languages, output_formats=formats, file_name=path.name)
        engine = get_engine(Tool(tool))
        try:
            output = engine.run(path.read_bytes(), options)
            record: dict[str, Any] = {
                "result": _without_timing(output.result.model_dump(mode="json", by_alias=True)),
                "page_count": output.page_count,
                "warnings": output.warnings,
                "files": [{"name": f.name, "media_type": f.media_type, "type": f.output_type,
                           **_file_digest(f.media_type, f.data)} for f in output.files],
            }
        except DocumentError as exc:
            record = {"error": exc.code, "detail": exc.detail}
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(record, indent=1, ensure_ascii=False, sort_keys=True))
        print(f"{tool} {doc_id}", flush=True)


def compare(a: Path, b: Path) -> int:
    names_a = {p.relative_to(a) for p in a.rglob("*.json")}
    names_b = {p.relative_to(b) for p in b.rglob("*.json")}
    differing = sorted(n for n in names_a & names_b if (a / n).read_bytes() != (b / n).read_bytes())
    for name in sorted(names_a ^ names_b):
        print(f"only in {'A' if name in names_a else 'B'}: {name}")
    for name in differing:
        print(f"differs: {name}")
    print(f"{len(names_a & names_b)} compared, {len(differing)} differ, "
          f"{len(names_a ^ names_b)} missing on one side")
    return 1 if differing or names_a != names_b else 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", nargs="?", type=Path)
    parser.add_argument("--tools", default=",".join([*TASKS, "PaperFlow"]))
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("A", "B"))
    args = parser.parse_args(argv)
    if args.compare:
        return compare(*args.compare)
    if args.out is None:
        parser.error("OUT_DIR is required")
    snapshot(args.out, [t.strip() for t in args.tools.split(",") if t.strip()])
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
