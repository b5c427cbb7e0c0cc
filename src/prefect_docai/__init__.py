"""prefect-docai: a self-hostable document-AI service and the Prefect 3 integration that drives it."""

__version__ = "0.1.0"
