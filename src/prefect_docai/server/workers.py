"""The pool of worker processes that run engines, so engines never block the API.

Processes are started with ``spawn`` (safe next to uvicorn's threads). Each worker imports
only the engines it is asked to run and keeps them loaded. Workers exit by themselves when
the API process dies (they watch their parent), so a crash leaves no orphans; ``close()``
terminates them when the service stops, even mid-job (the job is requeued by the caller).
"""

from __future__ import annotations

import asyncio
import importlib
import multiprocessing
import os
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field, replace
from typing import Any

from prefect_docai.engines.pluginspec import (
    DocumentError,
    Engine,
    EngineOptions,
    EngineOutput,
    EnginePart,
    PageBatchEngine,
)
from prefect_docai.server.logsafe import escape

_engines: dict[str, Engine] = {}


@dataclass(frozen=True)
class OutputFileData:
    name: str
    media_type: str
    data: bytes
    output_type: str | None


@dataclass
class WorkOutcome:
    """What a worker sends back: a result (``ok``) or an error code and detail."""

    ok: bool
    result: dict[str, Any] | None = None
    page_count: int = 0
    files: list[OutputFileData] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    error_code: str | None = None
    error_detail: str | None = None
    partial: bool = False
    """Only the pages asked for (``EngineOptions.pages``): one batch, to be merged."""


class WorkerCrashed(Exception):
    """A worker process died while running the job (killed, out of memory, segfault)."""


def _watch_parent(parent_pid: int) -> None:
    while True:
        time.sleep(1.0)
        if os.getppid() != parent_pid:
            os._exit(0)


def _init_worker(parent_pid: int, memory_limit: int | None = None) -> None:
    # Ctrl+C in `docai serve` reaches the whole process group; the parent decides.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if memory_limit:
        import resource

        # Heap and private mappings only (not shared libraries' code): what a decode or an
        # engine allocates. Past it, allocations fail with MemoryError (→ out_of_memory).
        resource.setrlimit(resource.RLIMIT_DATA, (memory_limit, memory_limit))
    os.environ.setdefault("OMP_THREAD_LIMIT", "1")
    threading.Thread(target=_watch_parent, args=(parent_pid,), daemon=True).start()


def _load_engine(path: str) -> Engine:
    engine = _engines.get(path)
    if engine is None:
        module_name, _, class_name = path.partition(":")
        candidate = getattr(importlib.import_module(module_name), class_name)()
        if not isinstance(candidate, Engine):
            raise TypeError(f"{path} is not an Engine")
        engine = _engines[path] = candidate
    return engine


def run_engine(engine_path: str, data: bytes, options: EngineOptions) -> WorkOutcome:
    """Runs inside a worker process. A page range goes only to an engine that takes one
    (``PageBatchEngine``); any other runs the whole document, and says so (not partial)."""
    def work() -> WorkOutcome:
        engine = _load_engine(engine_path)
        batch = options.pages is not None and isinstance(engine, PageBatchEngine)
        output = engine.run(data, options if batch else replace(options, pages=None))
        return _outcome(output, partial=batch)

    return _guarded(work)


def merge_parts(
    engine_path: str, data: bytes, parts: list[EnginePart], options: EngineOptions
) -> WorkOutcome:
    """Runs inside a worker process: a batched job's parts joined by its engine."""
    def work() -> WorkOutcome:
        engine = _load_engine(engine_path)
        if not isinstance(engine, PageBatchEngine):
            raise TypeError(f"{engine_path} cannot merge page batches")
        return _outcome(engine.merge(data, parts, replace(options, pages=None)), partial=False)

    return _guarded(work)


def _outcome(output: EngineOutput, *, partial: bool) -> WorkOutcome:
    result = output.result.model_dump(mode="json", by_alias=True)
    files = [OutputFileData(f.name, f.media_type, f.data, f.output_type) for f in output.files]
    return WorkOutcome(
        True, result, output.page_count, files, list(output.warnings), partial=partial
    )


def _guarded(work: Callable[[], WorkOutcome]) -> WorkOutcome:
    try:
        return work()
    except DocumentError as exc:
        return WorkOutcome(False, error_code=exc.code, error_detail=exc.detail)
    except MemoryError:
        return WorkOutcome(
            False, error_code="out_of_memory", error_detail="The document needs too much memory."
        )
    except Exception as exc:
        # Engine messages can quote the document: escaped, one record stays one block.
        lines = traceback.format_exc().splitlines()
        sys.stderr.write(
            "engine error:\n" + "\n".join("    | " + escape(line, 10_000) for line in lines) + "\n"
        )
        return WorkOutcome(
            False, error_code="engine_error", error_detail=f"{type(exc).__name__}: {exc}"
        )


_START_TIMEOUT = 300.0
"""Seconds a new worker process may take to start (spawn and import) on a loaded machine."""


def _warm() -> bool:
    return True


class WorkerPool:
    """``size`` worker slots, each a one-process ``ProcessPoolExecutor`` of its own.

    One process per slot: a worker that crashes, runs out of memory or overruns its time is
    torn down and rebuilt alone, and the jobs in the other slots go on undisturbed (with a
    shared pool, one dying worker breaks every running job). ``memory_limit`` bounds each
    worker's data (``RLIMIT_DATA``: heap and private mappings): a document that needs more
    fails with ``out_of_memory`` in its own worker instead of pushing the machine into the
    OOM killer.
    """

    def __init__(self, size: int, memory_limit: int | None = None) -> None:
        self.size = size
        self.memory_limit = memory_limit
        self._context = multiprocessing.get_context("spawn")
        self._slots: list[ProcessPoolExecutor | None] = [None] * size
        self._started: list[Future[bool] | None] = [None] * size
        self._free = list(range(size))
        self._lock = threading.Lock()

    def _spawn(self, slot: int) -> ProcessPoolExecutor:
        """The slot's executor, made (and its process started) if it has none; under the
        lock."""
        executor = self._slots[slot]
        if executor is None:
            executor = self._slots[slot] = ProcessPoolExecutor(
                max_workers=1,
                mp_context=self._context,
                initializer=_init_worker,
                initargs=(os.getpid(), self.memory_limit),
            )
            self._started[slot] = executor.submit(_warm)
        return executor

    def prestart(self) -> None:
        """Start every worker process now, so the first jobs do not wait for spawns."""
        with self._lock:
            for slot in self._free:
                self._spawn(slot)

    async def _take(self) -> tuple[int, ProcessPoolExecutor]:
        """A free slot and its executor, started and warm (its process spawned): the job's
        time bound then measures the engine, not a process start on a busy machine."""
        while True:
            executor: ProcessPoolExecutor | None = None
            started: Future[bool] | None = None
            with self._lock:
                slot = self._free.pop() if self._free else None
                if slot is not None:
                    executor = self._spawn(slot)
                    started = self._started[slot]
            if slot is None or executor is None:
                # The runner claims no more jobs than there are workers; should one more
                # come, it waits for a worker instead of failing.
                await asyncio.sleep(0.05)
                continue
            if started is not None and not started.done():
                try:
                    await asyncio.wait_for(asyncio.wrap_future(started), _START_TIMEOUT)
                except asyncio.CancelledError:
                    self._give_back(slot)
                    raise
                except Exception:
                    self._discard(slot, executor)
                    self._give_back(slot)
                    raise WorkerCrashed("a worker process could not start") from None
            return slot, executor

    def _give_back(self, slot: int) -> None:
        with self._lock:
            self._free.append(slot)

    async def run(
        self, engine_path: str, data: bytes, options: EngineOptions, timeout: float
    ) -> WorkOutcome:
        return await self._submit(timeout, run_engine, engine_path, data, options)

    async def merge(
        self,
        engine_path: str,
        data: bytes,
        parts: list[EnginePart],
        options: EngineOptions,
        timeout: float,
    ) -> WorkOutcome:
        return await self._submit(timeout, merge_parts, engine_path, data, parts, options)

    async def _submit(
        self, timeout: float, function: Callable[..., WorkOutcome], *args: Any
    ) -> WorkOutcome:
        slot, executor = await self._take()
        try:
            try:
                future: Future[WorkOutcome] = executor.submit(function, *args)
            except (BrokenProcessPool, RuntimeError):
                self._discard(slot, executor)
                raise WorkerCrashed("the worker was broken; retry") from None
            try:
                outcome = await asyncio.wait_for(asyncio.wrap_future(future), timeout)
            except BrokenProcessPool as exc:
                self._discard(slot, executor)
                raise WorkerCrashed("a worker process died while running the job") from exc
            except (TimeoutError, asyncio.CancelledError):
                # The only way to stop a running engine is to kill its process.
                self._discard(slot, executor)
                raise
            if outcome.error_code == "out_of_memory":
                # A process that hit its limit may hold a fragmented heap: start afresh.
                self._discard(slot, executor)
            return outcome
        finally:
            self._give_back(slot)

    def _discard(self, slot: int, executor: ProcessPoolExecutor) -> None:
        with self._lock:
            if self._slots[slot] is executor:
                self._slots[slot] = None
                self._started[slot] = None
        _terminate(executor)

    def close(self) -> None:
        with self._lock:
            executors, self._slots = self._slots, [None] * self.size
            self._started = [None] * self.size
        for executor in executors:
            if executor is not None:
                _terminate(executor)


def _terminate(executor: ProcessPoolExecutor) -> None:
    # ProcessPoolExecutor has no public way to stop a running task (3.14 adds
    # terminate_workers()); its process table is the documented-in-source way to do it.
    processes = list(getattr(executor, "_processes", {}).values())
    results = getattr(executor, "_result_queue", None)
    executor.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    deadline = time.monotonic() + 5
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
        if process.is_alive():
            process.kill()
            process.join(1)
    if results is not None and not any(process.is_alive() for process in processes):
        # A worker killed while it was sending its result leaves half a message in the
        # result pipe; the executor's manager thread then waits in recv() for the rest
        # forever (this process holds the pipe's write end too, so no EOF comes), and
        # interpreter exit, which joins that thread, hangs. With the workers gone, closing
        # our write end turns the wait into EOF: the thread marks the pool broken and ends.
        results._writer.close()
