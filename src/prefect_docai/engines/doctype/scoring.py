"""Page and document classification on page views, with the ``threshold`` → ``unknown`` rule."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from prefect_docai.engines.doctype.features import FloatArray, dense_features, page_texts
from prefect_docai.engines.doctype.model import ClassifierModel, default_model
from prefect_docai.engines.doctype.views import PageView
from prefect_docai.engines.pluginspec import normalize_threshold
from prefect_docai.models.results import ClassifyPage, ClassifyResult

UNKNOWN = "unknown"
FIRST_PAGE_WEIGHT = 2.0
"""A document's first page says most about its type (title, letterhead, address block)."""


def label(probs: FloatArray, classes: Sequence[str], threshold: float | None) -> tuple[str, float]:
    best = int(np.argmax(probs))
    confidence = float(probs[best])
    if threshold is not None and confidence < threshold:
        return UNKNOWN, confidence
    return classes[best], confidence


@dataclass
class PageScores:
    probs: FloatArray
    """(pages, classes) calibrated probabilities."""
    dense: FloatArray
    """(pages, dense features): reused by PaperFlow for layout comparisons."""
    classes: tuple[str, ...]


def score_pages(
    pages: Sequence[PageView], model: ClassifierModel | None = None, with_image: bool = True
) -> PageScores:
    model = model or default_model()
    if not pages:
        return PageScores(
            np.zeros((0, len(model.classes))), np.zeros((0, len(model.dense_mean))), model.classes
        )
    dense = np.vstack([dense_features(p, with_image=with_image) for p in pages])
    probs = model.predict_proba(page_texts(pages), dense)
    return PageScores(probs, dense, model.classes)


def document_probs(probs: FloatArray) -> FloatArray:
    """Weighted mean of the page probabilities (first page weighted up)."""
    weights = np.ones(len(probs))
    weights[0] = FIRST_PAGE_WEIGHT
    mean: FloatArray = (probs * weights[:, None]).sum(axis=0) / weights.sum()
    return mean


def classify_pages(
    pages: Sequence[PageView], threshold: float | None = None, model: ClassifierModel | None = None
) -> ClassifyResult:
    scores = score_pages(pages, model)
    threshold = normalize_threshold(threshold)
    classes = scores.classes
    if len(scores.probs) == 0:
        return ClassifyResult(
            document_type=UNKNOWN, confidence=0.0, scores={c: 0.0 for c in classes}, pages=[]
        )
    doc = document_probs(scores.probs)
    doc_type, confidence = label(doc, classes, threshold)
    page_results = []
    for index, row in enumerate(scores.probs):
        page_type, page_conf = label(row, classes, threshold)
        page_results.append(
            ClassifyPage(page=index + 1, document_type=page_type, confidence=round(page_conf, 4))
        )
    return ClassifyResult(
        document_type=doc_type,
        confidence=round(confidence, 4),
        scores={c: round(float(p), 4) for c, p in zip(classes, doc, strict=True)},
        pages=page_results,
    )
