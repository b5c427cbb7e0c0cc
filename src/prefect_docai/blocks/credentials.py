"""The credentials block: where the service is, who we are, and how fast we may call it."""

from __future__ import annotations

from typing import Any, ClassVar

from prefect.blocks.core import Block
from pydantic import Field, HttpUrl, SecretStr

from prefect_docai.client import (
    AuthMethod,
    BeforeRequest,
    ClientConfig,
    DocAIClient,
    SyncDocAIClient,
    TokenHeader,
)


def prefect_rate_limit(name: str) -> BeforeRequest:
    """A hook taking one slot of the Prefect global concurrency limit ``name`` per request.

    ``strict=True``: a limit that does not exist raises instead of silently not limiting —
    create it with ``docai prefect create-limits``.
    """

    async def acquire() -> None:
        from prefect.concurrency.asyncio import rate_limit

        await rate_limit(name, occupy=1, strict=True)

    return acquire


class DocAICredentials(Block):
    """API client credentials of a DocAI service, handing out a configured client.

    The same block works against the embedded service and the remote one the interface
    describes: tool path prefix, token endpoint, authentication style and token header are
    all settings.

    Examples:
        Load stored credentials and run a tool:
        ```python
        from prefect_docai.blocks import DocAICredentials

        credentials = DocAICredentials.load("BLOCK_NAME")
        with credentials.get_sync_client() as client:
            result = client.run_tool("Invoice", "invoice.pdf")
        ```
    """

    _block_type_name = "DocAI Credentials"
    _block_type_slug = "docai-credentials"
    _documentation_url: ClassVar[HttpUrl | None] = HttpUrl(
        "https://prefect-docai.dev/blocks/#docaicredentials"
    )
    _logo_url: ClassVar[HttpUrl | None] = None

    client_id: str = Field(description="API client id generated on the service's API keys page.")
    client_secret: SecretStr = Field(description="API client secret that belongs to the id.")
    base_url: str = Field(
        description="Host of the upload and result endpoints, e.g. http://127.0.0.1:8000."
    )
    token_url: str | None = Field(
        default=None,
        description="Full address of the token endpoint; empty means {base_url}/oauth/token.",
    )
    tool_prefix: str = Field(
        default="Tool",
        description="Product prefix of the tool path segments (ToolICR, ToolInvoice, ...).",
    )
    auth_method: AuthMethod = Field(
        default="client_secret_post",
        description="How the token request carries the credentials: form body or HTTP Basic.",
    )
    token_header: TokenHeader = Field(
        default="both",
        description="Header carrying the access token: accessToken, Authorization Bearer, or both.",
    )
    requests_per_second: float | None = Field(
        default=1.0,
        description="Pace of all calls per credentials in one process; empty means unpaced.",
    )
    tool_requests_per_second: dict[str, float] = Field(
        default_factory=dict,
        description=(
            "Pace of uploads per tool (key: tool suffix such as ICR), on top of "
            "requests_per_second; our service limits uploads per client and tool."
        ),
    )
    timeout: float = Field(
        default=60.0, gt=0, description="Timeout of one HTTP request in seconds."
    )
    max_retries: int = Field(
        default=5, ge=0, description="Retries of transient failures inside one client call."
    )
    concurrency_limit_name: str | None = Field(
        default=None,
        description=(
            "Prefect global concurrency limit (with slot decay) that paces requests across "
            "every worker; it must exist (docai prefect create-limits)."
        ),
    )

    def client_config(self) -> ClientConfig:
        return ClientConfig(
            base_url=self.base_url,
            token_url=self.token_url or None,
            client_id=self.client_id,
            client_secret=self.client_secret,
            tool_prefix=self.tool_prefix,
            auth_method=self.auth_method,
            token_header=self.token_header,
            requests_per_second=self.requests_per_second,
            tool_requests_per_second=self.tool_requests_per_second,
            timeout=self.timeout,
            max_retries=self.max_retries,
        )

    def _hook(self) -> BeforeRequest | None:
        return (
            prefect_rate_limit(self.concurrency_limit_name) if self.concurrency_limit_name else None
        )

    def get_client(self, **kwargs: Any) -> DocAIClient:
        """An async client; close it with ``await client.aclose()`` or ``async with``."""
        return DocAIClient(self.client_config(), before_request=self._hook(), **kwargs)

    def get_sync_client(self, **kwargs: Any) -> SyncDocAIClient:
        """A blocking client; close it with ``client.close()`` or ``with``."""
        return SyncDocAIClient(self.client_config(), before_request=self._hook(), **kwargs)
