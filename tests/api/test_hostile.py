"""The hostile-input corpus (tests/hostile.py) against the service: every input is refused
with a 4xx problem and charges nothing, or becomes a job that ends clearly; never a 5xx,
never a file written outside the service's folders."""

from __future__ import annotations

from typing import Any

import pytest

from tests import hostile
from tests.api.conftest import Api, problem

CORPUS = hostile.corpus()


@pytest.mark.parametrize("item", CORPUS, ids=[item.name for item in CORPUS])
def test_hostile_input(make_api: Any, item: hostile.Hostile) -> None:
    api: Api = make_api(credits=3000)
    response = api.upload(item.tool, item.make(), name=item.file_name)
    assert response.status_code < 500, response.text
    if not item.accepted:
        assert 400 <= response.status_code < 500, response.text
        problem(response)
        assert api.credits() == 3000
        return
    assert response.status_code == 201, response.text
    body = api.wait(response.json()["jobId"]).json()
    assert body["status"] in {"succeeded", "failed"}, body
    name = body["document"]["fileName"]
    assert "/" not in name and "\\" not in name and name.isprintable() and len(name) <= 200
    if body["status"] == "failed":
        assert api.credits() == 3000
    else:
        assert api.credits() == 3000 - body["pageCount"]
