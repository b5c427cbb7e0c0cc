"""Separator pages: blank sheets and barcode/QR separator sheets.

A separator belongs to no document; it forces a boundary (a barcode sheet) or is strong
evidence for one (a blank page, which may also be the empty back of a duplex scan, so the
boundary scorer weighs it together with the other signals).
"""

from __future__ import annotations

import numpy as np

from prefect_docai.engines.doctype.views import GrayImage

BARCODE_DPI = 150
MAX_SEPARATOR_WORDS = 30
"""A separator sheet carries a code and a few words at most; pages with more text (an
invoice with a payment QR code) are never separators."""


def ink_ratio(image: GrayImage) -> float:
    """Share of dark pixels after removing speckle (median + opening: scan noise on a
    blank page otherwise reads as ink)."""
    import cv2

    smooth = cv2.medianBlur(image, 3)
    dark = (smooth < 160).astype(np.uint8)
    ink = np.asarray(cv2.morphologyEx(dark, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8)))
    # Ignore a thin frame: scanner edges and punch holes are not content.
    h, w = ink.shape
    my, mx = max(h // 30, 1), max(w // 30, 1)
    return float(ink[my : h - my, mx : w - mx].mean())


def is_blank(image: GrayImage | None, words: int) -> bool:
    if words > 2:
        return False
    if image is None:
        return words == 0
    return ink_ratio(image) < 0.002


def barcodes(image: GrayImage) -> list[str]:
    """Payloads of QR codes and 1-D barcodes on the page (zbar)."""
    from PIL import Image
    from pyzbar import pyzbar

    found = pyzbar.decode(Image.fromarray(image))
    return [item.data.decode("utf-8", "replace") for item in found]
