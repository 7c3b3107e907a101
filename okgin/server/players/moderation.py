"""The server operator's actions on players (`okgin admin`: docs/moderation.md): a ban from Play
online, tournaments and the leaderboard, lifting it, a new name, a report marked handled; each
written with its row in the audit (``moderation_audit``) in one transaction.

A ban is kept against the player, the id every browser signed in to their account shares, so a
new name or a new browser on the same account is still banned. Calls block: run them in a thread.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from dataclasses import dataclass

from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from okgin.errors import OkginError
from okgin.server.players.identity import give_name
from okgin.server.rooms.room import RoomError, clean_name
from okgin.server.store.db import storage_errors
from okgin.server.store.schema import moderation_audit, player_bans, player_reports, players

BANNED = ("You may not play online, join tournaments or appear on the leaderboard: "
          "the server's operator barred you.")
"""What a banned player is told where a ban refuses them."""


class ModerationError(OkginError):
    """An admin action refused (no such player, no reason given, ...): nothing changed."""


@dataclass(frozen=True, slots=True)
class Audited:
    """One row of the audit."""

    action: str
    player: str
    detail: str
    why: str
    created: float


class Moderation:
    """The operator's actions, kept in the game store's database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def banned(self, player: str) -> bool:
        with storage_errors("could not read the bans"), self.engine.connect() as db:
            found = db.execute(select(player_bans.c.player).where(player_bans.c.player == player))
            return found.first() is not None

    def refusal(self, player: str) -> str | None:
        """Why ``player`` may not seek, join or be listed (None: they may)."""
        return BANNED if self.banned(player) else None

    def ban(self, player: str, why: str) -> None:
        with self._acting("ban", player, why) as db:
            try:
                with db.begin_nested():
                    db.execute(insert(player_bans).values(player=player, reason=_said(why),
                                                          created=time.time()))
            except IntegrityError:
                raise ModerationError(f"player {player} is banned already") from None
            self._audit(db, "ban", player, "", why)

    def unban(self, player: str, why: str) -> None:
        with self._acting("unban", player, why) as db:
            if db.execute(delete(player_bans).where(player_bans.c.player == player)).rowcount != 1:
                raise ModerationError(f"player {player} is not banned")
            self._audit(db, "unban", player, "", why)

    def rename(self, player: str, name: str, why: str) -> None:
        try:
            name = clean_name(name)
        except RoomError as error:
            raise ModerationError(str(error)) from None
        with self._acting("rename", player, why) as db:
            old = db.execute(select(players.c.name).where(players.c.id == player)).scalar()
            try:
                give_name(db, player, name)
            except RoomError as error:
                raise ModerationError(str(error)) from None
            self._audit(db, "rename", player, f"{old or '(no name)'} -> {name}", why)

    def handled(self, report: int, why: str) -> None:
        with self._acting("handled", None, why) as db:
            row = db.execute(select(player_reports.c.reported).where(
                player_reports.c.id == report, player_reports.c.handled.is_(None))).first()
            if row is None:
                raise ModerationError(f"there is no report {report} waiting to be handled")
            db.execute(update(player_reports).where(player_reports.c.id == report)
                       .values(handled=time.time()))
            self._audit(db, "handled", str(row[0]), f"report {report}", why)

    def audit(self) -> list[Audited]:
        query = select(moderation_audit).order_by(moderation_audit.c.id)
        with storage_errors("could not read the audit"), self.engine.connect() as db:
            return [Audited(r.action, r.player, r.detail, r.why, r.created) for r in db.execute(query)]

    @contextlib.contextmanager
    def _acting(self, action: str, player: str | None, why: str) -> Iterator[Connection]:
        """The action's transaction, once a reason is given and ``player`` (if any) exists."""
        if not why.strip():
            raise ModerationError(f"say why ({action} --why '...'): every action is kept in the audit")
        with storage_errors(f"could not {action}"), self.engine.begin() as db:
            known = select(players.c.id).where(players.c.id == player)
            if player is not None and db.execute(known).first() is None:
                raise ModerationError(f"there is no player {player}")
            yield db

    @staticmethod
    def _audit(db: Connection, action: str, player: str, detail: str, why: str) -> None:
        db.execute(insert(moderation_audit).values(action=action, player=player, detail=detail[:300],
                                                   why=_said(why), created=time.time()))


def _said(why: str) -> str:
    """A reason as kept: spaces folded, at most 300 characters (its column's size)."""
    return " ".join(why.split())[:300]
