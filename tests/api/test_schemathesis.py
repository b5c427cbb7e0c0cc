"""Property-based requests generated from /openapi.json: the service never answers 5xx.

Schemathesis' pytest plugin does not work with this pytest (it sets ``node._nodeid``), so the
operations are driven through its strategies directly, one bounded Hypothesis run each.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.core.result import Ok

from prefect_docai.server.embedded import EmbeddedService
from tests.api.conftest import Api
from tests.api.lifecycle_engine import ALL_ENGINES

EXAMPLES_PER_OPERATION = 15


@pytest.fixture(scope="module")
def fuzz_service() -> Iterator[tuple[EmbeddedService, str]]:
    with EmbeddedService(workers=1, engines=ALL_ENGINES, upload_rate_per_second=1000) as service:
        api = Api(service, service.create_client("fuzz", credits=1_000_000))
        token = api.token
        api.close()
        yield service, token


def test_no_server_errors(fuzz_service: tuple[EmbeddedService, str]) -> None:
    service, token = fuzz_service
    schema = schemathesis.openapi.from_url(service.base_url + "/openapi.json")
    operations = []
    for result in schema.get_all_operations():
        assert isinstance(result, Ok), f"the schema has an invalid operation: {result}"
        operations.append(result.ok())
    assert len(operations) >= 9
    seen: list[tuple[str, int]] = []

    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(
            max_examples=EXAMPLES_PER_OPERATION,
            deadline=None,
            derandomize=True,
            suppress_health_check=list(HealthCheck),
            database=None,
        )
        def run(case: Any) -> None:
            # A valid token, so generation reaches past authentication into the handlers.
            response = case.call(headers={"accessToken": token}, timeout=30)
            seen.append((f"{case.method} {case.path}", response.status_code))
            assert response.status_code < 500, (
                f"{case.method} {case.formatted_path} → {response.status_code}: {response.text[:500]}"
            )

        run()
    assert len({name for name, _ in seen}) == len(operations)
    # Generation got past the front door somewhere: not everything was refused.
    assert any(status < 300 for _, status in seen)
