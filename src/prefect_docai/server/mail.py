"""E-mail of results: when a job with ``email`` ends, its result goes out over SMTP.

Without ``DOCAI_SMTP_URL`` messages are written as ``.eml`` files into ``<data_dir>/outbox``.
Delivery state lives on the job row, so pending mails survive a restart; failures are
retried with exponential backoff and never change the job's outcome.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import smtplib
import ssl
from dataclasses import dataclass
from datetime import timedelta
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from urllib.parse import parse_qs, unquote, urlsplit

from prefect_docai.server import jobstore, storage
from prefect_docai.server.db import JobFileRow, JobRow, utcnow
from prefect_docai.server.diskspace import is_disk_full
from prefect_docai.server.envelope import build_envelope
from prefect_docai.server.resources import Resources
from prefect_docai.server.settings import Settings
from prefect_docai.server.storage import private_dirs

log = logging.getLogger("prefect_docai.server.mail")

_SENDING_LEASE = timedelta(minutes=5)


@dataclass(frozen=True)
class SmtpTarget:
    host: str
    port: int
    mode: str  # "plain" | "starttls" | "tls"
    username: str | None
    password: str | None
    cafile: str | None
    timeout: float


def parse_smtp_url(url: str) -> SmtpTarget:
    """``smtp://[user:pass@]host[:25]``, ``smtp+starttls://…[:587]``, ``smtps://…[:465]``."""
    parts = urlsplit(url)
    modes = {"smtp": ("plain", 25), "smtp+starttls": ("starttls", 587), "smtps": ("tls", 465)}
    if parts.scheme not in modes or not parts.hostname:
        raise ValueError(
            "DOCAI_SMTP_URL must look like smtp://host:25, smtp+starttls://host:587 or smtps://host:465"
        )
    mode, default_port = modes[parts.scheme]
    query = parse_qs(parts.query)
    return SmtpTarget(
        host=parts.hostname,
        port=parts.port or default_port,
        mode=mode,
        username=unquote(parts.username) if parts.username else None,
        password=unquote(parts.password) if parts.password else None,
        cafile=query.get("cafile", [None])[0],
        timeout=float(query.get("timeout", ["30"])[0]),
    )


def send_smtp(target: SmtpTarget, message: EmailMessage) -> None:
    context = ssl.create_default_context(cafile=target.cafile)
    client: smtplib.SMTP
    if target.mode == "tls":
        client = smtplib.SMTP_SSL(target.host, target.port, timeout=target.timeout, context=context)
    else:
        client = smtplib.SMTP(target.host, target.port, timeout=target.timeout)
    with client:
        client.ehlo()
        if target.mode == "starttls":
            client.starttls(context=context)
            client.ehlo()
        if target.username is not None:
            client.login(target.username, target.password or "")
        client.send_message(message)


def send_message(settings: Settings, name: str, message: EmailMessage) -> None:
    """One message over SMTP, or into the outbox as ``<name>.eml`` without SMTP (result mails
    and the web platform's account mails alike)."""
    if settings.smtp_url is not None:
        send_smtp(parse_smtp_url(settings.smtp_url.get_secret_value()), message)
        return
    outbox = settings.outbox_dir
    private_dirs(outbox)
    tmp = outbox / f"{name}.eml.part"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(message.as_bytes())
    tmp.replace(outbox / f"{name}.eml")


class MailSender:
    def __init__(self, resources: Resources) -> None:
        self.resources = resources
        self.settings = resources.settings
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self.resources.mail_wake.connect(self.notify)
        self._task = asyncio.create_task(self._loop(), name="docai-mail")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    def notify(self) -> None:
        self._wake.set()

    async def _loop(self) -> None:
        while True:
            try:
                while (job_id := await asyncio.to_thread(self._claim)) is not None:
                    await asyncio.to_thread(self._deliver, job_id)
            except Exception as exc:
                if is_disk_full(exc):
                    self.resources.storage_guard.report(exc)
                else:
                    log.exception("mail loop failed; retrying")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=1.0)
            self._wake.clear()

    def _claim(self) -> str | None:
        return jobstore.claim_mail(self.resources.db, _SENDING_LEASE)

    def _deliver(self, job_id: str) -> None:
        db = self.resources.db
        job = jobstore.get_job(db, job_id)
        if job is None:
            return
        files = jobstore.get_job_files(db, job_id)
        try:
            self.send(job_id, self.compose(job, files))
        except Exception as exc:
            if is_disk_full(exc):
                # The outbox volume is full: not the message's fault, so no attempt is used.
                self.resources.storage_guard.report(exc)
                retry = utcnow() + timedelta(seconds=self.resources.storage_guard.retry_after)
                with contextlib.suppress(Exception):
                    jobstore.postpone_mail(db, job_id, retry)
                return
            # Never log the exception text verbatim from smtplib's login: it may echo input.
            error = f"{type(exc).__name__}"
            attempts = job.email_attempts
            final = attempts >= self.settings.mail_max_attempts
            delay = self.settings.mail_backoff * (2 ** (attempts - 1))
            retry_at = None if final else utcnow() + timedelta(seconds=delay)
            jobstore.mail_failed(db, job_id, error, retry_at)
            log.warning(
                "job %s: mail attempt %d failed (%s)%s",
                job_id,
                attempts,
                error,
                "; giving up" if final else "",
            )
            return
        jobstore.mail_sent(db, job_id)

    def send(self, name: str, message: EmailMessage) -> None:
        send_message(self.settings, name, message)

    def compose(self, job: JobRow, files: list[JobFileRow]) -> EmailMessage:
        prefix = self.settings.tool_prefix
        message = EmailMessage()
        message["From"] = self.settings.smtp_from
        message["To"] = job.email or ""
        message["Date"] = formatdate(localtime=False)
        message["Message-ID"] = make_msgid(domain="prefect-docai")
        tool = f"{prefix}{job.tool}"
        if job.status == "succeeded":
            message["Subject"] = f"{tool} result for {job.file_name}"
            body = (
                f"Your document {job.file_name!r} was processed by {tool}.\n"
                f"Job: {job.id}\nPages: {job.page_count}\nCredits charged: {job.credits_charged}\n\n"
                "The requested results are attached.\n"
            )
        else:
            message["Subject"] = f"{tool} could not process {job.file_name}"
            body = (
                f"Your document {job.file_name!r} could not be processed by {tool}.\n"
                f"Job: {job.id}\nReason ({job.error_code}): {job.error_detail}\n"
                "No credits were charged.\n"
            )
        message.set_content(body)
        if job.status != "succeeded":
            return message
        store = self.resources.blobs
        result = json.loads(store.get(storage.result_key(job.id)))
        requested = [f for f in job.output_formats.split(",") if f]
        for fmt in requested:
            if fmt == "JSON":
                envelope = build_envelope(job, result, prefix).to_json_dict()
                message.add_attachment(
                    json.dumps(envelope, ensure_ascii=False, indent=2).encode(),
                    maintype="application",
                    subtype="json",
                    filename="result.json",
                )
                continue
            for file in files:
                if file.output_type == fmt:
                    maintype, _, subtype = file.media_type.partition("/")
                    message.add_attachment(
                        store.get(file.path),
                        maintype=maintype or "application",
                        subtype=subtype or "octet-stream",
                        filename=file.name,
                    )
        return message
