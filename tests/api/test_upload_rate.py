"""The upload rate limit counts accepted work only (issue 18, item 1): a client whose
upload was refused (missing file, no credits, bad parameter) is not punished for it."""

from __future__ import annotations

import time
from typing import Any

from tests.api import documents
from tests.api.conftest import Api, problem


def test_a_refused_upload_does_not_use_the_rate_slot(make_api: Any) -> None:
    api: Api = make_api(credits=10)
    missing = api.upload("ToolICR", None)
    assert missing.status_code == 400 and problem(missing)["code"] == "file_missing"
    bad = api.upload("ToolICR", documents.pdf("x"), params={"threshold": "2"})
    assert bad.status_code == 400 and problem(bad)["code"] == "invalid_threshold"
    corrupt = api.upload("ToolICR", documents.corrupt_pdf())
    assert corrupt.status_code == 400
    # The mistakes are fixed: the next upload is accepted at once.
    fixed = api.upload("ToolICR", documents.pdf("fixed"))
    assert fixed.status_code == 201, fixed.text


def test_an_upload_refused_for_credits_does_not_use_the_rate_slot(make_api: Any) -> None:
    api: Api = make_api(credits=0)
    poor = api.upload("ToolICR", documents.pdf("one page"))
    assert poor.status_code == 400 and problem(poor)["code"] == "insufficient_credits"
    api.service.add_credits(api.creds.client_id, 5)
    paid = api.upload("ToolICR", documents.pdf("one page"))
    assert paid.status_code == 201, paid.text


def test_accepted_uploads_are_still_limited(make_api: Any) -> None:
    api: Api = make_api(credits=10)
    first = api.upload("ToolICR", documents.pdf("first"))
    assert first.status_code == 201
    second = api.upload("ToolICR", documents.pdf("second"))
    assert second.status_code == 429, second.text
    assert problem(second)["code"] == "rate_limited"
    wait = int(second.headers["retry-after"])
    assert wait == 1
    # Another tool has its own slot.
    assert api.upload("ToolClassify", documents.pdf("other tool")).status_code == 201
    time.sleep(wait)
    assert api.upload("ToolICR", documents.pdf("third")).status_code == 201
