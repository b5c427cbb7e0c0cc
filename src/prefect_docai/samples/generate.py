"""Entry points: pick a template, seed the context, render, attach common truth."""

from __future__ import annotations

import functools
import random
import threading
import zlib

from prefect_docai.samples.core import DOC_TYPES, LANGS, GeneratedDocument, Template, make_ctx
from prefect_docai.samples.render import numbering_format
from prefect_docai.samples.types import TEMPLATES

_LOCK = threading.Lock()


@functools.cache
def registry() -> dict[str, list[Template]]:
    """Templates by document type, in the order of :data:`.types.TEMPLATES`."""
    by_type: dict[str, list[Template]] = {}
    for item in TEMPLATES:
        bucket = by_type.setdefault(item.doc_type, [])
        if any(t.id == item.id for t in bucket):
            raise ValueError(f"duplicate template id {item.id}")
        bucket.append(item)
    return by_type


def templates(doc_type: str, *, held_out: bool = False) -> list[str]:
    """Template ids of ``doc_type`` in the training group, or the held-out group."""
    if doc_type not in DOC_TYPES:
        raise ValueError(f"unknown document type {doc_type!r}")
    return [t.id for t in registry().get(doc_type, []) if t.held_out == held_out]


def generate(
    doc_type: str,
    *,
    seed: int,
    lang: str = "de",
    template: str | None = None,
    held_out: bool = False,
    seller_seed: int | None = None,
) -> GeneratedDocument:
    """Render one document of ``doc_type``; the same arguments give the same bytes.

    With ``template`` None a template of the requested group is chosen from ``seed``.
    ``seller_seed`` fixes the issuing company (invoices, delivery notes, purchase orders,
    letters, contracts): documents with the same seller seed, language and template look
    like a series from one supplier, e.g. invoices back to back in a page stream.
    """
    if lang not in LANGS:
        raise ValueError(f"unsupported language {lang!r}; use one of {LANGS}")
    group = [t for t in registry().get(doc_type, []) if template or t.held_out == held_out]
    if not group:
        raise ValueError(f"no templates for {doc_type!r}")
    if template is None:
        pick = random.Random(zlib.crc32(f"{doc_type}|{seed}".encode()))
        chosen = group[pick.randrange(len(group))]
    else:
        matches = [t for t in group if t.id == template]
        if not matches:
            raise ValueError(f"unknown template {template!r} for {doc_type!r}")
        chosen = matches[0]
    # Faker instances are shared per locale (creating one costs ~0.2 s) and reseeded per
    # document; the lock keeps that reseed-and-draw atomic, so threads stay deterministic
    with _LOCK:
        ctx = make_ctx(doc_type, chosen, seed=seed, lang=lang, seller_seed=seller_seed)
        pdf, pages, truth = chosen.render(ctx, chosen.style)
    truth.setdefault("pageCount", pages)
    truth.setdefault("pageNumbering", numbering_format(chosen.style, lang) if pages else None)
    truth.setdefault("locale", ctx.locale)
    return GeneratedDocument(
        doc_type=doc_type, lang=lang, template=chosen.id, pdf=pdf, page_count=pages, truth=truth
    )
