"""The ToolInvoice engine: bytes + options → InvoiceResult (+ PDF/TXT renderings)."""

from __future__ import annotations

from prefect_docai.engines.extract.fields import drop_below
from prefect_docai.engines.extract.rows import document_layouts
from prefect_docai.engines.invoice.checks import compute_checks
from prefect_docai.engines.invoice.einvoice import (
    NotAnInvoiceXml,
    extract_xml_from_pdf,
    read_invoice_xml,
)
from prefect_docai.engines.invoice.locate import locate_fields
from prefect_docai.engines.invoice.text import extract_invoice
from prefect_docai.engines.page.document import Document, load_document
from prefect_docai.engines.page.outputs import plain_text, searchable_pdf
from prefect_docai.engines.pluginspec import DocumentError, EngineOptions, EngineOutput, OutputFile
from prefect_docai.files.sniff import sniff_media_type
from prefect_docai.models.results import InvoiceResult
from prefect_docai.models.tools import Tool

INVOICE_LANGUAGES = ("deu", "eng")
"""ToolInvoice takes no language hint: it reads scans with German and English first."""
INVOICE_DETECTED = ("fra", "nld", "ita", "spa")
"""Other main languages of invoices: a scanned page whose first reading is in one of them
is read again with that pack and English (``load_document(detect=...)``)."""


def _languages(options: EngineOptions) -> tuple[str, ...]:
    extra = tuple(code for code in options.languages if code not in ("auto", *INVOICE_LANGUAGES))
    return (*INVOICE_LANGUAGES, *extra)


class InvoiceEngine:
    tool = Tool.INVOICE

    def run(self, data: bytes, options: EngineOptions) -> EngineOutput:
        media_type = sniff_media_type(data)
        warnings: list[str] = []
        if media_type == "application/xml":
            try:
                xml_result = read_invoice_xml(data)
            except NotAnInvoiceXml as exc:
                raise DocumentError("not_an_invoice", f"The XML is no e-invoice: {exc}") from exc
            xml_result = xml_result.model_copy(update={"checks": compute_checks(xml_result)})
            if {"PDF", "TXT"} & set(options.output_formats):
                warnings.append("A bare XML upload has no pages: only JSON is produced.")
            return EngineOutput(result=xml_result, page_count=1, warnings=warnings)

        xml = extract_xml_from_pdf(data) if media_type == "application/pdf" else None
        with load_document(
            data, languages=_languages(options), dpi=300, detect=INVOICE_DETECTED
        ) as document:
            result = self._from_xml(xml, warnings)
            if result is not None:
                result = locate_fields(result, document_layouts(document, text_layer_only=True))
            else:
                layouts = document_layouts(document)
                ocr_pages = sum(1 for layout in layouts if layout.source == "ocr")
                source = "ocr" if ocr_pages * 2 > len(layouts) else "text-layer"
                result = extract_invoice(layouts, source)
            result = result.model_copy(update={"checks": compute_checks(result)})
            if options.threshold is not None:
                result = drop_below(result, options.threshold)
            files = self._files(document, options)
            return EngineOutput(
                result=result, page_count=document.page_count, files=files, warnings=warnings
            )

    @staticmethod
    def _from_xml(xml: bytes | None, warnings: list[str]) -> InvoiceResult | None:
        if xml is None:
            return None
        try:
            return read_invoice_xml(xml)
        except NotAnInvoiceXml:
            warnings.append("The embedded XML is no e-invoice; the pages were read.")
            return None

    @staticmethod
    def _files(document: Document, options: EngineOptions) -> list[OutputFile]:
        """The PDF (searchable) and TXT renderings ToolInvoice offers besides JSON."""
        files: list[OutputFile] = []
        stem = options.file_name.rsplit(".", 1)[0] or "document"
        if "PDF" in options.output_formats:
            pdf = searchable_pdf(document, options.threshold)
            files.append(OutputFile(f"{stem}.pdf", "application/pdf", pdf, "PDF"))
        if "TXT" in options.output_formats:
            text = plain_text(document, options.threshold).encode("utf-8")
            files.append(OutputFile(f"{stem}.txt", "text/plain; charset=utf-8", text, "TXT"))
        return files
