"""Blocking facade over :class:`DocAIClient`, usable from any thread.

The async client runs on a private event loop in a daemon helper thread, so the facade also
works where a loop is already running in the caller's thread, and a client that is never
closed cannot keep the interpreter from exiting.
"""

from __future__ import annotations

import asyncio
import threading
import weakref
from collections.abc import Awaitable, Callable, Coroutine
from types import TracebackType
from typing import Any, Self, TypeVar, Unpack

import httpx

from prefect_docai.client.auth import AccessToken
from prefect_docai.client.config import ClientConfig
from prefect_docai.client.core import BeforeRequest, DocAIClient, UploadOptions
from prefect_docai.client.documents import DocumentInput
from prefect_docai.client.results import ResultFile, UploadReceipt
from prefect_docai.models import JobResult, Tool

T = TypeVar("T")


class _LoopThread:
    """An event loop running forever in a daemon thread."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(
            target=self.loop.run_forever, name="docai-sync-client", daemon=True
        )
        self.thread.start()

    def run(self, awaitable: Awaitable[T]) -> T:
        problem = None
        if self.loop.is_closed() or not self.thread.is_alive():
            problem = "the SyncDocAIClient is closed"
        elif threading.current_thread() is self.thread:
            problem = "a SyncDocAIClient cannot be called from its own event loop"
        if problem is not None:
            if isinstance(awaitable, Coroutine):
                awaitable.close()  # never started: close it so it is not reported as leaked
            raise RuntimeError(problem)

        async def wrapper() -> T:
            return await awaitable

        future = asyncio.run_coroutine_threadsafe(wrapper(), self.loop)
        try:
            return future.result()
        except BaseException:
            future.cancel()
            raise

    def stop(self) -> None:
        if self.loop.is_closed():
            return
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        if not self.thread.is_alive():
            self.loop.close()


def _shutdown(loop_thread: _LoopThread, client: DocAIClient) -> None:
    try:
        if loop_thread.thread.is_alive():
            loop_thread.run(client.aclose())
    finally:
        loop_thread.stop()


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
        self._loop = _LoopThread()

        async def build() -> DocAIClient:
            # httpx.AsyncClient binds to the loop it is created on: build it on ours.
            return DocAIClient(
                config,
                transport=transport,
                before_request=before_request,
                share_state=share_state,
            )

        try:
            self.aclient = self._loop.run(build())
        except BaseException:
            self._loop.stop()
            raise
        self._finalizer = weakref.finalize(self, _shutdown, self._loop, self.aclient)

    def close(self) -> None:
        self._finalizer()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def _call(self, func: Callable[..., Awaitable[Any]], *args: Any, **kwargs: Any) -> Any:
        return self._loop.run(func(*args, **kwargs))

    def request_access_token(self) -> AccessToken:
        result: AccessToken = self._call(self.aclient.request_access_token)
        return result

    def upload(
        self, tool: Tool | str, document: DocumentInput, **options: Unpack[UploadOptions]
    ) -> UploadReceipt:
        result: UploadReceipt = self._call(self.aclient.upload, tool, document, **options)
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
        timeout: float = 600.0,
        **options: Unpack[UploadOptions],
    ) -> JobResult:
        result: JobResult = self._call(
            self.aclient.run_tool, tool, document, timeout=timeout, **options
        )
        return result

    def get_credits(self) -> int:
        result: int = self._call(self.aclient.get_credits)
        return result
