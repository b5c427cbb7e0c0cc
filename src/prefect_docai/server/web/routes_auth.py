"""Sign-up, e-mail confirmation, log in / out, forgotten password, language switch.

No page tells whether an e-mail address has an account: sign-up and the reset request
answer the same either way (the mail says the rest), and a failed log-in names no reason.
"""

from __future__ import annotations

import math

from email_validator import EmailNotValidError, validate_email
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from prefect_docai.server.resources import Resources
from prefect_docai.server.throttle import Bucket
from prefect_docai.server.web import mails, passwords, store
from prefect_docai.server.web.deps import MaybeAccount, PostedForm, Svc, client_address
from prefect_docai.server.web.i18n import LANGUAGES
from prefect_docai.server.web.render import LANG_COOKIE, SESSION_COOKIE, page, set_cookie

# Reset mails per address: a few at once, then one per 20 minutes; per client address a
# little more (several people behind one NAT).
_RESET_BURST, _RESET_RATE = 3, 1 / 1200
_ADDRESS_MAIL_BURST, _ADDRESS_MAIL_RATE = 10, 1 / 360
# Failed sign-ins per client address, across e-mail addresses (password spraying).
_LOGIN_ADDRESS_BURST, _LOGIN_ADDRESS_RATE = 20, 1 / 30

NOTICES = ("confirmed", "reset_done", "logged_out", "deleted", "login_needed")


def _text(form: PostedForm, name: str, limit: int = 320) -> str:
    value = form.get(name)
    return value.strip()[:limit] if isinstance(value, str) else ""


def _password(form: PostedForm) -> str:
    value = form.get("password")
    return value[: passwords.MAX_LENGTH + 1] if isinstance(value, str) else ""


def normalize_email(raw: str) -> str | None:
    try:
        return validate_email(raw, check_deliverability=False).normalized.lower()
    except EmailNotValidError:
        return None


def safe_next(raw: str | None) -> str:
    """Only a path on this site (never ``//host`` or a URL) is a place to go back to."""
    if raw and raw.startswith("/") and not raw.startswith("//") and "\\" not in raw:
        return raw
    return "/tools"


def _minutes(wait: float) -> int:
    return max(1, math.ceil(wait / 60))


def _email_key(prefix: str, email: str) -> str:
    return f"{prefix}:{store.digest(email)[:40]}"


def _login_buckets(resources: Resources, email: str, address: str) -> list[Bucket]:
    settings = resources.settings
    return [
        Bucket(
            _email_key("login-email", email),
            settings.login_failures_burst,
            settings.login_failures_per_second,
        ),
        Bucket(f"login-address:{address[:100]}", _LOGIN_ADDRESS_BURST, _LOGIN_ADDRESS_RATE),
    ]


def _mail_buckets(kind: str, email: str, address: str) -> list[Bucket]:
    return [
        Bucket(_email_key(f"{kind}-email", email), _RESET_BURST, _RESET_RATE),
        Bucket(f"{kind}-address:{address[:100]}", _ADDRESS_MAIL_BURST, _ADDRESS_MAIL_RATE),
    ]


# --- sign-up and confirmation ------------------------------------------------------------


def _send_confirmation(
    resources: Resources, request: Request, account_id: str, email: str, name: str
) -> None:
    """A new confirmation link (earlier ones stop working) by mail."""
    token = store.issue_link(resources.db, account_id, store.CONFIRM)
    link = mails.link(resources, request, "/confirm", token)
    mails.send(resources, request.state.lang, email, "confirm", name=name, link=link)


def signup_form(request: Request, account: MaybeAccount) -> Response:
    if account is not None:
        return RedirectResponse("/tools", status_code=303)
    return page(request, "signup.html", values={}, error=None)


def _signup(
    resources: Resources, request: Request, form: PostedForm
) -> tuple[str | None, dict[str, str]]:
    values = {name: _text(form, name, 100) for name in ("first_name", "last_name")}
    values["email"] = _text(form, "email")
    password = _password(form)
    if not all(values.values()) or not password:
        return "required", values
    email = normalize_email(values["email"])
    if email is None:
        return "email_invalid", values
    if form.get("consent") != "yes":
        return "consent_missing", values
    problem = passwords.problem(password, email)
    if problem is not None:
        return problem, values
    lang = request.state.lang
    address = client_address(request)
    buckets = _mail_buckets("signup", email, address)
    wait = resources.throttle.wait(buckets)
    if wait > 0:
        return "too_many:" + str(_minutes(wait)), values
    resources.throttle.spend(buckets)
    password_hash = passwords.hash_password(password)
    account_id = store.create_account(
        resources.db, email, values["first_name"], values["last_name"], password_hash
    )
    if account_id is not None:
        _send_confirmation(resources, request, account_id, email, values["first_name"])
        return None, values
    existing = store.by_email(resources.db, email)
    if existing is not None and not existing.confirmed:
        _send_confirmation(resources, request, existing.id, email, existing.first_name)
    else:
        mails.send(
            resources, lang, email, "exists", link=f"{mails.base_url(resources, request)}/forgot"
        )
    return None, values


async def signup(request: Request, form: PostedForm, resources: Svc) -> Response:
    error, values = await run_in_threadpool(_signup, resources, request, form)
    if error is None:
        return page(
            request,
            "message.html",
            title_key="signup_sent_title",
            message_key="signup_sent",
            message_values={"email": values["email"]},
        )
    minutes = ""
    if error.startswith("too_many:"):
        error, minutes = "too_many", error.partition(":")[2]
    return page(
        request,
        "signup.html",
        status_code=429 if error == "too_many" else 400,
        values=values,
        error=error,
        minutes=minutes,
    )


def _confirm(resources: Resources, token: str) -> bool:
    account_id = store.use_link(resources.db, token, store.CONFIRM)
    if account_id is None:
        return False
    store.confirm(resources.db, account_id, resources.settings.signup_credits)
    return True


async def confirm(request: Request, resources: Svc, _: MaybeAccount, token: str = "") -> Response:
    ok = bool(token) and len(token) <= 100 and await run_in_threadpool(_confirm, resources, token)
    if not ok:
        return page(
            request,
            "message.html",
            status_code=400,
            title_key="link_invalid",
            message_key="link_invalid",
        )
    return RedirectResponse("/login?notice=confirmed", status_code=303)


# --- log in / out ------------------------------------------------------------------------


def login_form(
    request: Request, account: MaybeAccount, next: str = "", notice: str = ""
) -> Response:
    if account is not None and not notice:
        return RedirectResponse(safe_next(next), status_code=303)
    return page(
        request,
        "login.html",
        next=safe_next(next),
        notice=notice if notice in NOTICES else None,
        error=None,
        email="",
    )


def _login(resources: Resources, request: Request, email: str, password: str) -> tuple[str, str]:
    """("ok", session token) or (error key, minutes)."""
    buckets = _login_buckets(resources, email, client_address(request))
    wait = resources.throttle.wait(buckets)
    if wait > 0:
        return "too_many", str(_minutes(wait))
    account = store.by_email(resources.db, email) if email else None
    if not passwords.verify(password, account.password_hash if account else None):
        resources.throttle.spend(buckets)
        return "login_failed", ""
    assert account is not None
    if not account.confirmed:
        _send_confirmation(resources, request, account.id, account.email, account.first_name)
        return "login_unconfirmed", ""
    return "ok", store.start_session(resources.db, account.id, resources.settings.session_ttl)


async def login(request: Request, form: PostedForm, resources: Svc) -> Response:
    raw_email = _text(form, "email")
    email = normalize_email(raw_email) or ""
    outcome, value = await run_in_threadpool(_login, resources, request, email, _password(form))
    next_path = safe_next(_text(form, "next", 500))
    if outcome == "ok":
        response = RedirectResponse(next_path, status_code=303)
        set_cookie(response, request, SESSION_COOKIE, value, resources.settings.session_ttl)
        return response
    return page(
        request,
        "login.html",
        status_code=429 if outcome == "too_many" else 400,
        next=next_path,
        notice=None,
        error=outcome,
        minutes=value,
        email=raw_email,
    )


async def logout(request: Request, _: PostedForm, resources: Svc) -> Response:
    token = request.cookies.get(SESSION_COOKIE)
    if token:
        await run_in_threadpool(store.end_session, resources.db, token)
    response = RedirectResponse("/login?notice=logged_out", status_code=303)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


# --- forgotten password ------------------------------------------------------------------


def forgot_form(request: Request, _: MaybeAccount) -> HTMLResponse:
    return page(request, "forgot.html", error=None, email="")


def _forgot(resources: Resources, request: Request, email: str) -> str | None:
    buckets = _mail_buckets("reset", email, client_address(request))
    wait = resources.throttle.wait(buckets)
    if wait > 0:
        return str(_minutes(wait))
    resources.throttle.spend(buckets)
    account = store.by_email(resources.db, email)
    if account is not None and account.password_hash is not None:
        token = store.issue_link(resources.db, account.id, store.RESET)
        mails.send(
            resources,
            request.state.lang,
            email,
            "reset",
            name=account.first_name,
            link=mails.link(resources, request, "/reset", token),
        )
    return None


async def forgot(request: Request, form: PostedForm, resources: Svc) -> Response:
    raw = _text(form, "email")
    email = normalize_email(raw)
    if email is None:
        return page(request, "forgot.html", status_code=400, error="email_invalid", email=raw)
    minutes = await run_in_threadpool(_forgot, resources, request, email)
    if minutes is not None:
        return page(
            request, "forgot.html", status_code=429, error="too_many", minutes=minutes, email=raw
        )
    return page(
        request,
        "message.html",
        title_key="forgot_title",
        message_key="forgot_sent",
        message_values={"email": email},
    )


async def reset_form(
    request: Request, resources: Svc, _: MaybeAccount, token: str = ""
) -> Response:
    valid = bool(token) and len(token) <= 100
    if valid:
        valid = (
            await run_in_threadpool(store.link_account, resources.db, token, store.RESET)
            is not None
        )
    if not valid:
        return page(
            request,
            "message.html",
            status_code=400,
            title_key="link_invalid",
            message_key="link_invalid",
        )
    return page(request, "reset.html", token=token, error=None)


def _reset(resources: Resources, token: str, password: str) -> str | None:
    account_id = store.link_account(resources.db, token, store.RESET)
    if account_id is None:
        return "link_invalid"
    account = store.by_id(resources.db, account_id)
    problem = passwords.problem(password, account.email if account else "")
    if problem is not None:
        return problem
    password_hash = passwords.hash_password(password)
    if store.use_link(resources.db, token, store.RESET) != account_id:
        return "link_invalid"
    store.set_password(resources.db, account_id, password_hash)
    # The link came by mail, so the address is confirmed as well.
    store.confirm(resources.db, account_id, resources.settings.signup_credits)
    return None


async def reset(request: Request, form: PostedForm, resources: Svc) -> Response:
    token = _text(form, "token", 100)
    error = await run_in_threadpool(_reset, resources, token, _password(form))
    if error == "link_invalid":
        return page(
            request,
            "message.html",
            status_code=400,
            title_key="link_invalid",
            message_key="link_invalid",
        )
    if error is not None:
        return page(request, "reset.html", status_code=400, token=token, error=error)
    response = RedirectResponse("/login?notice=reset_done", status_code=303)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


# --- language ----------------------------------------------------------------------------


async def switch_language(request: Request, form: PostedForm) -> Response:
    lang = _text(form, "lang", 5)
    response = RedirectResponse(safe_next(_text(form, "next", 500)), status_code=303)
    if lang in LANGUAGES:
        set_cookie(response, request, LANG_COOKIE, lang, 365 * 24 * 3600)
    return response


def router() -> APIRouter:
    routes = APIRouter(include_in_schema=False)
    routes.add_api_route("/signup", signup_form, methods=["GET"])
    routes.add_api_route("/signup", signup, methods=["POST"])
    routes.add_api_route("/confirm", confirm, methods=["GET"])
    routes.add_api_route("/login", login_form, methods=["GET"])
    routes.add_api_route("/login", login, methods=["POST"])
    routes.add_api_route("/logout", logout, methods=["POST"])
    routes.add_api_route("/forgot", forgot_form, methods=["GET"])
    routes.add_api_route("/forgot", forgot, methods=["POST"])
    routes.add_api_route("/reset", reset_form, methods=["GET"])
    routes.add_api_route("/reset", reset, methods=["POST"])
    routes.add_api_route("/lang", switch_language, methods=["POST"])
    return routes
