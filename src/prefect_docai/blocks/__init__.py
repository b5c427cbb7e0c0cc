"""Prefect blocks of prefect-docai."""

from prefect_docai.blocks.credentials import DocAICredentials, prefect_rate_limit

__all__ = ["DocAICredentials", "prefect_rate_limit"]
