"""Dependencies of the web routes (``Annotated`` aliases): the service's resources, the language, the
signed-in account, and the CSRF check of every form post."""

from __future__ import annotations

import hmac
from typing import Annotated
from urllib.parse import urlsplit

from fastapi import Depends, Request
from starlette.datastructures import FormData

from prefect_docai.server.api.deps import ResourcesDep
from prefect_docai.server.web import store
from prefect_docai.server.web.i18n import negotiate
from prefect_docai.server.web.render import CSRF_COOKIE, LANG_COOKIE, SESSION_COOKIE


class LoginRequired(Exception):
    """The page needs a signed-in, confirmed account (handled: redirect to the login page)."""


class CsrfFailed(Exception):
    """A post without the browser's CSRF token, or from another origin (handled: 403 page)."""


Svc = ResourcesDep


def session_account(request: Request, resources: Svc) -> store.Account | None:
    request.state.lang = negotiate(
        request.cookies.get(LANG_COOKIE), request.headers.get("accept-language")
    )
    token = request.cookies.get(SESSION_COOKIE)
    account = None
    if token and len(token) <= 100:
        account = store.session_account(resources.db, token)
        if account is not None and not account.confirmed:
            account = None
    request.state.account = account
    return account


MaybeAccount = Annotated[store.Account | None, Depends(session_account)]


def _required_account(account: MaybeAccount) -> store.Account:
    if account is None:
        raise LoginRequired()
    return account


CurrentAccount = Annotated[store.Account, Depends(_required_account)]


def _same_origin(request: Request) -> bool:
    # Browsers send Origin on cross-site POSTs; under the service's Referrer-Policy
    # (no-referrer) a same-site form post says "null", so without a real origin the token
    # alone decides.
    origin = request.headers.get("origin")
    if not origin or origin == "null":
        return True
    return urlsplit(origin).netloc == request.headers.get("host", "")


def check_csrf(request: Request, form: FormData | None) -> None:
    """Double-submit token: the form field (or ``X-CSRF-Token``) must equal the cookie."""
    cookie = request.cookies.get(CSRF_COOKIE, "")
    sent = request.headers.get("x-csrf-token", "")
    if form is not None and not sent:
        value = form.get("csrf_token")
        sent = value if isinstance(value, str) else ""
    if not cookie or not sent or not hmac.compare_digest(cookie.encode(), sent.encode()):
        raise CsrfFailed()
    if not _same_origin(request):
        raise CsrfFailed()


async def _posted_form(request: Request) -> FormData:
    form = await request.form(max_files=0, max_fields=20)
    check_csrf(request, form)
    return form


PostedForm = Annotated[FormData, Depends(_posted_form)]


def client_address(request: Request) -> str:
    return request.client.host if request.client else "-"
