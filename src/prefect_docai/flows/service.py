"""The service a batch talks to: a saved credentials block, or our own on loopback."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

from prefect_docai.client import ClientConfig, DocAIClient

logger = logging.getLogger(__name__)

EMBEDDED_CREDITS = 10_000_000
"""Credits of the throwaway client of an embedded service when no budget is given."""


class ServiceNotInstalled(RuntimeError):
    """No credentials block and no ``server`` extra: nothing to process the batch with."""


@dataclass
class Connection:
    client: DocAIClient
    description: str
    embedded: bool


@asynccontextmanager
async def connect(credentials: str | None, credit_budget: int | None = None) -> AsyncIterator[Connection]:
    """A client of the named ``DocAICredentials`` block, or of a fresh embedded service.

    The embedded service is a real HTTP server on 127.0.0.1 with a temporary data folder:
    the batch uses it exactly like a remote one and it is gone afterwards. Its settings come
    from ``DOCAI_*`` variables as for ``docai serve``; the client keeps to the service's
    upload rate (``DOCAI_UPLOAD_RATE_PER_SECOND``, default 1/s as in the spec).
    """
    if credentials:
        from prefect_docai.blocks import DocAICredentials

        block: DocAICredentials = await DocAICredentials.aload(credentials)
        client = block.get_client()
        try:
            yield Connection(client, f"{block.base_url} (block {credentials!r})", embedded=False)
        finally:
            await client.aclose()
        return

    try:
        from prefect_docai.server.embedded import EmbeddedService
    except ImportError as exc:
        raise ServiceNotInstalled(
            "no credentials block given and the embedded service is not installed "
            f"({exc.name} missing): pip install 'prefect-docai[server]', or pass the name "
            "of a DocAICredentials block"
        ) from exc

    service = EmbeddedService()
    await asyncio.to_thread(service.start)
    try:
        creds = await asyncio.to_thread(
            service.create_client, "prefect-docai-batch", credit_budget or EMBEDDED_CREDITS
        )
        config = ClientConfig(
            base_url=service.base_url,
            token_url=service.token_url,
            client_id=creds.client_id,
            client_secret=creds.client_secret,
            requests_per_second=service.settings.upload_rate_per_second,
        )
        async with DocAIClient(config) as client:
            yield Connection(client, f"embedded service at {service.base_url}", embedded=True)
    finally:
        await asyncio.to_thread(service.stop)
