"""The leaderboard page (`/leaderboard`): the best 100 of each rating family, and your own place."""

from __future__ import annotations

import html

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import Response

from okgin.server.pages.review import page
from okgin.server.players.rating_store import TOP, Placed, RatingStore, Standing
from okgin.server.players.ratings import FAMILIES, PROVISIONAL, Rating
from okgin.server.players.sessions import player_of

TITLES = {"two-player": "Two-player rules", "multi-player": "Multi-player rules (3 or 4 seats)"}


def rating_text(rating: Rating) -> str:
    """A rating as every page shows it (HTML): its ordinal, marked provisional until 10 games."""
    shown = f"{rating.ordinal:.1f}"
    if rating.provisional:
        shown += f" <span class=provisional>(provisional: {rating.games} of {PROVISIONAL} games)</span>"
    return shown


def ordinal_place(number: int) -> str:
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number:,}{suffix}"


async def leaderboard_page(request: Request) -> Response:
    rated: RatingStore = request.app.state.ratings
    player = player_of(request)
    body = (f"<p class=lead>The best {TOP} players of each family of rules by rating (openskill's "
            "Plackett–Luce, shown as mu − 3 sigma): every finished game is rated by its final standing, "
            f"and a rating is provisional until {PROVISIONAL} rated games.</p>")
    boards, standings = await anyio.to_thread.run_sync(rated.boards, player)
    for family in FAMILIES:
        body += (f"<h2 id={family}>{html.escape(TITLES[family])}</h2>" + _yours(standings.get(family))
                 + _table(boards[family]))
    return page(request, "Leaderboard", body)


def _yours(standing: Standing | None) -> str:
    if standing is None:
        return "<p class=yours>You have no rating here yet: finish a game with these rules.</p>"
    return (f"<p class=yours>Your place: <b>{ordinal_place(standing.place)}</b> of {standing.of:,}, "
            f"rating {rating_text(standing.rating)}.</p>")


def _table(board: list[Placed]) -> str:
    if not board:
        return "<p>Nobody is rated here yet.</p>"
    rows = "".join(
        f"<tr{' class=you' if row.you else ''}><td>{row.place}</td><td>{html.escape(row.name)}"
        f"{' (you)' if row.you else ''}</td><td>{rating_text(row.rating)}</td>"
        f"<td>{row.rating.games}</td></tr>"
        for row in board)
    return ("<table class=leaderboard><thead><tr><th scope=col>Place</th><th scope=col>Name</th>"
            f"<th scope=col>Rating</th><th scope=col>Games</th></tr></thead><tbody>{rows}</tbody></table>")
