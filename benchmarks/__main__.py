"""Run every benchmark module in turn: ``python -m benchmarks [NAME ...]``.

Each benchmark is a module runnable as ``python -m benchmarks.NAME`` that prints a table and
writes JSON under ``benchmarks/results/``. They read the evaluation corpus from
``$DOCAI_CORPUS`` or ``../shared/corpus`` beside the repository, and skip what needs it when
it is absent.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

# The held-out figures (generalization, receipts_cv, tables_cv) run beside the visible-set
# ones. Left out because they take long or need more than the corpus: reliability and scale
# (the service under load: docs/reliability.md, docs/scale.md), snapshot (a before/after
# comparison) and ocr_receipts (needs rapidocr, not a dependency). Run them by name.
ORDER = ("api", "ocr", "classify", "generalization", "paperflow", "invoices", "receipts",
         "receipts_cv", "tables", "tables_cv",
         "batch")


def main(argv: list[str]) -> int:
    here = Path(__file__).parent
    names = argv or [name for name in ORDER if (here / f"{name}.py").exists()]
    failed: list[str] = []
    for name in names:
        print(f"\n=== benchmarks.{name} ===", flush=True)
        started = time.monotonic()
        code = subprocess.call([sys.executable, "-m", f"benchmarks.{name}"], cwd=here.parent)
        print(f"=== benchmarks.{name}: exit {code} in {time.monotonic() - started:.0f} s", flush=True)
        if code != 0:
            failed.append(name)
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
