"""Log text that a client cannot forge: control characters are escaped, tracebacks indented.

Paths, methods, file names and engine messages come from clients; written verbatim, a
``%0a`` in a URL path (decoded by the server) starts a new, forged log line. ``escape``
turns every character outside printable ASCII into a visible escape, so one record is one
line; ``SafeFormatter`` applies it to every message and indents the lines of a traceback,
so nothing in a record can look like the start of another.
"""

from __future__ import annotations

import logging

_LIMIT = 500


def escape(value: object, limit: int = _LIMIT) -> str:
    """One printable-ASCII line: ``\\n``, ``\\x1b``, ``\\u202e`` … instead of the characters,
    and a backslash doubled so an escape cannot be forged either."""
    text = str(value)
    if len(text) > limit:
        text = text[:limit] + "..."
    if text.isascii() and text.isprintable() and "\\" not in text:
        return text
    text = text.replace("\\", "\\\\")
    return text.encode("ascii", "backslashreplace").decode("ascii").translate(_CONTROL)


def _control_escapes() -> dict[int, str]:
    table = {code: f"\\x{code:02x}" for code in [*range(0x20), 0x7F]}
    table.update({ord("\n"): "\\n", ord("\r"): "\\r", ord("\t"): "\\t"})
    return table


# backslashreplace leaves ASCII control characters alone; they get the same escapes.
_CONTROL = _control_escapes()


class SafeFormatter(logging.Formatter):
    """A formatter whose records are one line each, plus indented traceback lines."""

    def formatMessage(self, record: logging.LogRecord) -> str:
        return escape(super().formatMessage(record), limit=10_000)

    def formatException(self, ei: object) -> str:
        text = super().formatException(ei)  # type: ignore[arg-type]
        return "\n".join("    | " + escape(line, limit=10_000) for line in text.splitlines())

    def formatStack(self, stack_info: str) -> str:
        return "\n".join("    | " + escape(line, 10_000) for line in stack_info.splitlines())
