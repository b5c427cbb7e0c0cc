"""Blocking facade over :class:`DocAIClient`, usable from any thread.

The async client runs on a private event loop in a helper thread (an anyio blocking
portal), so the facade also works where a loop is already running in the caller's thread.
"""

from __future__ import annotations

from collections.abc import Iterable
from contextlib import AbstractContextManager
from types import TracebackType
from typing import Any, Self

import httpx
from anyio.from_thread import BlockingPortal, start_blocking_portal

from prefect_docai.client.auth import AccessToken
from prefect_docai.client.config import ClientConfig
from prefect_docai.client.core import BeforeRequest, DocAIClient
from prefect_docai.client.documents import DocumentInput
from prefect_docai.client.results import ResultFile, UploadReceipt
from prefect_docai.models import JobResult, Tool


class SyncDocAIClient:
    """The same calls as :class:`DocAIClient`, blocking. Close it (or use ``with``)."""

    def __init__(
        self,
        config: ClientConfig,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        before_request: BeforeRequest | None = None,
        share_state: bool = True,
    ) -> None:
        self.config = config
        self._portal_cm: AbstractContextManager[BlockingPortal] = start_blocking_portal()
        self._portal = self._portal_cm.__enter__()

        async def build() -> DocAIClient:
            # httpx.AsyncClient binds to the loop it is created on: build it on the portal's.
            return DocAIClient(
                config,
                transport=transport,
                before_request=before_request,
                share_state=share_state,
            )

        try:
            self.aclient = self._portal.call(build)
        except BaseException:
            self._portal_cm.__exit__(None, None, None)
            raise
        self._closed = False

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            self._portal.call(self.aclient.aclose)
        finally:
            self._portal_cm.__exit__(None, None, None)

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def _call(self, func: Any, *args: Any, **kwargs: Any) -> Any:
        async def run() -> Any:
            return await func(*args, **kwargs)

        return self._portal.call(run)

    def request_access_token(self) -> AccessToken:
        result: AccessToken = self._call(self.aclient.request_access_token)
        return result

    def upload(
        self,
        tool: Tool | str,
        document: DocumentInput,
        *,
        file_name: str | None = None,
        email: str | None = None,
        output_formats: Iterable[str] | str | None = None,
        language_hint: str | None = None,
        threshold: float | None = None,
        idempotency_key: str | None = None,
    ) -> UploadReceipt:
        result: UploadReceipt = self._call(
            self.aclient.upload,
            tool,
            document,
            file_name=file_name,
            email=email,
            output_formats=output_formats,
            language_hint=language_hint,
            threshold=threshold,
            idempotency_key=idempotency_key,
        )
        return result

    def get_json_result(self, job_id: str, *, raise_on_failure: bool = True) -> JobResult:
        result: JobResult = self._call(
            self.aclient.get_json_result, job_id, raise_on_failure=raise_on_failure
        )
        return result

    def get_zip_result(self, job_id: str) -> ResultFile:
        result: ResultFile = self._call(self.aclient.get_zip_result, job_id)
        return result

    def get_file_result(self, job_id: str, output_type: str = "CSV") -> ResultFile:
        result: ResultFile = self._call(self.aclient.get_file_result, job_id, output_type)
        return result

    def wait_for_result(
        self,
        job_id: str,
        *,
        timeout: float = 600.0,
        poll_interval: float = 1.0,
        max_poll_interval: float = 15.0,
        raise_on_failure: bool = True,
    ) -> JobResult:
        result: JobResult = self._call(
            self.aclient.wait_for_result,
            job_id,
            timeout=timeout,
            poll_interval=poll_interval,
            max_poll_interval=max_poll_interval,
            raise_on_failure=raise_on_failure,
        )
        return result

    def run_tool(
        self,
        tool: Tool | str,
        document: DocumentInput,
        *,
        file_name: str | None = None,
        email: str | None = None,
        output_formats: Iterable[str] | str | None = None,
        language_hint: str | None = None,
        threshold: float | None = None,
        idempotency_key: str | None = None,
        timeout: float = 600.0,
    ) -> JobResult:
        result: JobResult = self._call(
            self.aclient.run_tool,
            tool,
            document,
            file_name=file_name,
            email=email,
            output_formats=output_formats,
            language_hint=language_hint,
            threshold=threshold,
            idempotency_key=idempotency_key,
            timeout=timeout,
        )
        return result

    def get_credits(self) -> int:
        result: int = self._call(self.aclient.get_credits)
        return result
