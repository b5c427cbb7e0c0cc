"""prefect-docai: a self-hostable document-AI service and the Prefect 3 integration that drives it."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from prefect_docai.blocks import DocAICredentials

# Prefect imports this package through the ``prefect.collections`` entry point to register
# its blocks (and ``prefect block register -m prefect_docai`` looks for them here). Prefect
# is always imported by then; the service and the engines never import Prefect, so they do
# not pay for it or depend on it just by importing this package.
if "prefect" in sys.modules:
    from prefect_docai.blocks import DocAICredentials


def __getattr__(name: str) -> Any:
    if name == "DocAICredentials":
        from prefect_docai.blocks import DocAICredentials

        return DocAICredentials
    raise AttributeError(f"module 'prefect_docai' has no attribute {name!r}")


def __dir__() -> list[str]:
    # ``prefect block register -m prefect_docai`` discovers blocks by ``dir()``.
    return sorted({*globals(), "DocAICredentials"})


__all__ = ["DocAICredentials", "__version__"]
