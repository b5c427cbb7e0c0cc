"""The web platform in a real browser: headless Debian Chromium driven by Playwright
(``executable_path``; never ``playwright install``), against the service with its real
engines. One journey: sign up, confirm from the outbox mail, log in, make an API key and use
it, drop an invoice on the Invoice page, read the fields, fetch the JSON download; pick a
file with the keyboard-reachable input on the Table page and fetch the CSV; forgotten
password; a second account cannot open the first one's results. Every page is checked with
axe-core (no serious or critical violations) and for horizontal overflow at phone width,
and photographed at desktop and phone width.

Browser downloads do not work here, so download links are fetched with the page's own
request context (its cookies). ``DOCAI_WRITE_SCREENSHOTS=1`` writes the pictures to
``docs/screenshots/`` (the README shows them); otherwise they go to a temporary folder.
"""

from __future__ import annotations

import base64
import csv
import io
import os
import shutil
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from prefect_docai.server.embedded import EmbeddedService
from tests.web.conftest import last_link

CHROMIUM = Path("/usr/bin/chromium")
LAUNCH_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}
REPO = Path(__file__).resolve().parents[2]
PASSWORD = "amber-lighthouse-204"

pytestmark = pytest.mark.slow


def _require_chromium() -> None:
    if CHROMIUM.exists():
        return
    message = "Debian's chromium is not installed (make setup installs it)"
    if os.environ.get("CI", "").lower() in {"1", "true", "yes"}:
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


@pytest.fixture(scope="module")
def live() -> Iterator[EmbeddedService]:
    # The real engines; 10 uploads per second so the journey never waits on the rate limit.
    with EmbeddedService(workers=1, upload_rate_per_second=10) as service:
        yield service


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    _require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if os.environ.get("DOCAI_WRITE_SCREENSHOTS") == "1":
        folder = REPO / "docs" / "screenshots"
        folder.mkdir(parents=True, exist_ok=True)
        return folder
    return tmp_path_factory.mktemp("screenshots")


class Checker:
    """axe-core, phone-width overflow, CSP reports and screenshots for each page seen."""

    def __init__(self, folder: Path) -> None:
        from axe_playwright_python.sync_playwright import Axe

        self.axe = Axe()
        self.folder = folder
        self.seen: list[str] = []

    def check(self, page: Any, name: str) -> None:
        page.wait_for_load_state("load")
        results = self.axe.run(page)
        bad = [
            f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}"
            for v in results.response["violations"]
            if v.get("impact") in ("serious", "critical")
        ]
        assert not bad, f"{name}: {bad}"
        self._shoot(page, f"{name}-desktop.png")
        page.set_viewport_size(PHONE)
        overflow = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 1, f"{name}: {overflow}px wider than a phone screen"
        self._shoot(page, f"{name}-phone.png")
        page.set_viewport_size(DESKTOP)
        self.seen.append(name)

    def _shoot(self, page: Any, file_name: str) -> None:
        from PIL import Image

        png = page.screenshot()
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        # A 64-colour palette keeps the committed pictures small (the pages are flat colours).
        image = Image.open(io.BytesIO(png)).convert("RGB").quantize(colors=64)
        image.save(self.folder / file_name, optimize=True)


def _new_page(browser: Any, csp_errors: list[str]) -> Any:
    context = browser.new_context(viewport=DESKTOP, locale="en-US")
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.on(
        "console",
        lambda message: (
            csp_errors.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    return page


def _sign_up(page: Any, live: EmbeddedService, address: str, checker: Checker | None) -> None:
    page.goto(live.base_url + "/signup")
    if checker:
        checker.check(page, "signup")
    page.get_by_label("First name").fill("Ada")
    page.get_by_label("Last name").fill("Lovelace")
    page.get_by_label("E-mail").fill(address)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("checkbox").check()
    page.get_by_role("button", name="Create account").click()
    page.get_by_text("a message with a confirmation link is on its way").wait_for()
    if checker:
        checker.check(page, "signup-sent")
    page.goto(live.base_url + last_link(live, address, "/confirm"))
    page.get_by_text("Your e-mail address is confirmed").wait_for()


def _log_in(
    page: Any, live: EmbeddedService, address: str, password: str, checker: Checker | None
) -> None:
    if not page.url.startswith(live.base_url + "/login"):
        page.goto(live.base_url + "/login")
    if checker:
        checker.check(page, "login")
    page.get_by_label("E-mail").fill(address)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(live.base_url + "/tools")


def _drop(page: Any, selector: str, name: str, data: bytes, mime: str) -> None:
    """Drag a file onto the drop zone (a DataTransfer made in the page, as the OS would)."""
    transfer = page.evaluate_handle(
        """([b64, name, mime]) => {
            const bytes = Uint8Array.from(atob(b64), c => c.charCodeAt(0));
            const dt = new DataTransfer();
            dt.items.add(new File([bytes], name, {type: mime}));
            return dt;
        }""",
        [base64.b64encode(data).decode(), name, mime],
    )
    page.dispatch_event(selector, "dragenter", {"dataTransfer": transfer})
    page.dispatch_event(selector, "drop", {"dataTransfer": transfer})


def _wait_result(page: Any) -> None:
    # The job page reloads itself while the job runs.
    page.locator("#result, p.error").first.wait_for(timeout=240_000)


def _download(page: Any, live: EmbeddedService, kind: str) -> Any:
    href = page.locator(f'a[data-kind="{kind}"]').get_attribute("href")
    assert href
    response = page.request.get(live.base_url + href)
    assert response.status == 200, response.text()
    return response


@pytest.mark.timeout(900)
def test_journey(live: EmbeddedService, browser: Any, shots: Path) -> None:
    from prefect_docai.samples.generate import generate

    checker = Checker(shots)
    csp_errors: list[str] = []
    page = _new_page(browser, csp_errors)
    address = "ada@example.org"

    page.goto(live.base_url + "/")
    checker.check(page, "home")
    page.goto(live.base_url + "/terms")
    checker.check(page, "terms")
    page.goto(live.base_url + "/privacy")
    checker.check(page, "privacy")

    _sign_up(page, live, address, checker)
    _log_in(page, live, address, PASSWORD, checker)
    checker.check(page, "tools")

    # API key: generate, copy, use with the HTTP API.
    page.goto(live.base_url + "/account/keys")
    checker.check(page, "keys")
    page.get_by_label("API Client Friendly Name").fill("Bookkeeping export")
    page.get_by_role("button", name="Generate").click()
    client_id = page.locator("#new-client-id").inner_text()
    secret = page.locator("#new-client-secret").inner_text()
    page.locator('button.copy[data-copy="new-client-secret"]').click()
    page.get_by_role("button", name="Copied").wait_for()
    checker.check(page, "key-created")
    token = httpx.post(
        live.token_url,
        data={"grant_type": "client_credentials", "client_id": client_id, "client_secret": secret},
    )
    assert token.status_code == 200, token.text
    credits = httpx.get(
        live.base_url + "/api/Account/v1/Credits",
        headers={"Authorization": f"Bearer {token.json()['access_token']}"},
    )
    assert credits.json()["credits"] == 50

    # Invoice page: drop a PDF, see the fields, fetch the JSON.
    invoice = generate("invoice", seed=17, lang="en")
    page.goto(live.base_url + "/tools/invoice")
    checker.check(page, "tool-invoice")
    _drop(page, "#dropzone", "invoice.pdf", invoice.pdf, "application/pdf")
    page.wait_for_url("**/jobs/*")
    _wait_result(page)
    number = invoice.truth["invoiceNumber"]
    fields = page.locator("table.fields")
    fields.get_by_role("row", name="Invoice number").wait_for()
    assert number in fields.get_by_role("row", name="Invoice number").inner_text()
    first_item = invoice.truth["lineItems"][0]["description"]
    assert first_item in page.locator("#result").inner_text()
    checker.check(page, "result-invoice")
    envelope = _download(page, live, "JSON").json()
    assert envelope["status"] == "succeeded"
    assert envelope["result"]["invoiceNumber"]["value"] == number
    invoice_job = page.url

    # Table page: the keyboard-reachable file input this time; fetch the CSV.
    page.goto(live.base_url + "/tools/table-extraction")
    checker.check(page, "tool-table")
    page.locator("#file").focus()
    page.locator("#file").set_input_files(
        files=[{"name": "lines.pdf", "mimeType": "application/pdf", "buffer": invoice.pdf}]
    )
    page.keyboard.press("Tab")
    page.get_by_role("button", name="Upload and process").press("Enter")
    page.wait_for_url("**/jobs/*")
    _wait_result(page)
    assert page.locator("table.grid").count() >= 1
    grids = " ".join(page.locator("table.grid").all_inner_texts())
    assert first_item in grids
    checker.check(page, "result-table")
    table_csv = _download(page, live, "CSV")
    body = table_csv.body()
    # One table: its CSV; several: a ZIP of CSVs (docs/results.md).
    if body[:2] != b"PK":
        texts = [body.decode("utf-8-sig")]
    else:
        with zipfile.ZipFile(io.BytesIO(body)) as archive:
            names = archive.namelist()
            assert names and all(name.endswith(".csv") for name in names)
            texts = [archive.read(name).decode("utf-8-sig") for name in names]
    rows = [row for text in texts for row in csv.reader(io.StringIO(text))]
    assert any(first_item in " ".join(row) for row in rows)

    page.goto(live.base_url + "/account/usage")
    checker.check(page, "usage")
    usage = page.locator("table").inner_text()
    assert "invoice.pdf" in usage and "lines.pdf" in usage
    page.goto(live.base_url + "/account")
    checker.check(page, "account")

    # German.
    page.get_by_role("button", name="DE", exact=True).click()
    page.get_by_role("heading", name="Ihr Konto").wait_for()
    checker.check(page, "account-de")
    page.get_by_role("button", name="EN", exact=True).click()

    # Forgotten password.
    page.get_by_role("button", name="Log out").click()
    page.get_by_text("You are logged out.").wait_for()
    page.goto(live.base_url + "/forgot")
    checker.check(page, "forgot")
    page.get_by_label("E-mail").fill(address)
    page.get_by_role("button", name="Send link").click()
    page.get_by_text("a message with a link is on its way").wait_for()
    page.goto(live.base_url + last_link(live, address, "/reset"))
    checker.check(page, "reset")
    page.get_by_label("New password").fill("second-amber-lighthouse")
    page.get_by_role("button", name="Save password").click()
    page.get_by_text("Your password is changed").wait_for()
    _log_in(page, live, address, "second-amber-lighthouse", None)

    # Another account cannot open the first one's results.
    other = _new_page(browser, csp_errors)
    _sign_up(other, live, "eve@example.org", None)
    _log_in(other, live, "eve@example.org", PASSWORD, None)
    answer = other.goto(invoice_job)
    assert answer is not None and answer.status == 404
    other.get_by_text("There is nothing here").wait_for()
    checker.check(other, "not-found")
    denied = other.request.get(invoice_job + "/download/json")
    assert denied.status == 404 and number not in denied.text()
    assert (
        "invoice.pdf" not in other.goto(live.base_url + "/account/usage").text() if False else True
    )
    other.goto(live.base_url + "/account/usage")
    assert "invoice.pdf" not in other.content()

    assert csp_errors == []
    assert len(checker.seen) >= 18, checker.seen
    if not shots.is_relative_to(REPO):
        shutil.rmtree(shots, ignore_errors=True)
