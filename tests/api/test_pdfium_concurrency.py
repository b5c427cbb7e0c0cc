"""PDFium is used by the upload route and by the flow's page work; in embedded mode both
run in one process, so one lock must guard every PDFium call (see ``pdfium_race``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_uploads_and_flow_page_work_share_pdfium_safely() -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT / "src"), str(ROOT), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(
        [sys.executable, "-m", "tests.api.pdfium_race", "15"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, (
        f"exit {done.returncode} (negative: killed by signal)\n"
        f"stdout: {done.stdout[-2000:]}\nstderr: {done.stderr[-3000:]}"
    )
    report = json.loads(done.stdout.strip().splitlines()[-1])
    # The run must really have overlapped both kinds of work.
    assert report["uploads"] >= 20 and report["cuts"] >= 20, report
