"""API keys, account credits, tool uploads, usage, isolation between accounts and account
deletion on the web platform (issue 17 items 3-6)."""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
from sqlalchemy import func, select

from prefect_docai.server.db import AccountRow, ClientRow, JobRow
from prefect_docai.server.embedded import EmbeddedService
from tests.api.documents import pdf, png
from tests.web.conftest import PASSWORD, Browser, signed_up

RESULTS = "/api/Result/v1/JobResults/"


def _key(user: Browser, name: str = "my script") -> tuple[str, str]:
    user.get("/account/keys")
    page = user.post("/account/keys", {"name": name})
    assert page.status_code == 200, page.text
    client_id = re.search(r'id="new-client-id">([^<]+)<', page.text)
    secret = re.search(r'id="new-client-secret">([^<]+)<', page.text)
    assert client_id and secret
    return client_id.group(1), secret.group(1)


def _token(service: EmbeddedService, client_id: str, secret: str) -> httpx.Response:
    return httpx.post(
        service.token_url,
        data={"grant_type": "client_credentials", "client_id": client_id, "client_secret": secret},
    )


def _bearer(service: EmbeddedService, client_id: str, secret: str) -> dict[str, str]:
    response = _token(service, client_id, secret)
    assert response.status_code == 200, response.text
    return {"Authorization": f"Bearer {response.json()['access_token']}"}


def _credits(service: EmbeddedService, user: Browser) -> int:
    found = re.search(r"Balance: (\d+) credits", user.get("/account/usage").text)
    assert found
    return int(found.group(1))


def _upload(user: Browser, slug: str, data: bytes, name: str = "doc.pdf") -> httpx.Response:
    user.get(f"/tools/{slug}")
    return user.http.post(
        f"/tools/{slug}",
        data={"csrf_token": user.csrf},
        files={"file": (name, data, "application/octet-stream")},
    )


def _wait_job(user: Browser, path: str, timeout: float = 60) -> str:
    deadline = time.monotonic() + timeout
    while True:
        page = user.get(path).text
        if 'http-equiv="refresh"' not in page:
            return page
        assert time.monotonic() < deadline, "job still pending"
        time.sleep(0.2)


def test_api_keys_work_like_admin_clients(web_service: EmbeddedService, user: Browser) -> None:
    client_id, secret = _key(user, "nightly import")
    listing = user.get("/account/keys").text
    assert "nightly import" in listing and client_id in listing
    assert secret not in listing  # shown once, never again
    auth = _bearer(web_service, client_id, secret)
    listing = user.get("/account/keys").text
    assert "never" not in listing.split(client_id, 1)[1].split("</tr>", 1)[0]  # last used is set
    upload = httpx.post(
        web_service.base_url + "/api/FileUpload/v1/Upload/ToolInvoice",
        files={"file": ("a.pdf", pdf("hello"), "application/pdf")},
        headers=auth,
    )
    assert upload.status_code == 201, upload.text
    job_id = upload.json()["jobId"]
    deadline = time.monotonic() + 60
    while (
        result := httpx.get(f"{web_service.base_url}{RESULTS}{job_id}/json", headers=auth)
    ).status_code == 404:
        assert time.monotonic() < deadline
        time.sleep(0.2)
    assert result.status_code == 200 and result.json()["status"] == "succeeded"
    balance = httpx.get(web_service.base_url + "/api/Account/v1/Credits", headers=auth).json()
    assert balance["credits"] == 49
    # The API job shows on the usage page with the key's name.
    usage = user.get("/account/usage").text
    assert job_id in usage and "nightly import" in usage


def test_credits_belong_to_the_account(web_service: EmbeddedService, user: Browser) -> None:
    first = _bearer(web_service, *_key(user, "one"))
    second = _bearer(web_service, *_key(user, "two"))
    for auth in (first, second):
        response = httpx.post(
            web_service.base_url + "/api/FileUpload/v1/Upload/ToolClassify",
            files={"file": ("a.pdf", pdf("a", "b"), "application/pdf")},
            headers=auth,
        )
        assert response.status_code == 201, response.text
    assert _upload(user, "classify", pdf("c")).status_code == 303
    # 50 - 2 - 2 - 1, whichever client spent them.
    assert _credits(web_service, user) == 45
    for auth in (first, second):
        balance = httpx.get(web_service.base_url + "/api/Account/v1/Credits", headers=auth)
        assert balance.json()["credits"] == 45


def test_revoked_key_stops_working(web_service: EmbeddedService, user: Browser) -> None:
    client_id, secret = _key(user)
    _bearer(web_service, client_id, secret)
    answer = user.post(f"/account/keys/{client_id}/revoke")
    assert answer.status_code == 303
    revoked = user.get(answer.headers["location"])
    assert "The key is revoked." in revoked.text
    assert client_id not in revoked.text
    assert _token(web_service, client_id, secret).status_code == 401


def test_tool_page_runs_the_pipeline_and_shows_downloads(
    web_service: EmbeddedService, user: Browser
) -> None:
    answer = _upload(user, "table-extraction", pdf("first page", "second page"))
    assert answer.status_code == 303
    job_path = answer.headers["location"]
    page = _wait_job(user, job_path)
    assert "done" in page
    links = dict(re.findall(r'href="(/jobs/[^"]+/download/(\w+))"', page))
    kinds = sorted(links.values())
    assert kinds == ["csv", "json", "zip"]
    csv_link = next(link for link, kind in links.items() if kind == "csv")
    csv = user.get(csv_link)
    assert csv.status_code == 200 and "first page" in csv.text
    assert "attachment" in csv.headers["content-disposition"]
    usage = user.get("/account/usage").text
    assert job_path in usage and csv_link in usage
    assert _credits(web_service, user) == 48


def test_upload_errors_in_plain_words(web_service: EmbeddedService, user: Browser) -> None:
    too_big = _upload(user, "invoice", b"%PDF-1.4\n" + b"0" * (10 * 1024 * 1024 + 10))
    assert too_big.status_code == 413
    unsupported = _upload(user, "classify", b"just some text, not a document", name="notes.txt")
    assert unsupported.status_code == 415
    assert "This type of file is not supported" in unsupported.text
    # The test service's receipt engine is not installed.
    missing = _upload(user, "receipt", pdf("x"))
    assert (
        missing.status_code == 501 and "This tool is not installed on this server." in missing.text
    )
    many_pages = pdf(*[f"page {n}" for n in range(51)])
    broke = _upload(user, "icr", many_pages)
    assert broke.status_code == 400
    assert (
        "Not enough credits: the document has 51 page(s), your balance is 50 credit(s)."
        in broke.text
    )
    # Scripted uploads (the page's own script) get the sentence as JSON.
    user.get("/tools/paperflow")
    scripted = user.http.post(
        "/tools/paperflow",
        files={"file": ("x.png", png(), "image/png")},
        headers={"X-Requested-With": "XMLHttpRequest", "X-CSRF-Token": user.csrf},
    )
    assert scripted.status_code == 201 and scripted.json()["redirect"].startswith("/jobs/")
    again = user.http.post(
        "/tools/paperflow",
        files={"file": ("x.png", png(), "image/png")},
        headers={"X-Requested-With": "XMLHttpRequest", "X-CSRF-Token": user.csrf},
    )
    assert again.status_code == 429
    assert again.json()["error"].startswith("Please wait a moment before the next upload")
    assert _credits(web_service, user) == 49  # only the accepted upload was charged


def test_pages_need_a_signed_in_account(web_service: EmbeddedService, browser: Browser) -> None:
    for path in [
        "/tools",
        "/tools/invoice",
        "/account",
        "/account/keys",
        "/account/usage",
        "/jobs/x",
    ]:
        response = browser.get(path)
        assert response.status_code == 303 and response.headers["location"].startswith(
            "/login?next="
        ), path


def test_accounts_see_only_their_own_keys_jobs_and_results(
    web_service: EmbeddedService, make_browser: Any
) -> None:
    alice, mallory = make_browser(), make_browser()
    signed_up(web_service, alice)
    signed_up(web_service, mallory)
    alice_key, alice_secret = _key(alice, "alice key")
    job_path = _upload(alice, "icr", pdf("alice secret text")).headers["location"]
    page = _wait_job(alice, job_path)
    downloads = re.findall(r'href="(/jobs/[^"]+/download/\w+)"', page)
    assert downloads
    # (the lifecycle engine's result is its own shape: the text is in the JSON download)
    assert "alice secret text" in alice.get(f"{job_path}/download/json").text
    # Mallory: not on her pages, not by URL, not through her API key.
    assert "alice key" not in mallory.get("/account/keys").text
    assert job_path not in mallory.get("/account/usage").text
    assert mallory.get(job_path).status_code == 404
    for link in downloads:
        response = mallory.get(link)
        assert response.status_code == 404 and "alice secret text" not in response.text
    revoke = mallory.post(f"/account/keys/{alice_key}/revoke")
    assert revoke.status_code == 404
    assert _token(web_service, alice_key, alice_secret).status_code == 200
    mallory_auth = _bearer(web_service, *_key(mallory))
    job_id = job_path.rsplit("/", 1)[1]
    api = httpx.get(f"{web_service.base_url}{RESULTS}{job_id}/json", headers=mallory_auth)
    assert api.status_code == 404


def test_delete_account_removes_everything(web_service: EmbeddedService, user: Browser) -> None:
    client_id, secret = _key(user)
    job_path = _upload(user, "icr", pdf("to be deleted")).headers["location"]
    _wait_job(user, job_path)
    job_id = job_path.rsplit("/", 1)[1]
    blobs = web_service.settings.data_dir / "blobs" / "results" / job_id
    assert blobs.exists()
    db = web_service._database()
    with db.session() as session:
        account_id = session.scalar(select(ClientRow.account_id).where(ClientRow.id == client_id))
    user.get("/account")
    wrong = user.post("/account/delete", {"password": "not-the-password"})
    assert wrong.status_code == 400 and "The password is wrong." in wrong.text
    done = user.post("/account/delete", {"password": PASSWORD})
    assert done.status_code == 303 and done.headers["location"] == "/login?notice=deleted"
    assert not blobs.exists()
    with db.session() as session:
        assert session.get(AccountRow, account_id) is None
        assert (
            session.scalar(
                select(func.count())
                .select_from(ClientRow)
                .where(ClientRow.account_id == account_id)
            )
            == 0
        )
        assert session.get(JobRow, job_id) is None
    assert _token(web_service, client_id, secret).status_code == 401
    assert user.get("/account").status_code == 303


def test_deleting_an_account_while_its_job_runs_leaves_no_files(
    web_service: EmbeddedService, user: Browser
) -> None:
    job_path = _upload(user, "icr", pdf("SLEEP 2")).headers["location"]
    job_id = job_path.rsplit("/", 1)[1]
    db = web_service._database()
    deadline = time.monotonic() + 30
    while True:
        with db.session() as session:
            job = session.get(JobRow, job_id)
            assert job is not None
            if job.status == "processing":
                break
        assert time.monotonic() < deadline, "the job never started"
        time.sleep(0.05)
    user.get("/account")
    assert user.post("/account/delete", {"password": PASSWORD}).status_code == 303
    blobs = web_service.settings.data_dir / "blobs"
    time.sleep(4)  # the engine finishes its 2 s and finds the job gone
    assert not (blobs / "results" / job_id).exists()
    assert not (blobs / "inputs" / job_id).exists()
