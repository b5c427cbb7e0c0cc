"""Training and evaluation data for the classifier and the splitter.

Used by ``training.classifier``, ``training.splitter`` and the benchmarks, never by the
engines at run time (it imports the sample generator and runs OCR in bulk).
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from prefect_docai.engines.doctype.features import FloatArray, dense_features, page_text
from prefect_docai.engines.doctype.views import FEATURE_DPI, GrayImage, PageView
from prefect_docai.engines.page.fingerprint import image_fingerprints
from prefect_docai.engines.page.layout import build_lines
from prefect_docai.engines.page.model import Word
from prefect_docai.engines.page.ocr import OcrWord, recognize
from prefect_docai.files import pdfium
from prefect_docai.models.tools import DOCUMENT_TYPES
from prefect_docai.samples import LANGS, degrade, generate, templates
from training.textpdf import text_layer_views

CLASSES: tuple[str, ...] = DOCUMENT_TYPES
SCAN_DPI = 200
"""OCR resolution for simulated scans: Tesseract reads 10 pt text well at 200 dpi and
takes less than half the time it needs at 300 dpi."""
OCR_LANG = "deu+eng"
CACHE = Path(os.environ.get("DOCAI_TRAIN_CACHE", Path.home() / ".cache" / "prefect-docai"))


@dataclass
class Sample:
    label: str
    text: str
    """The page text the model hashes (``features.page_text``)."""
    dense: FloatArray
    group: str
    """Document id: pages of one document stay on one side of any split."""
    variant: str


@dataclass
class GeneratedDoc:
    doc_type: str
    template: str
    lang: str
    pdf: bytes
    views: list[PageView]
    group: str
    sender: str = ""
    """Issuing company key where documents share one (block grammar), else empty."""


def _gray_from_pdf_page(pdf: bytes, index: int, dpi: int) -> GrayImage:
    image = pdfium.render_page(pdf, index, dpi)
    return np.asarray(image, dtype=np.uint8).copy()


def ocr_view(gray: GrayImage, dpi: int) -> PageView:
    """OCR words of a raster as a page view (the path scanned uploads take)."""
    h, w = gray.shape
    words = _recognize(gray, dpi)
    tokens = [
        Word(
            word.text,
            (word.box[0] / w, word.box[1] / h, word.box[2] / w, word.box[3] / h),
            word.confidence,
            line=word.line,
            block=word.block,
        )
        for word in words
    ]
    width_pt, height_pt = w * 72 / dpi, h * 72 / dpi
    built, _, _ = build_lines(tokens, width_pt, height_pt, recognized=True)
    feature_image = _resize(gray, FEATURE_DPI / dpi)
    return PageView(built, width_pt, height_pt, "ocr", None, feature_image)


def _recognize(gray: GrayImage, dpi: int) -> list[Any]:
    try:
        return recognize(gray, dpi, OCR_LANG)
    except RuntimeError:
        # tesserocr's iterator can fail on odd symbols; the CLI path reads the same page.
        import pytesseract

        data = pytesseract.image_to_data(
            gray, lang=OCR_LANG, config=f"--dpi {dpi}", output_type=pytesseract.Output.DICT
        )
        words = []
        for i, text in enumerate(data["text"]):
            if not str(text).strip():
                continue
            x, y = float(data["left"][i]), float(data["top"][i])
            box = (x, y, x + float(data["width"][i]), y + float(data["height"][i]))
            line = data["block_num"][i] * 10000 + data["par_num"][i] * 100 + data["line_num"][i]
            conf = max(0.0, min(1.0, float(data["conf"][i]) / 100.0))
            words.append(OcrWord(str(text).strip(), box, conf, line, int(data["block_num"][i])))
        return words


def _resize(gray: GrayImage, scale: float) -> GrayImage:
    import cv2

    h, w = gray.shape
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    return np.asarray(cv2.resize(gray, size, interpolation=cv2.INTER_AREA), dtype=np.uint8)


def _cached_ocr(key: str, gray_fn: Any, dpi: int) -> PageView:
    """OCR is the slow part of training: keep the words and the feature raster by key."""
    from PIL import Image

    path = CACHE / "ocr" / f"{key}.json"
    picture = path.with_suffix(".png")
    if path.exists() and picture.exists():
        blob = json.loads(path.read_text())
        words = [Word(w[0], tuple(w[1]), w[2], w[3], w[4], w[5]) for w in blob["words"]]
        with Image.open(picture) as stored:
            image = np.asarray(stored.convert("L"), dtype=np.uint8).copy()
        return PageView(words, blob["w"], blob["h"], "ocr", None, image)
    view = ocr_view(gray_fn(), dpi)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        json.dumps(
            {
                "w": view.width_pt,
                "h": view.height_pt,
                "words": [
                    [w.text, list(w.bbox), w.confidence, w.line, w.block, w.font_size]
                    for w in view.words
                ],
            }
        )
    )
    feature_image = view.image()
    if feature_image is not None:
        Image.fromarray(feature_image).save(picture)
    return view


_CONFUSIONS = (
    ("rn", "m"),
    ("l", "1"),
    ("O", "0"),
    ("e", "c"),
    ("i", "l"),
    ("ü", "u"),
    ("ä", "a"),
    ("ö", "o"),
    ("S", "5"),
    ("B", "8"),
    (",", "."),
    ("t", "f"),
)


def noisy_view(view: PageView, rng: random.Random) -> PageView:
    """Text-layer words with OCR-like errors and confidences (a cheap stand-in for OCR)."""
    words = []
    rate = rng.uniform(0.03, 0.15)
    for word in view.words:
        if rng.random() < rate * 0.3:
            continue
        text = word.text
        if rng.random() < rate:
            a, b = rng.choice(_CONFUSIONS)
            text = text.replace(a, b, 1) if a in text else text[: max(len(text) - 1, 1)]
        conf = min(1.0, max(0.0, rng.gauss(0.9 if text == word.text else 0.6, 0.08)))
        words.append(Word(text, word.bbox, conf, word.line, word.block, None))
    return PageView(
        words, view.width_pt, view.height_pt, "ocr", view.render, view.image(), view.fingerprint
    )


def generated_docs(
    per_template: int, seed: int, held_out: bool, doc_types: Sequence[str] = CLASSES
) -> Iterator[GeneratedDoc]:
    """Documents from the sample generator's training (or held-out) templates."""
    for doc_type in doc_types:
        for template in templates(doc_type, held_out=held_out):
            for k in range(per_template):
                lang = LANGS[k % len(LANGS)]
                doc = generate(doc_type, seed=seed + k, lang=lang, template=template)
                group = f"gen:{template}:{lang}:{seed + k}"
                yield GeneratedDoc(
                    doc_type, template, lang, doc.pdf, text_layer_views(doc.pdf), group
                )


def grammar_docs(
    per_family: int,
    seed: int,
    families: Sequence[int] | None = None,
    doc_types: Sequence[str] = CLASSES,
) -> Iterator[GeneratedDoc]:
    """Documents of the block-grammar generator (``samples.grammar``), ``per_family`` per
    layout family; ``families`` None: every family.

    Documents ``2j`` and ``2j + 1`` of a family share language and issuing company, and so
    do the same-numbered documents of the other types' same-numbered family: a stream can
    hold several documents of one sender, of one type or of several."""
    from prefect_docai.samples import LANGS
    from prefect_docai.samples.grammar import FAMILIES, generate_varied

    for doc_type in doc_types:
        for family in range(FAMILIES) if families is None else families:
            for k in range(per_family):
                lang = LANGS[(family + k // 2) % len(LANGS)]
                seller = 1000 + 7 * family + k // 2
                doc = generate_varied(
                    doc_type, seed=seed + k, lang=lang, family=family, seller_seed=seller
                )
                group = f"grammar:{doc.template}:{lang}:{seed + k}"
                yield GeneratedDoc(
                    doc_type,
                    doc.template,
                    lang,
                    doc.pdf,
                    text_layer_views(doc.pdf),
                    group,
                    sender=f"{lang}:{seller}",
                )


def generated_samples(
    per_template: int,
    seed: int,
    ocr_share: float,
    held_out: bool,
    noise_share: float = 0.3,
    docs: Iterable[GeneratedDoc] | None = None,
) -> list[Sample]:
    """Page samples of generated documents (``docs``; default the template generator's):
    text layer, a share with OCR-like noise, a share as degraded scans read by OCR.

    Each document draws its noise and scan choices from its own generator (seeded by
    ``seed`` and its group): a change to one document (a page more or less) leaves every
    other document's samples as they were. One generator for all documents let the block
    grammar's bank statement fix (d377ebe) move the noisy and scanned pages of every
    document type after it."""
    samples: list[Sample] = []
    if docs is None:
        docs = generated_docs(per_template, seed, held_out)
    for doc in docs:
        rng = random.Random(f"{seed}:{doc.group}")
        for index, view in enumerate(doc.views):
            samples.append(_sample(doc.doc_type, view, doc.group, "text"))
            if rng.random() < noise_share:
                samples.append(_sample(doc.doc_type, noisy_view(view, rng), doc.group, "noise"))
            # Scans: first pages mostly (that is where the type shows), bounded OCR time.
            if rng.random() < ocr_share and (index == 0 or rng.random() < 0.3):
                scan = scanned_view(doc.pdf, index, f"{doc.group}:{index}")
                samples.append(_sample(doc.doc_type, scan, doc.group, "scan"))
    return samples


def scanned_view(pdf: bytes, index: int, key: str) -> PageView:
    """Page ``index`` of ``pdf`` degraded like a scan (the generator's ``degrade``) and read
    by OCR; cached by ``key``."""
    seed = int(hashlib.sha256(key.encode()).hexdigest()[:8], 16)
    digest = hashlib.sha256(f"{key}:{SCAN_DPI}:{hashlib.sha256(pdf).hexdigest()}".encode())

    def gray() -> GrayImage:
        scan = degrade(pdf, seed=seed, dpi=SCAN_DPI)
        return _gray_from_pdf_page(scan, index, SCAN_DPI)

    return _cached_ocr(digest.hexdigest()[:24], gray, SCAN_DPI)


def _sample(label: str, view: PageView, group: str, variant: str) -> Sample:
    return Sample(label, page_text(view), dense_features(view), group, variant)


def corpus_documents(corpus: Path, task: str | None = "classification") -> list[dict[str, Any]]:
    """Corpus entries with a known class (``task=None``: every document, e.g. the table
    reports, which have a type label but are not in the classification task)."""
    manifest = json.loads((corpus / "manifest.json").read_text())
    docs: list[dict[str, Any]] = [
        d
        for d in manifest["documents"]
        if (task is None or task in d["tasks"]) and d["doc_type"] in CLASSES
    ]
    return docs


def corpus_views(corpus: Path, entry: dict[str, Any]) -> list[PageView]:
    """Page views of one corpus document: text layer for PDFs, cached OCR for images."""
    path = corpus / entry["file"]
    data = path.read_bytes()
    if entry["mime"] == "application/pdf":
        views = text_layer_views(data)
        if sum(len(v.words) for v in views) > 20:
            return views
        scanned = [
            _cached_ocr(
                f"{entry['sha256'][:24]}-{i}", lambda i=i: _gray_from_pdf_page(data, i, 300), 300
            )
            for i in range(len(views))
        ]
        # OCR views are cached without their file: the page's fingerprint comes from it
        for scan, view in zip(scanned, views, strict=True):
            scan.fingerprint = view.fingerprint
        return scanned
    from PIL import Image, ImageOps

    with Image.open(path) as image:
        gray = np.asarray(ImageOps.exif_transpose(image).convert("L"), dtype=np.uint8).copy()
        dpi = int(image.info.get("dpi", (300, 300))[0] or 300)
    dpi = dpi if 70 <= dpi <= 1200 else 300
    view = _cached_ocr(entry["sha256"][:24], lambda: gray, dpi)
    view.fingerprint = next(iter(image_fingerprints(data)), frozenset())
    return [view]


def corpus_samples(corpus: Path, exclude: set[str] | None = None) -> list[Sample]:
    samples = []
    for entry in corpus_documents(corpus, task=None):
        if exclude and entry["id"] in exclude:
            continue
        for view in corpus_views(corpus, entry):
            samples.append(_sample(entry["doc_type"], view, f"corpus:{entry['id']}", "corpus"))
    return samples
