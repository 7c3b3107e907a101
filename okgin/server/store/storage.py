"""Reading games from the store: a game's row and its action log, put together as its record.

Games are written with their room (``room_store``), one log row per deal or action, before
the change is acknowledged, so a reload or a restart resumes them. A database that cannot be
opened, is corrupt, is locked or is in an older schema raises ``StorageError``: one line.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select, text

from okgin.server.store import migrate
from okgin.server.store.db import DEFAULT_URL, StorageError, compact_json, open_engine, storage_errors
from okgin.server.store.schema import game_log, game_players, games

__all__ = ["DEFAULT_URL", "LogRow", "StorageError", "Store", "StoredGame", "compact_json", "storage_errors"]

LogRow = tuple[int, str]
"""One row of a game's log: (its hand's number from 1, the deal's JSON or an action's notation)."""


@dataclass(frozen=True, slots=True)
class StoredGame:
    """One game: its record (with its hidden deal: never sent while the game goes on)."""

    id: str
    created: float
    updated: float
    finished: bool
    levels: tuple[str, ...]
    record: dict[str, Any]
    winner: int | None
    scores: tuple[int, ...] | None
    version: int
    """The number of its log rows."""


class Store:
    """The games and their logs. Safe to call from several threads: each call takes its own
    pooled connection. The store is checked (or, empty, made) at the schema's head revision."""

    def __init__(self, url: str = DEFAULT_URL) -> None:
        self.engine = open_engine(url)
        self.url = self.engine.url.render_as_string(hide_password=True)
        migrate.ready(self.engine)

    def load(self, game_id: str) -> StoredGame | None:
        with storage_errors("could not read the game"), self.engine.connect() as db:
            row = db.execute(select(games).where(games.c.id == game_id)).first()
            if row is None:
                return None
            log = db.execute(select(game_log.c.hand, game_log.c.entry)
                             .where(game_log.c.game == game_id).order_by(game_log.c.seq)).all()
        return _stored(row._mapping, log)

    def log_after(self, game_id: str, version: int) -> list[LogRow]:
        """Game ``game_id``'s log rows after its first ``version``, in order."""
        with storage_errors("could not read the game"), self.engine.connect() as db:
            rows = db.execute(_LOG_AFTER, {"game": game_id, "seq": version})
            return [(hand, entry) for hand, entry in rows]

    def finished(self, player: str | None = None, limit: int = 200) -> list[StoredGame]:
        """The finished games ``player`` sat in (None: everyone's, for tools), the latest first."""
        finished = games.c.status == "finished"
        if player is not None:
            finished &= games.c.id.in_(select(game_players.c.game).where(game_players.c.player == player))
        query = select(games).where(finished).order_by(games.c.updated.desc()).limit(limit)
        with storage_errors("could not read the games"), self.engine.connect() as db:
            rows = db.execute(query).all()
            logs: dict[str, list[LogRow]] = defaultdict(list)
            ids = [row.id for row in rows]
            for start in range(0, len(ids), 100):
                log = (select(game_log.c.game, game_log.c.hand, game_log.c.entry)
                       .where(game_log.c.game.in_(ids[start:start + 100]))
                       .order_by(game_log.c.game, game_log.c.seq))
                for game, hand, entry in db.execute(log):
                    logs[game].append((hand, entry))
        return [_stored(row._mapping, logs[row.id]) for row in rows]

    def close(self) -> None:
        self.engine.dispose()


_LOG_AFTER = text("SELECT hand, entry FROM game_log WHERE game = :game AND seq > :seq ORDER BY seq")
"""Every process reads this after each change another made: written once (a Core ``select``
built anew each time cost twice its reading)."""


def assemble(head: dict[str, Any], log: Iterable[LogRow]) -> dict[str, Any]:
    """A game record from its head and its log rows (each hand's first row is its deal)."""
    hands: list[dict[str, Any]] = []
    for number, entry in log:
        if number > len(hands):
            hands.append({**json.loads(entry), "actions": []})
        else:
            hands[-1]["actions"].append(entry)
    return {**head, "hands": hands}


def deal_entry(dealer: int, deal: dict[str, Any]) -> str:
    """A hand's first log row: its dealer and deal."""
    return compact_json({"dealer": dealer, "deal": deal})


def game_row(
    game_id: str, levels: Sequence[str | None], head: dict[str, Any], version: int, now: float,
) -> dict[str, Any]:
    """The columns of a new game's row (its ``version`` log rows written beside it)."""
    return {"id": game_id, "created": now, "updated": now, "status": "playing", "version": version,
            "levels": json.dumps(list(levels)), "head": compact_json(head)}


def _stored(row: Any, log: Sequence[LogRow]) -> StoredGame:
    return StoredGame(
        id=row["id"], created=row["created"], updated=row["updated"],
        finished=row["status"] == "finished", levels=tuple(json.loads(row["levels"])),
        record=assemble(json.loads(row["head"]), log), winner=row["winner"],
        scores=tuple(json.loads(row["scores"])) if row["scores"] else None, version=row["version"],
    )
