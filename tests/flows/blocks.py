"""A saved credentials block for a service the test started: how flows find a shared service."""

from __future__ import annotations

import uuid

from prefect_docai.blocks import DocAICredentials
from prefect_docai.server.embedded import ClientCredentials, EmbeddedService


def save_credentials(
    service: EmbeddedService, client_name: str, credits: int
) -> tuple[str, ClientCredentials]:
    """A new API client with ``credits``, saved as a block; returns (block name, client)."""
    creds = service.create_client(client_name, credits=credits)
    name = f"docai-{uuid.uuid4().hex[:8]}"
    DocAICredentials(
        client_id=creds.client_id,
        client_secret=creds.client_secret,
        base_url=service.base_url,
        token_url=service.token_url,
        requests_per_second=20,
    ).save(name)
    return name, creds
