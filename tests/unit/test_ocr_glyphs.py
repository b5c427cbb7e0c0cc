"""The labels of the tail scorers' training rows (``training/ocr_glyphs.py``)."""

from __future__ import annotations

from training.ocr_glyphs import tail_label


def test_a_line_s_last_character_is_labelled_with_the_mark_the_annotation_closes_it_with() -> None:
    chars = list("JALAN SAGU 18")
    assert tail_label(chars, "JALAN SAGU 18,") == ","
    assert tail_label(chars, "Jalan Sagu 18.") == "."
    assert tail_label(chars, "JALAN SAGU 18") == ""
    # more text after the last character (the annotated line runs on), or another mark:
    # no label
    assert tail_label(chars, "JALAN SAGU 18, TAMAN DAYA") is None
    assert tail_label(chars, "JALAN SAGU 18:") is None
    # a misread character still maps onto the annotation
    assert tail_label(list("JALAN SACU 18"), "JALAN SAGU 18,") == ","
