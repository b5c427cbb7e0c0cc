"""Page stream segmentation: separators, boundary scores, decoding.

Pages pass through three steps:

1. Separators: blank pages and barcode/QR separator sheets are taken out of the stream.
   A barcode sheet forces a boundary; blank pages become a pair feature.
2. Boundary scoring: a gradient-boosting model gives P(new document starts here) for every
   pair of neighbouring content pages (``pairs.PAIR_FEATURES``); a stream whose pages say
   nothing about their files of origin is scored by a content-only model.
3. Decoding: dynamic programming with a document-length prior picks the segmentation;
   a complete page-number chain ("1 of N" ... "N of N") is kept whole and closed
   (``decode.page_chains``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
from scipy import sparse

from prefect_docai.engines.doctype.features import FloatArray
from prefect_docai.engines.doctype.model import ClassifierModel, default_model, text_matrix
from prefect_docai.engines.doctype.scoring import PageScores, document_probs, score_pages
from prefect_docai.engines.doctype.views import PageView
from prefect_docai.engines.paperflow.decode import LengthPrior, PageSpan, decode, page_chains
from prefect_docai.engines.paperflow.pairs import (
    CONTENT_ONLY_FEATURES,
    FINGERPRINT_FEATURES,
    FP_UNKNOWN,
    OVERLAP_UNKNOWN,
    PAIR_FEATURES,
    StreamPage,
    origin_evidence,
    pair_features,
)
from prefect_docai.engines.paperflow.separators import (
    BARCODE_DPI,
    MAX_SEPARATOR_WORDS,
    barcodes,
    is_blank,
)
from prefect_docai.engines.paperflow.signals import PageNumber, page_signals

MODEL_FILE = "splitter.joblib"


@dataclass(frozen=True)
class BoundaryModel:
    model: Any
    """A fitted sklearn classifier with ``predict_proba`` over ``PAIR_FEATURES``, for
    streams with file-of-origin evidence (``pairs.origin_evidence``)."""
    content_model: Any
    """The same over streams without it (fingerprint features held at unknown): trained
    apart, so that content evidence carries its full weight where fingerprints say
    nothing, instead of the share left to it next to a strong fingerprint signal."""
    prior: LengthPrior

    def score(self, features: FloatArray, origin: bool = True) -> FloatArray:
        if len(features) == 0:
            return np.zeros(0)
        model = self.model if origin else self.content_model
        proba: FloatArray = model.predict_proba(
            for_origin_model(features) if origin else without_origin(features)
        )[:, 1]
        return proba

    def save(self, path: Path) -> None:
        import joblib

        joblib.dump(
            {
                "model": self.model,
                "content_model": self.content_model,
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
        return cls(blob["model"], blob["content_model"], prior)


def without_origin(features: FloatArray) -> FloatArray:
    """Pair features with the fingerprint evidence set to unknown."""
    out = features.copy()
    for name in FINGERPRINT_FEATURES:
        out[:, PAIR_FEATURES.index(name)] = FP_UNKNOWN
    return out


def for_origin_model(features: FloatArray) -> FloatArray:
    """Pair features with the number and name overlap set to unknown. Next to
    file-of-origin evidence they bought no recall and split long German invoices whose
    pages share few numbers and names (family-held-out cross-validation); the content-only
    scorer needs them."""
    out = features.copy()
    for name in CONTENT_ONLY_FEATURES:
        out[:, PAIR_FEATURES.index(name)] = OVERLAP_UNKNOWN
    return out


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
        words = sum(1 for w in page.words if len(w.text.strip()) > 1 and w.confidence >= 0.5)
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
    origin: bool = False
    """The pages carry file-of-origin evidence (``pairs.origin_evidence``)."""
    marks: list[PageNumber | None] = field(default_factory=list)
    """Each content page's own page mark."""


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
    return StreamFeatures(
        content,
        forced,
        pair_features(stream, rows),
        scores,
        origin_evidence([page.fingerprint for page in stream]),
        [page.signals.page_number for page in stream],
    )


def decode_pages(
    boundary: FloatArray,
    prior: LengthPrior,
    marks: Sequence[PageNumber | None],
    forced: Sequence[int] = (),
) -> list[PageSpan]:
    """The decoder over scored pages, with the starts and continuations their page-number
    chains fix (``decode.page_chains``; ``marks`` one per page)."""
    starts, joined = page_chains(marks)
    return decode(boundary, prior, sorted({*forced, *starts}), joined=joined)


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
        boundary[1:] = boundary_model.score(features.pairs, features.origin)
    segments = decode_pages(boundary, boundary_model.prior, features.marks, features.forced)
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
