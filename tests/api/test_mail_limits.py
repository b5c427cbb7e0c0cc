"""The ``email`` upload parameter is bounded (issue 18, item 8): one plain address, no
header injection, a per-client quota, and the documented recipient rule."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from prefect_docai.server.embedded import EmbeddedService
from tests.api import documents
from tests.api.conftest import Api, problem
from tests.api.lifecycle_engine import ENGINES


@pytest.fixture(scope="module")
def service() -> Iterator[EmbeddedService]:
    with EmbeddedService(
        workers=1,
        engines=ENGINES,
        upload_rate_per_second=1000,
        mail_quota=2,
        mail_recipients="@example.com, boss@corp.example",
    ) as svc:
        yield svc


@pytest.fixture
def api(service: EmbeddedService) -> Iterator[Api]:
    client = Api(service, service.create_client("mail", credits=100))
    yield client
    client.close()


@pytest.mark.parametrize(
    "address",
    [
        "a@example.com\r\nBcc: victim@elsewhere.example",
        "a@example.com\nSubject: forged",
        "a@example.com, b@example.com",
        "Someone <a@example.com>",
        "a@example.com\x00",
    ],
)
def test_one_plain_address_only(api: Api, address: str) -> None:
    for where in ("form", "params"):
        response = api.upload("ToolICR", documents.pdf("x"), **{where: {"email": address}})
        assert response.status_code == 400, (where, response.text)
        assert problem(response)["code"] == "invalid_email"
    assert api.credits() == 100


def test_recipients_follow_the_configured_rule(api: Api) -> None:
    refused = api.upload("ToolICR", documents.pdf("x"), params={"email": "x@elsewhere.example"})
    assert refused.status_code == 400, refused.text
    assert problem(refused)["code"] == "recipient_not_allowed"
    assert api.upload("ToolICR", documents.pdf("x"), params={"email": "me@example.com"}).status_code == 201
    assert (
        api.upload("ToolICR", documents.pdf("y"), params={"email": "boss@corp.example"}).status_code
        == 201
    )


def test_mail_quota_per_client(api: Api, service: EmbeddedService) -> None:
    for i in range(2):
        ok = api.upload("ToolICR", documents.pdf(f"m{i}"), params={"email": "me@example.com"})
        assert ok.status_code == 201, ok.text
    over = api.upload("ToolICR", documents.pdf("m3"), params={"email": "me@example.com"})
    assert over.status_code == 429, over.text
    body = problem(over)
    assert body["code"] == "mail_quota_exceeded" and body["limit"] == 2
    assert int(over.headers["retry-after"]) > 0
    assert api.credits() == 98  # the refused upload was not charged
    # Without a mail the client can go on working.
    assert api.upload("ToolICR", documents.pdf("no mail")).status_code == 201
    # The quota is per client.
    other = Api(service, service.create_client("other", credits=10))
    try:
        assert other.upload("ToolICR", documents.pdf("o"), params={"email": "o@example.com"}).status_code == 201
    finally:
        other.close()
