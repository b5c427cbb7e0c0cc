"""Sign-up, confirmation, log-in, forgotten password: each rule of issue 17 as a test."""

from __future__ import annotations

import hashlib
import re
from datetime import timedelta
from typing import Any

from sqlalchemy import select, update

from prefect_docai.server.db import AccountRow, AccountTokenRow, Database, WebSessionRow, utcnow
from prefect_docai.server.embedded import EmbeddedService
from prefect_docai.server.web import passwords
from tests.web.conftest import (
    PASSWORD,
    Browser,
    last_link,
    new_address,
    outbox_mails,
    signed_up,
)


def _db(service: EmbeddedService) -> Database:
    return service._database()


def _notice(response: Any) -> str:
    found = re.search(r'<p class="(?:notice|error)"[^>]*>(.*?)</p>', response.text, re.S)
    return found.group(1) if found else ""


def _account(service: EmbeddedService, address: str) -> AccountRow:
    with _db(service).session() as session:
        row = session.scalar(select(AccountRow).where(AccountRow.email == address))
        assert row is not None
        return row


def test_signup_confirm_login_and_credits(web_service: EmbeddedService, browser: Browser) -> None:
    address = new_address()
    answer = browser.signup(address, first_name="Grace", last_name="Hopper")
    assert answer.status_code == 200 and address in _notice(answer)
    account = _account(web_service, address)
    assert account.confirmed_at is None and account.credits == 0
    assert account.first_name == "Grace" and account.consented_at is not None
    assert account.password_hash and account.password_hash.startswith("$argon2id$")
    # Not usable before the link is opened (and the answer sends a new link).
    refused = browser.login(address)
    assert refused.status_code == 400 and "confirm" in _notice(refused)
    link = last_link(web_service, address, "/confirm")
    assert browser.get(link).headers["location"] == "/login?notice=confirmed"
    assert _account(web_service, address).credits == web_service.settings.signup_credits == 50
    # Single use: the same link again is refused, and gives no second bonus.
    again = browser.get(link)
    assert again.status_code == 400 and "not valid" in _notice(again)
    assert _account(web_service, address).credits == 50
    signed_in = browser.login(address)
    assert signed_in.status_code == 303 and signed_in.headers["location"] == "/tools"
    assert browser.get("/tools").status_code == 200


def test_link_tokens_are_stored_hashed(web_service: EmbeddedService, browser: Browser) -> None:
    address = new_address()
    browser.signup(address)
    token = last_link(web_service, address, "/confirm").split("token=")[1]
    with _db(web_service).session() as session:
        ids = set(session.scalars(select(AccountTokenRow.id)))
    assert token not in ids and hashlib.sha256(token.encode()).hexdigest() in ids


def test_confirmation_link_expires_after_24_hours(
    web_service: EmbeddedService, browser: Browser
) -> None:
    address = new_address()
    browser.signup(address)
    link = last_link(web_service, address, "/confirm")
    digest = hashlib.sha256(link.split("token=")[1].encode()).hexdigest()
    with _db(web_service).session() as session:
        row = session.get(AccountTokenRow, digest)
        assert row is not None
        lifetime = row.expires_at - row.created_at
    assert lifetime == timedelta(hours=24)
    with _db(web_service).transaction() as session:
        session.execute(
            update(AccountTokenRow)
            .where(AccountTokenRow.id == digest)
            .values(expires_at=utcnow() - timedelta(seconds=1))
        )
    assert browser.get(link).status_code == 400
    assert _account(web_service, address).confirmed_at is None


def test_signup_does_not_tell_whether_an_address_has_an_account(
    web_service: EmbeddedService, make_browser: Any
) -> None:
    known = signed_up(web_service, make_browser())
    fresh = new_address()
    first = make_browser().signup(known, password="another-long-pass-42")
    second = make_browser().signup(fresh, password="another-long-pass-42")
    assert first.status_code == second.status_code == 200
    assert _notice(first).replace(known, "X") == _notice(second).replace(fresh, "X")
    # The owner of the known address is told by mail instead, and nothing changed.
    assert (
        "already has one" in outbox_mails(web_service, known)[-1].get_body(("plain",)).get_content()
    )  # type: ignore[union-attr]
    assert make_browser().login(known).status_code == 303


def test_password_rules(web_service: EmbeddedService, browser: Browser) -> None:
    for password, expected in [
        ("short1!", "at least 10 characters"),
        ("1234567890", "too common"),
        ("password123", "too common"),
        ("aaaaaaaaaaaa", "too common"),
    ]:
        answer = browser.signup(new_address(), password=password)
        assert answer.status_code == 400 and expected in _notice(answer), password
    assert passwords.problem("violet-harbour-917") is None
    assert len(passwords.common_passwords()) > 20_000


def test_consent_and_fields_are_required(web_service: EmbeddedService, browser: Browser) -> None:
    address = new_address()
    answer = browser.signup(address, consent="")
    assert answer.status_code == 400 and "accept the terms" in _notice(answer)
    answer = browser.signup(address, first_name="")
    assert answer.status_code == 400 and "every field" in _notice(answer)
    answer = browser.signup("not-an-address")
    assert answer.status_code == 400 and "valid e-mail" in _notice(answer)
    with _db(web_service).session() as session:
        assert session.scalar(select(AccountRow).where(AccountRow.email == address)) is None


def test_login_failures_look_the_same_and_are_throttled(
    web_service: EmbeddedService, make_browser: Any
) -> None:
    known = signed_up(web_service, make_browser())
    unknown = new_address()
    wrong = make_browser(**{"X-Forwarded-For": "10.9.8.7"}).login(known, "wrong-password-123")
    missing = make_browser().login(unknown, "wrong-password-123")
    assert wrong.status_code == missing.status_code == 400
    assert _notice(wrong) == _notice(missing) == "The e-mail or the password is wrong."
    # Per account: after the burst, even the right password waits (for known and unknown
    # addresses alike, so the limit tells nothing either).
    # Each attempt from another client address: the e-mail's own bucket runs out.
    burst = web_service.settings.login_failures_burst
    for n, address in enumerate((known, unknown)):
        for attempt in range(burst):
            forwarded = {"X-Forwarded-For": f"10.1.{n}.{attempt}"}
            make_browser(**forwarded).login(address, "wrong-password-123")
        blocked = make_browser(**{"X-Forwarded-For": f"10.2.{n}.1"}).login(address, PASSWORD)
        assert blocked.status_code == 429 and "Too many attempts" in _notice(blocked)


def test_login_is_throttled_per_address(web_service: EmbeddedService, make_browser: Any) -> None:
    # Many accounts, one client address: the address bucket runs out (20 at once).
    attacker = make_browser(**{"X-Forwarded-For": "10.3.0.1"})
    statuses = [attacker.login(new_address(), "wrong-password-123").status_code for _ in range(21)]
    assert statuses[-1] == 429 and set(statuses[:-1]) == {400}


def test_forgotten_password(web_service: EmbeddedService, make_browser: Any) -> None:
    owner = make_browser()
    address = signed_up(web_service, owner)
    asker = make_browser()
    asker.get("/forgot")
    known = asker.post("/forgot", {"email": address})
    unknown = asker.post("/forgot", {"email": new_address()})
    assert known.status_code == unknown.status_code == 200
    assert re.sub(r"\S+@\S+", "X", _notice(known)) == re.sub(r"\S+@\S+", "X", _notice(unknown))
    link = last_link(web_service, address, "/reset")
    digest = hashlib.sha256(link.split("token=")[1].encode()).hexdigest()
    with _db(web_service).session() as session:
        row = session.get(AccountTokenRow, digest)
        assert row is not None and row.expires_at - row.created_at == timedelta(hours=1)
    form = asker.get(link)
    assert form.status_code == 200 and 'name="token"' in form.text
    token = link.split("token=")[1]
    weak = asker.post("/reset", {"token": token, "password": "123456789"})
    assert weak.status_code == 400 and "10 characters" in _notice(weak)
    done = asker.post("/reset", {"token": token, "password": "new-violet-harbour-2"})
    assert done.status_code == 303 and done.headers["location"] == "/login?notice=reset_done"
    # Once only; the old password and the owner's open session are gone.
    assert (
        asker.post("/reset", {"token": token, "password": "third-violet-harbour"}).status_code
        == 400
    )
    assert asker.get(link).status_code == 400
    assert owner.get("/account").status_code == 303
    assert make_browser().login(address).status_code == 400
    assert make_browser().login(address, "new-violet-harbour-2").status_code == 303


def test_reset_link_expires(web_service: EmbeddedService, make_browser: Any) -> None:
    address = signed_up(web_service, make_browser())
    asker = make_browser()
    asker.get("/forgot")
    asker.post("/forgot", {"email": address})
    link = last_link(web_service, address, "/reset")
    with _db(web_service).transaction() as session:
        session.execute(
            update(AccountTokenRow)
            .where(
                AccountTokenRow.id == hashlib.sha256(link.split("token=")[1].encode()).hexdigest()
            )
            .values(expires_at=utcnow() - timedelta(seconds=1))
        )
    assert asker.get(link).status_code == 400
    token = link.split("token=")[1]
    assert (
        asker.post("/reset", {"token": token, "password": "new-violet-harbour-2"}).status_code
        == 400
    )


def test_reset_mails_are_throttled(web_service: EmbeddedService, make_browser: Any) -> None:
    address = signed_up(web_service, make_browser())
    asker = make_browser()
    asker.get("/forgot")
    statuses = [asker.post("/forgot", {"email": address}).status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    assert (
        len([m for m in outbox_mails(web_service, address) if "password" in str(m["Subject"])]) == 3
    )


def test_session_cookie_flags(web_service: EmbeddedService, make_browser: Any) -> None:
    address = signed_up(web_service, make_browser())
    plain = make_browser().login(address)
    cookie = plain.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Secure" not in cookie
    # Behind an https proxy (uvicorn trusts X-Forwarded-Proto from loopback) it is Secure.
    proxied = make_browser(**{"X-Forwarded-Proto": "https"}).login(address)
    assert "Secure" in proxied.headers["set-cookie"]
    # Only the hash of the session token is stored.
    token = cookie.split(";")[0].split("=", 1)[1]
    with _db(web_service).session() as session:
        ids = set(session.scalars(select(WebSessionRow.id)))
    assert token not in ids and hashlib.sha256(token.encode()).hexdigest() in ids


def test_logout_ends_the_session(web_service: EmbeddedService, user: Browser) -> None:
    cookie = user.http.cookies.get("docai_session")
    assert user.post("/logout").headers["location"] == "/login?notice=logged_out"
    replay = Browser(web_service)
    replay.http.cookies.set("docai_session", cookie or "")
    assert replay.get("/account").status_code == 303


def test_every_post_needs_the_csrf_token(web_service: EmbeddedService, user: Browser) -> None:
    for path, data in [
        ("/account/keys", {"name": "x"}),
        ("/logout", {}),
        ("/login", {"email": "a@b.c", "password": "x"}),
        ("/signup", {}),
        ("/forgot", {"email": "a@b.c"}),
        ("/account/delete", {"password": PASSWORD}),
        ("/lang", {"lang": "de"}),
    ]:
        missing = user.http.post(path, data=data)
        assert missing.status_code == 403, path
        forged = user.http.post(path, data={**data, "csrf_token": "x" * 43})
        assert forged.status_code == 403, path
    other_site = user.http.post(
        "/account/keys",
        data={"name": "x", "csrf_token": user.csrf},
        headers={"Origin": "https://evil.example"},
    )
    assert other_site.status_code == 403
    upload = user.http.post(
        "/tools/invoice", files={"file": ("a.pdf", b"%PDF-1.4", "application/pdf")}
    )
    assert upload.status_code == 403
    assert user.get("/account").status_code == 200  # still signed in: nothing happened


def test_pages_policy_and_no_inline_script(web_service: EmbeddedService, user: Browser) -> None:
    for path in [
        "/",
        "/tools",
        "/tools/invoice",
        "/account",
        "/account/keys",
        "/account/usage",
        "/terms",
    ]:
        response = user.get(path)
        assert response.status_code == 200, path
        policy = response.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in policy and "unsafe-inline" not in policy
        assert "script-src 'self'" in policy
        scripts = re.findall(r"<script([^>]*)>", response.text)
        assert scripts and all("src=" in attributes for attributes in scripts), path
        assert " on" not in re.sub(r"<[^>]*>", "", "") and not re.search(
            r"<[^>]+\son\w+=", response.text
        )
        assert response.headers["x-frame-options"] == "DENY"


def test_static_assets_are_versioned(web_service: EmbeddedService, browser: Browser) -> None:
    page = browser.get("/login").text
    css = re.search(r'href="(/static/app\.css\?v=[0-9a-f]{12})"', page)
    js = re.search(r'src="(/static/app\.js\?v=[0-9a-f]{12})"', page)
    assert css and js
    asset = browser.get(css.group(1))
    assert asset.status_code == 200 and "immutable" in asset.headers["cache-control"]
    assert "cdn" not in page.lower() and "https://" not in page


def test_german_and_english(web_service: EmbeddedService, make_browser: Any) -> None:
    german = make_browser(**{"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"})
    page = german.get("/login")
    assert '<html lang="de">' in page.text and "Passwort vergessen?" in page.text
    english = make_browser(**{"Accept-Language": "en-US,en;q=0.9"})
    assert "Forgotten password?" in english.get("/login").text
    # The switch overrides the header and stays.
    switched = english.post("/lang", {"lang": "de", "next": "/signup"})
    assert switched.status_code == 303 and switched.headers["location"] == "/signup"
    assert "Konto anlegen" in english.get("/signup").text
    # An absolute URL is never a place to go back to.
    away = english.post("/lang", {"lang": "en", "next": "//evil.example/x"})
    assert away.headers["location"] == "/tools"


def test_legal_pages_text_comes_from_configuration(
    web_service: EmbeddedService, browser: Browser
) -> None:
    terms = browser.get("/terms").text
    assert "Operator terms, first paragraph." in terms and "Second paragraph of the terms." in terms
    assert "We store your name" in browser.get("/privacy").text
    signup = browser.get("/signup").text
    assert 'href="/terms"' in signup and 'href="/privacy"' in signup
