"""The puzzle page (issue 28, item 1), on the app: /puzzles sends a guest to the next puzzle;
the page shows the seat's view and its choices as buttons and names no card the seat could not
see; an answer that is no choice is refused saying why and changes nothing; an answer moves the
puzzle rating once and the page then shows the coach's reasons and figures for every choice."""

from __future__ import annotations

import html
import re
from pathlib import Path

from test_accounts import Browser

from okgin.actions import Discard
from okgin.advice.board import read_moves
from okgin.advice.review import action_words
from okgin.advice.words import short
from okgin.cards import DECK
from okgin.puzzles.puzzle import shipped_by_id
from okgin.server import create_app
from okgin.server.coach.line import CoachLine
from okgin.server.players.puzzle_store import PuzzleStore
from okgin.server.store.storage import Store
from okgin.server.wire.limits import Limits


def shown(text: str) -> str:
    return re.sub(r"\s+([,.])", r"\1", re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", text))))


def _cards_named(text: str) -> set[str]:
    """Every card the page's words name (as the coach writes them: 7♥, 10♠)."""
    names = {short(card): str(card) for card in DECK}
    return {names[word] for word in re.findall(r"(?:10|[2-9JQKA])[♣♦♥♠]", text)}


def test_a_guest_answers_a_puzzle_once_and_sees_the_coach(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    browser = Browser(create_app(url))
    sent = browser.go("GET", "/puzzles")
    assert sent.status_code == 303 and sent.headers["location"].startswith("/puzzles/")
    address = sent.headers["location"]
    puzzle = shipped_by_id()[address.rsplit("/", 1)[1]]
    page = browser.go("GET", address)
    assert page.status_code == 200
    text = shown(page.text)
    assert "Your puzzle rating: 1500, provisional: 0 of 5 games" in text
    buttons = re.findall(r'<button type=submit name=move value="([^"]+)"', page.text)
    assert sorted(buttons) == sorted(move for move, _ in puzzle.values)  # every legal move, a button
    seen = {*puzzle.position["hand"].split(), puzzle.position["upcard"],
            *(str(m.card) for m in read_moves(puzzle.position["moves"]) if isinstance(m, Discard))}
    assert _cards_named(text) <= seen

    refused = browser.post(address, move="0 jump")
    assert refused.status_code == 400 and "is not one of this puzzle's moves" in shown(refused.text)
    store = PuzzleStore(Store(url).engine)
    player = next(iter(store.engine.connect().exec_driver_sql("SELECT id FROM players")))[0]
    assert store.attempt(player, puzzle.id) is None  # nothing recorded

    answered = browser.post(address, move=puzzle.answer)
    assert answered.status_code == 303 and answered.headers["location"] == address + "#answer"
    after = shown(browser.go("GET", address).text)
    attempt = store.attempt(player, puzzle.id)
    assert attempt is not None and attempt.solved and attempt.after > attempt.before == 1500
    assert f"Right: {action_words(puzzle.answer_action)}" in after
    assert f"Your puzzle rating: {attempt.before} → {attempt.after}" in after
    for _, worth in puzzle.values:  # every choice with its worth as made
        assert f"{worth:+.1f}" in after
    assert _cards_named(after) <= seen  # the coach's reasons name only what the seat saw

    wrong = next(move for move, _ in puzzle.values if move != puzzle.answer)
    again = browser.post(address, move=wrong)  # a second answer changes nothing
    assert again.status_code == 303
    assert store.attempt(player, puzzle.id) == attempt
    assert store.rating_of(player).games == 1
    late = browser.post(address, move="0 jump")  # no choice, from an old tab: said why on the answer's page
    assert late.status_code == 400 and "is not one of this puzzle's moves" in shown(late.text)
    assert store.attempt(player, puzzle.id) == attempt
    following = browser.go("GET", "/puzzles")
    assert following.headers["location"] != address  # the next one is another


def test_an_unknown_puzzle_is_404_and_a_post_without_the_form_token_is_refused(tmp_path: Path) -> None:
    browser = Browser(create_app(f"sqlite:///{tmp_path / 'games.db'}"))
    assert browser.go("GET", "/puzzles/nothing-here").status_code == 404
    address = browser.go("GET", "/puzzles").headers["location"]
    refused = browser.go("POST", address, {"move": "0 draw", "csrf": "wrong"})
    assert refused.status_code == 403 and "out of date" in shown(refused.text)


def test_a_flood_of_puzzle_pages_is_held(tmp_path: Path) -> None:
    # A budget of 3 that hardly refills: the default's refill (one every 2 s) made the count of
    # refusals hang on how fast the pages were answered.
    app = create_app(f"sqlite:///{tmp_path / 'games.db'}", limits=Limits(analyses=0.001, analysis_burst=3))
    browser = Browser(app)
    address = browser.go("GET", "/puzzles").headers["location"]
    statuses = [browser.go("GET", address).status_code for _ in range(5)]
    assert statuses == [200] * 3 + [429] * 2
    assert "Too many puzzles at once" in shown(browser.go("GET", address).text)


def test_a_puzzle_asked_while_the_coachs_line_is_full_is_a_503_page_that_says_so(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'games.db'}")
    browser = Browser(app)
    address = browser.go("GET", "/puzzles").headers["location"]
    app.state.coach_line = CoachLine(waiting=-1)  # as if 12 questions already waited
    busy = browser.go("GET", address)
    assert busy.status_code == 503 and busy.headers["retry-after"] == "2"
    assert "The coach is busy with other players' questions: ask again in a moment." in shown(busy.text)


def test_every_card_of_the_hand_is_shown_the_one_taken_this_turn_not_a_button(tmp_path: Path) -> None:
    taken = next(p for p in shipped_by_id().values() if p.view().taken is not None)
    browser = Browser(create_app(f"sqlite:///{tmp_path / 'games.db'}"))
    browser.go("GET", "/puzzles")
    page = browser.go("GET", f"/puzzles/{taken.id}").text
    hand = re.search(r'<div class=hand role=group[^>]*>(.*?)</div>', page, re.S)
    assert hand is not None
    shown_cards = re.findall(r'data-card="(\w+)"|title="taken this turn[^"]*">([^<]+)<', hand.group(1))
    assert len(shown_cards) == len(taken.position["hand"].split())
    view = taken.view()
    assert view.taken is not None
    assert f'title="taken this turn: it cannot be thrown back">{short(view.taken)}<' in page
