"""A flow run starts the embedded service while its tasks log (issue 19.1 regression).

The run used to hang: uvicorn's ``dictConfig`` flushed Prefect's API log handler under the
logging lock while other threads of the run were logging. Here two threaded tasks log
continuously while the flow starts the service; the run must finish and every line must
reach the Prefect API.
"""

from __future__ import annotations

import asyncio
import time

import pytest
from prefect import flow, get_client, get_run_logger, task
from prefect.client.schemas.filters import LogFilter, LogFilterFlowRunId
from prefect.logging.handlers import APILogHandler
from prefect.runtime import flow_run

from prefect_docai.flows.service import connect

pytestmark = [pytest.mark.flows, pytest.mark.timeout(240)]

LINES = 150


@task
def chatter(n: int) -> int:
    logger = get_run_logger()
    for i in range(LINES):
        logger.info("chatter %d/%d", n, i)
        time.sleep(0.002)
    return n


@flow
async def start_while_logging() -> str:
    futures = [chatter.submit(n) for n in range(2)]
    async with connect(None) as connection:
        token = await connection.client.request_access_token()
    get_run_logger().info("after the service: %s", token.token_type)
    await asyncio.to_thread(lambda: [f.result() for f in futures])
    return str(flow_run.id)


def test_embedded_service_starts_while_tasks_log() -> None:
    run_id = asyncio.run(start_while_logging())
    APILogHandler().flush()
    time.sleep(1)

    async def messages() -> list[str]:
        found: list[str] = []
        async with get_client() as client:
            while True:  # the API returns at most 200 logs per page
                page = await client.read_logs(
                    LogFilter(flow_run_id=LogFilterFlowRunId(any_=[run_id])),
                    limit=200,
                    offset=len(found),
                )
                found += [log.message for log in page]
                if len(page) < 200:
                    return found

    found = asyncio.run(messages())
    assert sum(m.startswith("chatter ") for m in found) == 2 * LINES
    assert "after the service: Bearer" in found
