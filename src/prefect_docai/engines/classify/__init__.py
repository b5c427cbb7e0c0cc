"""ToolClassify: twelve document types from text, layout and handwriting cues."""

from prefect_docai.engines.classify.engine import ClassifyEngine

__all__ = ["ClassifyEngine"]
