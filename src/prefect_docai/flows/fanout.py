"""Scale-out: one batch flow run per partition of the source, on any Prefect task runner.

``process_partitions.with_options(task_runner=DaskTaskRunner(...))`` (or prefect-ray's
``RayTaskRunner``) runs the partitions' ``process_documents`` flows on the cluster's workers;
the datasets' commit log lets them all write the same destination. A partition that fails
fails this flow: the results are gathered with ``.result()``, which raises, never with
``.wait()``, which only waits.
"""

# No ``from __future__ import annotations``: Prefect builds the flow's parameter model from
# these annotations, and a flow pickled by value (Dask, Ray) has no module globals to resolve
# strings like "BatchOptions" in (PydanticUserError: model not fully defined; issue 19.3).

import inspect

from prefect import flow, task
from prefect.cache_policies import NO_CACHE
from prefect.utilities.annotations import unmapped
from prefect.utilities.asyncutils import run_coro_as_sync

from prefect_docai.flows.options import BatchOptions
from prefect_docai.flows.process import process_documents
from prefect_docai.flows.report import BatchSummary


@task(name="process-partition", task_run_name="partition-{source}", cache_policy=NO_CACHE)
def process_partition(
    source: str, destination: str, credentials: str | None, options: BatchOptions
) -> BatchSummary:
    """One partition: a ``process_documents`` run (a subflow) on the worker running this task."""
    summary = process_documents(source, destination, credentials, options)
    # A sync task gets the sync flow's summary; the awaitable only comes to async callers.
    return run_coro_as_sync(summary) if inspect.isawaitable(summary) else summary


@flow(name="process-partitions")
def process_partitions(
    sources: list[str],
    destination: str,
    credentials: str | None = None,
    options: BatchOptions = BatchOptions(),
) -> list[BatchSummary]:
    """Process every source (a folder, file or glob each) into one destination, in parallel.

    Args:
        sources: the partitions, e.g. one inbox folder per day or mailbox.
        destination: fsspec URL of the datasets all partitions write.
        credentials: name of a saved ``DocAICredentials`` block. On a cluster give one: a
            shared service (replicas on PostgreSQL and object storage) instead of one
            embedded service per partition.
        options: see :class:`BatchOptions`, the same for every partition.
    """
    futures = process_partition.map(
        sources, unmapped(destination), unmapped(credentials), unmapped(options)
    )
    return futures.result()
