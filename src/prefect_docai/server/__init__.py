"""The document-AI service (FastAPI + uvicorn): auth, uploads, jobs, results, credits, mail.

``create_app(settings)`` builds the ASGI app; ``EmbeddedService`` runs it on loopback in a
background thread; ``docai serve`` runs it in the foreground. Never imports Prefect.
"""

from __future__ import annotations

from prefect_docai.server.settings import Settings

__all__ = ["Settings"]
