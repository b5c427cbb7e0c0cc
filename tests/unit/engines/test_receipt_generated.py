"""ToolReceipt on the project's generated till receipts (every template, German and
English): merchant, address, date, total and every line item against the generator's
truth. Born-digital PDFs, so the rules are tested without OCR noise."""

from __future__ import annotations

from decimal import Decimal

import pytest

from prefect_docai.engines.pluginspec import EngineOptions
from prefect_docai.engines.receipt import ReceiptEngine
from prefect_docai.models.results import ReceiptResult
from prefect_docai.samples import generate, templates

CASES = [
    (template, held_out, lang, seed)
    for held_out in (False, True)
    for template in templates("receipt", held_out=held_out)
    for lang in ("de", "en")
    for seed in (0, 1)
]


def _folded(text: object) -> str:
    return " ".join(str(text).replace(",", " ").split()).casefold()


@pytest.mark.parametrize(
    ("template", "held_out", "lang", "seed"), CASES, ids=[f"{c[0]}-{c[2]}-{c[3]}" for c in CASES]
)
def test_generated_receipt(template: str, held_out: bool, lang: str, seed: int) -> None:
    document = generate("receipt", seed=seed, lang=lang, template=template, held_out=held_out)
    truth = document.truth
    result = ReceiptEngine().run(document.pdf, EngineOptions()).result
    assert isinstance(result, ReceiptResult)
    assert result.merchant.name is not None
    assert _folded(result.merchant.name.value) == _folded(truth["merchant"]["name"])
    assert result.merchant.address is not None
    assert _folded(result.merchant.address.value) == _folded(truth["merchant"]["address"])
    assert result.date is not None and result.date.value == truth["date"]
    assert result.total is not None and result.total.value == truth["total"]
    expected = [(i["description"], i["amount"], i["quantity"]) for i in truth["items"]]
    found = [
        (
            i.description.value if i.description else None,
            i.amount.value if i.amount else None,
            i.quantity.value if i.quantity else "1",
        )
        for i in result.items
    ]
    assert [a for _, a, _ in found] == [a for _, a, _ in expected]
    # Narrow templates cut long names short ("Toilettenpapier 8 Ro").
    for (printed, _, _), (name, _, _) in zip(found, expected, strict=True):
        assert printed is not None and len(printed) >= min(len(name), 8)
        assert name.startswith(printed)
    # A printed count multiplies out; a single unit may print no count at all.
    assert [q for _, _, q in found] == [q for _, _, q in expected]
    amounts = sum((Decimal(a) for _, a, _ in found if a is not None), Decimal(0))
    if truth.get("subtotal") in (None, truth["total"]):
        assert result.checks.items_sum_to_total is (amounts == Decimal(truth["total"]))
