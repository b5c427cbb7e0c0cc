"""Train the PaperFlow boundary scorer shipped in ``engines/data/splitter.joblib``.

    .venv/bin/python scripts/train_splitter.py [--quick]

Needs the classifier (``scripts/train_classifier.py``) first: its page probabilities and
scaled layout features are pair features. Streams are built from documents of the sample
generator's training templates: random orders, runs of one template (same-sender
documents back to back), one-page and long documents, blank sheets between documents and
blank duplex backs inside them, and a share of pages with OCR-like text noise. The
gradient-boosting model learns P(a new document starts at this page); the length-prior
weight of the decoder is chosen on validation streams. Fixed seeds throughout.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
import time
from pathlib import Path

import numpy as np
from scipy import sparse

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from prefect_docai.engines.classify import training  # noqa: E402
from prefect_docai.engines.classify.model import ClassifierModel  # noqa: E402
from prefect_docai.engines.paperflow.decode import LengthPrior, decode  # noqa: E402
from prefect_docai.engines.paperflow.pairs import StreamPage, pair_features  # noqa: E402
from prefect_docai.engines.paperflow.splitter import (  # noqa: E402
    MODEL_FILE,
    BoundaryModel,
    stream_pages,
)

SEED = 20241123


@dataclasses.dataclass
class DocPages:
    doc_type: str
    template: str
    pages: list[StreamPage]
    rows: sparse.csr_matrix


def prepare(per_template: int, classifier: ClassifierModel, seed: int) -> list[DocPages]:
    rng = random.Random(seed)
    docs = []
    for doc in training.generated_docs(per_template, seed, held_out=False):
        views = doc.views
        if rng.random() < 0.35:
            views = [training.noisy_view(v, rng) for v in views]
        pages, rows, _ = stream_pages(views, classifier)
        docs.append(DocPages(doc.doc_type, doc.template, pages, rows))
    return docs


def build_stream(
    docs: list[DocPages], rng: random.Random
) -> tuple[list[StreamPage], sparse.csr_matrix, list[int]]:
    """A random stream; returns pages, text rows and the 0-based start of every document."""
    count = min(rng.randint(2, 9), len(docs))
    chosen: list[DocPages] = []
    while len(chosen) < count:
        # one copy of a document per stream: a page cannot be told from its own duplicate
        doc = rng.choice([d for d in docs if all(d is not c for c in chosen)])
        chosen.append(doc)
        if rng.random() < 0.3:  # same template (same letterhead style) back to back
            same = [d for d in docs if d.template == doc.template
                    and all(d is not c for c in chosen)]
            if same:
                chosen.append(rng.choice(same))
    pages: list[StreamPage] = []
    rows = []
    starts = []
    for i, doc in enumerate(chosen):
        starts.append(len(pages))
        between = 1 if i and rng.random() < 0.08 else 0
        for k, page in enumerate(doc.pages):
            blanks = between if k == 0 else (1 if rng.random() < 0.04 else 0)
            pages.append(dataclasses.replace(page, blanks_before=blanks))
        rows.append(doc.rows)
    return pages, sparse.csr_matrix(sparse.vstack(rows)), starts


def streams_to_xy(
    docs: list[DocPages], count: int, rng: random.Random
) -> tuple[np.ndarray, np.ndarray, list[tuple[int, list[int], np.ndarray]]]:
    xs, ys, streams = [], [], []
    for _ in range(count):
        pages, rows, starts = build_stream(docs, rng)
        x = pair_features(pages, rows)
        y = np.zeros(len(pages) - 1, dtype=np.int64)
        for s in starts[1:]:
            y[s - 1] = 1
        xs.append(x)
        ys.append(y)
        streams.append((len(pages), starts, x))
    return np.vstack(xs), np.concatenate(ys), streams


def exact_match(model: object, streams: list[tuple[int, list[int], np.ndarray]],
                prior: LengthPrior) -> float:
    good = 0
    for n, starts, x in streams:
        boundary = np.ones(n)
        boundary[1:] = model.predict_proba(x)[:, 1]  # type: ignore[attr-defined]
        found = [seg.start for seg in decode(boundary, prior)]
        good += found == starts
    return good / max(len(streams), 1)


def main() -> None:
    from sklearn.ensemble import HistGradientBoostingClassifier

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-template", type=int, default=4)
    parser.add_argument("--streams", type=int, default=1500)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--classifier", type=Path, default=None)
    parser.add_argument("--out", type=Path,
                        default=ROOT / "src/prefect_docai/engines/data" / MODEL_FILE)
    args = parser.parse_args()
    started = time.monotonic()
    classifier = ClassifierModel.load(args.classifier)
    per_template = 1 if args.quick else args.per_template
    docs = prepare(per_template, classifier, SEED)
    print(f"{len(docs)} documents, {sum(len(d.pages) for d in docs)} pages "
          f"in {time.monotonic() - started:.0f} s")
    # Validation streams come from documents (not templates) the scorer has not seen.
    rng = random.Random(SEED)
    order = list(range(len(docs)))
    rng.shuffle(order)
    cut = max(1, len(order) // 5)
    val_docs = [docs[i] for i in order[:cut]]
    train_docs = [docs[i] for i in order[cut:]]
    n_streams = 100 if args.quick else args.streams
    x, y, _ = streams_to_xy(train_docs, n_streams, random.Random(SEED + 1))
    _, _, val_streams = streams_to_xy(val_docs, max(50, n_streams // 5), random.Random(SEED + 2))
    model = HistGradientBoostingClassifier(
        max_iter=250, learning_rate=0.08, max_leaf_nodes=15, l2_regularization=0.5,
        random_state=SEED,
    )
    model.fit(x, y)
    lengths = [len(d.pages) for d in docs]
    best_weight, best_score = 0.0, -1.0
    for weight in (0.0, 0.1, 0.2, 0.35, 0.5, 0.8):
        score = exact_match(model, val_streams, LengthPrior.from_lengths(lengths, weight=weight))
        print(f"length prior weight {weight}: validation streams exact {score:.3f}")
        if score > best_score + 1e-9:
            best_weight, best_score = weight, score
    # Refit on all documents for the shipped model.
    x_all, y_all, _ = streams_to_xy(docs, n_streams, random.Random(SEED + 3))
    model.fit(x_all, y_all)
    prior = LengthPrior.from_lengths(lengths, weight=best_weight)
    BoundaryModel(model, prior).save(args.out)
    print(f"pairs {len(y_all)} (boundaries {int(y_all.sum())}), prior weight {best_weight}, "
          f"saved {args.out} ({args.out.stat().st_size / 1e6:.2f} MB) "
          f"in {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
