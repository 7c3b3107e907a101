"""A knockout on its page: the bracket (a column for each round, each match with its players,
their scores and its winner, a bye as such) and, at the end, the final table (every entrant
from the champion down, with the round each went out in). Names arrive escaped."""

from __future__ import annotations

import html

from okgin.server.store.tournament_store import StoredTournament, TableRow
from okgin.server.tournaments.plan import final_order, out_in
from okgin.server.tournaments.settings import Settings


def table_link(event: StoredTournament, table: TableRow, mine: int | None, made: set[str]) -> tuple[str, str]:
    """A table's state in words ("playing", "being laid", "finished") and its link (play or watch)."""
    if table.result is None and table.round == event.round and table.room not in made:
        return "being laid", "…"
    word = "play" if mine in table.seats and table.result is None else "watch"
    state = "finished" if table.result is not None else "playing"
    return state, f'<a href="/r/{html.escape(table.room)}">{word}</a>'


def _round_title(number: int, event: StoredTournament) -> str:
    last = event.status == "finished" and number == event.round
    return "Final" if last and len(event.tables_of(number)) == 1 else f"Round {number}"


def _match(event: StoredTournament, table: TableRow, names: dict[int, str], mine: int | None,
           made: set[str]) -> str:
    state, link = table_link(event, table, mine, made)
    points: dict[int, int] = {}
    winner = None
    if table.result is not None:
        points = dict(zip(table.result["order"], table.result["points"], strict=True))
        winner = table.result["order"][0]
    rows = "".join(
        f"<li{' class=winner' if s == winner else ''}{' data-you' if s == mine else ''}>"
        f"<span class=who>{names[s]}</span> <span class=points>{points.get(s, '')}</span></li>"
        for s in table.seats)
    said = f"{names[winner]} wins" if winner is not None else state.capitalize()
    return (f'<li class=match data-table="{table.number + 1}"><ol class=players>{rows}</ol>'
            f"<p class=outcome>{said} ({link})</p></li>")


def bracket(event: StoredTournament, names: dict[int, str], mine: int | None, made: set[str]) -> str:
    """Every round so far as a column of its matches (and byes), the first round first."""
    columns = []
    for number in range(1, event.round + 1):
        matches = [_match(event, t, names, mine, made) for t in event.tables_of(number)]
        matches += [f"<li class='match bye'><ol class=players><li>{names[s]}</li></ol>"
                    "<p class=outcome>A bye: through to the next round</p></li>"
                    for s in event.byes.get(number, ())]
        columns.append("<section class=bracket-round>"
                       f"<h3>{_round_title(number, event)}</h3><ol class=matches>{''.join(matches)}</ol>"
                       "</section>")
    return ("<h2>Bracket</h2><div id=bracket class=bracket>" + "".join(columns) + "</div>"
            "<p class=small>Each table's winner goes through to the next round; the others are out.</p>")


def final_table(event: StoredTournament, settings: Settings, names: dict[int, str], mine: int | None,
                won: dict[int, int] | None) -> str:
    """The finished knockout's final table: place, entrant, how far each went, chips won."""
    gone = out_in(event)
    head = ("<tr><th scope=col>Place</th><th scope=col>Entrant</th><th scope=col>Result</th>"
            + ("<th scope=col>Chips won</th>" if won is not None else "") + "</tr>")
    rows = "".join(
        f"<tr{' class=you' if e == mine else ''}><td>{place}</td><td>{names[e]}</td>"
        f"<td>{f'Out in round {gone[e]}' if e in gone else 'Champion'}</td>"
        + (f"<td class=won>{won.get(e, '')}</td>" if won is not None else "") + "</tr>"
        for place, e in enumerate(final_order(event, settings), start=1))
    return (f"<h2>Final table</h2><table id=final-table class=standings><thead>{head}</thead>"
            f"<tbody>{rows}</tbody></table>")
