"""Rooms in real browsers: friends join through an invite link and play a game to its end,
a spectator watches it, a player reloads mid-game and rejoins, an away seat is played by a
computer and given back, and a rematch keeps the room and its seats. A room is a place you
stay: each end-of-hand screen stays until its player closes it, New game offers only Leave
table, lobby errors stand beside their control, the host sees when a computer may take over, and
a staked table's game-over screen shows each seat's chips."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_play import mouse_turn
from conftest import FAST, new_context
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect
from server_process import ServerProcess
from table_helpers import axe

RULES = {"preset": "oklahoma-multiplayer", "target": 10}
WAIT = 20_000
AWAY = 4
"""Seconds a player must be away before the host may let the computer play: the reload test
waits them out, so they are few (but the button is seen disabled first)."""
LONG_AWAY = 30
"""The same for the countdown test, which moves the page's clock instead of waiting."""
OPENED: list[BrowserContext] = []


@pytest.fixture
def rooms_server(tmp_path: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path / "rooms.db", extra=("--away-seconds", str(AWAY))).start()
    yield process
    process.stop()


@pytest.fixture
def patient_server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server whose host must wait LONG_AWAY seconds: a countdown that a loaded machine cannot
    run out before the page shows it (the test moves the page's clock instead of waiting)."""
    process = ServerProcess(tmp_path / "rooms.db", extra=("--away-seconds", str(LONG_AWAY))).start()
    yield process
    process.stop()


def open_page(browser: Browser, url: str, errors: list[str], clock: bool = False,
              rules: dict[str, Any] | None = None, name: str | None = None) -> Page:
    """A page at ``url`` with instant computer players and ``rules`` (RULES unless told), closed
    after the test (OPENED); ``clock``: with Playwright's clock, which a test may move ahead;
    ``name``: the name this browser last played under."""
    context = new_context(browser, viewport={"width": 1280, "height": 900})
    OPENED.append(context)
    known = f"localStorage.setItem('okgin.name', {json.dumps(name)});" if name else ""
    context.add_init_script(
        f"localStorage.setItem('okgin.options', '{json.dumps(FAST)}');"
        f"localStorage.setItem('okgin.rules', '{json.dumps(rules or RULES)}');{known}"
    )
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    if clock:
        page.clock.install()
    page.goto(url)
    return page


def open_play_with_friends(page: Page) -> None:
    """Click Play with friends on the game page, which starts a solo game against Ruby. At
    "instant" speed, when she acts first she may end it at once (the upcard taken and a knock,
    to a target of 10) and its result dialog takes the pointer: wait until the game waits for
    this player or is over, and close the result as a person would, so the click races nothing."""
    page.wait_for_function("['you', 'over', 'hand-over'].includes(document.body.dataset.turn)",
                           timeout=WAIT)
    if page.locator("#result").evaluate("dialog => dialog.open"):
        page.locator("#result-buttons button:text-is('Close')").click()
    page.click("#play-friends")


def host_room(
    browser: Browser, server: ServerProcess, seats: int, errors: list[str], clock: bool = False,
    name: str = "Ann",
) -> tuple[Page, str]:
    host = open_page(browser, server.url, errors, clock)
    open_play_with_friends(host)
    host.fill("#friends-name", name)
    host.select_option("#friends-seats", str(seats))
    host.click("#friends-create")
    host.wait_for_url("**/r/*", timeout=WAIT)
    link = host.locator("#room-link").input_value(timeout=WAIT)
    assert link == host.url
    return host, link


def sit(browser: Browser, link: str, seat: int, name: str, errors: list[str]) -> Page:
    guest = open_page(browser, link, errors)
    row = guest.locator(f'#seats .seat[data-seat="{seat}"]')
    row.get_by_label("Your name").fill(name)
    row.get_by_role("button", name="Take this seat").click()
    expect(row).to_contain_text(f"{name} · you", timeout=WAIT)
    return guest


def play_together(pages: list[Page], limit: int = 4000, until: str = "over", also: str = "over") -> None:
    """Each page plays its own turns by mouse, and the first presses Next hand, until the game
    is over (``until="hand-over"``: until every page shows the hand's end, pressing nothing;
    ``also``: or that). One page deals: another's Next hand turns into "Back to the table" when
    the next hand arrives, perhaps under the click; a pressed Next hand closes its dialog."""
    for _ in range(limit):
        turns = [str(page.evaluate("document.body.dataset.turn || ''")) for page in pages]
        if all(turn == until for turn in turns) or all(turn == also for turn in turns):
            return
        for page, turn in zip(pages, turns, strict=True):
            if turn == "you":
                mouse_turn(page)
            elif turn == "hand-over" and until != "hand-over" and page is pages[0]:
                button = page.locator("#result-buttons button:text-is('Next hand'):visible")
                if button.count():
                    button.click()
        time.sleep(0.02)
    raise AssertionError(f"the game did not reach {until}")


def move_on_while_others_read(players: list[Page]) -> None:
    """Play to the end of a hand; the last player moves the table on (Next hand). The others'
    screens stay (to read) until closed, or fold into "Last hand" when the new hand needs their
    move (one of the three acts first). A game over in its first hand: all say yes to a rematch,
    and its first hand is played instead."""
    play_together(players, until="hand-over", also="over")
    *readers, mover = players
    if mover.evaluate("document.body.dataset.turn") == "over":
        game = mover.evaluate("Okgin.state().game")
        mover.click("#result-buttons button:text-is('Offer a rematch')")
        for reader in readers:
            reader.click("#result-buttons button:text-is('Accept')", timeout=WAIT)
        mover.wait_for_function("game => Okgin.state().game !== game", arg=game, timeout=WAIT)
        move_on_while_others_read(players)
        return
    titles = [reader.locator("#result-title").inner_text() for reader in readers]
    first = mover.locator("#result-buttons button:text-is('Next hand')")
    number = mover.evaluate("Okgin.state().hand_number")
    game = mover.evaluate("Okgin.state().game")
    first.click()
    stayed = 0
    for reader, title in zip(readers, titles, strict=True):
        moved_on = "([game, n]) => Okgin.state().game !== game || Okgin.state().hand_number > n"
        reader.wait_for_function(moved_on, arg=[game, number], timeout=WAIT)
        if reader.evaluate("Okgin.state().view.to_act === Okgin.state().view.seat"):
            expect(reader.locator("#result")).not_to_be_visible()
            reader.click("#actions button:text-is('Last hand')")
        else:
            stayed += 1
            expect(reader.locator("#result-buttons button.primary")).to_have_text("Back to the table")
        expect(reader.locator("#result")).to_be_visible()
        expect(reader.locator("#result-title")).to_have_text(title)
        reader.click("#result-buttons button:text-is('Back to the table')")
        expect(reader.locator("#result")).not_to_be_visible()
    assert stayed >= 1


def described(page: Page, control: str) -> Locator:
    """What a control's aria-describedby points at (waiting until it points somewhere)."""
    expect(page.locator(control)).to_have_attribute("aria-describedby", re.compile(r"\S"), timeout=WAIT)
    ids = str(page.locator(control).get_attribute("aria-describedby")).split()
    return page.locator(", ".join(f"#{ident}" for ident in ids))


def result_buttons(page: Page) -> list[str]:
    return [text.strip() for text in page.locator("#result-buttons button").all_inner_texts()]


def until_turn(player: Page, other: Page) -> None:
    """The other page plays its turns until it is ``player``'s move."""
    for _ in range(200):
        if player.evaluate("document.body.dataset.turn") == "you":
            return
        if other.evaluate("document.body.dataset.turn") == "you":
            mouse_turn(other)
        time.sleep(0.05)
    raise AssertionError("it never became the player's turn")


@pytest.fixture(autouse=True)
def _close_contexts() -> Iterator[None]:
    yield
    while OPENED:
        OPENED.pop().close()


def test_a_button_is_the_same_button_while_others_sit(browser: Browser, rooms_server: ServerProcess) -> None:
    """A room frame redraws only what changed: the host's Start game and the invite
    link stay the elements they were while a friend sits (a click whose press and release
    straddled the redraw landed on neither copy, and was lost)."""
    errors: list[str] = []
    host, link = host_room(browser, rooms_server, 3, errors)
    host.evaluate("window.kept = ['start-game', 'copy-link'].map((id) => document.getElementById(id))")
    sit(browser, link, 1, "Bob", errors)
    expect(host.locator("#seats")).to_contain_text("Bob")
    assert host.evaluate("['start-game', 'copy-link'].map((id) => document.getElementById(id))"
                         ".every((el, i) => el === window.kept[i])")
    assert not errors, errors


def test_three_friends_play_to_the_end_watched_then_rematch(
    browser: Browser, rooms_server: ServerProcess,
) -> None:
    errors: list[str] = []
    host, link = host_room(browser, rooms_server, 3, errors)
    bob = sit(browser, link, 1, "Bob", errors)
    cy = sit(browser, link, 2, "Cy", errors)
    watcher = open_page(browser, link, errors)
    expect(host.locator("#seats")).to_contain_text("Cy")
    host.click("#start-game")
    players = [host, bob, cy]
    for page in [*players, watcher]:
        page.wait_for_selector("#hand .card, body.spectator", timeout=WAIT)
    assert watcher.locator("#hand .card").count() == 0
    move_on_while_others_read(players)
    play_together(players)
    expect(watcher.locator("body")).to_have_attribute("data-turn", "over", timeout=WAIT)
    assert watcher.locator("#hand .card").count() == 0
    # The coach's review first, then what the room allows (no solo New game): each contributed
    # through the table object, so the order is the same whichever module listened first.
    assert result_buttons(bob) == ["Review this hand", "Offer a rematch", "Leave the table", "Close"]
    assert result_buttons(watcher) == ["Review this hand", "Close"]
    expect(bob.locator("#result-buttons button.primary")).to_have_text("Offer a rematch")
    bob.click("#result-buttons button:text-is('Offer a rematch')")
    waiting = "Bob offers a rematch: waiting for Ann and Cy"
    expect(watcher.locator("#result")).to_contain_text(waiting, timeout=WAIT)
    for page in (host, cy):
        page.click("#result-buttons button:text-is('Accept')", timeout=WAIT)
    for page in players:
        expect(page.locator("body")).not_to_have_attribute("data-turn", "over", timeout=WAIT)
    expect(host.locator("#seats")).to_contain_text("Bob")
    assert not errors, errors


def test_reload_away_computer_stand_in_and_return(browser: Browser, rooms_server: ServerProcess) -> None:
    errors: list[str] = []
    host, link = host_room(browser, rooms_server, 2, errors)
    bob = sit(browser, link, 1, "Bob", errors)
    host.click("#start-game")
    bob.wait_for_selector("#hand .card", timeout=WAIT)
    until_turn(bob, host)
    before = bob.eval_on_selector_all("#hand .card", "els => els.map(e => e.dataset.card).sort()")
    phase = bob.evaluate("document.body.dataset.phase")
    bob.reload()  # mid-turn: the same seat, the same cards, still Bob's move
    expect(bob.locator("body")).to_have_attribute("data-turn", "you", timeout=WAIT)
    after = bob.eval_on_selector_all("#hand .card", "els => els.map(e => e.dataset.card).sort()")
    assert after == before
    assert bob.evaluate("document.body.dataset.phase") == phase
    mouse_turn(bob)  # and the move is taken
    bob_context = bob.context
    bob.close()
    away = host.locator('#seats .seat[data-seat="1"]')
    expect(away).to_contain_text("away", timeout=WAIT)
    expect(host.locator("#seats .stand-in")).to_be_enabled(timeout=WAIT)  # once the away time passes
    host.click("#seats .stand-in")
    expect(away).to_contain_text("the computer plays for now", timeout=WAIT)
    for _ in range(4):
        mouse_turn(host)  # the computer plays Bob's turns meanwhile
    back = bob_context.new_page()
    back.goto(link)
    back.wait_for_selector("#hand .card", timeout=WAIT)
    expect(host.locator('#seats .seat[data-seat="1"]')).not_to_contain_text("away", timeout=WAIT)
    play_together([host, back])
    expect(host.locator("#result-buttons button:text-is('Offer a rematch')")).to_be_visible()
    assert not errors, errors


def test_new_game_in_a_room_offers_only_leaving_and_the_others_are_told(
    browser: Browser, rooms_server: ServerProcess,
) -> None:
    errors: list[str] = []
    host, link = host_room(browser, rooms_server, 2, errors)
    bob = sit(browser, link, 1, "Bob", errors)
    host.click("#start-game")
    bob.wait_for_selector("#hand .card", timeout=WAIT)
    bob.click("#new-game")  # the header's button: no solo game from inside a room
    menu = bob.locator("dialog[open]")
    expect(menu).to_be_visible()
    axe(bob, "leave table")
    offered = [b.strip() for b in menu.locator("button").all_inner_texts()]
    assert offered == ["Stay at the table", "Leave table"]
    menu.locator("button:text-is('Stay at the table')").click()
    expect(menu).to_have_count(0)
    bob.wait_for_function("document.activeElement.id === 'new-game'")  # focus back where it was
    assert bob.url == link and bob.evaluate("Okgin.state().view.seat") == 1
    bob.click("#new-game")
    bob.locator("dialog[open] button:text-is('Leave table')").click()
    bob.wait_for_url(rooms_server.url + "/", timeout=WAIT)
    seat = host.locator('#seats .seat[data-seat="1"]')
    expect(seat).to_contain_text("Bob left the table", timeout=WAIT)
    expect(host.locator("#said")).to_contain_text("Bob left the table")
    assert "away" not in seat.inner_text()
    for _ in range(3):  # the computer plays Bob's seat now: the game goes on
        mouse_turn(host)
    code = link.rsplit("/", 1)[1]
    assert bob.evaluate(f"localStorage.getItem('okgin.room.{code}')") is None  # the seat is given up
    assert not errors, errors


def test_lobby_errors_stand_beside_their_control(browser: Browser, rooms_server: ServerProcess) -> None:
    errors: list[str] = []
    host, link = host_room(browser, rooms_server, 3, errors)
    host.click("#start-game")
    start_error = described(host, "#start-game")
    expect(start_error).to_be_visible()
    expect(start_error).to_have_text(re.compile(r"^Every seat needs a player"))
    guest = open_page(browser, link, errors)
    row = guest.locator('#seats .seat[data-seat="1"]')
    row.get_by_label("Your name").fill("")
    row.get_by_role("button", name="Take this seat").click()
    name_error = described(guest, '#seats .seat[data-seat="1"] .sit')
    expect(name_error).to_be_visible()
    expect(name_error).to_have_text(re.compile(r"^Your name must be 1 to 20 characters"))
    cy = sit(browser, link, 2, "Cy", errors)  # the room changes: both errors are still there to read
    expect(host.locator("#seats")).to_contain_text("Cy")
    expect(described(host, "#start-game")).to_have_text(re.compile(r"^Every seat needs a player"))
    assert host.evaluate("document.activeElement.id") == "start-game"  # a redraw keeps the focus
    expect(described(guest, '#seats .seat[data-seat="1"] .sit')).to_be_visible()
    axe(host, "lobby with an error")
    cy.click("#new-game")  # "Leave table" in a room: in the lobby the seat is emptied
    cy.click("#leave-confirm")
    expect(host.locator("#said")).to_contain_text("Cy left the table.", timeout=WAIT)
    expect(host.locator('#seats .seat[data-seat="2"]')).to_contain_text("Empty seat")
    assert not errors, errors


def test_the_host_sees_when_a_computer_may_take_an_away_seat(
    browser: Browser, patient_server: ServerProcess,
) -> None:
    errors: list[str] = []
    host, link = host_room(browser, patient_server, 2, errors, clock=True)
    bob = sit(browser, link, 1, "Bob", errors)
    host.click("#start-game")
    bob.wait_for_selector("#hand .card", timeout=WAIT)
    bob.close()
    button = host.locator("#seats .stand-in")
    expect(button).to_be_disabled(timeout=WAIT)
    countdown = described(host, "#seats .stand-in")
    expect(countdown).to_have_text(re.compile(r"A computer player may take over in ([12]\d|30) s"))
    axe(host, "away countdown")
    host.clock.fast_forward((LONG_AWAY + 1) * 1000)  # the page's clock runs ahead of the server's
    expect(button).to_be_enabled()
    expect(countdown).to_have_text(re.compile(r"may take over now"))
    button.click()  # too early for the server: the refusal stands beside the button...
    refusal = host.locator("#error-stand-in-1")
    expect(refusal).to_have_text(re.compile(r"^Bob has been away only a moment: wait \d+ more seconds\.$"))
    expect(button).to_have_attribute("aria-describedby", re.compile("error-stand-in-1"))
    seq = host.evaluate("document.body.dataset.seq")
    host.evaluate("Okgin.send({type: 'options', coach: false})")  # the room and table are sent again
    host.wait_for_function(f"document.body.dataset.seq !== {json.dumps(seq)}", timeout=WAIT)
    expect(refusal).to_be_visible()  # ...through the redraw
    assert not errors, errors


def test_the_pages_branch_on_error_codes(browser: Browser, rooms_server: ServerProcess) -> None:
    """game.js and room.js read an error's code, not its words: an unknown game starts a new
    one (no_game), a forged seat token is dropped and the room watched (bad_token), an
    unknown room says so (no_room)."""
    errors: list[str] = []
    solo = open_page(browser, rooms_server.url, errors)
    solo.evaluate("localStorage.setItem('okgin.game', 'no-such-game')")
    solo.reload()
    solo.wait_for_function("localStorage.getItem('okgin.game') !== 'no-such-game'", timeout=WAIT)
    expect(solo.locator("#hand .card").first).to_be_visible(timeout=WAIT)

    host, link = host_room(browser, rooms_server, 2, errors)
    code = link.rsplit("/", 1)[1]
    guest = open_page(browser, link, errors)
    guest.evaluate(f"localStorage.setItem('okgin.room.{code}', 'forged-token')")
    guest.reload()
    row = guest.locator('#seats .seat[data-seat="1"]')
    expect(row.get_by_role("button", name="Take this seat")).to_be_visible(timeout=WAIT)
    assert guest.evaluate(f"localStorage.getItem('okgin.room.{code}')") is None

    lost = open_page(browser, rooms_server.url + "/r/no-such-room-code", errors)
    expect(lost.get_by_role("heading", name="No such table")).to_be_visible(timeout=WAIT)
    for page in (solo, host, guest, lost):
        page.context.close()
    assert errors == []


def test_a_staked_table_shows_each_seats_chips_at_the_end(
    browser: Browser, rooms_server: ServerProcess,
) -> None:
    errors: list[str] = []
    host, link = host_room(browser, rooms_server, 3, errors)
    host.fill("#stake", "-5")
    host.click("#set-stake")
    expect(described(host, "#set-stake")).to_have_text(
        "The stake is a whole number of chips from 0 to 1000, not -5.", timeout=WAIT)
    host.fill("#stake", "100")
    host.click("#set-stake")
    expect(host.locator("#stake-line")).to_have_text(
        "Stake: 100 chips a person · the pool split scaled, cutoff 50", timeout=WAIT)
    bob = sit(browser, link, 1, "Bob", errors)
    expect(bob.locator("#stake-line")).to_contain_text("Stake: 100 chips a person")
    host.locator('#seats .seat[data-seat="2"] .add-computer').click()
    expect(host.locator("#seats")).to_contain_text("(computer, normal)", timeout=WAIT)
    host.click("#start-game")
    players = [host, bob]
    for page in players:
        page.wait_for_selector("#hand .card", timeout=WAIT)
    play_together(players)
    shares = []
    for page in players:
        split = page.locator("#chips-result")
        expect(split).to_contain_text("The pool of 200 chips", timeout=WAIT)
        lines = split.locator("li").all_inner_texts()
        assert lines[2] == "Ruby: no stake (a computer player)"
        shares.append([int(re.fullmatch(r"\w+: (\d+) chips", line)[1]) for line in lines[:2]])  # type: ignore[index]
    assert shares[0] == shares[1] and sum(shares[0]) == 200
    assert not errors, errors
