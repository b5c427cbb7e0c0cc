"""ToolReceipt on generated till receipts: German and English, text layer and photo."""

from __future__ import annotations

from decimal import Decimal

import pytest
from tests.unit.engines.invoice_docs import make_receipt

from prefect_docai.engines.pluginspec import EngineOptions
from prefect_docai.engines.receipt import ReceiptEngine
from prefect_docai.models.results import ReceiptResult


def run(data: bytes) -> ReceiptResult:
    result = ReceiptEngine().run(data, EngineOptions()).result
    assert isinstance(result, ReceiptResult)
    return result


@pytest.mark.parametrize("german", [True, False], ids=["de", "en"])
def test_receipt_fields(german: bool) -> None:
    pdf, truth = make_receipt(seed=7, german=german)
    result = run(pdf)
    assert result.merchant.name is not None and result.merchant.name.value == truth.merchant
    assert result.date is not None and result.date.value == truth.day.isoformat()
    assert result.time is not None and result.time.value == truth.time
    assert result.total is not None and result.total.value == f"{truth.total:.2f}"
    assert result.currency is not None and result.currency.value == ("EUR" if german else "GBP")
    assert result.payment_method is not None
    assert result.payment_method.value == ("cash" if german else "card")
    assert [Decimal(str(i.amount.value)) for i in result.items if i.amount] == [
        amount for _, amount in truth.items
    ]
    assert result.checks.items_sum_to_total is True
    assert result.total.page == 1 and result.total.bbox is not None


def test_photographed_receipt() -> None:
    from tests.docgen import add_noise, image_bytes, rasterize, skew_image

    pdf, truth = make_receipt(seed=9, german=True)
    photo = add_noise(skew_image(rasterize(pdf, dpi=300)[0], 1.0), sigma=8, seed=2)
    result = run(image_bytes(photo, "PNG", dpi=300))
    assert result.total is not None and result.total.value == f"{truth.total:.2f}"
    assert result.date is not None and result.date.value == truth.day.isoformat()
    assert result.total.confidence < 1.0


def test_blank_page_gives_nulls_not_guesses() -> None:
    from PIL import Image
    from tests.docgen import image_bytes

    blank = Image.new("L", (600, 900), 255)
    result = run(image_bytes(blank, "PNG", dpi=300))
    assert result.merchant.name is None and result.total is None and result.date is None
    assert result.items == [] and result.checks.items_sum_to_total is None
