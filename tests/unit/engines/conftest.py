"""Shared small documents for engine tests (generated, never corpus copies).

Other engines' tests may use these fixtures; add your own in your own test files. Session
scope: each is built once per test run.
"""

from __future__ import annotations

import os

import pytest
from PIL import Image
from tests.docgen import make_text_pdf, rasterize

os.environ.setdefault("OMP_THREAD_LIMIT", "1")

A6 = (298.0, 420.0)
"""A small page keeps OCR fast (~0.3 s) while leaving OSD enough text to decide."""

ENGLISH_LINES = (
    "Invoice number 2024-0815",
    "The quick brown fox jumps",
    "over the lazy dog near",
    "the river bank today.",
    "Total amount 1234.56 EUR",
    "Payment due within 14 days",
    "Thank you for your order",
)

GERMAN_LINES = (
    "Rechnung für Herrn Jürgen Müller",
    "Größe der Lieferung: 12 Kartons",
    "Äpfel, Öl und Süßwaren",
    "Übergabe in der Hauptstraße 5",
    "Gesamtbetrag 99,50 Euro",
)


@pytest.fixture(scope="session")
def english_pdf() -> bytes:
    """A born-digital A6 page with :data:`ENGLISH_LINES`."""
    return make_text_pdf(list(ENGLISH_LINES), font_size=12, pagesize=A6, margin=24)


@pytest.fixture(scope="session")
def english_scan(english_pdf: bytes) -> Image.Image:
    """:func:`english_pdf` rendered at 300 dpi grayscale (a clean "scan")."""
    return rasterize(english_pdf, dpi=300)[0]


@pytest.fixture(scope="session")
def german_pdf() -> bytes:
    return make_text_pdf(list(GERMAN_LINES), font_size=12, pagesize=A6, margin=24)


@pytest.fixture(scope="session")
def german_scan(german_pdf: bytes) -> Image.Image:
    return rasterize(german_pdf, dpi=300)[0]
