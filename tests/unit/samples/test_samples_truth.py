"""Per-type truth: the facts a generator reports are the facts printed on the page."""

from __future__ import annotations

import re
from decimal import Decimal

import pypdfium2 as pdfium
import pytest
from schwifty import IBAN

from prefect_docai import samples


def text_of(pdf: bytes) -> str:
    doc = pdfium.PdfDocument(pdf)
    try:
        return "\n".join(page.get_textpage().get_text_range() for page in doc)
    finally:
        doc.close()


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def amounts(text: str, lang: str) -> set[Decimal]:
    pattern = r"\d{1,3}(?:\.\d{3})*,\d{2}" if lang == "de" else r"\d{1,3}(?:,\d{3})*\.\d{2}"
    found = set()
    for token in re.findall(pattern, text):
        token = token.replace(".", "").replace(",", ".") if lang == "de" else token.replace(",", "")
        found.add(Decimal(token))
    return found


SEEDS = range(6)
LANGS = ("de", "en")


@pytest.mark.parametrize("lang", LANGS)
def test_delivery_note(lang: str) -> None:
    for seed in SEEDS:
        doc = samples.generate("delivery_note", seed=seed, lang=lang)
        text = text_of(doc.pdf)
        assert doc.truth["deliveryNoteNumber"] in text
        assert doc.truth["orderReference"] in text
        for item in doc.truth["items"]:
            assert item["sku"] in text
        assert doc.truth["recipient"]["street"] in text


@pytest.mark.parametrize("lang", LANGS)
def test_purchase_order(lang: str) -> None:
    for seed in SEEDS:
        doc = samples.generate("purchase_order", seed=seed, lang=lang)
        text = text_of(doc.pdf)
        t = doc.truth
        assert t["orderNumber"] in text
        assert Decimal(t["net"]) in amounts(text, lang)
        assert sum(Decimal(x["netAmount"]) for x in t["lineItems"]) == Decimal(t["net"])
        assert t["seller"]["name"] in text


@pytest.mark.parametrize("lang", LANGS)
def test_letter_and_email(lang: str) -> None:
    for seed in SEEDS:
        letter = samples.generate("letter", seed=seed, lang=lang)
        text = text_of(letter.pdf)
        assert letter.truth["subject"] in text
        assert letter.truth["recipient"]["name"] in text
        assert letter.truth["closing"] in text
        mail = samples.generate("email", seed=seed, lang=lang)
        text = text_of(mail.pdf)
        assert mail.truth["subject"] in text
        assert mail.truth["from"]["address"] in text
        assert re.fullmatch(r"[a-z0-9.]+@[a-z0-9.]+", mail.truth["from"]["address"])


@pytest.mark.parametrize("lang", LANGS)
def test_contract(lang: str) -> None:
    for seed in SEEDS:
        doc = samples.generate("contract", seed=seed, lang=lang)
        text = text_of(doc.pdf)
        for party in doc.truth["parties"]:
            assert party["name"] in text
        for heading in doc.truth["clauses"]:
            assert squash(heading) in squash(text)
        assert len(doc.truth["clauses"]) >= 5


@pytest.mark.parametrize("lang", LANGS)
def test_bank_statement_balances_chain(lang: str) -> None:
    pages = set()
    for seed in range(10):
        doc = samples.generate("bank_statement", seed=seed, lang=lang)
        t = doc.truth
        text = text_of(doc.pdf)
        pages.add(doc.page_count)
        assert IBAN(t["iban"]).is_valid
        assert t["iban"] in squash(text)
        found = amounts(text, lang)
        assert Decimal(t["closingBalance"]).copy_abs() in found
        assert Decimal(t["openingBalance"]).copy_abs() in found
        balance = Decimal(t["openingBalance"])
        for tx in t["transactions"]:
            balance += Decimal(tx["amount"])
            assert Decimal(tx["balance"]) == balance
            assert Decimal(tx["amount"]).copy_abs() in found
        assert balance == Decimal(t["closingBalance"])
    assert max(pages) >= 2


@pytest.mark.parametrize("lang", LANGS)
def test_advertisement_prices(lang: str) -> None:
    for seed in SEEDS:
        doc = samples.generate("advertisement", seed=seed, lang=lang)
        text = text_of(doc.pdf)
        assert squash(doc.truth["headline"]).lower() in squash(text).lower()
        found = amounts(text, lang)
        printed = [p for p in doc.truth["products"] if Decimal(p["price"]) in found]
        assert printed == doc.truth["products"]
        for p in doc.truth["products"]:
            assert Decimal(p["price"]) < Decimal(p["oldPrice"])


@pytest.mark.parametrize("lang", LANGS)
def test_form_fields(lang: str) -> None:
    for seed in SEEDS:
        doc = samples.generate("form", seed=seed, lang=lang)
        text = squash(text_of(doc.pdf)).lower()
        assert squash(doc.truth["title"]).lower() in text
        for field in doc.truth["fields"]:
            if field["value"]:
                assert squash(field["value"]).lower() in text
        assert len(doc.truth["checkboxes"]) >= 4


@pytest.mark.parametrize("lang", LANGS)
def test_handwritten_lines_and_faces(lang: str) -> None:
    faces = set()
    for seed in range(10):
        doc = samples.generate("handwritten", seed=seed, lang=lang)
        text = squash(text_of(doc.pdf))
        for line in doc.truth["lines"]:
            assert squash(line) in text
        faces.add(doc.truth["font"])
    assert all(face.startswith("Hand-") for face in faces)
    assert len(faces) >= 2


@pytest.mark.parametrize("lang", LANGS)
def test_report_tables(lang: str) -> None:
    for seed in SEEDS:
        doc = samples.generate("report", seed=seed, lang=lang)
        text = text_of(doc.pdf)
        assert doc.truth["title"] in text
        assert doc.truth["tables"]
        for table in doc.truth["tables"]:
            for cell in table["header"] + [c for row in table["rows"] for c in row]:
                assert cell in text


def test_page_number_chains_appear() -> None:
    seen = set()
    for doc_type in ("invoice", "contract", "report", "bank_statement"):
        for seed in range(8):
            doc = samples.generate(doc_type, seed=seed, lang="de" if seed % 2 else "en")
            pattern = doc.truth["pageNumbering"]
            if doc.page_count < 2 or not pattern or "{total}" not in pattern:
                continue
            text = text_of(doc.pdf)
            last = pattern.format(page=doc.page_count, total=doc.page_count)
            assert last in text
            seen.add(pattern)
    assert len(seen) >= 3


@pytest.mark.parametrize(
    "doc_type", ["invoice", "delivery_note", "purchase_order", "bank_statement", "report"]
)
def test_table_truth_is_printed_on_its_pages(doc_type: str) -> None:
    spans = []
    for seed in range(16):
        doc = samples.generate(doc_type, seed=seed, lang="de" if seed % 2 else "en")
        pdf = pdfium.PdfDocument(doc.pdf)
        pages = [page.get_textpage().get_text_range() for page in pdf]
        pdf.close()
        assert doc.truth["tables"]
        for table in doc.truth["tables"]:
            start, end = table["startPage"], table["endPage"]
            assert 1 <= start <= end <= doc.page_count
            spans.append(end - start)
            assert all(squash(h) in squash(pages[start - 1]) for h in table["header"])
            text = squash("".join(pages[start - 1 : end]))
            assert table["rows"]
            for row in table["rows"]:
                assert len(row) == len(table["header"])
                assert all(squash(cell) in text for cell in row)
    if doc_type in ("invoice", "bank_statement"):
        assert max(spans) >= 1  # some tables run over a page break
