"""Generated sample documents with known truth, for tests, training and demos.

Every document type the classifier knows (``DOC_TYPES``) has several visually distinct
templates (layout, fonts, sizes, colours, logos drawn as shapes), German and English text, and
multi-page variants with page-number chains where that is natural. Templates are split into a
training group and a held-out group (``held_out=True``) so that a model can be evaluated on
layouts it has never seen. Everything is deterministic for a given seed.

API (stable)::

    @dataclass
    class GeneratedDocument:
        doc_type: str; lang: str; template: str; pdf: bytes; page_count: int
        truth: dict[str, Any]

    generate(doc_type, *, seed, lang="de", template=None, held_out=False,
             seller_seed=None) -> GeneratedDocument   # seller_seed: same issuing company
    templates(doc_type, *, held_out=False) -> list[str]
    degrade(pdf, *, seed, dpi=200, ..., mode="scan") -> bytes  # image-only PDF; scan|fax|copy
    photograph(pdf, *, seed, ...) -> bytes               # JPEG of a photographed page
    separator_sheet(kind) -> bytes                       # "blank" | "qr" | "barcode"
    make_stream(docs, *, separators=None) -> tuple[bytes, list[int]]   # 1-based starts
    sample_stream(seed, *, documents=5, ...) -> tuple[bytes, list[dict]]  # random stream
    write_batch(directory, *, count, seed) -> dict        # files + manifest.json
    einvoice.generate_einvoice(*, seed, lang="de", ...) -> GeneratedDocument  # Factur-X PDF
    tables.table_page(seed, *, scanned=False, layout=None, lang=None, dpi=None) -> TablePage
        # one page with 0-2 tables and exact cell truth (grid + box), or a trap page

Truth (``GeneratedDocument.truth``) uses the names of the result JSON contract (docs/results.md):
amounts are decimal strings (``"1163.40"``), dates ISO, rates percent strings (``"19.00"``),
ids without blanks. A fact the rendering leaves off the page is ``None``. Per type:

- invoice: invoiceNumber, invoiceDate, dueDate, deliveryDate, currency, seller{name, street,
  postalCode, city, country, vatId, taxNumber}, buyer{...}, iban, bic, net, tax, gross,
  amountDue, taxes[{rate, base, amount}], lineItems[{description, quantity, unit, unitPrice,
  netAmount, taxRate, sku}], customerNumber, orderReference, paymentTermsDays, title
- receipt: merchant{name, address, vatId}, date, time, currency, items[{description,
  quantity, unitPrice, amount, taxRate}], subtotal, tax, taxes[...], total, paymentMethod
- other types: title plus the type's key facts (sender, recipient, date, subject, ...)
- invoice, delivery_note, purchase_order, bank_statement, report: tables[{startPage,
  endPage, header, rows}] with every table cell as printed (table-extraction truth)

Every truth dict also has ``pageCount`` and ``pageNumbering`` (the printed pattern or None).

Fonts: DejaVu/Liberation and the handwriting faces come from Debian packages
(``scripts/setup-apt.sh``); a missing family falls back to a PDF standard font. ``generate``
is thread-safe; documents take about 13 ms of CPU each.
"""

from __future__ import annotations

from prefect_docai.samples.core import DOC_TYPES, LANGS, GeneratedDocument
from prefect_docai.samples.generate import generate, templates
from prefect_docai.samples.scan import degrade, photograph
from prefect_docai.samples.stream import make_stream, sample_stream, separator_sheet

__all__ = [
    "DOC_TYPES",
    "LANGS",
    "GeneratedDocument",
    "degrade",
    "generate",
    "make_stream",
    "photograph",
    "sample_stream",
    "separator_sheet",
    "templates",
    "write_batch",
]


def __getattr__(name: str) -> object:
    # write_batch may pull in the e-invoice stack (factur-x, drafthorse); load it on demand
    if name == "write_batch":
        from prefect_docai.samples.batch import write_batch

        return write_batch
    raise AttributeError(name)
