"""How to reach one DocAI service with one set of API client credentials."""

from __future__ import annotations

import hashlib
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator, model_validator

AuthMethod = Literal["client_secret_post", "client_secret_basic"]
TokenHeader = Literal["accessToken", "authorization", "both"]


class ClientConfig(BaseModel):
    """Connection settings; the remote service and ours differ only in these values."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    base_url: str = Field(description="Upload and result host, e.g. https://api.example.com.")
    token_url: str | None = Field(
        default=None,
        description="Full address of the token endpoint; default {base_url}/oauth/token.",
    )
    client_id: str
    client_secret: SecretStr
    tool_prefix: str = "Tool"
    auth_method: AuthMethod = "client_secret_post"
    token_header: TokenHeader = "both"
    requests_per_second: float | None = Field(
        default=1.0,
        description="Pace of all calls to base_url per credentials; None or 0 = unpaced.",
    )
    tool_requests_per_second: dict[str, float] = Field(
        default_factory=dict,
        description="Extra pace for uploads to one tool (key: tool suffix, e.g. 'ICR').",
    )
    pace_margin: float = Field(
        default=0.1,
        ge=0,
        le=1,
        description=(
            "Space paced requests this fraction wider than 1/rate: requests leave exactly on "
            "time but arrive with jitter, and a server enforcing the same rate exactly would "
            "answer 429 to one that arrives a few milliseconds early."
        ),
    )
    timeout: float = Field(default=60.0, gt=0)
    max_retries: int = Field(default=5, ge=0, description="Retries of transient failures.")
    backoff_base: float = Field(default=0.5, ge=0)
    backoff_max: float = Field(default=30.0, ge=0)
    token_refresh_margin: float = Field(
        default=30.0, ge=0, description="Refresh this long before the token expires."
    )

    @field_validator("base_url", "token_url")
    @classmethod
    def _strip_slash(cls, value: str | None) -> str | None:
        return value.rstrip("/") if value else value

    @model_validator(mode="after")
    def _default_token_url(self) -> ClientConfig:
        if self.token_url is None:
            object.__setattr__(self, "token_url", f"{self.base_url}/oauth/token")
        return self

    @property
    def resolved_token_url(self) -> str:
        return self.token_url or f"{self.base_url}/oauth/token"

    def credentials_key(self) -> tuple[str, str, str]:
        """Identity of these credentials for process-wide sharing (secret only as a hash)."""
        digest = hashlib.sha256(self.client_secret.get_secret_value().encode()).hexdigest()
        return (self.resolved_token_url, self.client_id, digest)
