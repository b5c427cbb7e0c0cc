"""The document-AI service (FastAPI + uvicorn): auth, uploads, jobs, results, credits, mail.

``app.create_app(settings)`` builds the ASGI app; ``embedded.EmbeddedService`` runs it on
loopback in a background thread; ``docai serve`` runs it in the foreground. Never imports
Prefect.

Decisions on what the spec leaves open (see also the OpenAPI document at /openapi.json):

* Errors are RFC 9457 ``application/problem+json`` with a stable ``code``; the token
  endpoint answers RFC 6749 ``{"error", "error_description"}``.
* A result asked for too early is 404 ``job_pending`` with ``jobStatus`` (queued or
  processing), ``retryAfter`` and a ``Retry-After`` header; unknown ids and other clients'
  jobs are 404 ``job_not_found``; purged results are 404 ``job_expired``.
* A failed job's JSON result is 200 with ``status: failed`` and ``error{code, detail}``; its
  ZIP and files are 409 ``job_failed``. Its credits are refunded.
* Uploads: 1 credit per page reserved in the upload's transaction; ``Idempotency-Key`` per
  client (same key + same file and tool → same job, 409 for a different upload); a token
  bucket per client and tool (in-process: each replica counts its own requests).
* Jobs run in a pool of ``spawn`` worker processes; a processing job holds a lease renewed
  by its runner, so a stopped service hands it back and a crashed one lets it expire and
  any runner requeues it; completion is guarded by the lease (a job completes once).
* Replicas share one PostgreSQL database (``DOCAI_DATABASE_URL=postgresql://…``, psycopg 3)
  and one storage URL; they claim queued jobs with ``FOR UPDATE SKIP LOCKED``. Inputs no
  queued or processing job needs (a crash between storing an upload and committing its
  job) are swept by the purge after ``DOCAI_ORPHAN_GRACE``.
* ``docai serve`` stops on the first Ctrl+C or SIGTERM, also while it is starting.
"""

from __future__ import annotations

from prefect_docai.server.settings import Settings

__all__ = ["Settings"]
