"""E-mail of results through a real SMTP server (aiosmtpd on loopback): plain + AUTH,
STARTTLS, retries with backoff, the outbox without SMTP, and failures that never fail a job."""

from __future__ import annotations

import datetime as dt
import email
import ipaddress
import socket
import time
from collections.abc import Iterator
from email.message import EmailMessage
from email.policy import default as default_policy
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

from prefect_docai.server.db import Database, JobRow
from prefect_docai.server.embedded import EmbeddedService
from tests.api import documents
from tests.api.conftest import Api
from tests.api.lifecycle_engine import ENGINES


class Inbox:
    """aiosmtpd handler: keeps messages; refuses the first ``fail_first`` deliveries."""

    def __init__(self, fail_first: int = 0) -> None:
        self.messages: list[EmailMessage] = []
        self.logins: list[str] = []
        self.fail_first = fail_first
        self.attempts = 0

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.attempts += 1
        if self.attempts <= self.fail_first:
            return "451 4.3.0 try again later"
        message = email.message_from_bytes(envelope.content, policy=default_policy)
        assert isinstance(message, EmailMessage)
        self.messages.append(message)
        return "250 OK"

    def authenticate(
        self, server: Any, session: Any, envelope: Any, mechanism: str, auth_data: Any
    ) -> AuthResult:
        if (
            isinstance(auth_data, LoginPassword)
            and auth_data.login == b"mailer"
            and auth_data.password == b"s3cret"
        ):
            self.logins.append(auth_data.login.decode())
            return AuthResult(success=True)
        return AuthResult(success=False, handled=False)

    def wait(self, count: int = 1, timeout: float = 30) -> list[EmailMessage]:
        deadline = time.monotonic() + timeout
        while len(self.messages) < count:
            assert time.monotonic() < deadline, f"{len(self.messages)} of {count} mails arrived"
            time.sleep(0.05)
        return self.messages


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _self_signed(tmp: Path) -> tuple[Path, Path]:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = dt.datetime.now(dt.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(hours=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = tmp / "cert.pem", tmp / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


@pytest.fixture
def smtp_plain() -> Iterator[tuple[Inbox, int]]:
    inbox = Inbox(fail_first=1)
    port = _free_port()
    controller = Controller(
        inbox,
        hostname="127.0.0.1",
        port=port,
        authenticator=inbox.authenticate,
        auth_require_tls=False,
    )
    controller.start()
    yield inbox, port
    controller.stop()


def _attachments(message: EmailMessage) -> dict[str, bytes]:
    found: dict[str, bytes] = {}
    for part in message.iter_attachments():
        assert isinstance(part, EmailMessage)
        payload = part.get_payload(decode=True)
        assert isinstance(payload, bytes)
        found[str(part.get_filename())] = payload
    return found


def _job_row(service: EmbeddedService, job_id: str) -> JobRow:
    db = Database(service.settings.sqlalchemy_url)
    try:
        with db.session() as session:
            job = session.get(JobRow, job_id)
            assert job is not None
            return job
    finally:
        db.dispose()


def test_result_mailed_with_attachments_after_a_retry(smtp_plain: tuple[Inbox, int]) -> None:
    inbox, port = smtp_plain
    with EmbeddedService(
        workers=1,
        engines=ENGINES,
        smtp_url=f"smtp://mailer:s3cret@127.0.0.1:{port}",
        mail_backoff=0.3,
    ) as service:
        api = Api(service, service.create_client(credits=10))
        data = documents.pdf("mail me")
        job_id = api.job(
            "ToolICR",
            data,
            params={"email": "Someone@Example.com", "outputFormats": "PDF,TEXT,JSON"},
        )
        assert api.wait(job_id).json()["status"] == "succeeded"
        (message,) = inbox.wait(1)
        failed = api.job(
            "ToolClassify", documents.pdf("FAIL"), form={"email": "someone@example.com"}
        )
        assert api.wait(failed).json()["status"] == "failed"
        second = inbox.wait(2)[1]
        row = _job_row(service, job_id)
        api.close()
    assert inbox.attempts == 3  # the first delivery was refused with 451 and retried
    assert row.email_status == "sent" and row.email_attempts == 2
    assert inbox.logins and set(inbox.logins) == {"mailer"}
    assert message["To"] == "Someone@example.com"
    assert "ToolICR" in message["Subject"]
    files = _attachments(message)
    assert set(files) == {"document.pdf", "document.txt", "result.json"}
    assert files["document.pdf"] == data
    assert files["document.txt"] == b"mail me"
    assert b'"jobId": "' + job_id.encode() + b'"' in files["result.json"]
    assert "could not process" in second["Subject"]
    body = second.get_body(("plain",))
    assert body is not None and "test_failure" in body.get_content()


def test_starttls(tmp_path: Path) -> None:
    import ssl

    cert, key = _self_signed(tmp_path)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    inbox = Inbox()
    port = _free_port()
    controller = Controller(
        inbox,
        hostname="127.0.0.1",
        port=port,
        tls_context=context,
        require_starttls=True,
        authenticator=inbox.authenticate,
    )
    controller.start()
    try:
        url = f"smtp+starttls://mailer:s3cret@127.0.0.1:{port}?cafile={cert}"
        with EmbeddedService(workers=1, engines=ENGINES, smtp_url=url) as service:
            api = Api(service, service.create_client(credits=10))
            job_id = api.job(
                "ToolClassify", documents.pdf("tls"), params={"email": "a@example.com"}
            )
            assert api.wait(job_id).json()["status"] == "succeeded"
            (message,) = inbox.wait(1)
            api.close()
    finally:
        controller.stop()
    assert set(_attachments(message)) == {"result.json"}  # Classify's default format is JSON
    assert inbox.logins == ["mailer"]


def test_unreachable_smtp_never_fails_the_job() -> None:
    port = _free_port()  # nothing listens here
    with EmbeddedService(
        workers=1,
        engines=ENGINES,
        smtp_url=f"smtp://127.0.0.1:{port}?timeout=2",
        mail_backoff=0.1,
        mail_max_attempts=3,
    ) as service:
        api = Api(service, service.create_client(credits=10))
        job_id = api.job("ToolClassify", documents.pdf("x"), params={"email": "a@example.com"})
        assert api.wait(job_id).json()["status"] == "succeeded"
        deadline = time.monotonic() + 20
        while (row := _job_row(service, job_id)).email_status != "failed":
            assert time.monotonic() < deadline, row.email_status
            time.sleep(0.1)
        assert api.result(job_id).json()["status"] == "succeeded"
        assert api.credits() == 9
        api.close()
    assert row.email_attempts == 3
    assert row.email_error == "ConnectionRefusedError"


def test_outbox_without_smtp(service: EmbeddedService, api: Api) -> None:
    job_id = api.job("ToolTableExtraction", documents.pdf("t"), params={"email": "b@example.com"})
    assert api.wait(job_id).status_code == 200
    path = service.settings.data_dir / "outbox" / f"{job_id}.eml"
    deadline = time.monotonic() + 20
    while not path.exists():
        assert time.monotonic() < deadline
        time.sleep(0.05)
    message = email.message_from_bytes(path.read_bytes(), policy=default_policy)
    assert isinstance(message, EmailMessage)
    assert message["To"] == "b@example.com"
    assert set(_attachments(message)) == {"table-0.csv"}
