"""Templates per document type; importing this package registers all of them."""

from prefect_docai.samples.types import (  # noqa: F401
    advertisement,
    bank_statement,
    contract,
    email,
    form,
    form_lined,
    handwritten,
    invoice,
    letter,
    orders,
    receipt,
    report,
)
