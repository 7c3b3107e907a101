"""The statistics page: your rating history, your results by rules (rooms and solo), your hands."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Sequence

import anyio.to_thread
from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import Response

from okgin.scoring import Outcome
from okgin.server.coach import statistics
from okgin.server.coach.statistics import HandRow
from okgin.server.pages.charts import bar_chart, line_chart
from okgin.server.pages.leaderboard import TITLES
from okgin.server.pages.template import fragment, render
from okgin.server.players.rating_store import Point, RatingStore, Results
from okgin.server.players.ratings import FAMILIES, PROVISIONAL, Rating, shown_rating
from okgin.server.players.sessions import player_of
from okgin.server.store.storage import Store, storage_errors

OUTCOMES = [str(o) for o in (Outcome.GIN, Outcome.KNOCK, Outcome.UNDERCUT, Outcome.BIG_GIN, Outcome.VOID)]


async def stats_page(request: Request) -> Response:
    store: Store = request.app.state.store
    rated: RatingStore = request.app.state.ratings
    player = player_of(request)
    rows, history, results, current = (
        await anyio.to_thread.run_sync(_figures, store, rated, player) if player is not None
        else ([], [], [], {}))
    return render(request, "stats.html", ratings=rating_charts(history, current), results=results,
                  hands=stats_body(rows) if rows else None, titles=TITLES, provisional=PROVISIONAL,
                  played=bool(rows or history))


def rating_charts(history: Sequence[Point], current: dict[str, Rating]) -> list[tuple[str, Rating, Markup]]:
    """Your rating in each family you played (its title, the rating), and its history as a chart."""
    charts = []
    for number, family in enumerate(FAMILIES, start=1):
        points = [p for p in history if p.family == family]
        if family not in current or not points:
            continue
        charts.append((family, current[family], line_chart(
            f"rating-{number}", f"Your rating after each rated game: {TITLES[family].lower()}",
            [(f"#{i}", shown_rating(p.rating)) for i, p in enumerate(points, start=1)], "rating",
            label="Rated game")))
    return charts


def _figures(store: Store, rated: RatingStore, player: str) -> tuple[
        list[HandRow], list[Point], list[Results], dict[str, Rating]]:
    """Everything the page shows of ``player``, read in one trip to a worker thread."""
    return _rows(store, player), rated.history(player), rated.results(player), rated.ratings_of(player)


def _rows(store: Store, player: str) -> list[HandRow]:
    """The statistics rows of the games ``player`` played against the computer (seat 0)."""
    with storage_errors("could not read the statistics"):
        return statistics.read(store.engine, player)


def _games(rows: Sequence[HandRow]) -> dict[str, list[HandRow]]:
    games: dict[str, list[HandRow]] = defaultdict(list)
    for row in rows:
        games[row.game].append(row)
    return games


def stats_body(rows: Sequence[HandRow]) -> Markup:
    """Your hands against the computer: totals, then one chart (with its table) per question."""
    games = _games(rows)
    won_games = sum(hands[0].won_game for hands in games.values())
    won_hands = sum(row.won_hand for row in rows)
    numbered = [(f"Game {i}", hands) for i, hands in enumerate(games.values(), start=1)]

    def per_game(pick: Callable[[HandRow], int | None]) -> list[tuple[str, float]]:
        return [(label, _mean([pick(row) for row in hands])) for label, hands in numbered]

    charts = [
        bar_chart("won", "Games and hands won", [
            ("Games won", won_games), ("Games lost", len(games) - won_games),
            ("Hands won", won_hands), ("Hands not won", len(rows) - won_hands),
        ], "count", label="Result"),
        line_chart("points", "Points per hand, game by game", per_game(lambda r: r.points),
                   "points per hand"),
        *_outcome_charts(rows),
        line_chart("deadwood", "Your deadwood when the opponent knocked, game by game",
                   per_game(lambda r: r.knocked_against), "average deadwood"),
        line_chart("mistakes", "Mistakes per hand (from the review), game by game",
                   per_game(lambda r: r.mistakes), "mistakes per hand"),
    ]
    return fragment("stats_hands.html", games=len(games), charts=charts)


def _outcome_charts(rows: Sequence[HandRow]) -> list[Markup]:
    """One chart of how hands ended for each set of rules played."""
    by_rules: dict[str, Counter[str]] = defaultdict(Counter)
    for row in rows:
        by_rules[row.preset][row.outcome] += 1
    return [
        bar_chart(f"outcomes-{i}", f"How hands ended: {preset} rules",
                  [(outcome, counts[outcome]) for outcome in OUTCOMES], "hands", label="Outcome")
        for i, (preset, counts) in enumerate(sorted(by_rules.items()), start=1)
    ]


def _mean(values: Sequence[int | None]) -> float:
    known = [v for v in values if v is not None]
    return round(sum(known) / len(known), 1) if known else 0.0
