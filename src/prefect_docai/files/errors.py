"""The one error an unusable upload raises, wherever it is found."""

from __future__ import annotations


class DocumentError(ValueError):
    """The input cannot be processed (corrupt, encrypted, too large, unsupported).

    ``code`` is a stable machine-readable code, reused as the problem+json ``code`` at
    upload and as the failed job's ``error.code``.
    """

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
