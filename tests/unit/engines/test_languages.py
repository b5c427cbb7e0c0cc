"""languageHint: ISO 639-1 codes map to installed Tesseract packs."""

from __future__ import annotations

import pytest

from prefect_docai.engines.page.languages import (
    LanguageError,
    installed_languages,
    parse_language_hint,
)


def test_default_is_english() -> None:
    assert parse_language_hint(None) == ("eng",)
    assert parse_language_hint("  ") == ("eng",)


def test_several_hints_keep_their_order() -> None:
    assert parse_language_hint("de,en") == ("deu", "eng")
    assert parse_language_hint("FR") == ("fra",)


def test_all_language_packs_are_installed() -> None:
    # setup installs tesseract-ocr-all: well over 100 languages.
    assert len(installed_languages()) > 100


def test_chinese_takes_both_scripts() -> None:
    assert parse_language_hint("zh") == ("chi_sim", "chi_tra")


def test_auto_is_accepted_alone() -> None:
    assert parse_language_hint("auto") == ("auto",)
    with pytest.raises(LanguageError):
        parse_language_hint("auto,de")


@pytest.mark.parametrize("hint", ["deu", "xx", "german", "d"])
def test_non_iso_codes_are_refused(hint: str) -> None:
    with pytest.raises(LanguageError):
        parse_language_hint(hint)
