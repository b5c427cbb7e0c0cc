"""Turning what a caller hands in (bytes, a path, an fsspec URL or file) into an upload."""

from __future__ import annotations

import hashlib
import mimetypes
import os
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Protocol, runtime_checkable


@runtime_checkable
class _Openable(Protocol):
    """An ``fsspec.core.OpenFile`` (or anything opened the same way)."""

    path: str

    def open(self) -> Any: ...


DocumentInput = bytes | bytearray | memoryview | str | os.PathLike[str] | IO[bytes] | _Openable
"""Bytes, a local path, an fsspec URL (``s3://…``), an fsspec ``OpenFile`` or a binary file."""


@dataclass(frozen=True)
class Document:
    content: bytes
    file_name: str
    media_type: str
    sha256: str

    @property
    def size(self) -> int:
        return len(self.content)


def _media_type(file_name: str) -> str:
    guessed, _ = mimetypes.guess_type(file_name)
    return guessed or "application/octet-stream"


def load_document(source: DocumentInput, file_name: str | None = None) -> Document:
    """Read the whole document (uploads are capped at 10 MB, so memory is not a concern).

    Blocking I/O: async callers run this in a worker thread.
    """
    name: str
    content: bytes
    if isinstance(source, bytes | bytearray | memoryview):
        content = bytes(source)
        name = file_name or "document"
    elif isinstance(source, str) and "://" in source:
        import fsspec

        with fsspec.open(source, "rb") as handle:
            content = handle.read()
        name = file_name or source.rstrip("/").rsplit("/", 1)[-1]
    elif isinstance(source, str | os.PathLike):
        path = Path(source)
        content = path.read_bytes()
        name = file_name or path.name
    elif isinstance(source, _Openable):
        with source.open() as handle:
            content = handle.read()
        name = file_name or str(source.path).rstrip("/").rsplit("/", 1)[-1]
    else:
        # Leave a seekable handle where it was: a cache key may hash it before the upload.
        position = source.tell() if source.seekable() else None
        content = source.read()
        if position is not None:
            source.seek(position)
        name = file_name or Path(str(getattr(source, "name", "document"))).name
    return Document(
        content=content,
        file_name=name,
        media_type=_media_type(name),
        sha256=hashlib.sha256(content).hexdigest(),
    )


def document_sha256(source: DocumentInput) -> str:
    """Content hash of a document input, streaming where the input allows it."""
    if isinstance(source, str | os.PathLike) and "://" not in str(source):
        digest = hashlib.sha256()
        with open(source, "rb") as handle:
            for chunk in iter(lambda: handle.read(1 << 20), b""):
                digest.update(chunk)
        return digest.hexdigest()
    return load_document(source).sha256
