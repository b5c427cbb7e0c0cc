"""Companies, people, addresses, bank accounts and tax ids with valid check digits."""

from __future__ import annotations

import functools
import random
import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from faker import Faker
from schwifty import IBAN
from schwifty.registry import get_banks_by_country
from stdnum import luhn
from stdnum.de import stnr
from stdnum.es import cif as es_cif
from stdnum.fr import tva as fr_tva
from stdnum.gb import vat as gb_vat
from stdnum.iso7064 import mod_11_10
from stdnum.it import iva as it_iva
from stdnum.nl import btw as nl_btw

COUNTRY_NAMES = {
    "de": {"DE": "Deutschland", "GB": "Vereinigtes Königreich", "US": "USA", "AT": "Österreich"},
    "en": {"DE": "Germany", "GB": "United Kingdom", "US": "United States", "AT": "Austria"},
}

LOCALE_COUNTRY = {
    "de_DE": "DE",
    "en_GB": "GB",
    "en_US": "US",
    "fr_FR": "FR",
    "nl_NL": "NL",
    "it_IT": "IT",
    "es_ES": "ES",
}
COUNTRY_CURRENCY = {
    "DE": "EUR",
    "GB": "GBP",
    "US": "USD",
    "AT": "EUR",
    "FR": "EUR",
    "NL": "EUR",
    "IT": "EUR",
    "ES": "EUR",
}
_EURO = ("FR", "NL", "IT", "ES")
"""Countries of the grammar generator's other invoice languages (fr, nl, it, es)."""
_TLD = {"DE": "de", "GB": "co.uk", "US": "com", "FR": "fr", "NL": "nl", "IT": "it", "ES": "es"}
_ATTENTION = {
    "GB": "FAO ",
    "US": "Attn: ",
    "FR": "À l'attention de ",
    "NL": "t.a.v. ",
    "IT": "Alla c.a. ",
    "ES": "Att. ",
}


@functools.cache
def faker(locale: str) -> Faker:
    """One Faker per locale, reseeded per document (creating one costs ~0.2 s)."""
    fk = Faker(locale)
    for provider in fk.get_providers():
        cities = getattr(provider, "cities", None)
        if isinstance(cities, list):
            # Faker builds it_IT's city list from a set, so its order (and the city a
            # seeded Faker draws) changed with PYTHONHASHSEED: every process generated
            # other Italian documents. The other locales' lists are tuples, kept as
            # they are (their documents stay byte-identical).
            provider.cities = sorted(cities)
    return fk


@dataclass
class Party:
    """A seller, buyer, sender or recipient."""

    name: str
    street: str
    postal_code: str
    city: str
    country: str
    contact: str = ""
    vat_id: str | None = None
    tax_number: str | None = None
    iban: str | None = None
    bic: str | None = None
    bank: str | None = None
    phone: str = ""
    email: str = ""
    web: str = ""
    state: str = ""

    def city_line(self) -> str:
        if self.country == "US":
            return f"{self.city}, {self.state} {self.postal_code}".strip()
        if self.country == "GB":
            return f"{self.city} {self.postal_code}"
        return f"{self.postal_code} {self.city}"

    def address_lines(self, lang: str, *, with_country: bool = False) -> list[str]:
        lines = [self.name]
        if self.contact:
            lines.append(self.contact)
        lines += [self.street, self.city_line()]
        if with_country:
            lines.append(COUNTRY_NAMES[lang][self.country])
        return lines

    def truth(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "street": self.street,
            "postalCode": self.postal_code,
            "city": self.city,
            "country": self.country,
            "vatId": self.vat_id,
            "taxNumber": self.tax_number,
        }


def de_vat_id(rng: random.Random) -> str:
    body = str(rng.randint(10_000_000, 99_999_999))
    return f"DE{body}{mod_11_10.calc_check_digit(body)}"


def gb_vat_id(rng: random.Random) -> str:
    while True:
        head = f"{rng.randint(1_000_000, 9_999_999)}"
        weights = (8, 7, 6, 5, 4, 3, 2)
        total = sum(w * int(d) for w, d in zip(weights, head, strict=True))
        tail = (-total) % 97
        number = f"{head}{tail:02d}"
        if gb_vat.is_valid(number):
            return f"GB{number}"


def euro_vat_id(rng: random.Random, country: str) -> str:
    """A VAT id of ``country`` (FR, NL, IT or ES) that passes its check-digit rules."""
    if country == "FR":
        body = f"{rng.randint(10_000_000, 99_999_999)}"
        siren = body + luhn.calc_check_digit(body)
        key = (12 + 3 * (int(siren) % 97)) % 97
        number = f"FR{key:02d}{siren}"
        valid = fr_tva.is_valid(number)
    elif country == "NL":
        while True:
            body = f"{rng.randint(10_000_000, 99_999_999)}"
            total = sum((9 - i) * int(d) for i, d in enumerate(body))
            if total % 11 < 10:
                number = f"NL{body}{total % 11}B{rng.choice(('01', '01', '02'))}"
                break
        valid = nl_btw.is_valid(number)
    elif country == "IT":
        body = f"{rng.randint(1_000_000, 9_999_999)}{rng.randint(1, 100):03d}"
        number = f"IT{body}{luhn.calc_check_digit(body)}"
        valid = it_iva.is_valid(number)
    else:
        body = f"{rng.randint(1_000_000, 9_999_999)}"
        letter = rng.choice("ABB")
        number = f"ES{letter}{body}{es_cif.calc_check_digits(letter + body)[0]}"
        valid = es_cif.is_valid(number[2:])
    if not valid:  # pragma: no cover - the constructions above are valid by design
        raise ValueError(f"generated an invalid VAT id {number}")
    return number


def de_tax_number(rng: random.Random) -> str:
    """A Steuernummer in one of the common regional formats (e.g. ``143/123/45678``)."""
    forms = ("{a:03d}/{b:03d}/{c:05d}", "{a2:02d}/{b:03d}/{c:05d}", "{a:03d}/{b:04d}/{c4:04d}")
    while True:
        text = rng.choice(forms).format(
            a=rng.randint(100, 299),
            a2=rng.randint(10, 99),
            b=rng.randint(100, 999),
            c=rng.randint(10000, 99999),
            c4=rng.randint(1000, 9999),
        )
        if stnr.is_valid(text):
            return text


@functools.cache
def _banks(country: str) -> list[Any]:
    banks = [b for b in get_banks_by_country(country) if b.bic and b.primary]
    # registry names carry internal suffixes ("Gf 160", "vormals …"); print only plain ones
    plain = [
        b
        for b in banks
        if len(b.name) <= 32
        and b.name.isascii()
        and not any(ch.isdigit() for ch in b.name)
        and not any(w in b.name for w in ("vormals", "Gf", "ITGK", "Sonder", "CC"))
        and (country != "GB" or "BANK" in b.name.upper())
    ]
    banks = plain or banks
    # German account numbers follow bank-specific check schemes; banks with scheme "09"
    # accept any account number, so every generated IBAN also passes a BBAN check.
    if country == "DE":
        banks = [b for b in banks if b.checksum_algo in ("09",)] or banks
    return banks


def bank_account(rng: random.Random, country: str) -> tuple[str, str, str]:
    """(IBAN, BIC, bank name) of a real bank in ``country`` (DE, GB, FR, NL, IT or ES)."""
    bank = rng.choice(_banks(country))
    if country == "GB":
        account = f"{rng.randint(10_000_000, 99_999_999)}"
        branch = f"{rng.randint(100_000, 999_999)}"
        iban = IBAN.generate(
            "GB", bank_code=bank.bank_code, account_code=account, branch_code=branch
        )
    else:
        account = f"{rng.randint(10**8, 10**10 - 1)}"
        iban = IBAN.generate(country, bank_code=bank.bank_code, account_code=account)
    name = str(bank.name)
    return str(iban.compact), str(bank.bic), name.title() if name.isupper() else name


def ascii_name(text: str) -> str:
    """A host-name-safe form of a name: umlauts spelled out, other marks dropped."""
    for src, dst in (("ä", "ae"), ("ö", "oe"), ("ü", "ue"), ("ß", "ss")):
        text = text.replace(src, dst)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return "".join(ch for ch in text if ch.isalnum())


def _street(fk: Faker, rng: random.Random, country: str) -> str:
    number = rng.randint(1, 180)
    if country == "DE":
        suffix = rng.choice(["", "", "", "a", "b"])
        return f"{fk.street_name()} {number}{suffix}"
    if country in _EURO:
        return str(fk.street_address()).replace("\n", " ")
    return f"{number} {fk.street_name()}"


def address(fk: Faker, rng: random.Random, locale: str) -> tuple[str, str, str, str, str]:
    """(street, postal code, city, country, state)."""
    country = LOCALE_COUNTRY[locale]
    street = _street(fk, rng, country)
    state = fk.state_abbr() if country == "US" else ""
    postcode = str(fk.postcode())
    if country == "NL" and re.fullmatch(r"\d{4}[A-Z]{2}", postcode):
        postcode = f"{postcode[:4]} {postcode[4:]}"
    return street, postcode, fk.city(), country, state


def company(fk: Faker, rng: random.Random, locale: str, *, bank: bool = True) -> Party:
    street, postal, city, country, state = address(fk, rng, locale)
    name = fk.company().replace("\n", " ")
    domain = ascii_name(name.split()[0].lower())[:14] or "firma"
    tld = _TLD[country]
    party = Party(
        name=name,
        street=street,
        postal_code=postal,
        city=city,
        country=country,
        state=state,
        phone=fk.phone_number(),
        email=f"{rng.choice(['info', 'kontakt' if country == 'DE' else 'sales', 'office'])}@{domain}.{tld}",
        web=f"www.{domain}.{tld}",
    )
    if country == "DE":
        party.vat_id = de_vat_id(rng)
        party.tax_number = de_tax_number(rng) if rng.random() < 0.7 else None
    elif country == "GB":
        party.vat_id = gb_vat_id(rng)
    elif country in _EURO:
        party.vat_id = euro_vat_id(rng, country)
    if bank and country in ("DE", "GB", *_EURO):
        party.iban, party.bic, party.bank = bank_account(rng, country)
    return party


def person(fk: Faker, rng: random.Random, locale: str) -> Party:
    street, postal, city, country, state = address(fk, rng, locale)
    name = f"{fk.first_name()} {fk.last_name()}"
    return Party(
        name=name,
        street=street,
        postal_code=postal,
        city=city,
        country=country,
        state=state,
        phone=fk.phone_number(),
    )


def customer(fk: Faker, rng: random.Random, locale: str) -> Party:
    """A business customer (with a VAT id, no bank) or a private person."""
    if rng.random() < 0.75:
        party = company(fk, rng, locale, bank=False)
        party.tax_number = None
        if rng.random() < 0.5:
            party.vat_id = None
        if rng.random() < 0.4:
            german = rng.choice(["z. Hd. ", "Herr ", "Frau ", ""])  # drawn for every country
            prefix = german if party.country == "DE" else _ATTENTION[party.country]
            party.contact = f"{prefix}{fk.first_name()} {fk.last_name()}".strip()
        return party
    return person(fk, rng, locale)
