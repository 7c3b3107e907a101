"""The leaderboard page (`/leaderboard`): the best 100 of each rating family, and your own place."""

from __future__ import annotations

import html

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import Response

from okgin.server.pages.review import page
from okgin.server.players.rating_store import TOP, Placed, RatingStore, Standing
from okgin.server.players.ratings import FAMILIES, PROVISIONAL, SHOWN_NEW, Rating
from okgin.server.players.sessions import session_of

TITLES = {"two-player": "Two-player rules", "multi-player": "Multi-player rules (3 or 4 seats)"}


def rating_text(rating: Rating) -> str:
    """A rating as every page shows it (HTML): on the familiar scale, marked provisional until
    its 5th rated game ("1512, provisional: 3 of 5 games")."""
    shown = f"{rating.shown}"
    if rating.provisional:
        shown += f"<span class=provisional>, provisional: {rating.games} of {PROVISIONAL} games</span>"
    return shown


def ordinal_place(number: int) -> str:
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number:,}{suffix}"


async def leaderboard_page(request: Request) -> Response:
    rated: RatingStore = request.app.state.ratings
    session = session_of(request)
    player = session.player if session is not None else None
    named = bool(session is not None and session.name)
    body = (f"<p class=lead>The best {TOP} players of each family of rules by rating: every finished "
            "game without the coach is rated by its final standing, and a new player starts at "
            f"{SHOWN_NEW}. A player is listed once they have played {PROVISIONAL} rated games "
            "with these rules and chosen a name on their profile.</p>")
    boards, standings = await anyio.to_thread.run_sync(rated.boards, player)
    for family in FAMILIES:
        body += (f"<h2 id={family}>{html.escape(TITLES[family])}</h2>" + _yours(standings.get(family), named)
                 + _table(boards[family]))
    return page(request, "Leaderboard", body)


def _yours(standing: Standing | None, named: bool) -> str:
    if standing is None:
        return "<p class=yours>You have no rating here yet: finish a game with these rules.</p>"
    return (f"<p class=yours>Your place: <b>{ordinal_place(standing.place)}</b> of {standing.of:,} rated, "
            f"rating {rating_text(standing.rating)}.{_unlisted(standing.rating, named)}</p>")


def _unlisted(rating: Rating, named: bool) -> str:
    """Why you are not on the list below, if you are not."""
    if rating.provisional:
        left = PROVISIONAL - rating.games
        return f" You are listed after {left} more rated game{'s' if left != 1 else ''}."
    if not named:
        return ' You are listed once you choose a name on <a href="/profile">your profile</a>.'
    return ""


def _table(board: list[Placed]) -> str:
    if not board:
        return (f"<p>Nobody is listed here yet: a player is listed after {PROVISIONAL} rated games, "
                "with a name.</p>")
    rows = "".join(
        f"<tr{' class=you' if row.you else ''}><td>{row.place}</td><td>{html.escape(row.name)}"
        f"{' (you)' if row.you else ''}</td><td>{rating_text(row.rating)}</td>"
        f"<td>{row.rating.games}</td></tr>"
        for row in board)
    return ("<table class=leaderboard><thead><tr><th scope=col>Place</th><th scope=col>Name</th>"
            f"<th scope=col>Rating</th><th scope=col>Games</th></tr></thead><tbody>{rows}</tbody></table>")
