"""Personal API tokens: made on the account page, shown once, stored only as a SHA-256, sent
as ``Authorization: Bearer <token>``, revoked at once (docs/api.md).

A token is ``okgin_`` and 32 random bytes (``secrets.token_urlsafe``); the store keeps its
hash, so the rows alone are no token. A revoked token is deleted: the next request with it is
refused. Calls block: run them in a thread.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Engine

from okgin.server.store.db import storage_errors
from okgin.server.store.schema import accounts, api_tokens, bot_accounts

PREFIX = "okgin_"
MAX_TOKENS = 5
"""Live tokens one account may hold at once (revoke one to make another)."""
USED_EVERY = 60.0
"""A token's last use is written again only once this many seconds have passed."""


class TokenError(ValueError):
    """A token refused (the message says why)."""


@dataclass(frozen=True, slots=True)
class Token:
    """A live token as the account page lists it (never the token itself)."""

    ident: str
    """Its hash's first 12 characters: how the page names it to revoke it."""
    created: float
    last_used: float | None


@dataclass(frozen=True, slots=True)
class Bearer:
    """Who a request's token speaks for: the player, the token's hash (its rate limits' key),
    whether the account is a bot account, and its username."""

    player: str
    token_hash: str
    bot: bool
    username: str


def hashed(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class ApiTokens:
    """The personal API tokens, in the players' store."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def create(self, player: str) -> str:
        """A new token for ``player``'s account, returned once (only its hash is kept)."""
        token = PREFIX + secrets.token_urlsafe(32)
        with storage_errors("could not make the token"), self.engine.begin() as db:
            if db.execute(select(accounts.c.player).where(accounts.c.player == player)).first() is None:
                raise TokenError("make an account first: a token is an account's")
            held = db.execute(select(func.count()).select_from(api_tokens)
                              .where(api_tokens.c.player == player)).scalar() or 0
            if held >= MAX_TOKENS:
                raise TokenError(f"you hold {MAX_TOKENS} tokens: revoke one to make another")
            db.execute(insert(api_tokens).values(id_hash=hashed(token), player=player, created=time.time()))
        return token

    def bearer(self, token: str) -> Bearer | None:
        """The player ``token`` speaks for, or None (unknown, revoked or malformed)."""
        if not token.startswith(PREFIX) or not 20 <= len(token) <= 100 or not token.isascii():
            return None
        key = hashed(token)
        with storage_errors("could not read the token"), self.engine.connect() as db:
            row = db.execute(select(api_tokens.c.player, api_tokens.c.last_used, accounts.c.username,
                                    bot_accounts.c.player.label("bot"))
                             .join(accounts, accounts.c.player == api_tokens.c.player)
                             .outerjoin(bot_accounts, bot_accounts.c.player == api_tokens.c.player)
                             .where(api_tokens.c.id_hash == key)).first()
        if row is None:
            return None
        now = time.time()
        if row.last_used is None or now - row.last_used >= USED_EVERY:
            with storage_errors("could not read the token"), self.engine.begin() as db:
                db.execute(update(api_tokens).where(api_tokens.c.id_hash == key).values(last_used=now))
        return Bearer(row.player, key, row.bot is not None, row.username)

    def alive(self, token_hash: str) -> bool:
        """Is the token of this hash still live (not revoked)? An open stream asks now and then."""
        with storage_errors("could not read the token"), self.engine.connect() as db:
            row = db.execute(select(api_tokens.c.id_hash).where(api_tokens.c.id_hash == token_hash)).first()
        return row is not None

    def listed(self, player: str) -> list[Token]:
        query = (select(api_tokens.c.id_hash, api_tokens.c.created, api_tokens.c.last_used)
                 .where(api_tokens.c.player == player).order_by(api_tokens.c.created))
        with storage_errors("could not read your tokens"), self.engine.connect() as db:
            return [Token(row.id_hash[:12], row.created, row.last_used) for row in db.execute(query)]

    def revoke(self, player: str, ident: str) -> None:
        """Delete ``player``'s token named ``ident`` (``Token.ident``): refused at once after."""
        if not isinstance(ident, str) or len(ident) != 12 or not all(c in "0123456789abcdef" for c in ident):
            raise TokenError("no such token: it may be revoked already")
        with storage_errors("could not revoke the token"), self.engine.begin() as db:
            gone = db.execute(delete(api_tokens).where(api_tokens.c.player == player,
                                                       api_tokens.c.id_hash.startswith(ident))).rowcount
        if not gone:
            raise TokenError("no such token: it may be revoked already")
