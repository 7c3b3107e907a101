"""Passkeys: WebAuthn credentials that sign an account in, checked by the ``webauthn`` package.

A signed-in account adds one (registration) and may remove it; anyone may sign in with one
(a discoverable credential: no username typed). Each ceremony's challenge is stored with the
browser's session, used once (taken before it is checked, so a replayed answer finds none)
and expires. The relying party is the host name the request reached us by (one of the
server's allowed hosts) and the expected origin is the page's own, compared in full. A
passkey sign-in takes its address's try before the answer is verified, as a password's does
(``Accounts.attempt``), and a failed one counts in the same limits as a wrong password; a sign
count that does not grow (when the authenticator keeps one) is refused as a cloned key.

``webauthn`` is imported by the ceremonies that use it, not with the module: a server that
never sees a passkey does not pay for it at each start (about 70 ms of CPU).
"""

from __future__ import annotations

import base64
import hashlib
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from okgin.server.players.accounts import AccountError, Accounts
from okgin.server.players.identity import Session
from okgin.server.store.db import storage_errors
from okgin.server.store.schema import accounts, passkey_challenges, passkeys

RP_NAME = "Oklahoma Gin"
CHALLENGE_SECONDS = 300.0
"""How long a ceremony's challenge may be answered (the browser's own timeout is 60 s)."""
MAX_PASSKEYS = 20
"""Passkeys one account may hold."""
REFUSED = "that passkey was not accepted: sign in with your password, or try again"


@dataclass(frozen=True, slots=True)
class Party:
    """The relying party as this request reached us: its id (our host name) and the origins a
    browser's answer may name (the page's own, and those allowed with ``okgin serve --origin``)."""

    rp_id: str
    origins: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Passkey:
    """A passkey as the profile lists it."""

    id: str
    name: str
    created: float
    last_used: float | None


def clean_passkey_name(text: object) -> str:
    """The name a player gives a passkey: 1 to 60 characters (spaces folded), or a default."""
    if text is None or text == "":
        return "a passkey"
    if not isinstance(text, str):
        raise AccountError("a passkey's name is text")
    name = " ".join(text.split())
    if not 1 <= len(name) <= 60 or not name.isprintable():
        raise AccountError("a passkey's name is 1 to 60 printable characters")
    return name


def user_handle(player: str) -> bytes:
    """The account's WebAuthn user id: stable, and not the player id (a hash of it)."""
    return hashlib.sha256(f"okgin passkey user:{player}".encode()).digest()


class Passkeys:
    """The passkeys of the accounts in ``accounts``' store (see the module's docstring)."""

    def __init__(self, accounts: Accounts) -> None:
        self.accounts = accounts
        self.players = accounts.players
        self.engine = accounts.engine

    # -- adding one ----------------------------------------------------------------------------

    def registration_options(self, session: Session, party: Party) -> str:
        """The options for navigator.credentials.create(), as JSON; the challenge kept."""
        username = self.accounts.username(session.player)
        if username is None:
            raise AccountError("make an account first: a passkey signs an account in")
        held = self.listed(session.player)
        if len(held) >= MAX_PASSKEYS:
            raise AccountError(f"an account holds at most {MAX_PASSKEYS} passkeys: remove one first")
        from webauthn import generate_registration_options, options_to_json
        from webauthn.helpers.structs import (
            AuthenticatorSelectionCriteria,
            PublicKeyCredentialDescriptor,
            ResidentKeyRequirement,
            UserVerificationRequirement,
        )

        options = generate_registration_options(
            rp_id=party.rp_id, rp_name=RP_NAME, user_name=username, user_id=user_handle(session.player),
            user_display_name=session.name or username,
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED,
                user_verification=UserVerificationRequirement.PREFERRED),
            exclude_credentials=[PublicKeyCredentialDescriptor(id=_bytes(p.id)) for p in held],
        )
        self._keep(session, "register", options.challenge, party)
        return options_to_json(options)

    def register(self, session: Session, party: Party, credential: object, name: object) -> Passkey:
        """Check the browser's answer to the registration and keep the passkey."""
        label = clean_passkey_name(name)
        answer = _object(credential)
        if self.accounts.username(session.player) is None:
            raise AccountError("make an account first: a passkey signs an account in")
        challenge = self._take(session, "register", party)
        from webauthn import verify_registration_response
        from webauthn.helpers.exceptions import WebAuthnException

        try:
            verified = verify_registration_response(
                credential=answer, expected_challenge=challenge,
                expected_rp_id=party.rp_id, expected_origin=list(party.origins))
        except (WebAuthnException, ValueError, TypeError, KeyError, IndexError) as error:
            raise AccountError(f"the new passkey was not accepted: {_said(error)}") from None
        key = Passkey(_text(verified.credential_id), label, time.time(), None)
        with storage_errors("could not save the passkey"), self.engine.begin() as db:
            try:
                with db.begin_nested():
                    db.execute(insert(passkeys).values(
                        id=key.id, player=session.player, public_key=_text(verified.credential_public_key),
                        sign_count=verified.sign_count, name=key.name, created=key.created, last_used=None))
            except IntegrityError:
                raise AccountError("that passkey is already on an account") from None
        return key

    # -- signing in with one -------------------------------------------------------------------

    def sign_in_options(self, session: Session, party: Party) -> str:
        """The options for navigator.credentials.get() (any passkey of this site), as JSON."""
        from webauthn import generate_authentication_options, options_to_json
        from webauthn.helpers.structs import UserVerificationRequirement

        options = generate_authentication_options(
            rp_id=party.rp_id, user_verification=UserVerificationRequirement.PREFERRED)
        self._keep(session, "sign-in", options.challenge, party)
        return options_to_json(options)

    def sign_in(self, session: Session, party: Party, credential: object, address: str,
                agent: str) -> tuple[Session, str]:
        """A new session (and cookie id) for the passkey's account, replacing ``session``.
        Raises TooMany for an address over its limit (its try taken before anything is read:
        ``Accounts.attempt``), AccountError for anything refused; a malformed answer or one with
        no challenge waiting (400) gives its try back, as a right one does."""
        with self.accounts.attempt(address) as attempt:
            answer = _object(credential)
            identity = _credential_id(answer)
            challenge = self._take(session, "sign-in", party)
            with storage_errors("could not sign in"), self.engine.connect() as db:
                row = db.execute(select(passkeys.c.player, passkeys.c.public_key, passkeys.c.sign_count,
                                        accounts.c.username)
                                 .join(accounts, accounts.c.player == passkeys.c.player)
                                 .where(passkeys.c.id == identity)).first()
            if row is None:
                attempt.failed(None)
                raise AccountError("that passkey is not on any account here (it may have been removed)", 403)
            from webauthn import verify_authentication_response
            from webauthn.helpers.exceptions import WebAuthnException

            try:
                verified = verify_authentication_response(
                    credential=answer, expected_challenge=challenge, expected_rp_id=party.rp_id,
                    expected_origin=list(party.origins), credential_public_key=_bytes(row.public_key),
                    credential_current_sign_count=int(row.sign_count))
                handle = answer["response"].get("userHandle")
                if handle is not None and _bytes(handle) != user_handle(row.player):
                    raise ValueError("the passkey names another account")
            except (WebAuthnException, ValueError, TypeError, KeyError, IndexError):
                attempt.failed(row.username)
                raise AccountError(REFUSED, 403) from None
            if not self._used(identity, int(row.sign_count), verified.new_sign_count):
                attempt.failed(row.username)
                raise AccountError(REFUSED, 403)
            self.accounts.succeeded(row.username)
            return self.players.new_session(row.player, agent, replacing=session)

    # -- the profile's list --------------------------------------------------------------------

    def listed(self, player: str) -> list[Passkey]:
        query = (select(passkeys.c.id, passkeys.c.name, passkeys.c.created, passkeys.c.last_used)
                 .where(passkeys.c.player == player).order_by(passkeys.c.created))
        with storage_errors("could not read your passkeys"), self.engine.connect() as db:
            return [Passkey(*row) for row in db.execute(query)]

    def remove(self, session: Session, passkey: object) -> None:
        """Remove one of the session's player's passkeys (by its id). Raises AccountError."""
        if not isinstance(passkey, str) or not passkey:
            raise AccountError("choose a passkey to remove")
        with storage_errors("could not remove the passkey"), self.engine.begin() as db:
            gone = db.execute(delete(passkeys).where(passkeys.c.id == passkey,
                                                     passkeys.c.player == session.player)).rowcount
        if not gone:
            raise AccountError("no passkey of yours has that id", 404)

    def forget_expired(self, now: float) -> int:
        """Delete challenges nobody answered in time; returns how many."""
        with storage_errors("could not forget old challenges"), self.engine.begin() as db:
            old = passkey_challenges.c.expires < now
            return int(db.execute(delete(passkey_challenges).where(old)).rowcount)

    # -- challenges ----------------------------------------------------------------------------

    def _keep(self, session: Session, purpose: str, challenge: bytes, party: Party) -> None:
        """Keep ``challenge`` as the session's one live challenge for ``purpose``."""
        row = {"session": session.id_hash, "purpose": purpose, "challenge": _text(challenge),
               "rp_id": party.rp_id, "expires": time.time() + CHALLENGE_SECONDS}
        with storage_errors("could not start the passkey request"), self.engine.begin() as db:
            _drop(db, session.id_hash, purpose)
            db.execute(insert(passkey_challenges).values(**row))

    def _take(self, session: Session, purpose: str, party: Party) -> bytes:
        """The session's live challenge for ``purpose``, deleted as it is read (used once)."""
        query = select(passkey_challenges.c.challenge, passkey_challenges.c.rp_id,
                       passkey_challenges.c.expires).where(
            passkey_challenges.c.session == session.id_hash, passkey_challenges.c.purpose == purpose)
        with storage_errors("could not read the passkey request"), self.engine.begin() as db:
            row = db.execute(query).first()
            taken = _drop(db, session.id_hash, purpose) if row is not None else 0
        if row is None or not taken or row.expires < time.time() or row.rp_id != party.rp_id:
            raise AccountError("no passkey request of this page is waiting (it was used or has expired):"
                               " try again")
        return _bytes(row.challenge)

    def _used(self, passkey: str, old: int, new: int) -> bool:
        """Record a sign-in with ``passkey``: its new sign count, unless another sign-in moved it
        first (compare and set)."""
        with storage_errors("could not sign in"), self.engine.begin() as db:
            done = db.execute(update(passkeys).where(passkeys.c.id == passkey, passkeys.c.sign_count == old)
                              .values(sign_count=new, last_used=time.time())).rowcount
        return bool(done)


def _drop(db: Connection, session: str, purpose: str) -> int:
    return int(db.execute(delete(passkey_challenges).where(
        passkey_challenges.c.session == session, passkey_challenges.c.purpose == purpose)).rowcount)


def _object(credential: object) -> dict[str, Any]:
    if not isinstance(credential, dict):
        raise AccountError("the browser's answer (credential) must be a JSON object")
    return credential


def _credential_id(answer: dict[str, Any]) -> str:
    identity = answer.get("id")
    if not isinstance(identity, str) or not 1 <= len(identity) <= 1400:
        raise AccountError("the browser's answer has no credential id")
    return identity


def _said(error: Exception) -> str:
    text = str(error).split(". See __cause__")[0]
    return text[:200] or type(error).__name__


def _text(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _bytes(text: str) -> bytes:
    if not isinstance(text, str):
        raise TypeError("base64url text expected")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))

