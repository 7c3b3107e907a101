"""Public games over HTTP: a game opens to everyone once every person who sat in it said yes
(a solo game by its one player), closes again when one takes it back, never shows a hidden card
before it ended, and stays 404 to strangers otherwise."""

from __future__ import annotations

import copy
import html
import sqlite3
from pathlib import Path

import pytest
from starlette.applications import Starlette
from stored_games import store_record
from test_accounts import Browser, _player
from test_coach_server import finished_record

from okgin.server import create_app
from okgin.server.coach.line import CoachLine
from okgin.server.players.identity import Players
from okgin.server.store.storage import Store
from okgin.server.wire.limits import Limits


def _browser(app: Starlette, address: str) -> Browser:
    someone = Browser(app, address=address)
    someone.go("GET", "/")
    return someone


def _stored(db: Path, game: str, seats: dict[int, str], people: int = 1, finished: bool = True) -> str:
    """Game ``game`` in the store: ``people`` person seats (the rest the computer), each seat of
    ``seats`` taken by the player of that cookie; cut in its last hand unless ``finished``."""
    record = finished_record(1)
    if not finished:
        record = copy.deepcopy(record)
        record["hands"][-1]["actions"] = record["hands"][-1]["actions"][:4]
    store = Store(f"sqlite:///{db}")
    store_record(store, game, record, ["simple"])
    store.close()
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE games SET levels = ? WHERE id = ?",
                           ("[" + ", ".join(["null"] * people + ['"simple"'] * (2 - people)) + "]", game))
    players = {seat: _player(db, cookie) for seat, cookie in seats.items()}
    store = Store(f"sqlite:///{db}")
    Players(store.engine).sat_in_game(game, players)
    store.close()
    return game


def _pages(game: str) -> list[str]:
    return [f"/games/{game}/record", f"/games/{game}/review?hand=1", f"/games/{game}/replay",
            f"/api/games/{game}/replay"]


def _statuses(someone: Browser, game: str) -> list[int]:
    return [someone.go("GET", path).status_code for path in _pages(game)]


def _say(someone: Browser, game: str, public: str) -> int:
    return someone.post(f"/games/{game}/public", public=public).status_code


def test_a_solo_game_made_public_by_its_player_opens_to_everyone_until_taken_back(
    app: Starlette, db: Path,
) -> None:
    ann, stranger = _browser(app, "10.0.0.1"), _browser(app, "10.0.0.2")
    game = _stored(db, "solo", {0: ann.cookie})
    assert _statuses(stranger, game) == [404] * 4
    assert "Make public" in ann.go("GET", "/history").text
    assert _say(ann, game, "yes") == 303
    assert "public: anyone with its link may see it" in ann.go("GET", "/history").text
    assert _statuses(stranger, game) == [200] * 4
    assert stranger.go("GET", f"/games/{game}/record").json()["players"] == ["You", "Ruby"]
    from_zero = stranger.go("GET", f"/games/{game}/review?hand=1").text
    from_one = stranger.go("GET", f"/games/{game}/review?hand=1&seat=1").text
    assert 'seat=0" aria-current=page>You' in from_zero and 'seat=1" aria-current=page>Ruby' in from_one
    assert game not in stranger.go("GET", "/history").text  # public is not theirs
    assert _say(ann, game, "no") == 303
    assert _statuses(stranger, game) == [404] * 4


def test_a_game_between_two_people_is_public_only_once_both_said_yes(app: Starlette, db: Path) -> None:
    ann, bob, stranger = (_browser(app, f"10.0.0.{n}") for n in (1, 2, 3))
    game = _stored(db, "pair", {0: ann.cookie, 1: bob.cookie}, people=2)
    assert _say(ann, game, "yes") == 303
    assert "private until 1 more player says yes" in ann.go("GET", "/history").text
    assert _statuses(stranger, game) == [404] * 4
    assert _say(bob, game, "yes") == 303
    assert _statuses(stranger, game) == [200] * 4
    assert _say(bob, game, "no") == 303  # one taking it back closes it for everyone
    assert _statuses(stranger, game) == [404] * 4
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT seat FROM public_games").fetchall() == [(0,)]


def test_only_a_player_may_say_and_only_from_our_page(app: Starlette, db: Path) -> None:
    ann, stranger = _browser(app, "10.0.0.1"), _browser(app, "10.0.0.2")
    game = _stored(db, "solo", {0: ann.cookie})
    assert _say(stranger, game, "yes") == 404
    assert _say(stranger, "no-such-game", "yes") == 404
    assert ann.go("POST", f"/games/{game}/public", {"csrf": "x" * 43, "public": "yes"}).status_code == 403
    assert ann.go("POST", f"/games/{game}/public", {"csrf": ann.csrf(), "public": "yes"},
                  origin="https://evil.example").status_code == 403
    assert _say(ann, game, "maybe") == 400
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT count(*) FROM public_games").fetchone() == (0,)
    assert _statuses(stranger, game) == [404] * 4


def test_a_public_game_shows_no_hidden_card_before_it_ended(app: Starlette, db: Path) -> None:
    ann, stranger = _browser(app, "10.0.0.1"), _browser(app, "10.0.0.2")
    game = _stored(db, "live", {0: ann.cookie}, finished=False)
    assert _say(ann, game, "yes") == 303
    assert [stranger.go("GET", path).status_code for path in _pages(game)] == [403, 404, 404, 404]
    assert ann.go("GET", f"/games/{game}/record").status_code == 403  # nor to its player


@pytest.mark.parametrize(("seat", "why"), [("x", "must be a seat number, not x"), ("7", "No seat 7"),
                                          ("\u00b2", "must be a seat number, not \u00b2")])
def test_a_review_from_a_seat_that_is_not_there_is_a_clear_400(
    app: Starlette, db: Path, seat: str, why: str,
) -> None:
    ann, stranger = _browser(app, "10.0.0.1"), _browser(app, "10.0.0.2")
    game = _stored(db, "solo", {0: ann.cookie})
    _say(ann, game, "yes")
    answer = stranger.go("GET", f"/games/{game}/review?hand=1&seat={seat}")
    assert answer.status_code == 400 and why in answer.text


@pytest.mark.parametrize(("hand", "why"), [
    ("x", "The hand (?hand=) must be a hand number, not x"),
    ("\u00b2", "The hand (?hand=) must be a hand number, not \u00b2"),
    ("9" * 5000, "The hand (?hand=) must be a hand number, not 99999"),  # not int()'s 4300-digit limit
    ("0", "No hand 0: the game had"),
    ("99", "No hand 99: the game had"),
])
def test_a_review_of_a_hand_that_is_not_there_is_a_clear_400(
    app: Starlette, db: Path, hand: str, why: str,
) -> None:
    ann = _browser(app, "10.0.0.1")
    game = _stored(db, "solo", {0: ann.cookie})
    answer = ann.go("GET", f"/games/{game}/review?hand={hand}")
    assert (answer.status_code, why in html.unescape(answer.text)) == (400, True), answer.text[-600:]


def test_a_private_games_player_sees_their_own_seat_whatever_they_ask(app: Starlette, db: Path) -> None:
    ann = _browser(app, "10.0.0.1")
    game = _stored(db, "solo", {0: ann.cookie})
    mine = ann.go("GET", f"/games/{game}/review?hand=1").text
    assert ann.go("GET", f"/games/{game}/review?hand=1&seat=1").text == mine
    assert "A public game" not in mine


def test_a_flood_of_reviews_is_held_while_another_player_is_answered(db: Path) -> None:
    """A hand's review is the coach's work on every decision of it (a quarter of a second of CPU
    at the median): a stranger asking for a public game's reviews as fast as it can is refused
    (429, saying so) past the coach's budget (here 3 at once, and hardly refilled), which is its
    own, not the game's player's."""
    app = create_app(f"sqlite:///{db}", limits=Limits(analyses=0.001, analysis_burst=3))
    ann, stranger = _browser(app, "10.0.0.1"), _browser(app, "10.0.0.2")
    game = _stored(db, "solo", {0: ann.cookie})
    assert _say(ann, game, "yes") == 303
    statuses = [stranger.go("GET", f"/games/{game}/review?hand=1&seat={n % 2}").status_code
                for n in range(6)]
    assert statuses == [200] * 3 + [429] * 3, statuses
    refused = stranger.go("GET", f"/games/{game}/review?hand=1")
    assert refused.status_code == 429 and "Too many hands reviewed: wait a few seconds." in refused.text
    assert ann.go("GET", f"/games/{game}/review?hand=1").status_code == 200


def test_a_review_asked_while_the_coachs_line_is_full_is_a_503_that_says_so(app: Starlette, db: Path) -> None:
    ann = _browser(app, "10.0.0.1")
    game = _stored(db, "solo", {0: ann.cookie})
    app.state.coach_line = CoachLine(waiting=-1)  # as if 12 questions already waited
    busy = ann.go("GET", f"/games/{game}/review?hand=1")
    assert busy.status_code == 503
    assert "The coach is busy with other players&#39; questions: ask again in a moment." in busy.text
    replay = ann.go("GET", f"/api/games/{game}/replay")  # the app's answer to the rest
    assert replay.status_code == 503 and replay.headers["retry-after"] == "2"
    app.state.coach_line = CoachLine()
    assert ann.go("GET", f"/games/{game}/review?hand=1").status_code == 200
