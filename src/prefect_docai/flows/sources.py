"""Listing and reading the batch's source files over fsspec."""

from __future__ import annotations

import fnmatch
import posixpath
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import fsspec

_GLOB_CHARS = frozenset("*?[")


@dataclass(frozen=True)
class SourceFile:
    url: str
    """Full URL (with protocol) as recorded in the ``documents`` dataset."""
    path: str
    """Path inside the filesystem, for reading."""
    name: str
    size: int | None


class Source:
    """A folder, a single file or a glob (``s3://bucket/inbox/**/*.pdf``) on any fsspec FS."""

    def __init__(
        self, source: str, patterns: Sequence[str], storage_options: dict[str, Any] | None = None
    ) -> None:
        self.source = source
        self.patterns = [p.lower() for p in patterns]
        fs, path = fsspec.core.url_to_fs(source, **(storage_options or {}))
        self.fs: fsspec.AbstractFileSystem = fs
        self.path: str = path
        self.left_out: list[str] = []
        """URLs of the folder's files that no pattern matched (filled by :meth:`list`)."""

    @staticmethod
    def _ours_or_hidden(path: str) -> bool:
        # Never read our own bookkeeping or hidden files (a destination inside the source).
        return posixpath.basename(path).startswith(".") or "_docai" in path.split("/")

    def _matches(self, path: str) -> bool:
        name = posixpath.basename(path).lower()
        return any(fnmatch.fnmatchcase(name, p) for p in self.patterns)

    def list(self) -> list[SourceFile]:
        if _GLOB_CHARS.intersection(self.path):
            found: dict[str, Any] = self.fs.glob(self.path, detail=True)
            infos = {p: i for p, i in found.items() if i.get("type") != "directory"}
            paths = sorted(p for p in infos if not posixpath.basename(p).startswith("."))
        elif self.fs.isdir(self.path):
            infos = self.fs.find(self.path, detail=True)
            candidates = [p for p in infos if not self._ours_or_hidden(p)]
            paths = sorted(p for p in candidates if self._matches(p))
            self.left_out = sorted(self.url(p) for p in candidates if not self._matches(p))
        elif self.fs.exists(self.path):
            infos = {self.path: self.fs.info(self.path)}
            paths = [self.path]
        else:
            raise FileNotFoundError(f"source {self.source!r} does not exist")
        return [
            SourceFile(
                url=self.url(p),
                path=p,
                name=posixpath.basename(p),
                size=infos[p].get("size"),
            )
            for p in paths
        ]

    def url(self, path: str) -> str:
        return str(self.fs.unstrip_protocol(path))

    def read(self, file: SourceFile) -> bytes:
        data: bytes = self.fs.cat_file(file.path)
        return data
