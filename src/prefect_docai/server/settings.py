"""Service settings from ``DOCAI_*`` environment variables (pydantic-settings)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from prefect_docai.engines import pluginspec
from prefect_docai.models.tools import Tool


def _cpu_count() -> int:
    return max(
        1,
        len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1),
    )


class Settings(BaseSettings):
    """Everything the service reads from its environment.

    Durations are in seconds. ``database_url`` and ``storage_url`` default to places inside
    ``data_dir`` (SQLite file and a ``blobs`` folder); set them to PostgreSQL and an object
    store (``s3://…``) to run several stateless replicas.
    """

    model_config = SettingsConfigDict(env_prefix="DOCAI_", extra="ignore")

    data_dir: Path = Path("docai-data")
    database_url: SecretStr | None = None
    """SQLAlchemy URL; ``postgresql://user:pass@host/db`` (psycopg 3) lets replicas share
    one database. A secret: it usually carries a password."""
    storage_url: str | None = None
    storage_options: dict[str, Any] = {}
    """fsspec options for ``storage_url`` as JSON, e.g. ``{"endpoint_url": "http://minio:9000"}``."""
    tool_prefix: str = "Tool"
    token_path: str = "/oauth/token"
    issuer: str = "prefect-docai"
    audience: str = "prefect-docai"
    token_ttl: int = Field(default=300, gt=0)
    workers: int = Field(default_factory=_cpu_count, ge=1)
    worker_memory_limit: int | None = Field(default=None, ge=0)
    """Bytes of data (heap and private mappings) one worker process may use; a document
    that needs more fails with ``out_of_memory`` and is refunded. Unset: 80% of the machine's
    memory shared by the workers and the API process; 0: no limit."""
    upload_rate_per_second: float = Field(default=1.0, gt=0)
    """Accepted uploads per second per client and tool, counted in the database (every
    replica sees the same count); a refused upload (bad input, no credits) does not count."""
    upload_burst: int = Field(default=1, ge=1)
    """Uploads of a client and tool accepted at once: at most ``upload_burst`` in any
    ``upload_burst / upload_rate_per_second`` seconds (1: uploads ``1/rate`` apart). Set it
    to the number of processes that share one client id and pace themselves independently
    (e.g. Dask workers), so that two uploads arriving close together are not refused."""
    max_pages_per_job: int = Field(default=2000, ge=1)
    """Pages one upload may have; more → 400 ``too_many_pages``, nothing charged."""
    big_job_pages: int = Field(default=20, ge=1)
    """A job costing more page units is big (a unit is a PDF page, or 8.7 million pixels of
    an image: ``server/cost.py``): big jobs get at most ``workers - 1`` of a replica's
    workers, so one is always left for small ones."""
    batch_pages: int = Field(default=25, ge=1)
    """A longer ICR job runs this many pages at a time: between two batches its worker is
    free and the next turn (maybe another account's) is taken; the batches' outputs are
    then merged into the one result a single run gives. ``job_timeout`` bounds each batch."""
    token_failures_burst: int = Field(default=10, ge=1)
    token_failures_per_second: float = Field(default=0.2, gt=0)
    """Failed token requests per client id: ``token_failures_burst`` at once, then one per
    ``1 / token_failures_per_second`` seconds (429 ``slow_down`` with Retry-After); only
    failures count, and the limit lifts by itself once they stop."""
    address_failures_burst: int = Field(default=30, ge=1)
    address_failures_per_second: float = Field(default=1.0, gt=0)
    """The same per client address, across client ids (behind a proxy: run uvicorn with
    ``--proxy-headers`` so the address is the client's)."""
    min_free_bytes: int = Field(default=128 * 1024 * 1024, ge=0)
    """Space kept free on the local volumes the service writes (data folder, SQLite file,
    blob folder): below it uploads get 507 ``storage_full`` + Retry-After, ``/readyz`` is not
    ready and no job is claimed, so the jobs already running can still store their results."""
    max_upload_bytes: int = Field(default=10 * 1024 * 1024, gt=0)
    result_ttl: float = Field(default=24 * 3600, gt=0)
    """Results nobody downloaded, outbox mail and job details are deleted this long after a
    job ended; the row then keeps only owner, tool, pages, credits and times (billing)."""
    download_grace: float = Field(default=300.0, ge=0)
    """A downloaded result is deleted this long after its first download (time to fetch the
    job's other formats), or at ``result_ttl`` if that comes first."""
    purge_interval: float = Field(default=600, gt=0)
    orphan_grace: float = Field(default=3600, gt=0)
    """An uploaded input no queued or processing job refers to is deleted once it is this
    old: a crash between storing an upload and committing its job leaves one behind. Keep it
    well above the longest upload transaction (pool and lock waits: about 90 s)."""
    smtp_url: SecretStr | None = None
    """``smtp://user:pass@host:25``, ``smtp+starttls://…:587`` or ``smtps://…:465``; query
    ``?cafile=/path.pem`` trusts a private CA. Unset: mails go to ``<data_dir>/outbox``."""
    smtp_from: str = "prefect-docai <docai@localhost>"
    mail_quota: int = Field(default=50, ge=0)
    """Uploads with ``email`` per account in any 24 hours; more → 429 ``mail_quota_exceeded``."""
    mail_recipients: str = "*"
    """Who ``email`` may name, comma-separated: ``*`` anyone, ``@example.com`` a domain,
    ``name@example.com`` one address, ``confirmed`` the account's own confirmed address.
    Anything else → 400 ``recipient_not_allowed``."""
    mail_max_attempts: int = Field(default=5, ge=1)
    mail_backoff: float = Field(default=30.0, gt=0)
    """Delay before the first mail retry; doubles per attempt."""
    job_lease_seconds: float = Field(default=30.0, gt=0)
    """A processing job whose owner stopped renewing it this long is requeued (crash recovery)."""
    job_poll_seconds: float = Field(default=0.5, gt=0)
    """Idle job runners look for queued jobs this often. On PostgreSQL a job queued on any
    replica also wakes every replica's runner at once (LISTEN/NOTIFY, ``jobwake.py``)."""
    job_timeout: float = Field(default=900.0, gt=0)
    max_job_attempts: int = Field(default=3, ge=1)
    retry_after: int = Field(default=2, ge=1)
    """Seconds a client is told to wait before asking again for a pending result."""
    signup_credits: int = Field(default=50, ge=0)
    """Credits a new web-platform account gets once its e-mail is confirmed."""
    public_url: str | None = None
    """The address people open the web platform at (``https://docai.example.com``); links in
    account mails start with it. Unset: the address of the request (fine on one host; set it
    behind a proxy, so a forged ``Host`` header cannot redirect a reset link)."""
    terms_file: Path | None = None
    """A UTF-8 text file whose paragraphs replace the built-in terms of use."""
    privacy_file: Path | None = None
    """A UTF-8 text file whose paragraphs replace the built-in privacy policy."""
    session_ttl: int = Field(default=14 * 24 * 3600, gt=0)
    """Seconds a web sign-in lasts."""
    login_failures_burst: int = Field(default=5, ge=1)
    """Failed web sign-ins per e-mail address allowed at once …"""
    login_failures_per_second: float = Field(default=1 / 60, gt=0)
    """… then one per 1/rate seconds; the address limit is ``address_failures_*``."""
    engines: str = ""
    """``DOCAI_ENGINES``: ``"ICR=pkg.mod:Class,…"`` replaces engines (see engines/pluginspec.py)."""

    @field_validator("token_path")
    @classmethod
    def _leading_slash(cls, value: str) -> str:
        return value if value.startswith("/") else "/" + value

    @property
    def worker_memory_bytes(self) -> int | None:
        if self.worker_memory_limit is not None:
            return self.worker_memory_limit or None
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
        return int(total * 0.8 / (self.workers + 1))

    @property
    def sqlalchemy_url(self) -> str:
        if self.database_url is not None:
            return self.database_url.get_secret_value()
        return f"sqlite:///{(self.data_dir / 'docai.sqlite3').resolve()}"

    @property
    def blob_url(self) -> str:
        return self.storage_url or str((self.data_dir / "blobs").resolve())

    @property
    def outbox_dir(self) -> Path:
        return self.data_dir / "outbox"

    @property
    def key_path(self) -> Path:
        return self.data_dir / "jwt-signing-key.pem"

    def engine_overrides(self) -> dict[Tool, str]:
        """Parsed ``engines``; raises ``ValueError`` on a malformed entry."""
        return pluginspec.parse_engine_overrides(self.engines)

    def engine_path(self, tool: Tool) -> str:
        return self.engine_overrides().get(tool) or pluginspec.engine_path(tool)
