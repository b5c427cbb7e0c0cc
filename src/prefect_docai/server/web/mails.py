"""Account mails (confirmation, reset, "already registered") through the service's mail path:
SMTP when ``DOCAI_SMTP_URL`` is set, else ``.eml`` files in the outbox."""

from __future__ import annotations

import logging
import secrets
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from urllib.parse import urlencode

from fastapi import Request

from prefect_docai.server import mail
from prefect_docai.server.resources import Resources
from prefect_docai.server.web.i18n import translator

log = logging.getLogger("prefect_docai.server.web.mails")


def base_url(resources: Resources, request: Request) -> str:
    return (resources.settings.public_url or str(request.base_url)).rstrip("/")


def link(resources: Resources, request: Request, path: str, token: str) -> str:
    # The token rides in the query string: the access log never records query strings.
    return f"{base_url(resources, request)}{path}?{urlencode({'token': token})}"


def send(resources: Resources, lang: str, to: str, kind: str, **values: str) -> None:
    """Compose ``mail_<kind>_subject``/``_body`` in ``lang`` and send it; a failure is
    logged, never shown (the page must read the same whether or not an account exists)."""
    t = translator(lang)
    message = EmailMessage()
    message["From"] = resources.settings.smtp_from
    message["To"] = to
    message["Date"] = formatdate(localtime=False)
    message["Message-ID"] = make_msgid(domain="prefect-docai")
    message["Subject"] = t(f"mail_{kind}_subject")
    message.set_content(t(f"mail_{kind}_body", **values))
    try:
        mail.send_message(resources.settings, f"account-{kind}-{secrets.token_hex(8)}", message)
    except Exception as exc:
        log.warning("account mail (%s) could not be sent: %s", kind, type(exc).__name__)
