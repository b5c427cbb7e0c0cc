"""The flows survive being pickled by value, as Dask and Ray ship them (issue 19.3).

A flow module with string annotations (``from __future__ import annotations``) failed in
the workers: "PydanticUserError: `Process_DocumentsModel` is not fully defined ...
BatchOptions", because a by-value pickle carries only the globals the code uses, not the
names its annotations mention. Pickled here by value, loaded in a fresh interpreter.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import cloudpickle
import pytest

import prefect_docai.flows.fanout as fanout
import prefect_docai.flows.process as process

LOAD = """
import pickle, sys
flows = pickle.load(open(sys.argv[1], "rb"))
for flow in flows:
    params = flow.validate_parameters({"source": "a", "destination": "b"}
                                      if "sources" not in flow.parameters.properties
                                      else {"sources": ["a"], "destination": "b"})
    print(flow.name, type(params["options"]).__name__)
"""


@pytest.mark.timeout(120)
def test_flows_pickled_by_value_validate_their_parameters(tmp_path: Path) -> None:
    flows = [process.aprocess_documents, process.process_documents.__wrapped__, fanout.process_partitions]  # type: ignore[attr-defined]
    for module in (process, fanout):
        cloudpickle.register_pickle_by_value(module)
    try:
        data = cloudpickle.dumps(flows)
    finally:
        for module in (process, fanout):
            cloudpickle.unregister_pickle_by_value(module)
    path = tmp_path / "flows.pkl"
    path.write_bytes(data)
    done = subprocess.run(
        [sys.executable, "-c", LOAD, str(path)], capture_output=True, text=True, timeout=110
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split("\n")[:3] == [
        "process-documents BatchOptions",
        "process-documents BatchOptions",
        "process-partitions BatchOptions",
    ]
