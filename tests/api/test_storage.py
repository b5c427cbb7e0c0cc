"""Blobs in an object store: the whole job lifecycle with ``s3://`` storage on a moto server."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator

import pytest

from prefect_docai.server.embedded import EmbeddedService
from tests.api import documents
from tests.api.conftest import Api
from tests.api.lifecycle_engine import ENGINES


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def s3_endpoint(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    from moto.server import ThreadedMotoServer

    port = _free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    yield f"http://127.0.0.1:{port}"
    server.stop()


def test_jobs_with_s3_storage(s3_endpoint: str) -> None:
    import s3fs

    fs = s3fs.S3FileSystem(endpoint_url=s3_endpoint, anon=False)
    fs.mkdir("docai-blobs")
    options = {"endpoint_url": s3_endpoint}
    # An upload whose job was never committed (the service died in between), swept by a
    # service with a grace far below the default hour. No uploads go to that one: the
    # grace must exceed the longest upload transaction, which a loaded test machine can
    # stretch beyond a second or two.
    fs.pipe_file("docai-blobs/prod/inputs/never-queued", b"%PDF orphan")
    with EmbeddedService(
        workers=1,
        engines=ENGINES,
        storage_url="s3://docai-blobs/prod",
        storage_options=options,
        purge_interval=0.2,
        orphan_grace=0.5,
    ):
        deadline = time.monotonic() + 20
        while fs.exists("docai-blobs/prod/inputs/never-queued"):
            assert time.monotonic() < deadline, "the orphaned input was not deleted"
            time.sleep(0.1)
            fs.invalidate_cache()
    with EmbeddedService(
        workers=1, engines=ENGINES, storage_url="s3://docai-blobs/prod", storage_options=options
    ) as service:
        api = Api(service, service.create_client(credits=10))
        data = documents.pdf("in the bucket")
        job_id = api.job("ToolICR", data, params={"outputFormats": "PDF,JSON"})
        body = api.wait(job_id).json()
        assert body["status"] == "succeeded", body
        assert body["result"]["texts"] == ["in the bucket"]
        assert api.result(job_id, "file", outputType="PDF").content == data
        api.close()
        assert not (service.settings.data_dir / "blobs").exists()
    fs.invalidate_cache()
    stored = fs.find("docai-blobs/prod")
    assert f"docai-blobs/prod/results/{job_id}/result.json" in stored
    assert not [key for key in stored if "/inputs/" in key]  # input deleted when the job ended
