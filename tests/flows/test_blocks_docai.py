"""DocAICredentials: Prefect's standard block checks, registration, storage of the secret,
and the fleet-wide rate limit it wires into the client."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from prefect import get_client
from prefect.blocks.core import Block
from prefect.concurrency.asyncio import ConcurrencySlotAcquisitionError
from prefect.testing.standard_test_suites import BlockStandardTestSuite
from pydantic import SecretStr
from tests.unit.client.echo_engine import ENGINES
from typer.testing import CliRunner

import prefect_docai
from prefect_docai.blocks import DocAICredentials
from prefect_docai.cli import app
from prefect_docai.server.embedded import EmbeddedService


class TestDocAICredentialsStandard(BlockStandardTestSuite):
    @pytest.fixture
    def block(self) -> type[Block]:
        return DocAICredentials

    @pytest.mark.skip(reason="offline: the logo check downloads the image")
    def test_has_a_valid_image(self, block: type[Block]) -> None:
        raise AssertionError("skipped")


@pytest.fixture(scope="module")
def service() -> Iterator[EmbeddedService]:
    with EmbeddedService(workers=1, engines=ENGINES, retry_after=1) as svc:
        yield svc


def credentials_for(service: EmbeddedService, **overrides: object) -> DocAICredentials:
    creds = service.create_client("block-tests", credits=100)
    values: dict[str, object] = {
        "client_id": creds.client_id,
        "client_secret": creds.client_secret,
        "base_url": service.base_url,
        "token_url": service.token_url,
    }
    return DocAICredentials(**(values | overrides))  # type: ignore[arg-type]


def test_found_through_the_prefect_collections_entry_point() -> None:
    from prefect.plugins import load_prefect_collections

    collections = load_prefect_collections()
    assert collections["prefect_docai"] is prefect_docai
    assert Block.get_block_class_from_key("docai-credentials") is DocAICredentials
    assert "DocAICredentials" in dir(prefect_docai)


def test_saved_block_keeps_the_secret_secret(service: EmbeddedService) -> None:
    block = credentials_for(service)
    secret = block.client_secret.get_secret_value()
    block.save("docai-test-secret", overwrite=True)

    loaded = DocAICredentials.load("docai-test-secret")
    assert isinstance(loaded, DocAICredentials)
    assert loaded.client_secret.get_secret_value() == secret
    assert secret not in repr(loaded) and secret not in str(loaded)
    with get_client(sync_client=True) as client:
        document = client.read_block_document_by_name(
            "docai-test-secret", "docai-credentials", include_secrets=False
        )
    assert secret not in str(document.data)
    with loaded.get_sync_client() as docai:
        assert docai.get_credits() == 100


def test_get_client_configures_the_client(service: EmbeddedService) -> None:
    block = credentials_for(
        service,
        tool_prefix="Tool",
        auth_method="client_secret_basic",
        token_header="accessToken",
        tool_requests_per_second={"ICR": 0.5},
    )
    config = block.client_config()
    assert config.tool_requests_per_second == {"ICR": 0.5}
    assert config.token_url == service.token_url
    assert config.auth_method == "client_secret_basic" and config.token_header == "accessToken"
    assert isinstance(config.client_secret, SecretStr)
    defaulted = credentials_for(service, token_url=None).client_config()
    assert defaulted.token_url == f"{service.base_url}/oauth/token"


def test_missing_global_limit_fails_instead_of_not_limiting(service: EmbeddedService) -> None:
    block = credentials_for(service, concurrency_limit_name="docai-no-such-limit")
    with block.get_sync_client() as client, pytest.raises(ConcurrencySlotAcquisitionError):
        client.get_credits()


def test_create_limits_cli_then_requests_share_the_fleet_rate(service: EmbeddedService) -> None:
    result = CliRunner().invoke(
        app, ["prefect", "create-limits", "--name", "docai-test-fleet", "--rate", "4"]
    )
    assert result.exit_code == 0, result.output
    assert "docai-test-fleet" in result.output
    with get_client(sync_client=True) as client:
        limit = client.read_global_concurrency_limit_by_name("docai-test-fleet")
    assert limit.active and limit.limit == 1 and limit.slot_decay_per_second == 4

    # Unpaced locally: only the Prefect limit holds the requests back.
    block = credentials_for(
        service, requests_per_second=None, concurrency_limit_name="docai-test-fleet"
    )
    block.save("docai-test-fleet-block", overwrite=True)
    with block.get_sync_client() as client:
        started = time.monotonic()
        for _ in range(5):
            client.get_credits()
        elapsed = time.monotonic() - started
    assert elapsed >= 4 / 4 * 0.9

    # The block's own settings can drive the command.
    again = CliRunner().invoke(
        app, ["prefect", "create-limits", "--credentials", "docai-test-fleet-block"]
    )
    assert again.exit_code == 0, again.output
    with get_client(sync_client=True) as client:
        limit = client.read_global_concurrency_limit_by_name("docai-test-fleet")
    # The block paces nothing locally (requests_per_second=None): the default 1/s applies.
    assert limit.slot_decay_per_second == 1
