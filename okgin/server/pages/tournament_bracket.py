"""A knockout's tables in words: a table's state and link, a round's title (the bracket and the
final table are drawn by templates/tournament_live.html)."""

from __future__ import annotations

from okgin.server.store.tournament_store import StoredTournament, TableRow


def table_link(event: StoredTournament, table: TableRow, mine: int | None, made: set[str]) -> tuple[str, str]:
    """A table's state in words ("playing", "being laid", "finished") and its link's word
    ("play" or "watch"; empty while the table is being laid)."""
    if table.result is None and table.round == event.round and table.room not in made:
        return "being laid", ""
    word = "play" if mine in table.seats and table.result is None else "watch"
    return "finished" if table.result is not None else "playing", word


def round_title(number: int, event: StoredTournament) -> str:
    last = event.status == "finished" and number == event.round
    return "Final" if last and len(event.tables_of(number)) == 1 else f"Round {number}"
