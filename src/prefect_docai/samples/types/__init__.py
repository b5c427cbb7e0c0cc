"""Templates per document type: each module declares its ``TEMPLATES``; this package lists them.

The registry (:func:`prefect_docai.samples.generate.registry`) is built from ``TEMPLATES``
here, so template modules import only the record types of :mod:`..core` and nothing imports
back into them.
"""

from prefect_docai.samples.core import Template
from prefect_docai.samples.types import (
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

TEMPLATES: tuple[Template, ...] = (
    *advertisement.TEMPLATES,
    *bank_statement.TEMPLATES,
    *contract.TEMPLATES,
    *email.TEMPLATES,
    *form.TEMPLATES,
    *form_lined.TEMPLATES,
    *handwritten.TEMPLATES,
    *invoice.TEMPLATES,
    *letter.TEMPLATES,
    *orders.TEMPLATES,
    *receipt.TEMPLATES,
    *report.TEMPLATES,
)
"""Every template, in a fixed order (a template is picked by index within its type)."""

__all__ = ["TEMPLATES"]
