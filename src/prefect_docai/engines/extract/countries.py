"""Country names and codes (de/en/fr/nl names from babel's CLDR data) → ISO alpha-2."""

from __future__ import annotations

import re
from functools import cache

_EXTRA = {"D": "DE", "A": "AT", "CH": "CH", "UK": "GB", "USA": "US", "BRD": "DE", "F": "FR",
          "NL": "NL", "B": "BE", "L": "LU"}


@cache
def _names() -> dict[str, str]:
    from babel import Locale

    names: dict[str, str] = {}
    for language in ("en", "de", "fr", "nl"):
        for code, name in Locale(language).territories.items():
            if len(code) == 2 and code.isalpha():
                names[name.lower()] = code
    return names


def country_code(text: str, *, allow_code: bool = True) -> str | None:
    """``"Deutschland"``/``"Germany"``/``"DE"`` → ``"DE"``; ``None`` when not a country."""
    value = re.sub(r"\s+", " ", text.strip().strip(".,;:")).lower()
    if not value:
        return None
    if value in _names():
        return _names()[value]
    upper = value.upper()
    if allow_code:
        if upper in _EXTRA:
            return _EXTRA[upper]
        if len(upper) == 2 and upper.isalpha() and upper in _names().values():
            return upper
    return None
