"""ToolTableExtraction: ruled and unruled tables from born-digital and scanned pages."""

from prefect_docai.engines.tables.engine import TableEngine

__all__ = ["TableEngine"]
