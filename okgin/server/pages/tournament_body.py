"""A tournament's page as HTML: its settings, entrants, standings (a knockout's bracket) and
rounds, and at the end its winner and final table (names always escaped).

The live part (``live_section``) is what the page's script fetches again while the tournament
runs (``/t/<code>/live``), so it is made here once for both. Times are sent in UTC inside
``<time datetime>``; the page's script shows them in the viewer's own time zone.
"""

from __future__ import annotations

import datetime
import html
from fractions import Fraction

from okgin.server.pages.tournament_bracket import bracket, final_table, table_link
from okgin.server.store.tournament_store import StoredTournament
from okgin.server.tournaments.plan import chips_won, final_order, table_standings
from okgin.server.tournaments.settings import Settings
from okgin.server.tournaments.words import format_name, preset_name

STATUS = {"open": "open for entries", "running": "playing", "finished": "finished",
          "cancelled": "cancelled (every entry fee was given back)"}
Pool = tuple[int, dict[str, int]] | None
"""A tournament's pool of entry fees (None: free): its chips, and what each player was paid."""


def summary(settings: Settings) -> str:
    """One line: the format, the tables, the rules and the target, the rounds."""
    rounds = f", {settings.rounds} rounds" if settings.format == "swiss" else ""
    house = " with house rules" if set(settings.rules.changes()) - {"target"} else ""
    return (f"{format_name(settings.format)} for {settings.places} at tables of {settings.table}{rounds}: "
            f"{html.escape(preset_name(settings.rules.preset))}{house}, matches to {settings.rules.target}; "
            "empty places "
            f"go to computer players ({html.escape(', '.join(settings.levels))})"
            f"{f'; a turn timer of {settings.timer} s' if settings.timer else ''}"
            f"{'; it starts when full' if settings.auto else ''}{_starts(settings)}. " + _fee(settings))


def _starts(settings: Settings) -> str:
    if settings.starts is None:
        return ""
    return f"; it starts at {moment(settings.starts)} (computer players fill the empty places)"


def moment(when: float) -> str:
    """A time as the page shows it: UTC in the ``<time>`` element's ``datetime``, and its text
    in UTC until the page's script writes it in the viewer's time zone."""
    at = datetime.datetime.fromtimestamp(when, datetime.UTC)
    return (f'<time class=local datetime="{at:%Y-%m-%dT%H:%M:%SZ}">{at:%Y-%m-%d %H:%M} UTC</time>')


def _fee(settings: Settings) -> str:
    if not settings.fee:
        return "Entry is free."
    prizes = settings.prizes
    return (f"Entry: {settings.fee} chips from each person (computer players pay nothing and win "
            f"nothing); the pool is split the Oklahoma way ({prizes.split}, the winner at least "
            f"{prizes.winner_percent}%, nothing to anyone {prizes.cutoff} penalty points or more behind).")


def live_section(
    event: StoredTournament, settings: Settings, player: str | None, made: set[str], pool: Pool = None,
) -> str:
    """The part of the page that changes: status, the pool, your table, standings, rounds.
    ``made``: the current round's rooms that exist (earlier rounds' all do)."""
    names = {e.seed: _name(e.name, e.level) for e in event.entrants}
    mine = next((e.seed for e in event.entrants if player is not None and e.player == player), None)
    parts = [f'<p class=lead id=t-status data-status="{event.status}" data-round="{event.round}">'
             + _status(event, settings) + "</p>"]
    if pool is not None:
        word = "was paid out" if pool[1] else "was" if event.status == "cancelled" else "is"
        parts.append(f'<p id=t-pool data-chips="{pool[0]}">The pool {word} {pool[0]} chips '
                     f"({settings.fee} from each person who joined).</p>")
    if mine is not None and event.status == "running":
        parts.append(_your_table(event, mine, made))
    if event.status in ("open", "cancelled"):
        parts.append(_entrants(event, settings, names))
        return "".join(parts)
    won = None if pool is None else chips_won(event, pool[1])
    if settings.format == "knockout":
        if event.status == "finished":
            parts.append(final_table(event, settings, names, mine, won))
        parts.append(bracket(event, names, mine, made))
    else:
        parts.append(_standings(event, settings, names, mine, won))
        parts.append(_rounds(event, names, mine, made))
    return "".join(parts)


def _status(event: StoredTournament, settings: Settings) -> str:
    """The status line; at the end, the winner's headline ("Ann wins Ann's Swiss.")."""
    if event.status == "finished":
        first = final_order(event, settings)[0]
        winner = next(e.name for e in event.entrants if e.seed == first)
        title = event.name or format_name(settings.format)
        return f'<strong id=t-winner class=headline>{html.escape(winner)} wins {html.escape(title)}</strong>'
    return (f"The tournament is {STATUS[event.status]}"
            + (f", round {event.round}" if event.status == "running" else "") + ".")


def _name(name: str, level: str | None) -> str:
    return html.escape(name) + (f" <small>({html.escape(level)})</small>" if level else "")


def _your_table(event: StoredTournament, mine: int, made: set[str]) -> str:
    for table in event.tables_of(event.round):
        if mine in table.seats:
            if table.room not in made:
                return f"<p id=your-table>Your table of round {event.round} is being laid…</p>"
            if table.result is not None:
                return ("<p id=your-table>Your match of this round is over: the next round starts "
                        "when every table has finished.</p>")
            return (f'<p id=your-table><a class=button href="/r/{html.escape(table.room)}">Play at your '
                    f"table (round {event.round})</a></p>")
    if mine in event.byes.get(event.round, ()):
        return "<p id=your-table>You have a bye this round (it counts as a win).</p>"
    return "<p id=your-table>You are out of the tournament: you can watch its tables.</p>"


def _entrants(event: StoredTournament, settings: Settings, names: dict[int, str]) -> str:
    rows = "".join(f"<li>{names[e.seed]}</li>" for e in event.entrants)
    free = settings.places - len(event.entrants)
    return (f"<h2>Entrants ({len(event.entrants)} of {settings.places})</h2>"
            + (f"<ol id=entrants>{rows}</ol>" if rows else "<p>Nobody has joined yet.</p>")
            + (f"<p>{free} place{'s' if free != 1 else ''} left.</p>" if event.status == "open" else ""))


def _figure(value: Fraction) -> str:
    return str(int(value)) if value.denominator == 1 else f"{float(value):.2f}".rstrip("0")


def _standings(
    event: StoredTournament, settings: Settings, names: dict[int, str], mine: int | None,
    won: dict[int, int] | None = None,
) -> str:
    """``won``: each person's chips from the pool, once paid (a computer player's cell is empty)."""
    rows = {s.entrant: s for s in table_standings(event)}
    order = final_order(event, settings) if event.status == "finished" else list(rows)
    heads = [("Place", "#"), ("Entrant", ""), ("Score", ""), ("Buchholz", "Buch."),
             ("Points difference", "Diff."), ("Played", "Pl."),
             *([("Chips won", "Chips")] if won is not None else [])]
    head = "<tr>" + "".join(f"<th scope=col>{_head(words, short)}</th>" for words, short in heads) + "</tr>"
    body = "".join(
        f"<tr{' class=you' if e == mine else ''}><td>{place}</td><td>{names[e]}</td>"
        f"<td>{_figure(rows[e].score)}</td><td>{_figure(rows[e].buchholz)}</td>"
        f"<td>{_figure(rows[e].difference)}</td><td>{rows[e].played}</td>"
        + (f"<td class=won>{won.get(e, '')}</td>" if won is not None else "") + "</tr>"
        for place, e in enumerate(order, start=1))
    title = "Final standings" if event.status == "finished" else "Standings"
    return (f"<h2>{title}</h2><table id=standings class=standings><thead>{head}</thead>"
            f"<tbody>{body}</tbody></table>"
            "<p class=small>Ordered by score (1 a win, 0 last), then Buchholz (the opponents' scores), "
            "then points difference, then seed.</p>")


def _head(words: str, short: str) -> str:
    """A column's heading; ``short``: the few letters a phone shows instead (read out in full)."""
    if not short:
        return words
    return f"<span class=wide>{words}</span><span class=narrow aria-hidden=true>{short}</span>"


def _rounds(event: StoredTournament, names: dict[int, str], mine: int | None, made: set[str]) -> str:
    parts = []
    for number in range(event.round, 0, -1):
        items = []
        for table in event.tables_of(number):
            who = " · ".join(names[s] for s in table.seats)
            state, link = table_link(event, table, mine, made)
            if table.result is not None:
                scores = ", ".join(f"{names[s]} {p}" for s, p in
                                   zip(table.result["order"], table.result["points"], strict=True))
                state = f"finished: {scores}"
            items.append(f"<li>Table {table.number + 1}: {who}, {state} ({link})</li>")
        byes = event.byes.get(number, ())
        if byes:
            items.append(f"<li>Bye: {', '.join(names[s] for s in byes)}</li>")
        parts.append(f"<h2>Round {number}</h2><ul class=tables>{''.join(items)}</ul>")
    return "".join(parts)
