"""One embedded service (real uvicorn, SQLite, outbox mail, the lifecycle test engines) and
a small browser stand-in for the web platform's tests: an httpx client with a cookie jar
that reads the CSRF token from each page and the links from the outbox mails."""

from __future__ import annotations

import email
import email.policy
import itertools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from prefect_docai.server.embedded import EmbeddedService
from tests.api.lifecycle_engine import ENGINES

PASSWORD = "violet-harbour-917"
_numbers = itertools.count(1)


@pytest.fixture(scope="session")
def terms_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("legal") / "terms.txt"
    path.write_text("Operator terms, first paragraph.\n\nSecond paragraph of the terms.\n")
    return path


@pytest.fixture(scope="session")
def web_service(terms_file: Path) -> Iterator[EmbeddedService]:
    with EmbeddedService(workers=1, engines=ENGINES, terms_file=terms_file) as service:
        yield service


def outbox_mails(service: EmbeddedService, to: str) -> list[email.message.EmailMessage]:
    mails = []
    for path in sorted(
        (service.settings.data_dir / "outbox").glob("account-*.eml"),
        key=lambda p: p.stat().st_mtime_ns,
    ):
        message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        assert isinstance(message, email.message.EmailMessage)
        if message["To"] == to:
            mails.append(message)
    return mails


def last_link(service: EmbeddedService, to: str, path: str) -> str:
    """The newest link to ``path`` in a mail to ``to`` (as a path + query on this site)."""
    for message in reversed(outbox_mails(service, to)):
        body = message.get_body(("plain",))
        assert body is not None
        found = re.search(r"https?://[^/\s]+(" + re.escape(path) + r"\S*)", body.get_content())
        if found:
            return found.group(1)
    raise AssertionError(f"no mail to {to} with a {path} link")


_browsers = itertools.count(1)


class Browser:
    """Each browser is a person at an address of its own (``X-Forwarded-For``, which uvicorn
    trusts from loopback), so the per-address throttles of one test leave the others alone."""

    def __init__(self, service: EmbeddedService, **headers: str) -> None:
        self.service = service
        n = next(_browsers)
        headers.setdefault("X-Forwarded-For", f"10.200.{n // 250}.{n % 250 + 1}")
        self.http = httpx.Client(base_url=service.base_url, timeout=30.0, headers=headers)
        self.csrf = ""

    def get(self, path: str, **kwargs: Any) -> httpx.Response:
        response = self.http.get(path, **kwargs)
        found = re.search(r'name="csrf-token" content="([^"]+)"', response.text)
        if found:
            self.csrf = found.group(1)
        return response

    def post(self, path: str, data: dict[str, str] | None = None, **kwargs: Any) -> httpx.Response:
        if not self.csrf:
            self.get("/login")
        return self.http.post(path, data={"csrf_token": self.csrf, **(data or {})}, **kwargs)

    def signup(self, address: str, password: str = PASSWORD, **fields: str) -> httpx.Response:
        self.get("/signup")
        form = {
            "first_name": "Ada",
            "last_name": "Lovelace",
            "email": address,
            "password": password,
            "consent": "yes",
            **fields,
        }
        return self.post("/signup", form)

    def login(self, address: str, password: str = PASSWORD) -> httpx.Response:
        self.get("/login")
        return self.post("/login", {"email": address, "password": password})

    def close(self) -> None:
        self.http.close()


def new_address() -> str:
    return f"person{next(_numbers)}-{id(object())}@example.org"


@pytest.fixture
def browser(web_service: EmbeddedService) -> Iterator[Browser]:
    made = Browser(web_service)
    yield made
    made.close()


@pytest.fixture
def make_browser(web_service: EmbeddedService) -> Iterator[Any]:
    made: list[Browser] = []

    def make(**headers: str) -> Browser:
        b = Browser(web_service, **headers)
        made.append(b)
        return b

    yield make
    for b in made:
        b.close()


def signed_up(service: EmbeddedService, browser: Browser, address: str | None = None) -> str:
    """A confirmed, signed-in account; returns its e-mail address."""
    address = address or new_address()
    assert browser.signup(address).status_code == 200
    assert browser.get(last_link(service, address, "/confirm")).status_code == 303
    assert browser.login(address).status_code == 303
    return address


@pytest.fixture
def user(web_service: EmbeddedService, browser: Browser) -> Browser:
    signed_up(web_service, browser)
    return browser
