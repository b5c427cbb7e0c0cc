"""ICR: the page model's words, lines and text, plus searchable PDF and plain-text files."""

from prefect_docai.engines.icr.engine import IcrEngine

__all__ = ["IcrEngine"]
