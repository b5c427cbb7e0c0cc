"""Blobs (uploaded inputs, results, output files) under an fsspec URL."""

from __future__ import annotations

import contextlib
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import fsspec


class BlobStore:
    """Keys are relative ``a/b/c`` paths below the root of ``url``."""

    def __init__(self, url: str, **storage_options: Any) -> None:
        fs, root = fsspec.core.url_to_fs(url, **storage_options)
        self.fs = fs
        self.root = str(root).rstrip("/")
        self.is_local = "file" in (
            fs.protocol if isinstance(fs.protocol, tuple) else (fs.protocol,)
        )
        if self.is_local:
            private_dirs(Path(self.root))

    def _path(self, key: str) -> str:
        return f"{self.root}/{key}"

    def put(self, key: str, data: bytes) -> None:
        path = self._path(key)
        if self.is_local:
            private_dirs(Path(path).parent)
            # Write then rename, so a reader never sees half a file; readable by the
            # service's user only (documents and results are private).
            tmp = path + ".part"
            try:
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                with os.fdopen(fd, "wb") as handle:
                    handle.write(data)
                os.replace(tmp, path)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
                raise
        else:
            self.fs.pipe_file(path, data)

    def get(self, key: str) -> bytes:
        data = self.fs.cat_file(self._path(key))
        return bytes(data)

    def exists(self, key: str) -> bool:
        return bool(self.fs.exists(self._path(key)))

    def delete(self, key: str) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.fs.rm_file(self._path(key))

    def delete_prefix(self, prefix: str) -> None:
        path = self._path(prefix.rstrip("/"))
        with contextlib.suppress(FileNotFoundError):
            if self.fs.exists(path):
                self.fs.rm(path, recursive=True)

    def modified(self, prefix: str) -> dict[str, datetime]:
        """Names of the blobs directly below ``prefix`` with their last-modified time (UTC).

        A blob whose time the store cannot tell is left out, so callers never age it.
        """
        path = self._path(prefix.rstrip("/"))
        try:
            entries = self.fs.ls(path, detail=True)
        except FileNotFoundError:
            return {}
        found: dict[str, datetime] = {}
        for entry in entries:
            if entry.get("type") != "file":
                continue
            name = str(entry["name"]).rstrip("/").rsplit("/", 1)[-1]
            when = _entry_time(entry)
            if when is None:
                try:
                    when = self.fs.modified(entry["name"])
                except (NotImplementedError, OSError, KeyError):
                    continue
            if when is not None:
                found[name] = when if when.tzinfo else when.replace(tzinfo=UTC)
        return found


def _entry_time(entry: dict[str, Any]) -> datetime | None:
    # Listings name the time differently: local "mtime" (epoch), s3fs "LastModified"
    # (datetime), gcsfs "updated" (ISO text).
    for field in ("mtime", "LastModified", "updated"):
        value = entry.get(field)
        if isinstance(value, datetime):
            return value
        if isinstance(value, int | float):
            return datetime.fromtimestamp(value, UTC)
        if isinstance(value, str):
            with contextlib.suppress(ValueError):
                return datetime.fromisoformat(value.replace("Z", "+00:00"))
    return None


def private_dirs(path: Path) -> None:
    """``mkdir -p`` whose new folders (and ``path`` itself) are ``0700``."""
    missing: list[Path] = []
    current = path
    while not current.exists():
        missing.append(current)
        current = current.parent
    for folder in reversed(missing):
        with contextlib.suppress(FileExistsError):
            folder.mkdir(mode=0o700)
    if path.stat().st_mode & 0o077:
        path.chmod(0o700)


INPUTS = "inputs/"


def input_key(job_id: str) -> str:
    return f"{INPUTS}{job_id}"


def result_prefix(job_id: str) -> str:
    return f"results/{job_id}/"


def result_key(job_id: str) -> str:
    return f"results/{job_id}/result.json"


def file_key(job_id: str, index: int, name: str) -> str:
    safe = "".join(ch if ch.isalnum() or ch in "._-" else "_" for ch in name)[:200] or "file"
    return f"results/{job_id}/files/{index:03d}-{safe}"
