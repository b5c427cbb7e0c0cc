"""Structured e-invoices: CII (ZUGFeRD 2.x, Factur-X, XRechnung-CII), ZUGFeRD 1.0, Order-X
and UBL (XRechnung-UBL, Peppol) XML, read exactly (``source: embedded-xml``).

Element names are matched by local name, so the three CII namespace generations (ZUGFeRD 1
``:12``, D16B ``:100``, Order-X ``:128``) share one reader.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from typing import Any

from lxml import etree

from prefect_docai.engines.extract import format_amount
from prefect_docai.models.results import (
    Field,
    InvoiceLineItem,
    InvoiceParty,
    InvoicePayment,
    InvoiceResult,
    InvoiceTotals,
    TaxLine,
)

_CII_ROOTS = {"CrossIndustryInvoice", "CrossIndustryDocument", "SCRDMCCBDACIOMessageStructure"}
_UBL_ROOTS = {"Invoice", "CreditNote"}

Element = Any  # lxml's _Element; typed loosely because lxml ships no stubs here


class NotAnInvoiceXml(ValueError):
    """The XML is well-formed but neither CII nor UBL."""


def extract_xml_from_pdf(data: bytes) -> bytes | None:
    """The embedded e-invoice XML of a PDF (Factur-X/ZUGFeRD/XRechnung/Order-X), if any."""
    from facturx import get_xml_from_pdf

    try:
        _name, xml = get_xml_from_pdf(data, check_xsd=False)
    except Exception:  # factur-x raises bare Exceptions on odd PDFs; fall back below
        xml = None
    if isinstance(xml, bytes) and xml:
        return xml
    return _any_embedded_invoice_xml(data)


def _any_embedded_invoice_xml(data: bytes) -> bytes | None:
    """Embedded XML files under other names (e.g. ``xrechnung.xml`` in a plain PDF)."""
    import pikepdf

    try:
        with pikepdf.open(io.BytesIO(data)) as pdf:
            for name, spec in pdf.attachments.items():
                if not name.lower().endswith(".xml"):
                    continue
                payload = bytes(spec.get_file().read_bytes())
                if root_kind(payload) is not None:
                    return payload
    except (pikepdf.PdfError, ValueError, KeyError):
        return None
    return None


def _parse(data: bytes) -> Element:
    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False)
    return etree.fromstring(data.lstrip(b"\xef\xbb\xbf \t\r\n"), parser=parser)


def root_kind(data: bytes) -> str | None:
    """``"cii"``, ``"ubl"`` or ``None`` (not XML, or another vocabulary)."""
    try:
        root = _parse(data)
    except etree.XMLSyntaxError:
        return None
    name = etree.QName(root).localname
    if name in _CII_ROOTS:
        return "cii"
    if name in _UBL_ROOTS:
        return "ubl"
    return None


def read_invoice_xml(data: bytes) -> InvoiceResult:
    """Parse CII or UBL bytes into the ToolInvoice result; raises :class:`NotAnInvoiceXml`."""
    try:
        root = _parse(data)
    except etree.XMLSyntaxError as exc:
        raise NotAnInvoiceXml(f"not well-formed XML: {exc}") from exc
    name = etree.QName(root).localname
    if name in _CII_ROOTS:
        return _Cii(root).result()
    if name in _UBL_ROOTS:
        return _Ubl(root).result()
    raise NotAnInvoiceXml(f"unknown e-invoice root element {name!r}")


# --- helpers --------------------------------------------------------------------------


def _local_path(path: str) -> str:
    """``"a/b"`` → ``"*[local-name()='a']/*[local-name()='b']"`` (``//`` kept)."""
    parts = []
    for part in path.split("/"):
        if part in ("", ".", "..") or part.startswith("@"):
            parts.append(part)
        else:
            parts.append(f"*[local-name()='{part}']")
    return "/".join(parts)


def _all(node: Element, path: str) -> list[Element]:
    return list(node.xpath(_local_path(path)))


def _first(node: Element | None, *paths: str) -> Element | None:
    if node is None:
        return None
    for path in paths:
        found = _all(node, path)
        if found:
            return found[0]
    return None


def _text(node: Element | None, *paths: str) -> str | None:
    element = _first(node, *paths) if paths else node
    if element is None or element.text is None:
        return None
    value = element.text.strip()
    return value or None


def _field(raw: str | None, normalize: Callable[[str], str | None] = lambda v: v) -> Field | None:
    if raw is None:
        return None
    value = normalize(raw)
    if value is None:
        return None
    return Field(value=value, confidence=1.0, raw=raw)


def _amount(raw: str) -> str | None:
    try:
        return format_amount(Decimal(raw.replace(",", ".")))
    except InvalidOperation:
        return None


def _quantity(raw: str) -> str | None:
    try:
        return format(Decimal(raw.replace(",", ".")).normalize(), "f")
    except InvalidOperation:
        return None


def _date(raw: str) -> str | None:
    digits = re.sub(r"\D", "", raw)
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}.*", raw):
        return raw[:10]
    if len(digits) >= 8:
        return f"{digits[0:4]}-{digits[4:6]}-{digits[6:8]}"
    return None


def _compact(raw: str) -> str | None:
    return re.sub(r"\s", "", raw) or None


def _name(raw: str) -> str | None:
    return re.sub(r"\s+", " ", raw).strip() or None


# --- CII ------------------------------------------------------------------------------


class _Cii:
    def __init__(self, root: Element) -> None:
        self.root = root
        self.header = _first(root, "ExchangedDocument", "HeaderExchangedDocument")
        self.trade = _first(
            root, "SupplyChainTradeTransaction", "SpecifiedSupplyChainTradeTransaction"
        )
        self.agreement = _first(
            self.trade, "ApplicableHeaderTradeAgreement", "ApplicableSupplyChainTradeAgreement"
        )
        self.settlement = _first(
            self.trade, "ApplicableHeaderTradeSettlement", "ApplicableSupplyChainTradeSettlement"
        )
        self.delivery = _first(
            self.trade, "ApplicableHeaderTradeDelivery", "ApplicableSupplyChainTradeDelivery"
        )

    def result(self) -> InvoiceResult:
        currency = _text(self.settlement, "InvoiceCurrencyCode", "OrderCurrencyCode")
        means = _first(self.settlement, "SpecifiedTradeSettlementPaymentMeans")
        summation = _first(
            self.settlement,
            "SpecifiedTradeSettlementHeaderMonetarySummation",
            "SpecifiedTradeSettlementMonetarySummation",
        )
        return InvoiceResult(
            source="embedded-xml",
            invoice_number=_field(_text(self.header, "ID")),
            invoice_date=_field(_text(self.header, "IssueDateTime/DateTimeString"), _date),
            due_date=_field(
                _text(
                    self.settlement,
                    "SpecifiedTradePaymentTerms/DueDateDateTime/DateTimeString",
                ),
                _date,
            ),
            delivery_date=_field(
                _text(
                    self.delivery,
                    "ActualDeliverySupplyChainEvent/OccurrenceDateTime/DateTimeString",
                ),
                _date,
            ),
            currency=_field(currency),
            seller=self._party(_first(self.agreement, "SellerTradeParty"), seller=True),
            buyer=self._party(_first(self.agreement, "BuyerTradeParty"), seller=False),
            payment=InvoicePayment(
                iban=_field(
                    _text(means, "PayeePartyCreditorFinancialAccount/IBANID"), _compact
                ),
                bic=_field(
                    _text(means, "PayeeSpecifiedCreditorFinancialInstitution/BICID"), _compact
                ),
                terms=_field(
                    _text(self.settlement, "SpecifiedTradePaymentTerms/Description"), _name
                ),
            ),
            totals=InvoiceTotals(
                net=_field(_text(summation, "TaxBasisTotalAmount"), _amount),
                tax=_field(self._tax_total(summation, currency), _amount),
                gross=_field(_text(summation, "GrandTotalAmount"), _amount),
                amount_due=_field(_text(summation, "DuePayableAmount"), _amount),
            ),
            taxes=[
                TaxLine(
                    rate=_field(_text(tax, "RateApplicablePercent", "ApplicablePercent"), _amount),
                    base=_field(_text(tax, "BasisAmount"), _amount),
                    amount=_field(_text(tax, "CalculatedAmount"), _amount),
                )
                for tax in (
                    _all(self.settlement, "ApplicableTradeTax")
                    if self.settlement is not None
                    else []
                )
            ],
            line_items=[self._line(item) for item in self._lines()],
        )

    def _lines(self) -> list[Element]:
        return _all(self.trade, "IncludedSupplyChainTradeLineItem") if self.trade is not None else []

    @staticmethod
    def _tax_total(summation: Element | None, currency: str | None) -> str | None:
        if summation is None:
            return None
        totals = _all(summation, "TaxTotalAmount")
        for total in totals:
            if currency is not None and total.get("currencyID") == currency:
                return _text(total)
        for total in totals:
            if total.get("currencyID") is None:
                return _text(total)
        return _text(totals[0]) if totals else None

    @staticmethod
    def _party(party: Element | None, *, seller: bool) -> InvoiceParty:
        if party is None:
            return InvoiceParty()
        address = _first(party, "PostalTradeAddress")
        vat = tax_number = None
        for registration in _all(party, "SpecifiedTaxRegistration/ID"):
            scheme = registration.get("schemeID")
            if scheme == "VA" and vat is None:
                vat = _text(registration)
            elif scheme == "FC" and tax_number is None:
                tax_number = _text(registration)
        country = _text(address, "CountryID")
        return InvoiceParty(
            name=_field(_text(party, "Name"), _name),
            street=_field(_text(address, "LineOne"), _name),
            postal_code=_field(_text(address, "PostcodeCode")),
            city=_field(_text(address, "CityName"), _name),
            country=_field(country.upper() if country else None),
            vat_id=_field(vat, _compact),
            tax_number=_field(tax_number) if seller else None,
        )

    @staticmethod
    def _line(item: Element) -> InvoiceLineItem:
        quantity = _first(
            item,
            "SpecifiedLineTradeDelivery/BilledQuantity",
            "SpecifiedSupplyChainTradeDelivery/BilledQuantity",
            "SpecifiedLineTradeDelivery/RequestedQuantity",
            "SpecifiedLineTradeDelivery/AgreedQuantity",
        )
        unit = quantity.get("unitCode") if quantity is not None else None
        return InvoiceLineItem(
            description=_field(_text(item, "SpecifiedTradeProduct/Name"), _name),
            quantity=_field(_text(quantity), _quantity),
            unit=_field(unit),
            unit_price=_field(
                _text(
                    item,
                    "SpecifiedLineTradeAgreement/NetPriceProductTradePrice/ChargeAmount",
                    "SpecifiedSupplyChainTradeAgreement/NetPriceProductTradePrice/ChargeAmount",
                ),
                _quantity,
            ),
            net_amount=_field(
                _text(
                    item,
                    ".//LineTotalAmount",
                ),
                _amount,
            ),
            tax_rate=_field(
                _text(item, ".//ApplicableTradeTax/RateApplicablePercent",
                      ".//ApplicableTradeTax/ApplicablePercent"),
                _amount,
            ),
        )


# --- UBL ------------------------------------------------------------------------------


class _Ubl:
    def __init__(self, root: Element) -> None:
        self.root = root

    def result(self) -> InvoiceResult:
        root = self.root
        totals = _first(root, "LegalMonetaryTotal")
        currency = _text(root, "DocumentCurrencyCode")
        account = _first(root, "PaymentMeans/PayeeFinancialAccount")
        tax_total = None
        for total in _all(root, "TaxTotal"):
            amount = _first(total, "TaxAmount")
            if amount is not None and (currency is None or amount.get("currencyID") in (None, currency)):
                tax_total = total
                break
        return InvoiceResult(
            source="embedded-xml",
            invoice_number=_field(_text(root, "ID")),
            invoice_date=_field(_text(root, "IssueDate"), _date),
            due_date=_field(_text(root, "DueDate", "PaymentMeans/PaymentDueDate"), _date),
            delivery_date=_field(_text(root, "Delivery/ActualDeliveryDate"), _date),
            currency=_field(currency),
            seller=self._party(_first(root, "AccountingSupplierParty/Party"), seller=True),
            buyer=self._party(_first(root, "AccountingCustomerParty/Party"), seller=False),
            payment=InvoicePayment(
                iban=_field(_text(account, "ID"), _compact),
                bic=_field(_text(account, "FinancialInstitutionBranch/ID"), _compact),
                terms=_field(_text(root, "PaymentTerms/Note"), _name),
            ),
            totals=InvoiceTotals(
                net=_field(_text(totals, "TaxExclusiveAmount"), _amount),
                tax=_field(_text(tax_total, "TaxAmount"), _amount),
                gross=_field(_text(totals, "TaxInclusiveAmount"), _amount),
                amount_due=_field(_text(totals, "PayableAmount"), _amount),
            ),
            taxes=[
                TaxLine(
                    rate=_field(_text(sub, "TaxCategory/Percent"), _amount),
                    base=_field(_text(sub, "TaxableAmount"), _amount),
                    amount=_field(_text(sub, "TaxAmount"), _amount),
                )
                for sub in (_all(tax_total, "TaxSubtotal") if tax_total is not None else [])
            ],
            line_items=[
                self._line(line)
                for line in _all(root, "InvoiceLine") + _all(root, "CreditNoteLine")
            ],
        )

    @staticmethod
    def _party(party: Element | None, *, seller: bool) -> InvoiceParty:
        if party is None:
            return InvoiceParty()
        address = _first(party, "PostalAddress")
        vat = tax_number = None
        for scheme in _all(party, "PartyTaxScheme"):
            company_id = _text(scheme, "CompanyID")
            kind = (_text(scheme, "TaxScheme/ID") or "").upper()
            if kind == "VAT" and vat is None:
                vat = company_id
            elif kind != "VAT" and tax_number is None:
                tax_number = company_id
        return InvoiceParty(
            name=_field(
                _text(party, "PartyLegalEntity/RegistrationName", "PartyName/Name"), _name
            ),
            street=_field(_text(address, "StreetName"), _name),
            postal_code=_field(_text(address, "PostalZone")),
            city=_field(_text(address, "CityName"), _name),
            country=_field(_text(address, "Country/IdentificationCode")),
            vat_id=_field(vat, _compact),
            tax_number=_field(tax_number) if seller else None,
        )

    @staticmethod
    def _line(line: Element) -> InvoiceLineItem:
        quantity = _first(line, "InvoicedQuantity", "CreditedQuantity")
        return InvoiceLineItem(
            description=_field(_text(line, "Item/Name"), _name),
            quantity=_field(_text(quantity), _quantity),
            unit=_field(quantity.get("unitCode") if quantity is not None else None),
            unit_price=_field(_text(line, "Price/PriceAmount"), _quantity),
            net_amount=_field(_text(line, "LineExtensionAmount"), _amount),
            tax_rate=_field(_text(line, "Item/ClassifiedTaxCategory/Percent"), _amount),
        )

