"""A stored tournament's next round, standings and final order, by ``okgin.pairing`` (no I/O).

The stored rounds and results are the whole truth: whichever process reads them pairs the
same next round.
"""

from __future__ import annotations

from okgin.match import Match
from okgin.pairing import Round, Standing, TableResult, knockout_round, round_robin, standings, swiss_round
from okgin.prizes import penalty_points, split_by_standing
from okgin.server.store.tournament_store import StoredTournament
from okgin.server.tournaments.settings import Settings


def history(event: StoredTournament) -> list[Round]:
    """The rounds paired so far, in order."""
    return [Round(tuple(t.seats for t in event.tables_of(n)), event.byes.get(n, ()))
            for n in range(1, event.round + 1)]


def results(event: StoredTournament) -> list[TableResult]:
    """Every finished table's result, in play order."""
    return [TableResult(tuple(t.result["order"]), tuple(t.result["points"]))
            for t in event.tables if t.result is not None]


def table_standings(event: StoredTournament) -> list[Standing]:
    """The standings now (docs/tournaments.md: score, Buchholz, points difference, seed)."""
    byes = [e for n in sorted(event.byes) for e in event.byes[n]]
    return standings([e.seed for e in event.entrants], results(event), byes)


def out_in(event: StoredTournament) -> dict[int, int]:
    """Knockout: the round each entrant went out in (every player of a table but its winner)."""
    out: dict[int, int] = {}
    for t in event.tables:
        if t.result is not None:
            for seed in t.result["order"][1:]:
                out[seed] = t.round
    return out


def round_over(event: StoredTournament) -> bool:
    """Every table of the current round has its result (true before the first round too)."""
    return all(t.result is not None for t in event.tables_of(event.round))


def next_round(event: StoredTournament, settings: Settings) -> Round | None:
    """The round after the stored ones, or None when the tournament is decided."""
    entrants = [e.seed for e in event.entrants]
    played = history(event)
    if settings.format == "swiss":
        if len(played) >= settings.rounds:
            return None
        ranking = [s.entrant for s in table_standings(event)]
        return swiss_round(ranking, settings.table, played)
    if settings.format == "round-robin":
        schedule = round_robin(entrants, settings.table)
        return schedule[len(played)] if len(played) < len(schedule) else None
    gone = out_in(event)
    alive = [e for e in entrants if e not in gone]
    return knockout_round(alive, settings.table) if len(alive) > 1 else None


def final_order(event: StoredTournament, settings: Settings) -> list[int]:
    """Entrants from first to last: the standings; a knockout's champion first, then by the
    round they went out in (later first), then by the standings."""
    order = [s.entrant for s in table_standings(event)]
    if settings.format != "knockout":
        return order
    gone, last = out_in(event), event.round + 1
    return sorted(order, key=lambda e: -gone.get(e, last))


def penalties(event: StoredTournament) -> dict[int, int]:
    """Each entrant's penalty points over the tournament: the sum over their matches (a bye: 0)."""
    total = {e.seed: 0 for e in event.entrants}
    for t in event.tables:
        if t.result is not None:
            for seed, points in zip(t.result["order"], t.result["penalties"], strict=True):
                total[seed] += points
    return total


def matches_played(event: StoredTournament) -> dict[int, int]:
    """Each entrant's finished matches (a bye is none)."""
    count = {e.seed: 0 for e in event.entrants}
    for t in event.tables:
        if t.result is not None:
            for seed in t.result["order"]:
                count[seed] += 1
    return count


def pool_shares(event: StoredTournament, settings: Settings) -> dict[str, int] | None:
    """A finished tournament's pool of entry fees split among the people who paid (by player),
    by standing: the pool's winner is the first of them in the final order, and each one's
    penalty points per match played (never fewer than anyone placed above) stand in for a
    game's (``okgin.prizes.split_by_standing``; docs/rules.md, "A tournament's pool"), so a
    higher place is never paid less. None for a free tournament."""
    if not settings.fee:
        return None
    people = [e for e in event.entrants if e.player is not None]
    if len(people) < 2:
        return {e.player: settings.fee for e in people if e.player is not None}
    place = {seed: n for n, seed in enumerate(final_order(event, settings))}
    people.sort(key=lambda e: place[e.seed])
    lost, played = penalties(event), matches_played(event)
    chips = split_by_standing(settings.fee * len(people), [lost[e.seed] for e in people],
                              [played[e.seed] for e in people], settings.prizes)
    return {e.player: c for e, c in zip(people, chips, strict=True) if e.player is not None}


def chips_won(event: StoredTournament, payouts: dict[str, int]) -> dict[int, int] | None:
    """Each person's chips from a finished tournament's pool, by seed (0 for a person it paid
    nothing: a payout of nothing writes no ledger line); None before the tournament is over.
    ``payouts``: what the pool's payout gave each player. The page and /state show the same."""
    if event.status != "finished":
        return None
    return {e.seed: payouts.get(e.player, 0) for e in event.entrants if e.player is not None}


def match_result(match: Match, seats: tuple[int, ...]) -> dict[str, list[int]]:
    """A finished match's result for the store: the entrants (``seats``, in seat order) from
    first to last (the winner, then by final score, then by seed), their final scores and
    penalty points (004's pool split, for when tables have stakes) in the same order."""
    final = match.final
    if final is None:
        raise ValueError("the match is not over")
    penalties = [0] * len(seats)
    for hand in match.hands:
        if hand.result is not None:
            lost = penalty_points(hand.result, match.rules.undercut_penalty)
            penalties = [a + b for a, b in zip(penalties, lost, strict=True)]
    places = sorted(range(len(seats)), key=lambda s: (s != final.winner, -final.scores[s], seats[s]))
    return {"order": [seats[s] for s in places], "points": [final.scores[s] for s in places],
            "penalties": [penalties[s] for s in places]}
