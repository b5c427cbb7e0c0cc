"""Uploads over HTTP while the flow's page work runs, in one process (embedded mode).

``python -m tests.api.pdfium_race [SECONDS]`` starts the embedded service on loopback and,
for SECONDS, has threads upload PDFs (the upload route inspects each one with PDFium in
its thread pool) while other threads inspect and cut the same PDFs the way a flow does.
PDFium is not thread-safe: unless every call in the process goes through one lock, the
run crashes (the process dies with a signal) or a PDF is misread. It prints one JSON line
with the counts and exits 0 only when every upload was accepted and every flow-side
inspection read the right page count.

It runs in its own process (the test starts it) because the failure it looks for is a
crash that would otherwise take the test runner down.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from typing import Any

import httpx

from prefect_docai.files.cut import cut_pages
from prefect_docai.files.sniff import inspect_document
from prefect_docai.server.embedded import EmbeddedService
from tests.api.lifecycle_engine import ALL_ENGINES
from tests.docgen import make_text_pdf

UPLOADERS = 6
CUTTERS = 3


def _documents() -> list[tuple[bytes, int]]:
    docs = []
    for pages in (3, 40, 120):
        lines = [[f"Page {p} of {pages}", *(f"line {i} of a longer text" for i in range(30))]
                 for p in range(1, pages + 1)]
        docs.append((make_text_pdf(lines), pages))
    return docs


def run(seconds: float) -> dict[str, Any]:
    docs = _documents()
    stop = threading.Event()
    counts = {"uploads": 0, "cuts": 0}
    failures: list[str] = []
    lock = threading.Lock()

    with EmbeddedService(workers=1, engines=ALL_ENGINES, upload_rate_per_second=10_000) as service:
        creds = service.create_client("race", credits=1_000_000)
        with httpx.Client(base_url=service.base_url, timeout=60.0) as http:
            token = http.post(service.token_url, data={
                "grant_type": "client_credentials", "client_id": creds.client_id,
                "client_secret": creds.client_secret.get_secret_value()}).json()["access_token"]

        def uploader(offset: int) -> None:
            with httpx.Client(base_url=service.base_url, timeout=60.0) as http:
                n = offset
                while not stop.is_set():
                    data, _ = docs[n % len(docs)]
                    n += 1
                    response = http.post(
                        "/api/FileUpload/v1/Upload/ToolICR",
                        files={"file": ("doc.pdf", data, "application/pdf")},
                        headers={"Authorization": f"Bearer {token}"},
                    )
                    with lock:
                        counts["uploads"] += 1
                        if response.status_code != 201:
                            failures.append(f"upload {response.status_code}: {response.text[:200]}")

        def cutter(offset: int) -> None:
            n = offset
            while not stop.is_set():
                data, pages = docs[n % len(docs)]
                n += 1
                try:
                    info = inspect_document(data)
                    if info.page_count != pages:
                        raise ValueError(f"read {info.page_count} pages, not {pages}")
                    cut_pages(data, info.media_type, 2, 3, info.page_count)
                except Exception as exc:  # a misread is what this run looks for
                    with lock:
                        failures.append(f"flow: {exc!r}")
                with lock:
                    counts["cuts"] += 1

        threads = [threading.Thread(target=uploader, args=(i,)) for i in range(UPLOADERS)]
        threads += [threading.Thread(target=cutter, args=(i,)) for i in range(CUTTERS)]
        for thread in threads:
            thread.start()
        time.sleep(seconds)
        stop.set()
        for thread in threads:
            thread.join()
    return {**counts, "failures": failures[:5], "failed": len(failures)}


if __name__ == "__main__":
    report = run(float(sys.argv[1]) if len(sys.argv) > 1 else 20.0)
    print(json.dumps(report))
    raise SystemExit(1 if report["failed"] else 0)
