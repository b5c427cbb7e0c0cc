"""RS256 access tokens: the signing key (generated on first start, kept in the data dir),
issuing, verifying, and the JWKS document."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import secrets
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

ALGORITHM = "RS256"


@dataclass(frozen=True)
class TokenClaims:
    subject: str
    scopes: tuple[str, ...]
    token_id: str
    expires_at: int


class InvalidToken(Exception):
    """The token is missing, malformed, expired, badly signed or for someone else."""


def _b64url_uint(value: int) -> str:
    raw = value.to_bytes((value.bit_length() + 7) // 8, "big")
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def load_or_create_key(path: Path) -> rsa.RSAPrivateKey:
    """The service's private key; created with mode 0600 when the file does not exist."""
    if path.exists():
        key = serialization.load_pem_private_key(path.read_bytes(), password=None)
        if not isinstance(key, rsa.RSAPrivateKey):
            raise ValueError(f"{path} does not hold an RSA private key")
        return key
    path.parent.mkdir(parents=True, exist_ok=True)
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    # O_EXCL: if another replica/process created it meanwhile, use theirs.
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return load_or_create_key(path)
    with os.fdopen(fd, "wb") as handle:
        handle.write(pem)
    return key


class TokenService:
    def __init__(self, key: rsa.RSAPrivateKey, issuer: str, audience: str, ttl: int) -> None:
        self._key = key
        self._public = key.public_key()
        self.issuer = issuer
        self.audience = audience
        self.ttl = ttl
        numbers = self._public.public_numbers()
        self._jwk = {
            "kty": "RSA",
            "use": "sig",
            "alg": ALGORITHM,
            "n": _b64url_uint(numbers.n),
            "e": _b64url_uint(numbers.e),
        }
        # RFC 7638 thumbprint as key id, so a rotated key gets a new kid by itself.
        canonical = json.dumps(
            {"e": self._jwk["e"], "kty": "RSA", "n": self._jwk["n"]}, separators=(",", ":")
        )
        self.kid = (
            base64.urlsafe_b64encode(hashlib.sha256(canonical.encode()).digest())
            .rstrip(b"=")
            .decode()
        )
        self._jwk["kid"] = self.kid
        self._verified: dict[str, TokenClaims] = {}

    def jwks(self) -> dict[str, Any]:
        return {"keys": [dict(self._jwk)]}

    def issue(self, subject: str, scopes: tuple[str, ...]) -> tuple[str, TokenClaims]:
        now = int(time.time())
        claims = TokenClaims(subject, scopes, secrets.token_hex(16), now + self.ttl)
        payload = {
            "iss": self.issuer,
            "sub": subject,
            "aud": self.audience,
            "iat": now,
            "nbf": now,
            "exp": claims.expires_at,
            "jti": claims.token_id,
            "scope": " ".join(scopes),
            "azp": subject,
        }
        token = jwt.encode(payload, self._key, algorithm=ALGORITHM, headers={"kid": self.kid})
        return token, claims

    def verify(self, token: str) -> TokenClaims:
        # Verified tokens are remembered until they expire: a token is immutable, so its
        # signature needs checking once, not on every poll of a result.
        cached = self._verified.get(token)
        if cached is not None and cached.expires_at > time.time():
            return cached
        claims = self._verify(token)
        if len(self._verified) >= 10_000:
            now = time.time()
            self._verified = {t: c for t, c in self._verified.items() if c.expires_at > now}
            if len(self._verified) >= 10_000:
                self._verified.clear()
        self._verified[token] = claims
        return claims

    def _verify(self, token: str) -> TokenClaims:
        try:
            payload = jwt.decode(
                token,
                self._public,
                algorithms=[ALGORITHM],
                audience=self.audience,
                issuer=self.issuer,
                leeway=5,
                options={"require": ["exp", "iat", "nbf", "sub", "iss", "aud", "jti"]},
            )
        except jwt.ExpiredSignatureError as exc:
            raise InvalidToken("The access token has expired.") from exc
        except jwt.PyJWTError as exc:
            raise InvalidToken(f"The access token is invalid: {exc}.") from exc
        scope = payload.get("scope", "")
        if not isinstance(scope, str):
            raise InvalidToken("The access token has a malformed scope claim.")
        return TokenClaims(
            str(payload["sub"]), tuple(scope.split()), str(payload["jti"]), int(payload["exp"])
        )
