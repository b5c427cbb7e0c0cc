"""ToolInvoice on generated invoices with known truth: text layer (German and English,
multi-page), embedded ZUGFeRD/Factur-X XML, bare CII and UBL XML, a scanned variant."""

from __future__ import annotations

from decimal import Decimal

import pytest
from tests.unit.engines.invoice_docs import (
    InvoiceTruth,
    make_invoice,
    zugferd_pdf,
    zugferd_xml,
)

from prefect_docai.engines.invoice import InvoiceEngine
from prefect_docai.engines.pluginspec import DocumentError, EngineOptions
from prefect_docai.models.results import InvoiceResult

OPTIONS = EngineOptions(output_formats=("JSON",))


def run(data: bytes) -> InvoiceResult:
    result = InvoiceEngine().run(data, OPTIONS).result
    assert isinstance(result, InvoiceResult)
    return result


def value(field: object) -> object:
    return getattr(field, "value", None)


def assert_matches(result: InvoiceResult, truth: InvoiceTruth, *, items: bool = True) -> None:
    assert value(result.invoice_number) == truth.number
    assert value(result.invoice_date) == truth.issued.isoformat()
    assert value(result.seller.name) == truth.seller
    assert value(result.buyer.name) == truth.buyer
    assert value(result.buyer.postal_code) == truth.buyer_postcode
    assert value(result.seller.vat_id) == truth.vat_id
    assert value(result.payment.iban) == truth.iban
    assert value(result.totals.net) == f"{truth.net:.2f}"
    assert value(result.totals.tax) == f"{truth.tax:.2f}"
    assert value(result.totals.gross) == f"{truth.gross:.2f}"
    assert result.checks.iban_valid is True
    assert result.checks.vat_id_valid is True
    assert result.checks.totals_consistent is True
    if items:
        assert len(result.line_items) == len(truth.items)
        assert sum(Decimal(str(value(i.net_amount))) for i in result.line_items) == truth.net


@pytest.mark.parametrize("german", [True, False], ids=["de-1.234,56", "en-1,234.56"])
def test_text_layer_invoice_multi_page(german: bool) -> None:
    pdf, truth = make_invoice(seed=11, german=german, n_items=34)
    result = run(pdf)
    assert result.source == "text-layer"
    assert_matches(result, truth)
    assert value(result.due_date) == truth.due.isoformat()
    assert value(result.currency) == "EUR"
    assert {value(t.rate) for t in result.taxes} == {f"{r:.2f}" for r in truth.taxes}
    assert result.checks.taxes_consistent is True
    assert result.checks.line_items_consistent is True
    assert {i.net_amount.page for i in result.line_items if i.net_amount} == {1, 2}
    # Every value carries where it was read.
    gross = result.totals.gross
    assert gross is not None and gross.page is not None and gross.bbox is not None
    x0, y0, x1, y1 = gross.bbox
    assert 0 <= x0 < x1 <= 1 and 0 <= y0 < y1 <= 1
    assert gross.raw is not None and ("€" in gross.raw or "EUR" in gross.raw)


def test_us_dates_are_read_month_first() -> None:
    pdf, truth = make_invoice(seed=12, german=False, n_items=2, month_first=True)
    result = run(pdf)
    assert value(result.invoice_date) == truth.issued.isoformat()
    assert value(result.due_date) == truth.due.isoformat()


def test_embedded_zugferd_is_read_exactly() -> None:
    pdf, truth = zugferd_pdf(seed=3)
    result = run(pdf)
    assert result.source == "embedded-xml"
    assert_matches(result, truth)
    assert value(result.seller.country) == "DE"
    assert value(result.payment.bic) == truth.bic
    assert result.invoice_date is not None and result.invoice_date.confidence == 1.0
    # Values the page prints get their position from the page.
    assert result.totals.gross is not None and result.totals.gross.page == 1


def test_bare_cii_xml_upload() -> None:
    _, truth = make_invoice(seed=4, german=True, n_items=2)
    result = run(zugferd_xml(truth))
    assert result.source == "embedded-xml"
    assert_matches(result, truth)


UBL = b"""<?xml version="1.0" encoding="UTF-8"?>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"
 xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"
 xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
 <cbc:ID>UBL-42</cbc:ID><cbc:IssueDate>2024-02-01</cbc:IssueDate>
 <cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>
 <cac:AccountingSupplierParty><cac:Party><cac:PostalAddress><cbc:StreetName>Hauptstr. 1</cbc:StreetName>
  <cbc:CityName>Berlin</cbc:CityName><cbc:PostalZone>10115</cbc:PostalZone>
  <cac:Country><cbc:IdentificationCode>DE</cbc:IdentificationCode></cac:Country></cac:PostalAddress>
  <cac:PartyTaxScheme><cbc:CompanyID>DE136695976</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>
  <cac:PartyLegalEntity><cbc:RegistrationName>Muster GmbH</cbc:RegistrationName></cac:PartyLegalEntity></cac:Party></cac:AccountingSupplierParty>
 <cac:AccountingCustomerParty><cac:Party><cac:PartyLegalEntity><cbc:RegistrationName>Kunde AG</cbc:RegistrationName></cac:PartyLegalEntity></cac:Party></cac:AccountingCustomerParty>
 <cac:PaymentMeans><cbc:PaymentMeansCode>58</cbc:PaymentMeansCode><cac:PayeeFinancialAccount><cbc:ID>DE88200800000970375700</cbc:ID></cac:PayeeFinancialAccount></cac:PaymentMeans>
 <cac:TaxTotal><cbc:TaxAmount currencyID="EUR">19.00</cbc:TaxAmount><cac:TaxSubtotal><cbc:TaxableAmount currencyID="EUR">100.00</cbc:TaxableAmount>
  <cbc:TaxAmount currencyID="EUR">19.00</cbc:TaxAmount><cac:TaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>19</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:TaxCategory></cac:TaxSubtotal></cac:TaxTotal>
 <cac:LegalMonetaryTotal><cbc:LineExtensionAmount currencyID="EUR">100.00</cbc:LineExtensionAmount><cbc:TaxExclusiveAmount currencyID="EUR">100.00</cbc:TaxExclusiveAmount>
  <cbc:TaxInclusiveAmount currencyID="EUR">119.00</cbc:TaxInclusiveAmount><cbc:PayableAmount currencyID="EUR">119.00</cbc:PayableAmount></cac:LegalMonetaryTotal>
 <cac:InvoiceLine><cbc:ID>1</cbc:ID><cbc:InvoicedQuantity unitCode="C62">2</cbc:InvoicedQuantity><cbc:LineExtensionAmount currencyID="EUR">100.00</cbc:LineExtensionAmount>
  <cac:Item><cbc:Name>Beratung</cbc:Name><cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>19</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:ClassifiedTaxCategory></cac:Item>
  <cac:Price><cbc:PriceAmount currencyID="EUR">50.00</cbc:PriceAmount></cac:Price></cac:InvoiceLine>
</Invoice>"""


def test_bare_ubl_xml_upload() -> None:
    result = run(UBL)
    assert value(result.invoice_number) == "UBL-42"
    assert value(result.seller.name) == "Muster GmbH"
    assert value(result.seller.vat_id) == "DE136695976"
    assert value(result.totals.gross) == "119.00"
    assert value(result.taxes[0].rate) == "19.00"
    assert value(result.line_items[0].quantity) == "2"
    assert result.checks.totals_consistent is True and result.checks.taxes_consistent is True


def test_pdf_and_txt_outputs() -> None:
    pdf, truth = make_invoice(seed=6, german=True, n_items=2)
    output = InvoiceEngine().run(pdf, EngineOptions(output_formats=("PDF", "TXT", "JSON")))
    files = {f.output_type: f for f in output.files}
    assert files["PDF"].data.startswith(b"%PDF-")
    assert truth.number in files["TXT"].data.decode("utf-8")
    assert output.page_count == 1


def test_xml_that_is_no_invoice_is_refused() -> None:
    with pytest.raises(DocumentError) as error:
        InvoiceEngine().run(b"<?xml version='1.0'?><note>hi</note>", OPTIONS)
    assert error.value.code == "not_an_invoice"


def test_threshold_nulls_unsure_fields() -> None:
    pdf, _ = make_invoice(seed=11, german=True, n_items=3)
    strict = InvoiceEngine().run(pdf, EngineOptions(threshold=0.99)).result
    assert isinstance(strict, InvoiceResult)
    assert strict.invoice_date is None or strict.invoice_date.confidence >= 0.99
    assert strict.totals.gross is None or strict.totals.gross.confidence >= 0.99


def test_scanned_invoice_through_ocr() -> None:
    from PIL import Image
    from tests.docgen import add_noise, image_pdf, rasterize

    pdf, truth = make_invoice(seed=21, german=True, n_items=3)
    pages = [add_noise(image, sigma=6, seed=1) for image in rasterize(pdf, dpi=200)]
    assert all(isinstance(p, Image.Image) for p in pages)
    result = run(image_pdf(pages, dpi=200))
    assert result.source == "ocr"
    assert value(result.invoice_number) == truth.number
    assert value(result.invoice_date) == truth.issued.isoformat()
    assert value(result.totals.gross) == f"{truth.gross:.2f}"
    assert value(result.payment.iban) == truth.iban
    assert result.totals.gross is not None and result.totals.gross.confidence < 1.0


def test_page_without_invoice_fields_gives_nulls() -> None:
    from tests.docgen import make_text_pdf

    result = run(make_text_pdf(["Dies ist ein Brief ohne Beträge.", "Mit freundlichen Grüßen"]))
    assert result.invoice_number is None and result.totals.gross is None
    assert result.payment.iban is None and result.line_items == []
    assert result.checks.totals_consistent is None
