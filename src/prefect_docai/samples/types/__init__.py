"""Templates per document type; importing this package registers all of them."""

from prefect_docai.samples.types import (  # noqa: F401
    invoice,
    letter,
    orders,
    receipt,
    report,
)
