"""Plain HTTP client of the DocAI service (no Prefect here).

``DocAIClient`` (async) and ``SyncDocAIClient`` (blocking) share, per set of credentials and
process-wide, one access token and one request pace. Errors are typed; transient ones
(``TransientError``) are retried inside the client a bounded number of times.
"""

from prefect_docai.client.auth import AccessToken, TokenManager
from prefect_docai.client.config import AuthMethod, ClientConfig, TokenHeader
from prefect_docai.client.core import BeforeRequest, DocAIClient, UploadOptions
from prefect_docai.client.documents import Document, DocumentInput, document_sha256, load_document
from prefect_docai.client.errors import (
    AuthenticationError,
    DocAIError,
    DocAITransportError,
    InsufficientCreditsError,
    JobFailedError,
    JobNotFoundError,
    RateLimitedError,
    RequestRejectedError,
    ResultNotReadyError,
    ResultTimeoutError,
    ServiceUnavailableError,
    TransientError,
    is_transient,
)
from prefect_docai.client.ratelimit import RateLimiter
from prefect_docai.client.results import ResultFile, UploadReceipt, result_as, tool_of, tool_result
from prefect_docai.client.sync import SyncDocAIClient

__all__ = [
    "AccessToken",
    "AuthMethod",
    "AuthenticationError",
    "BeforeRequest",
    "ClientConfig",
    "DocAIClient",
    "DocAIError",
    "DocAITransportError",
    "Document",
    "DocumentInput",
    "InsufficientCreditsError",
    "JobFailedError",
    "JobNotFoundError",
    "RateLimitedError",
    "RateLimiter",
    "RequestRejectedError",
    "ResultFile",
    "ResultNotReadyError",
    "ResultTimeoutError",
    "ServiceUnavailableError",
    "SyncDocAIClient",
    "TokenHeader",
    "TokenManager",
    "TransientError",
    "UploadOptions",
    "UploadReceipt",
    "document_sha256",
    "is_transient",
    "load_document",
    "result_as",
    "tool_of",
    "tool_result",
]
