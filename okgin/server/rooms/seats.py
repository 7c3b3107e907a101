"""Seat tokens: the secret that lets one browser act for one seat and see its cards.

Only a token's hash is stored; a token is compared in constant time, so neither a copy of
the database nor the timing of refusals gives a seat away.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

TOKEN_BYTES = 24


def new_token() -> tuple[str, str]:
    """A fresh token and its hash: the token goes to the browser, the hash to the store."""
    token = secrets.token_urlsafe(TOKEN_BYTES)
    return token, token_hash(token)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def matches(token: str | None, stored: str | None) -> bool:
    """True when ``token`` is the one whose hash is ``stored`` (constant time)."""
    if not token or not stored or len(token) > 200:
        return False
    return hmac.compare_digest(token_hash(token), stored)


def seat_of(token: str | None, hashes: list[str | None]) -> int | None:
    """The seat whose token this is, or None; every seat is compared, so time says nothing."""
    found = None
    for seat, stored in enumerate(hashes):
        if matches(token, stored):
            found = seat
    return found
