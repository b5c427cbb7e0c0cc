"""Password hashing (argon2id through pwdlib) and the password policy."""

from __future__ import annotations

import functools

from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher

MIN_LENGTH = 10
MAX_LENGTH = 1024  # argon2 hashes anything, but a megabyte "password" is a denial of service

_hasher = PasswordHash((Argon2Hasher(),))
# Verified against when an e-mail is unknown, so a sign-in takes as long either way.
_DUMMY_HASH = _hasher.hash("an unknown account has no password")


@functools.cache
def common_passwords() -> frozenset[str]:
    """The 30,000 most common passwords of zxcvbn's list (shipped inside that package)."""
    from zxcvbn.frequency_lists import FREQUENCY_LISTS

    return frozenset(word.lower() for word in FREQUENCY_LISTS["passwords"])


def problem(password: str, email: str = "") -> str | None:
    """Why the password is not acceptable (an i18n key), or None."""
    if len(password) < MIN_LENGTH:
        return "password_too_short"
    if len(password) > MAX_LENGTH:
        return "password_too_long"
    lowered = password.lower()
    if lowered in common_passwords() or (email and lowered == email.lower()):
        return "password_common"
    if len(set(password)) < 4:
        return "password_common"
    return None


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def verify(password: str, password_hash: str | None) -> bool:
    """True when ``password`` matches; without a hash still spends the time of a check."""
    if password_hash is None:
        _hasher.verify(password, _DUMMY_HASH)
        return False
    return bool(_hasher.verify(password, password_hash))
