"""Page features for the document-type classifier.

Three groups, all computed per page:

* text: the page's words, lower-cased with digits folded to ``0`` (amounts, dates and
  numbers then share n-grams across documents), hashed into word 1-2-grams and character
  3-5-grams. Hashing keeps the shipped model free of a vocabulary.
* layout: word density, line and column structure, font-size spread, where the text sits,
  the page's aspect ratio (receipts are long and narrow) and a few pattern counts.
* cues (``cues``): title words, the type vocabulary in German and English, dated
  transaction rows, priced item lines; the title words also enter the hashed text.
* image and handwriting: ink, ruling lines, checkbox-like boxes, stroke width and component
  shape from a 100 dpi raster, and the OCR confidence distribution (Tesseract reads
  handwriting with low and scattered confidence).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from prefect_docai.engines.doctype.cues import CUE_FEATURES, cue_features, title_tokens
from prefect_docai.engines.doctype.views import GrayImage, PageView

FloatArray = npt.NDArray[np.float64]

_DIGITS = re.compile(r"\d")
_AMOUNT = re.compile(r"^[-+]?\d{1,3}(?:[.,\s]?\d{3})*[.,]\d{2}-?$")
_DATE = re.compile(r"^\d{1,2}[./-]\d{1,2}[./-]\d{2,4}$|^\d{4}-\d{2}-\d{2}$")
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")
_PERCENT = re.compile(r"\d\s?%")
_IBAN = re.compile(r"\b[A-Z]{2}\d{2}(?:\s?[A-Z0-9]{4}){3,7}")
_ALPHA = re.compile(r"[A-Za-zÄÖÜäöüß]")

LAYOUT_FEATURES: tuple[str, ...] = (
    "log_words",
    "log_lines",
    "words_per_line",
    "word_density",
    "mean_word_len",
    "numeric_share",
    "amount_share",
    "date_share",
    "upper_share",
    "alpha_share",
    "font_size_mean",
    "font_size_cv",
    "font_size_max_ratio",
    "line_height_cv",
    "columns",
    "text_width",
    "text_height",
    "text_top",
    "top_share",
    "bottom_share",
    "right_aligned_share",
    "aspect",
    "emails",
    "percents",
    "ibans",
    "colon_share",
    "ocr_source",
    "conf_mean",
    "conf_std",
    "conf_low_share",
    "conf_q10",
    "odd_token_share",
)

IMAGE_FEATURES: tuple[str, ...] = (
    "has_image",
    "ink_ratio",
    "hlines",
    "hline_length",
    "vlines",
    "vline_length",
    "boxes",
    "stroke_mean",
    "stroke_cv",
    "cc_log_count",
    "cc_height_cv",
    "cc_wide_share",
    "cc_fill_mean",
    "row_profile_cv",
)

DENSE_FEATURES: tuple[str, ...] = LAYOUT_FEATURES + IMAGE_FEATURES + CUE_FEATURES


def normalize_text(text: str) -> str:
    """Lower case, digits folded to 0, whitespace collapsed."""
    return " ".join(_DIGITS.sub("0", text.lower()).split())


def layout_features(page: PageView) -> FloatArray:
    words = [w for w in page.words if w.text.strip()]
    n = len(words)
    out = np.zeros(len(LAYOUT_FEATURES), dtype=np.float64)
    aspect = page.height_pt / page.width_pt if page.width_pt > 0 else 1.414
    out[LAYOUT_FEATURES.index("aspect")] = math.log(max(aspect, 0.1))
    out[LAYOUT_FEATURES.index("ocr_source")] = 1.0 if page.source == "ocr" else 0.0
    if n == 0:
        out[LAYOUT_FEATURES.index("conf_mean")] = 0.0
        return out
    texts = [w.text for w in words]
    lines: dict[int, list[int]] = {}
    for i, w in enumerate(words):
        lines.setdefault(w.line, []).append(i)
    x0 = np.array([w.bbox[0] for w in words])
    y0 = np.array([w.bbox[1] for w in words])
    x1 = np.array([w.bbox[2] for w in words])
    y1 = np.array([w.bbox[3] for w in words])
    heights = np.clip(y1 - y0, 1e-4, None) * page.height_pt
    sizes = np.array([w.font_size if w.font_size else h for w, h in zip(words, heights, strict=True)])
    conf = np.array([w.confidence for w in words])
    area = float(max((x1.max() - x0.min()) * (y1.max() - y0.min()), 1e-3))

    def set_(name: str, value: float) -> None:
        out[LAYOUT_FEATURES.index(name)] = value

    set_("log_words", math.log1p(n))
    set_("log_lines", math.log1p(len(lines)))
    set_("words_per_line", n / max(len(lines), 1))
    set_("word_density", math.log1p(n / area))
    set_("mean_word_len", float(np.mean([len(t) for t in texts])))
    set_("numeric_share", sum(any(c.isdigit() for c in t) for t in texts) / n)
    set_("amount_share", sum(bool(_AMOUNT.match(t)) for t in texts) / n)
    set_("date_share", sum(bool(_DATE.match(t)) for t in texts) / n)
    set_("upper_share", sum(t.isupper() and len(t) > 1 for t in texts) / n)
    set_("alpha_share", sum(bool(_ALPHA.search(t)) for t in texts) / n)
    mean_size = float(np.mean(sizes))
    set_("font_size_mean", mean_size)
    set_("font_size_cv", float(np.std(sizes)) / max(mean_size, 1e-3))
    set_("font_size_max_ratio", float(np.max(sizes)) / max(float(np.median(sizes)), 1e-3))
    line_heights = np.array([float(np.median(heights[idx])) for idx in lines.values()])
    set_("line_height_cv", float(np.std(line_heights)) / max(float(np.mean(line_heights)), 1e-3))
    set_("columns", float(_column_count(x0, x1)))
    set_("text_width", float(x1.max() - x0.min()))
    set_("text_height", float(y1.max() - y0.min()))
    set_("text_top", float(y0.min()))
    set_("top_share", float(np.mean(y0 < 0.25)))
    set_("bottom_share", float(np.mean(y0 > 0.75)))
    set_("right_aligned_share", float(np.mean(x1 > 0.8)))
    joined = " ".join(texts)
    set_("emails", math.log1p(len(_EMAIL.findall(joined))))
    set_("percents", math.log1p(len(_PERCENT.findall(joined))))
    set_("ibans", math.log1p(len(_IBAN.findall(joined))))
    set_("colon_share", sum(t.endswith(":") for t in texts) / n)
    set_("conf_mean", float(np.mean(conf)))
    set_("conf_std", float(np.std(conf)))
    set_("conf_low_share", float(np.mean(conf < 0.6)))
    set_("conf_q10", float(np.quantile(conf, 0.1)))
    set_("odd_token_share", sum(_odd_token(t) for t in texts) / n)
    return out


def _odd_token(token: str) -> bool:
    """OCR garbage on handwriting: short tokens mixing letters with symbols or digits."""
    letters = sum(c.isalpha() for c in token)
    others = sum(not c.isalnum() for c in token)
    digits = sum(c.isdigit() for c in token)
    return letters > 0 and (others > letters or (digits > 0 and letters > 0 and len(token) <= 4))


def _column_count(x0: FloatArray, x1: FloatArray) -> int:
    """Vertical gutters: x bands no word covers, between covered bands."""
    bins = 60
    covered = np.zeros(bins, dtype=bool)
    for a, b in zip(x0, x1, strict=True):
        covered[int(max(a, 0) * bins) : int(min(b, 1) * bins) + 1] = True
    runs = 0
    previous = False
    for value in covered:
        if value and not previous:
            runs += 1
        previous = bool(value)
    return runs


def image_features(image: GrayImage | None) -> FloatArray:
    out = np.zeros(len(IMAGE_FEATURES), dtype=np.float64)
    if image is None or image.size == 0:
        return out
    import cv2

    def set_(name: str, value: float) -> None:
        out[IMAGE_FEATURES.index(name)] = value

    h, w = image.shape
    set_("has_image", 1.0)
    # No median filter: at 100 dpi ruling lines and checkbox outlines are one pixel wide.
    ink = (image < 150).astype(np.uint8)
    ink_ratio = float(ink.mean())
    set_("ink_ratio", ink_ratio)
    if ink_ratio < 1e-4:
        return out
    hk = cv2.getStructuringElement(cv2.MORPH_RECT, (max(w // 10, 8), 1))
    horizontal = cv2.morphologyEx(ink, cv2.MORPH_OPEN, hk)
    n_h, _, h_stats, _ = cv2.connectedComponentsWithStats(horizontal)
    set_("hlines", math.log1p(n_h - 1))
    set_("hline_length", float(h_stats[1:, cv2.CC_STAT_WIDTH].sum()) / w if n_h > 1 else 0.0)
    vk = cv2.getStructuringElement(cv2.MORPH_RECT, (1, max(h // 15, 8)))
    vertical = cv2.morphologyEx(ink, cv2.MORPH_OPEN, vk)
    n_v, _, v_stats, _ = cv2.connectedComponentsWithStats(vertical)
    set_("vlines", math.log1p(n_v - 1))
    set_("vline_length", float(v_stats[1:, cv2.CC_STAT_HEIGHT].sum()) / h if n_v > 1 else 0.0)

    _, _, stats, _ = cv2.connectedComponentsWithStats(ink)
    stats = stats[1:]
    widths = stats[:, cv2.CC_STAT_WIDTH].astype(np.float64)
    heights = stats[:, cv2.CC_STAT_HEIGHT].astype(np.float64)
    areas = stats[:, cv2.CC_STAT_AREA].astype(np.float64)
    keep = (areas >= 4) & (heights < h / 4) & (widths < w / 3)
    widths, heights, areas = widths[keep], heights[keep], areas[keep]
    # A checkbox at 100 dpi is a hollow square of about 2-6 mm.
    boxes = (
        (widths >= 7) & (widths <= 26) & (heights >= 7) & (heights <= 26)
        & (np.abs(widths - heights) <= 3) & (areas < 0.5 * widths * heights)
    )
    set_("boxes", math.log1p(int(boxes.sum())))
    set_("cc_log_count", math.log1p(len(areas)))
    if len(areas):
        set_("cc_height_cv", float(np.std(heights) / max(np.mean(heights), 1e-3)))
        set_("cc_wide_share", float(np.mean(widths > 2.5 * np.maximum(heights, 1))))
        set_("cc_fill_mean", float(np.mean(areas / np.maximum(widths * heights, 1))))
    dist = cv2.distanceTransform(ink, cv2.DIST_L2, 3)
    strokes = dist[ink > 0]
    if strokes.size:
        mean = float(strokes.mean())
        set_("stroke_mean", mean)
        set_("stroke_cv", float(strokes.std()) / max(mean, 1e-3))
    rows = ink.mean(axis=1)
    rows = rows[rows > 0]
    if rows.size:
        set_("row_profile_cv", float(rows.std() / max(rows.mean(), 1e-6)))
    return out


def dense_features(page: PageView, with_image: bool = True) -> FloatArray:
    image = page.image() if with_image else None
    return np.concatenate([layout_features(page), image_features(image), cue_features(page)])


def page_text(page: PageView) -> str:
    """The text the hashed features see: the page's words, then its title words marked
    (a title says what the document is; the same word in running text says less)."""
    return " ".join([normalize_text(page.text), *title_tokens(page)])


def page_texts(pages: Sequence[PageView]) -> list[str]:
    return [page_text(p) for p in pages]
