"""Check that the shipped classifier, splitter and invoice confidence map are what their
training commands build.

    .venv/bin/python -m training.check [--corpus ../shared/corpus]   (make train-check)

Retrains ``training.classifier`` and then ``training.splitter`` (on the freshly built
classifier, as ``make train`` does) and ``training.calibration`` (the invoice fields'
confidence map, about 2 minutes) into a temporary folder with the shipped recipe
(defaults for every option), and compares the sha256 of each output with the file in
``engines/data/``. Exit status 1 when any differs. About 8 minutes on 2 cores (the
invoice pages' words cached by ``benchmarks.invoices_cv``); not part of
``make test``.

What it catches: a change to the sample generators, the page features, the training data
or code, or the libraries that moves what the trainers build away from the shipped files
(the shipped classifier of 64e7a70 was not rebuilt by later trainers: the solver's last
bits differ between BLAS kernels and thread counts, which ``ClassifierModel.save`` now
rounds away, and the block grammar's bank statement fix of d377ebe changed its training
data).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "src/prefect_docai/engines/data"


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    args = parser.parse_args()
    env = {**os.environ, "OMP_THREAD_LIMIT": "1", "DOCAI_CORPUS": str(args.corpus)}
    failed = []
    with tempfile.TemporaryDirectory(prefix="docai-train-check-") as tmp:
        built_classifier = Path(tmp) / "classifier.npz"
        built_splitter = Path(tmp) / "splitter.joblib"
        steps = [
            (
                [
                    "training.classifier",
                    "--corpus",
                    str(args.corpus),
                    "--out",
                    str(built_classifier),
                ],
                built_classifier,
            ),
            (
                [
                    "training.splitter",
                    "--corpus",
                    str(args.corpus),
                    "--classifier",
                    str(built_classifier),
                    "--out",
                    str(built_splitter),
                ],
                built_splitter,
            ),
        ]
        built_map = Path(tmp) / "invoice_confidence.json"
        steps.append(
            (
                ["training.calibration", "--no-eval", "--out", str(built_map)],
                built_map,
            )
        )
        for command, built in steps:
            print(f"$ python -m {' '.join(command)}", flush=True)
            subprocess.run([sys.executable, "-m", *command], cwd=ROOT, env=env, check=True)
            shipped = DATA / built.name
            ok = sha256(built) == sha256(shipped)
            print(
                f"{built.name}: shipped {sha256(shipped)[:16]}  built {sha256(built)[:16]}  "
                f"{'same' if ok else 'DIFFERENT'}",
                flush=True,
            )
            if not ok:
                failed.append(built.name)
    if failed:
        print(f"not reproduced by their trainers: {', '.join(failed)} (make train rebuilds them)")
        return 1
    print("classifier.npz, splitter.joblib and invoice_confidence.json are what make train builds")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
