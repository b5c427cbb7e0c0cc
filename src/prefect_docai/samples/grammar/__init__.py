"""A second, independent document generator: a randomised grammar of blocks per type.

The template generator (:func:`prefect_docai.samples.generate`) draws each type from a
handful of hand-made templates. A model trained only on those learns the templates. This
generator instead draws, for every type, ``FAMILIES`` layout families from a grammar
(letterhead kind, address and title order, reference-data arrangement, table columns and
style, totals, page size, typeface, numbering, optional blocks) and fills them with
wordings of its own (:mod:`.vocab`), German and English; invoices also in French, Dutch,
Italian and Spanish (:mod:`.intl`, ``INVOICE_LANGS``). Every document records its family
(``truth["family"]``, also ``template``), so whole families can be held out, and the two
generators can be held out against each other.

    generate_varied(doc_type, *, seed, lang="de", family=None, seller_seed=None,
                    composer=None) -> GeneratedDocument   # template = "grammar-<type>-fNN"

``composer="intl"`` writes an English invoice with the richer composer of :mod:`.intl`
(distractor dates, seller blocks beside the buyer's or only in a logo line or footer,
British or American date and number forms) instead of :mod:`.kinds`' plainer one.
    family_ids(doc_type, *, fold=None, folds=4, held_out=False) -> list[int]
"""

from __future__ import annotations

import threading
import zlib

from prefect_docai.samples.core import DOC_TYPES, LANGS, GeneratedDocument, Template, make_ctx
from prefect_docai.samples.grammar.intl import INTL_LANGS, RICH_LANGS, compose_invoice_intl
from prefect_docai.samples.grammar.kinds import COMPOSERS
from prefect_docai.samples.grammar.layout import FAMILIES, Family, held_out
from prefect_docai.samples.grammar.layout import family as layout_family

__all__ = [
    "FAMILIES",
    "INVOICE_LANGS",
    "Family",
    "family_ids",
    "generate_varied",
    "layout_family",
    "template_id",
]

INVOICE_LANGS: tuple[str, ...] = (*LANGS, *INTL_LANGS)
"""Languages of the grammar generator's invoices (other types: ``LANGS``, de and en)."""

_LOCK = threading.Lock()


def template_id(doc_type: str, index: int) -> str:
    return f"grammar-{doc_type}-f{index:02d}"


def family_ids(
    doc_type: str, *, fold: int = 0, folds: int = 4, held_out_group: bool | None = None
) -> list[int]:
    """Family ids of ``doc_type``: all (``held_out_group=None``), or those in (True) or out
    of (False) validation fold ``fold`` of ``folds``."""
    if doc_type not in DOC_TYPES:
        raise ValueError(f"unknown document type {doc_type!r}")
    ids = range(FAMILIES)
    if held_out_group is None:
        return list(ids)
    return [i for i in ids if held_out(i, fold, folds) == held_out_group]


def generate_varied(
    doc_type: str,
    *,
    seed: int,
    lang: str = "de",
    family: int | None = None,
    seller_seed: int | None = None,
    composer: str | None = None,
) -> GeneratedDocument:
    """One document of ``doc_type`` in layout family ``family`` (None: picked from seed)."""
    if doc_type not in COMPOSERS:
        raise ValueError(f"unknown document type {doc_type!r}")
    languages = INVOICE_LANGS if doc_type == "invoice" else LANGS
    if lang not in languages:
        raise ValueError(f"unsupported language {lang!r} for {doc_type}; use one of {languages}")
    if family is None:
        family = zlib.crc32(f"grammar|{doc_type}|{seed}".encode()) % FAMILIES
    if not 0 <= family < FAMILIES:
        raise ValueError(f"family must be in 0..{FAMILIES - 1}")
    fam = layout_family(doc_type, family)
    if composer not in (None, "intl") or (
        composer == "intl" and (doc_type != "invoice" or lang not in RICH_LANGS)
    ):
        raise ValueError(f"composer {composer!r} does not write {doc_type} in {lang!r}")
    rich = lang in INTL_LANGS or composer == "intl"
    compose = compose_invoice_intl if rich else COMPOSERS[doc_type]
    # make_ctx seeds the document's randomness from the template id; a family stands in
    # for the template (its locale pick and Faker stream), and grammar ids never collide
    # with the template generator's.
    stand_in = Template(
        template_id(doc_type, family), doc_type, lambda c, s: compose(c, fam), fam.style()
    )
    with _LOCK:
        ctx = make_ctx(doc_type, stand_in, seed=seed, lang=lang, seller_seed=seller_seed)
        pdf, pages, truth = compose(ctx, fam)
    truth.setdefault("pageCount", pages)
    truth.setdefault("locale", ctx.locale)
    return GeneratedDocument(
        doc_type=doc_type, lang=lang, template=stand_in.id, pdf=pdf, page_count=pages, truth=truth
    )
