"""benchmarks.receipts_cv: truth normalisation, strict scoring, merchant grouping and the
OCR cache (on a temporary cache root, without Tesseract)."""

from __future__ import annotations

from pathlib import Path

import pytest
from benchmarks import receipts_cv as cv


@pytest.mark.parametrize(
    ("printed", "iso"),
    [
        ("25/12/2018", "2018-12-25"),
        ("12-01-19", "2019-01-12"),
        ("30 MAR 2018", "2018-03-30"),
        ("05/JAN/2018", "2018-01-05"),
        ("OCT 9, 2018", "2018-10-09"),
        ("2018-04-12", "2018-04-12"),
        ("20180412", "2018-04-12"),
        ("(15/03/2018)", "2018-03-15"),
        ("1/3/2018", "2018-03-01"),
        ("32/01/2018", None),
        ("", None),
    ],
)
def test_truth_dates_become_iso_day_first(printed: str, iso: str | None) -> None:
    assert cv.truth_date(printed) == iso


def test_truth_totals() -> None:
    assert cv.truth_total("RM 3.90") == "3.90"
    assert cv.truth_total("$8.2") == "8.20"
    assert cv.truth_total("1,007.50") == "1007.50"
    assert cv.truth_total("") is None


def test_strict_folds_case_and_space_only() -> None:
    assert cv.strict("merchant", " Kedai  Maju\nSDN BHD ") == "kedai maju sdn bhd"
    assert cv.strict("address", "NO 5, JALAN") != cv.strict("address", "NO 5 JALAN")
    assert cv.loose("address", "NO 5, JALAN") == cv.loose("address", "NO 5 JALAN")
    assert cv.strict("total", "6.5") == "6.50"


def test_merchant_key_ignores_case_space_and_punctuation() -> None:
    assert cv.merchant_key("99 SPEED MART S/B") == cv.merchant_key("99 Speed Mart S/B.")
    assert cv.merchant_key("99 SPEED MART") != cv.merchant_key("99 SPEED MART S/B")


def test_tally_counts_wrong_as_fp_and_fn_missing_as_fn() -> None:
    tally = cv.Tally(cv.strict)
    truth = {"merchant": "A", "address": "B", "date": "2018-01-01", "total": "1.00"}
    tally.add(truth, {"merchant": "a", "address": None, "date": "2018-01-02", "total": "1.0"})
    report = tally.report()
    assert report["counts"]["merchant"] == [1, 0, 0]
    assert report["counts"]["address"] == [0, 0, 1]
    assert report["counts"]["date"] == [0, 1, 1]
    assert report["counts"]["total"] == [1, 0, 0]
    assert report["fields"]["date"] == 0.0 and report["all_four_right"] == 0.0
    assert report["micro_f1"] == pytest.approx(2 * 2 / (2 * 2 + 1 + 2), abs=1e-4)


def test_ocr_cache_is_keyed_by_image_and_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DOCAI_BENCH_CACHE", str(tmp_path))
    calls: list[bytes] = []
    page = {
        "number": 1,
        "aspect": 0.5,
        "source": "ocr",
        "words": [
            ["TOTAL", [0.1, 0.1, 0.3, 0.12], 0.9, 0, 0, None, 1],
            ["6.55", [0.7, 0.1, 0.8, 0.12], 0.95, 0, 0, None, 1],
        ],
    }

    def fake_read(data: bytes) -> list[dict[str, object]]:
        calls.append(data)
        return [page]

    monkeypatch.setattr(cv, "read_pages", fake_read)
    assert cv.cached_pages(b"image", "v1") == [page]
    assert cv.cached_pages(b"image", "v1") == [page]
    assert calls == [b"image"]
    cv.cached_pages(b"image", "v2")
    cv.cached_pages(b"other", "v1")
    assert len(calls) == 3
    layouts = cv.layouts_of(cv.cached_pages(b"image", "v1"))
    assert [row.text for row in layouts[0].rows] == ["TOTAL  6.55"]


def test_ocr_version_changes_with_the_page_loader(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    engines = tmp_path / "src" / "prefect_docai" / "engines"
    (engines / "page").mkdir(parents=True)
    (engines / "receipt").mkdir()
    (engines / "data").mkdir()
    names = (
        "page/ocr.py",
        "receipt/image.py",
        "receipt/engine.py",
        "data/rapid_spaces.json",
        "data/rapid_respell.json",
        "data/rapid_punct.json",
        "data/rapid_tail.json",
        "data/rapid_subst.json",
    )
    for name in names:
        (engines / name).write_text("x = 1\n")
    monkeypatch.setattr(cv, "ROOT", tmp_path)
    before = cv.ocr_version()
    (engines / "page" / "ocr.py").write_text("x = 2\n")
    assert cv.ocr_version() != before
    # a retrained space scorer splits RapidOCR's lines into other words
    again = cv.ocr_version()
    (engines / "data" / "rapid_spaces.json").write_text("{}\n")
    assert cv.ocr_version() != again
    # and a retrained respelling scorer spells some of them otherwise
    third = cv.ocr_version()
    (engines / "data" / "rapid_respell.json").write_text("{}\n")
    assert cv.ocr_version() != third
    # and a retrained punctuation scorer puts other commas
    fourth = cv.ocr_version()
    (engines / "data" / "rapid_punct.json").write_text("{}\n")
    assert cv.ocr_version() != fourth
    # and retrained tail scorers put other marks after a line's last word
    fifth = cv.ocr_version()
    (engines / "data" / "rapid_tail.json").write_text("{}\n")
    assert cv.ocr_version() != fifth
    # and a retrained look-alike scorer spells some characters otherwise
    sixth = cv.ocr_version()
    (engines / "data" / "rapid_subst.json").write_text("{}\n")
    assert cv.ocr_version() != sixth


def test_the_oracle_finds_the_best_run_of_words_and_classes_our_miss() -> None:
    from benchmarks.receipts_oracle import classify, oracle

    words = [
        (0, "KEDAI"),
        (0, "MAJU"),
        (1, "No"),
        (1, "5,"),
        (1, "JALAN"),
        (1, "MAWAR"),
        (2, "43000"),
        (2, "KAJANG"),
        (3, "TEL:"),
        (3, "03-1234"),
    ]
    best = oracle("address", "NO 5, JALAN MAWAR 43000 KAJANG", words)
    assert best["level"] == "raw" and best["span"] == (2, 8) and best["rows"] == 2
    assert oracle("address", "NO 5,JALAN MAWAR 43000 KAJANG", words)["level"] == "spacing"
    assert oracle("address", "NO 5, JALAN MAWAR, 43000 KAJANG", words)["level"] == "punctuation"
    slip = oracle("address", "NO 5, JALAN MAWAR 43000 KAJANO", words)
    assert slip["level"] == "ocr" and slip["similarity"] > 90
    truth, span = "NO 5, JALAN MAWAR 43000 KAJANG", (2, 8)
    assert classify("address", truth, None, set(), span) == "none"
    assert classify("address", truth, "No 5, Jalan Mawar 43000 Kajang", set(), span) == "right"
    assert classify("address", truth, "NO 5,JALAN MAWAR 43000 KAJANG", set(), span) == "spacing"
    assert classify("address", truth, "NO 5, JALAN MAWAR", {2, 3, 4, 5}, span) == "words_missing"
    assert classify("address", truth, "X", {0, 1}, span) == "wrong_lines"
