"""Create a file only if it does not exist yet, atomically: the one primitive commits need.

* Local disks: the bytes go to a temporary file that is then hard-linked to the name;
  ``link(2)`` fails when the name exists, and readers never see a half-written file.
* S3 (``s3fs``): ``PutObject`` with ``If-None-Match: *`` (AWS since August 2024; MinIO,
  Cloudflare R2 and moto honour it too). S3 answers 412 when the key exists and 409 when
  a conditional write on the same key is in flight; both mean "someone else got there".
* ``memory://``: exclusive open in this process, which is all that filesystem spans.

Any other fsspec filesystem falls back to fsspec's check-then-write, which is not atomic:
:func:`is_atomic` says so, and the store warns once.
"""

from __future__ import annotations

import contextlib
import os
import uuid

import fsspec
from fsspec.implementations.local import LocalFileSystem
from fsspec.implementations.memory import MemoryFileSystem

_LOST = ("PreconditionFailed", "ConditionalRequestConflict", "412", "409")


def is_atomic(fs: fsspec.AbstractFileSystem) -> bool:
    """Whether :func:`create_exclusive` is atomic on ``fs``."""
    protocols = {fs.protocol} if isinstance(fs.protocol, str) else set(fs.protocol)
    return isinstance(fs, LocalFileSystem | MemoryFileSystem) or bool(protocols & {"s3", "s3a"})


def create_exclusive(fs: fsspec.AbstractFileSystem, path: str, data: bytes) -> bool:
    """Write ``data`` to ``path`` if nothing is there; ``False`` when something already was."""
    if isinstance(fs, LocalFileSystem):
        parent = os.path.dirname(path)
        os.makedirs(parent, exist_ok=True)
        tmp = os.path.join(parent, f".{os.path.basename(path)}.{uuid.uuid4().hex}.tmp")
        with open(tmp, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        try:
            os.link(tmp, path)
        except FileExistsError:
            return False
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
        return True
    try:
        fs.pipe_file(path, data, mode="create")
    except FileExistsError:
        return False
    except OSError as exc:
        if any(code in str(exc) for code in _LOST):
            return False
        raise
    return True
