"""The generated-document record, the template record and per-document context."""

from __future__ import annotations

import datetime as dt
import random
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from faker import Faker

from prefect_docai.models.tools import DOCUMENT_TYPES
from prefect_docai.samples.parties import Party, company, faker
from prefect_docai.samples.render import Style

DOC_TYPES: tuple[str, ...] = DOCUMENT_TYPES
LANGS: tuple[str, ...] = ("de", "en")
OTHER_LOCALES: dict[str, tuple[str, ...]] = {
    "fr": ("fr_FR",),
    "nl": ("nl_NL",),
    "it": ("it_IT",),
    "es": ("es_ES",),
}
"""Locales of the languages only the grammar generator's invoices are written in."""


@dataclass
class GeneratedDocument:
    """One generated document and what is known about it."""

    doc_type: str
    lang: str
    template: str
    pdf: bytes
    page_count: int
    truth: dict[str, Any] = field(default_factory=dict)


@dataclass
class Ctx:
    """Everything a template needs to draw one document deterministically."""

    seed: int
    lang: str
    locale: str
    rng: random.Random
    fake: Faker
    today: dt.date
    seller_seed: int | None = None

    @property
    def de(self) -> bool:
        return self.lang == "de"

    def issuer(self, *, bank: bool = True) -> Party:
        """The company issuing the document: random, or fixed by ``seller_seed`` so that
        several documents come from the same company (same name, address, ids, bank)."""
        if self.seller_seed is None:
            return company(self.fake, self.rng, self.locale, bank=bank)
        own = random.Random(zlib.crc32(f"seller|{self.locale}|{self.seller_seed}".encode()))
        self.fake.seed_instance(self.seller_seed)
        party = company(self.fake, own, self.locale, bank=True)
        if not bank:
            party.iban = party.bic = party.bank = None
        # continue this document's own random stream after the shared part
        self.fake.seed_instance(self.rng.randrange(2**32))
        return party

    def t(self, de: str, en: str) -> str:
        """Pick the German or English wording."""
        return de if self.lang == "de" else en

    def pick(self, de: list[str] | tuple[str, ...], en: list[str] | tuple[str, ...]) -> str:
        return str(self.rng.choice(de if self.lang == "de" else en))


Render = Callable[[Ctx, Style], tuple[bytes, int, dict[str, Any]]]


@dataclass(frozen=True)
class Template:
    """A template: a render function with a visual style; ``held_out`` ones are for eval."""

    id: str
    doc_type: str
    render: Render
    style: Style
    held_out: bool = False
    # locales a template supports for English (some layouts are US-only, e.g. Letter size)
    en_locales: tuple[str, ...] = ("en_GB", "en_US")


def make_ctx(
    doc_type: str, template: Template, *, seed: int, lang: str, seller_seed: int | None = None
) -> Ctx:
    # A stable per-document seed: crc32 of the identity, so documents of different types or
    # templates with the same user seed still differ, and runs are reproducible.
    mixed = zlib.crc32(f"{doc_type}|{template.id}|{lang}|{seed}".encode())
    rng = random.Random(mixed)
    if lang == "de":
        locale = "de_DE"
    elif lang in OTHER_LOCALES:
        locales = OTHER_LOCALES[lang]
        pick = rng.randrange(len(locales))
        locale = locales[pick if seller_seed is None else seller_seed % len(locales)]
    else:
        pick = rng.randrange(len(template.en_locales))
        # one supplier writes from one country
        if seller_seed is not None:
            pick = seller_seed % len(template.en_locales)
        locale = template.en_locales[pick]
    fake = faker(locale)
    fake.seed_instance(mixed)
    today = dt.date(2024, 1, 1) + dt.timedelta(days=rng.randrange(0, 900))
    return Ctx(
        seed=seed,
        lang=lang,
        locale=locale,
        rng=rng,
        fake=fake,
        today=today,
        seller_seed=seller_seed,
    )
