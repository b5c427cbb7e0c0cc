"""The ToolReceipt engine: bytes + options → ReceiptResult."""

from __future__ import annotations

from prefect_docai.engines.extract.fields import drop_below
from prefect_docai.engines.extract.rows import document_layouts
from prefect_docai.engines.page.document import load_document
from prefect_docai.engines.pluginspec import DocumentError, EngineOptions, EngineOutput
from prefect_docai.engines.receipt.extract import extract_receipt
from prefect_docai.engines.receipt.image import receipt_views
from prefect_docai.files.sniff import sniff_media_type
from prefect_docai.models.tools import Tool

RECEIPT_LANGUAGES = ("deu", "eng")


class ReceiptEngine:
    tool = Tool.RECEIPT

    def run(self, data: bytes, options: EngineOptions) -> EngineOutput:
        if sniff_media_type(data) == "application/xml":
            raise DocumentError("unsupported_media_type", "A receipt must be a PDF or an image.")
        extra = tuple(c for c in options.languages if c not in ("auto", *RECEIPT_LANGUAGES))
        with load_document(data, languages=(*RECEIPT_LANGUAGES, *extra), dpi=300,
                           prepare=receipt_views) as document:
            result = extract_receipt(document_layouts(document))
            if options.threshold is not None:
                result = drop_below(result, options.threshold)
            return EngineOutput(result=result, page_count=document.page_count)
