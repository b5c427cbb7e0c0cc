"""deployments/prefect.yaml keeps up with the package (issue 19.7): its Prefect version is
one the package allows, and no pull step ties a deployment to the deploying machine."""

from __future__ import annotations

from importlib.metadata import requires
from pathlib import Path
from typing import Any

import yaml
from packaging.requirements import Requirement
from packaging.version import Version

PREFECT_YAML = Path(__file__).parents[2] / "deployments" / "prefect.yaml"


def load() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(PREFECT_YAML.read_text())
    return data


def test_prefect_version_is_one_the_package_allows() -> None:
    (prefect,) = [
        Requirement(r)
        for r in requires("prefect-docai") or []
        if Requirement(r).name == "prefect" and Requirement(r).marker is None
    ]
    pinned = Version(str(load()["prefect-version"]))
    assert prefect.specifier.contains(pinned), (pinned, prefect.specifier)


def test_no_pull_step_ties_a_deployment_to_this_machine() -> None:
    data = load()
    steps = list(data.get("pull") or [])
    for deployment in data["deployments"]:
        steps += deployment.get("pull") or []
        # A module entrypoint: the worker imports the installed package, no checkout.
        assert ":" not in deployment["entrypoint"] and ".py" not in deployment["entrypoint"]
    names = {name for step in steps for name in step}
    assert not any(name.endswith("set_working_directory") for name in names)
    assert not any(name.endswith("git_clone") for name in names)
