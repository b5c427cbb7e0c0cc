"""The block-grammar generator: every type in both languages, deterministic, families distinct."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest

from prefect_docai.samples import DOC_TYPES
from prefect_docai.samples.grammar import (
    FAMILIES,
    family_ids,
    generate_varied,
    layout_family,
    template_id,
)


def _text(pdf: bytes) -> str:
    doc = pdfium.PdfDocument(pdf)
    try:
        return "\n".join(page.get_textpage().get_text_range() for page in doc)
    finally:
        doc.close()


@pytest.mark.parametrize("doc_type", DOC_TYPES)
def test_every_type_renders_in_both_languages_and_records_its_family(doc_type: str) -> None:
    for lang, family in (("de", 1), ("en", 2)):
        doc = generate_varied(doc_type, seed=5, lang=lang, family=family)
        assert doc.pdf.startswith(b"%PDF")
        assert doc.page_count >= 1
        assert doc.template == template_id(doc_type, family)
        assert doc.truth["family"] == f"{doc_type}/{family:02d}"
        assert doc.truth["generator"] == "grammar"
        if doc_type != "handwritten":  # handwriting faces may lack glyphs; text still there
            assert len(_text(doc.pdf).split()) > 10


def test_same_arguments_same_bytes_and_other_seed_other_content() -> None:
    a = generate_varied("invoice", seed=9, lang="de", family=4)
    b = generate_varied("invoice", seed=9, lang="de", family=4)
    c = generate_varied("invoice", seed=10, lang="de", family=4)
    assert a.pdf == b.pdf
    assert _text(a.pdf) != _text(c.pdf)


def test_families_differ_in_layout_and_split_into_disjoint_folds() -> None:
    layouts = {
        (f.pagesize, f.face, f.header, f.meta, f.table, f.title_first, f.address_right)
        for f in (layout_family("purchase_order", i) for i in range(FAMILIES))
    }
    assert len(layouts) == FAMILIES
    held = family_ids("letter", fold=1, held_out_group=True)
    kept = family_ids("letter", fold=1, held_out_group=False)
    assert held and kept and not set(held) & set(kept)
    assert sorted(held + kept) == family_ids("letter")


def test_wordings_vary_within_a_type() -> None:
    titles = {
        generate_varied("purchase_order", seed=s, lang="de", family=f).truth["title"]
        for s in range(3)
        for f in range(0, FAMILIES, 3)
    }
    assert len(titles) >= 4
    with pytest.raises(ValueError, match="family"):
        generate_varied("letter", seed=1, family=FAMILIES)
    with pytest.raises(ValueError, match="unknown document type"):
        generate_varied("memo", seed=1)
