"""The analysis board's page (issue 28, item 3), on the app: a position typed in is answered with
the coach's own analysis of that seat's view (the same moves and worths as the coach gives the
seat in a real game), its address shares it, a bad position is refused with what is wrong (400)
and a flood of positions from one player is held (429) while another player is answered."""

from __future__ import annotations

import html
import re
from pathlib import Path
from urllib.parse import urlencode

from test_accounts import Browser
from test_board import fields_of
from test_odds import played

from okgin.advice import analyse
from okgin.advice.review import action_words
from okgin.server import create_app
from okgin.server.coach.line import CoachLine
from okgin.server.wire.limits import Limits
from okgin.view import seat_view


def shown(text: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", text)))


def test_a_typed_position_gets_the_coachs_analysis_and_a_link_that_shares_it(tmp_path: Path) -> None:
    browser = Browser(create_app(f"sqlite:///{tmp_path / 'games.db'}"))
    empty = browser.go("GET", "/analysis")
    assert empty.status_code == 200 and 'name="moves"' in empty.text and "id=board-analysis" not in empty.text
    hand = played("oklahoma", 4, 9)
    seat = hand.to_act or 0
    address = "/analysis?" + urlencode(fields_of(hand, seat))
    answer = browser.go("GET", address)
    assert answer.status_code == 200, answer.text[-400:]
    coach = analyse(seat_view(hand, seat), ["You" if s == seat else f"Seat {s}" for s in range(2)])
    assert coach.suggestion is not None
    page = shown(answer.text)
    assert coach.suggestion.text in page
    for move, worth in coach.suggestion.values:  # every move weighed, with the coach's worth
        assert f"{action_words(move)} {worth:+.1f}" in page
    assert browser.go("GET", address).text == answer.text  # the address is the position


def test_bad_positions_are_refused_saying_what_is_wrong_and_a_flood_is_held(tmp_path: Path) -> None:
    # A budget of 6 that hardly refills: the default's refill (one every 2 s) made the count of
    # refusals hang on how fast the positions were analysed.
    app = create_app(f"sqlite:///{tmp_path / 'games.db'}", limits=Limits(analyses=0.001, analysis_burst=6))
    ann, bob = Browser(app), Browser(app)
    for browser in (ann, bob):
        browser.go("GET", "/")  # a session each
    hand = played("oklahoma", 4, 9)
    typed = fields_of(hand, hand.to_act or 0)
    for change, said in (({"hand": typed["hand"] + " 2C 2D"}, "cards where"),
                         ({"upcard": "XX"}, "'XX' is not a card"),
                         ({"moves": "0 jump"}, "unknown verb 'jump'")):
        answer = ann.go("GET", "/analysis?" + urlencode({**typed, **change}))
        assert answer.status_code == 400 and said in shown(answer.text), shown(answer.text)[-300:]
    address = "/analysis?" + urlencode(typed)
    statuses = [ann.go("GET", address).status_code for _ in range(5)]  # 3 of the 6 spent above
    assert statuses == [200] * 3 + [429] * 2
    assert "too many positions analysed" in ann.go("GET", address).text
    assert bob.go("GET", address).status_code == 200  # another player at the same address


def test_a_position_asked_while_the_coachs_line_is_full_is_a_503_that_keeps_the_form(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'games.db'}")
    ann = Browser(app)
    hand = played("oklahoma", 4, 9)
    app.state.coach_line = CoachLine(waiting=-1)  # as if 12 questions already waited
    busy = ann.go("GET", "/analysis?" + urlencode(fields_of(hand, hand.to_act or 0)))
    assert busy.status_code == 503 and 'name="moves"' in busy.text
    assert "The coach is busy with other players' questions: ask again in a moment." in shown(busy.text)
