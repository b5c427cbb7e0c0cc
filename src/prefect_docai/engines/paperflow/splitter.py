"""Page stream segmentation: separators, boundary scores, decoding.

Pages pass through three steps:

1. Separators: blank pages and barcode/QR separator sheets are taken out of the stream.
   A barcode sheet forces a boundary; blank pages become a pair feature.
2. Boundary scoring: a gradient-boosting model gives P(new document starts here) for every
   pair of neighbouring content pages (``pairs.PAIR_FEATURES``).
3. Decoding: dynamic programming with a document-length prior picks the segmentation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
from scipy import sparse

from prefect_docai.engines.classify.classifier import PageScores, document_probs, score_pages
from prefect_docai.engines.classify.features import FloatArray
from prefect_docai.engines.classify.model import ClassifierModel, default_model, text_matrix
from prefect_docai.engines.classify.pageview import PageView
from prefect_docai.engines.paperflow.decode import LengthPrior, Segment, decode
from prefect_docai.engines.paperflow.pairs import PAIR_FEATURES, StreamPage, pair_features
from prefect_docai.engines.paperflow.separators import (
    BARCODE_DPI,
    MAX_SEPARATOR_WORDS,
    barcodes,
    is_blank,
)
from prefect_docai.engines.paperflow.signals import page_signals

MODEL_FILE = "splitter.joblib"


@dataclass(frozen=True)
class BoundaryModel:
    model: Any
    """A fitted sklearn classifier with ``predict_proba`` over ``PAIR_FEATURES``."""
    prior: LengthPrior

    def score(self, features: FloatArray) -> FloatArray:
        if len(features) == 0:
            return np.zeros(0)
        proba: FloatArray = self.model.predict_proba(features)[:, 1]
        return proba

    def save(self, path: Path) -> None:
        import joblib

        joblib.dump(
            {
                "model": self.model,
                "features": PAIR_FEATURES,
                "prior_log_p": self.prior.log_p,
                "prior_tail": self.prior.tail,
                "prior_weight": self.prior.weight,
            },
            path,
            compress=3,
        )

    @classmethod
    def load(cls, path: Path | None = None) -> BoundaryModel:
        import joblib

        if path is None:
            ref = resources.files("prefect_docai.engines").joinpath("data", MODEL_FILE)
            with resources.as_file(ref) as file:
                blob = joblib.load(file)
        else:
            blob = joblib.load(path)
        if tuple(blob["features"]) != PAIR_FEATURES:
            raise ValueError("splitter model was trained with other pair features; retrain it")
        prior = LengthPrior(tuple(blob["prior_log_p"]), blob["prior_tail"], blob["prior_weight"])
        return cls(blob["model"], prior)


@cache
def default_boundary_model() -> BoundaryModel:
    return BoundaryModel.load()


@dataclass
class PageRole:
    separator: str | None
    """``blank``, ``barcode`` or ``None`` for a content page."""
    codes: tuple[str, ...] = ()


def page_roles(pages: Sequence[PageView], detect_barcodes: bool = True) -> list[PageRole]:
    roles = []
    for page in pages:
        # OCR reads scanner noise on an empty sheet as a few short, unsure "words".
        words = sum(
            1 for w in page.words if len(w.text.strip()) > 1 and w.confidence >= 0.5
        )
        if words <= 2 and is_blank(page.image(), words):
            roles.append(PageRole("blank"))
            continue
        if detect_barcodes and words <= MAX_SEPARATOR_WORDS and page.render is not None:
            codes = barcodes(page.render(BARCODE_DPI))
            if codes:
                roles.append(PageRole("barcode", tuple(codes)))
                continue
        roles.append(PageRole(None))
    return roles


@dataclass
class StreamFeatures:
    content: list[int]
    """Stream page indices of the content pages, in order."""
    forced: list[int]
    """Positions in ``content`` that must start a document (after a barcode sheet)."""
    pairs: FloatArray
    scores: PageScores


def stream_features(
    pages: Sequence[PageView],
    roles: Sequence[PageRole],
    classifier: ClassifierModel | None = None,
    with_image: bool = True,
) -> StreamFeatures:
    classifier = classifier or default_model()
    content: list[int] = []
    forced: list[int] = []
    blanks: list[int] = []
    pending_blanks = 0
    pending_barcode = False
    for index, role in enumerate(roles):
        if role.separator == "blank":
            pending_blanks += 1
            continue
        if role.separator == "barcode":
            pending_barcode = True
            continue
        if pending_barcode and content:
            forced.append(len(content))
        content.append(index)
        blanks.append(pending_blanks)
        pending_blanks = 0
        pending_barcode = False
    views = [pages[i] for i in content]
    stream, rows, scores = stream_pages(views, classifier, with_image)
    for page, count in zip(stream, blanks, strict=True):
        page.blanks_before = count
    return StreamFeatures(content, forced, pair_features(stream, rows), scores)


def stream_pages(
    views: Sequence[PageView], classifier: ClassifierModel, with_image: bool = True
) -> tuple[list[StreamPage], sparse.csr_matrix, PageScores]:
    """Per-page evidence for the pair features (computed once per page)."""
    scores = score_pages(views, classifier, with_image=with_image)
    scaled = classifier.scale_dense(scores.dense)
    stream = [
        StreamPage(
            signals=page_signals(view),
            type_probs=scores.probs[k],
            layout=scaled[k],
            size=(view.width_pt, view.height_pt),
            source=view.source,
            fingerprint=view.fingerprint,
        )
        for k, view in enumerate(views)
    ]
    # Raw text (digits kept): shared numbers are part of what makes two pages alike.
    rows = text_matrix([" ".join(w.text for w in v.words).lower() for v in views])
    return stream, rows, scores


@dataclass(frozen=True)
class SplitDocument:
    pages: tuple[int, ...]
    """0-based stream page indices (content pages only, separators left out)."""
    confidence: float
    type_probs: FloatArray


def split_stream(
    pages: Sequence[PageView],
    boundary_model: BoundaryModel | None = None,
    classifier: ClassifierModel | None = None,
    detect_barcodes: bool = True,
) -> list[SplitDocument]:
    boundary_model = boundary_model or default_boundary_model()
    roles = page_roles(pages, detect_barcodes)
    features = stream_features(pages, roles, classifier)
    n = len(features.content)
    boundary = np.ones(n)
    if n > 1:
        boundary[1:] = boundary_model.score(features.pairs)
    segments: list[Segment] = decode(boundary, boundary_model.prior, features.forced)
    out = []
    for seg in segments:
        probs = features.scores.probs[seg.start : seg.end + 1]
        out.append(
            SplitDocument(
                pages=tuple(features.content[seg.start : seg.end + 1]),
                confidence=seg.confidence,
                type_probs=document_probs(probs),
            )
        )
    return out
