"""Passwords: the rules a new one must meet, and argon2id hashes (argon2-cffi's defaults).

A password is at least 10 characters and not among the common ones shipped beside this module
(``common_passwords.txt``). Only its argon2id hash is stored; ``verify`` of an unknown account
still computes a hash, so a wrong username takes as long to refuse as a wrong password.
"""

from __future__ import annotations

import functools
from pathlib import Path

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

MIN_LENGTH = 10
MAX_LENGTH = 256
"""Longer is refused: hashing a megabyte of 'password' is work for the server, not safety."""
_HASHER = PasswordHasher()  # argon2id, 64 MiB, 3 passes: the library's (RFC 9106's) choice


@functools.cache
def _dummy() -> str:
    """The hash checked against for an unknown account (made on first use, not at import: an
    argon2 hash costs about 0.15 s of CPU, paid by every process that imports the server)."""
    return _HASHER.hash("okgin: the hash checked against for an unknown account")


class PasswordError(ValueError):
    """A new password that breaks a rule: the message says which."""


@functools.cache
def common_passwords() -> frozenset[str]:
    text = (Path(__file__).with_name("common_passwords.txt")).read_text(encoding="utf-8")
    return frozenset(line.strip().lower() for line in text.splitlines() if line and not line.startswith("#"))


def check_new(password: str, username: str = "") -> None:
    """Raise PasswordError unless ``password`` may be chosen (by ``username``)."""
    if len(password) < MIN_LENGTH:
        raise PasswordError(f"a password is at least {MIN_LENGTH} characters")
    if len(password) > MAX_LENGTH:
        raise PasswordError(f"a password is at most {MAX_LENGTH} characters")
    if password.lower() in common_passwords() or (username and username.lower() in password.lower()):
        raise PasswordError("that password is too easy to guess: it is among the most common ones"
                            if password.lower() in common_passwords() else
                            "that password is too easy to guess: it holds your username")


def hashed(password: str) -> str:
    """The argon2id hash to store."""
    return _HASHER.hash(password)


def verify(stored: str | None, password: str) -> bool:
    """Does ``password`` match ``stored`` (None: no such account, checked all the same)?"""
    try:
        return _HASHER.verify(stored or _dummy(), password) and stored is not None
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False
