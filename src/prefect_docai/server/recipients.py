"""Who the ``email`` upload parameter may name (``DOCAI_MAIL_RECIPIENTS``).

A comma-separated rule: ``*`` anyone; ``@example.com`` any address of that domain;
``name@example.com`` that address; ``confirmed`` the address the account owner confirmed
(web accounts). An address is allowed when any entry allows it. The address itself is
already one plain, normalised ``local@domain`` (no display name, no second address, no
line break: header injection is impossible by construction).
"""

from __future__ import annotations


def entries(rule: str) -> list[str]:
    return [part.strip().lower() for part in rule.split(",") if part.strip()]


def allowed(address: str, rule: str, confirmed: str | None = None) -> bool:
    address = address.lower()
    domain = address.rpartition("@")[2]
    for entry in entries(rule):
        if entry == "*" or entry == address or entry == f"@{domain}":
            return True
        if entry == "confirmed" and confirmed is not None and confirmed.lower() == address:
            return True
    return False


def needs_confirmed(rule: str) -> bool:
    return "confirmed" in entries(rule)
