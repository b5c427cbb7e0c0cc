"""A realistic mixed batch of sample files with a manifest of their truth (``docai samples``).

The batch holds German and English invoices (one a Factur-X e-invoice), till receipts (one
photographed, as JPEG), letters, delivery notes, a report with tables, scanned variants and
one multi-document stream with separator sheets. ``manifest.json`` lists every file with its
type, language, template, page count and truth; the stream lists its segments.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from prefect_docai.samples.core import GeneratedDocument
from prefect_docai.samples.generate import generate
from prefect_docai.samples.scan import degrade, photograph
from prefect_docai.samples.stream import SeparatorKind, make_stream

MANIFEST = "manifest.json"

# (kind, doc_type, lang): the special items come first so that even a small batch has one
# of each; the rest cycles through everyday documents
_SPECIAL: tuple[tuple[str, str, str], ...] = (
    ("e-invoice", "invoice", "de"),
    ("stream", "stream", "de"),
    ("photo", "receipt", "de"),
    ("scanned", "invoice", "de"),
    ("born-digital", "report", "en"),
    ("scanned", "receipt", "en"),
)
_CYCLE: tuple[tuple[str, str, str], ...] = (
    ("born-digital", "invoice", "de"),
    ("born-digital", "invoice", "en"),
    ("born-digital", "receipt", "de"),
    ("born-digital", "letter", "de"),
    ("born-digital", "delivery_note", "de"),
    ("born-digital", "receipt", "en"),
    ("born-digital", "invoice", "de"),
    ("born-digital", "letter", "en"),
    ("scanned", "letter", "de"),
    ("born-digital", "delivery_note", "en"),
    ("born-digital", "report", "de"),
    ("born-digital", "invoice", "en"),
)
_STREAM_MEMBERS: tuple[tuple[str, str], ...] = (
    ("invoice", "de"),
    ("letter", "de"),
    ("delivery_note", "de"),
    ("invoice", "en"),
    ("report", "en"),
)
_STREAM_SEPARATORS: tuple[SeparatorKind | None, ...] = (None, "qr", None, "blank")


def plan(count: int) -> list[tuple[str, str, str]]:
    """What the batch of ``count`` files holds, in order."""
    items = list(_SPECIAL[:count])
    i = 0
    while len(items) < count:
        items.append(_CYCLE[i % len(_CYCLE)])
        i += 1
    return items


def _entry(
    name: str, data: bytes, doc: GeneratedDocument | None, variant: str, media_type: str, pages: int
) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "file": name,
        "variant": variant,
        "mediaType": media_type,
        "pages": pages,
        "bytes": len(data),
        "sha256": hashlib.sha256(data).hexdigest(),
    }
    if doc is not None:
        entry.update(docType=doc.doc_type, lang=doc.lang, template=doc.template, truth=doc.truth)
    return entry


def _stream(seed: int) -> tuple[bytes, dict[str, Any]]:
    docs = [
        generate(t, seed=seed * 31 + k, lang=lang) for k, (t, lang) in enumerate(_STREAM_MEMBERS)
    ]
    pdf, starts = make_stream([d.pdf for d in docs], separators=list(_STREAM_SEPARATORS))
    segments = []
    separator_pages = []
    for k, (doc, start) in enumerate(zip(docs, starts, strict=True)):
        segments.append(
            {
                "index": k,
                "docType": doc.doc_type,
                "lang": doc.lang,
                "template": doc.template,
                "startPage": start,
                "endPage": start + doc.page_count - 1,
                "pageCount": doc.page_count,
                "truth": doc.truth,
            }
        )
        if k > 0 and _STREAM_SEPARATORS[k - 1] is not None:
            separator_pages.append({"page": start - 1, "kind": _STREAM_SEPARATORS[k - 1]})
    total = segments[-1]["endPage"]
    return pdf, {
        "segments": segments,
        "separatorPages": separator_pages,
        "pages": total,
        "documentStartPages": starts,
    }


def write_batch(directory: str | Path, *, count: int = 20, seed: int = 0) -> dict[str, Any]:
    """Write ``count`` sample files and ``manifest.json`` to ``directory``; return the manifest."""
    if count < 1:
        raise ValueError("count must be at least 1")
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    entries = []
    for index, (variant, doc_type, lang) in enumerate(plan(count), start=1):
        item_seed = seed * 1000 + index
        stem = f"{index:03d}-{doc_type.replace('_', '-')}-{lang}"
        if variant == "stream":
            data, info = _stream(item_seed)
            name = f"{stem}-stream.pdf"
            entry = _entry(name, data, None, variant, "application/pdf", info["pages"])
            entry.update(
                docType="stream",
                lang=lang,
                segments=info["segments"],
                separatorPages=info["separatorPages"],
                documentStartPages=info["documentStartPages"],
            )
        elif variant == "e-invoice":
            from prefect_docai.samples.einvoice import generate_einvoice

            doc = generate_einvoice(seed=item_seed, lang=lang)
            data, name = doc.pdf, f"{stem}-zugferd.pdf"
            entry = _entry(name, data, doc, variant, "application/pdf", doc.page_count)
        else:
            doc = generate(doc_type, seed=item_seed, lang=lang)
            if variant == "photo":
                data, name = photograph(doc.pdf, seed=item_seed), f"{stem}-photo.jpg"
                entry = _entry(name, data, doc, variant, "image/jpeg", 1)
            elif variant == "scanned":
                data = degrade(doc.pdf, seed=item_seed)
                name = f"{stem}-scan.pdf"
                entry = _entry(name, data, doc, variant, "application/pdf", doc.page_count)
            else:
                data, name = doc.pdf, f"{stem}.pdf"
                entry = _entry(name, data, doc, variant, "application/pdf", doc.page_count)
        (out / name).write_bytes(data)
        entries.append(entry)
    manifest = {
        "formatVersion": 1,
        "generator": "prefect-docai samples",
        "seed": seed,
        "count": count,
        "documents": entries,
    }
    (out / MANIFEST).write_text(
        json.dumps(manifest, indent=2, ensure_ascii=False), encoding="utf-8"
    )
    return manifest
