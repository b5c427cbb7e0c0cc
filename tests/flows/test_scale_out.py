"""The batch flow as data engineers call it (issue 19.2, 19.3): one name from sync and async
code, and scale-out on real clusters — prefect-dask (LocalCluster, 2 worker processes) and
prefect-ray (a local Ray instance) — every partition writing the same datasets.

One embedded service (real engines, real HTTP) plays the shared service replicas; the
partitions reach it through a saved credentials block, as workers on other machines would.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from tests.flows.blocks import save_credentials

from prefect_docai.datasets import DatasetStore
from prefect_docai.flows import BatchOptions, BatchSummary, process_documents
from prefect_docai.flows.fanout import process_partitions

pytestmark = [pytest.mark.flows, pytest.mark.timeout(600)]

OPTIONS = BatchOptions(split=False, max_concurrency=2)


@dataclass
class Shared:
    block: str
    root: Path
    seed: int = 100

    def partition(self, name: str, count: int = 2) -> str:
        """A folder of ``count`` generated one-page letters no other partition has."""
        from prefect_docai.samples.generate import generate

        folder = self.root / "inbox" / name
        folder.mkdir(parents=True)
        for _ in range(count):
            self.seed += 1
            (folder / f"letter-{self.seed}.pdf").write_bytes(
                generate("letter", seed=self.seed, lang="en").pdf
            )
        return str(folder)


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Shared]:
    from prefect_docai.server.embedded import EmbeddedService

    mp = pytest.MonkeyPatch()
    mp.setenv("DOCAI_UPLOAD_RATE_PER_SECOND", "20")
    mp.setenv("OMP_THREAD_LIMIT", "1")
    try:
        with EmbeddedService(workers=1) as service:
            name, _ = save_credentials(service, "scale-out", 10_000)
            yield Shared(block=name, root=tmp_path_factory.mktemp("scale-out"))
    finally:
        mp.undo()


def document_ids(lake: str) -> Counter[str]:
    return Counter(DatasetStore(lake).read("documents").column("document_id").to_pylist())


def test_one_name_from_sync_code(shared: Shared) -> None:
    lake = str(shared.root / "sync-lake")
    summary = process_documents(shared.partition("sync"), lake, shared.block, OPTIONS)
    assert isinstance(summary, BatchSummary)
    assert summary.processed == 2 and summary.credits_used > 0
    assert sorted(document_ids(lake).values()) == [1, 1]


def test_one_name_from_async_code(shared: Shared) -> None:
    lake = str(shared.root / "async-lake")
    source = shared.partition("async")

    async def caller() -> BatchSummary:
        summary: BatchSummary = await process_documents(source, lake, shared.block, OPTIONS)
        return summary

    summary = asyncio.run(caller())
    assert summary.processed == 2
    assert sorted(document_ids(lake).values()) == [1, 1]


def test_dask_local_cluster_partitions_write_one_destination(shared: Shared) -> None:
    from prefect_dask import DaskTaskRunner

    lake = str(shared.root / "cluster-lake")
    sources = [shared.partition("dask-a", 1), shared.partition("dask-b", 1)]
    runner = DaskTaskRunner(
        cluster_kwargs={
            "n_workers": 2,
            "processes": True,
            "threads_per_worker": 1,
            "dashboard_address": None,
        }
    )
    summaries = process_partitions.with_options(task_runner=runner)(
        sources, lake, shared.block, OPTIONS
    )
    assert [s.processed for s in summaries] == [1, 1]
    ids = document_ids(lake)
    assert len(ids) == 2 and set(ids.values()) == {1}


def test_ray_partitions_write_one_destination(shared: Shared) -> None:
    from prefect_ray import RayTaskRunner

    lake = str(shared.root / "cluster-lake")
    sources = [shared.partition("ray-a", 1), shared.partition("ray-b", 1)]
    runner = RayTaskRunner(
        init_kwargs={"num_cpus": 2, "include_dashboard": False, "log_to_driver": False}
    )
    summaries = process_partitions.with_options(task_runner=runner)(
        sources, lake, shared.block, OPTIONS
    )
    assert [s.processed for s in summaries] == [1, 1]
    ids = document_ids(lake)
    assert set(ids.values()) == {1}
    assert len(ids) >= 2  # and the Dask test's documents, when it ran first


def test_a_failing_partition_fails_the_flow(shared: Shared) -> None:
    lake = str(shared.root / "failing-lake")
    good = shared.partition("good", count=1)
    state = process_partitions(
        [good, str(shared.root / "no-such-inbox")], lake, shared.block, OPTIONS, return_state=True
    )
    assert state.is_failed()
    with pytest.raises(FileNotFoundError, match="no-such-inbox"):
        state.result()
    assert len(document_ids(lake)) == 1  # the good partition still landed
