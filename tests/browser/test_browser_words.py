"""What the page says and where focus goes (issue 14): headers from the room's own rules, computer
players' names, no keyboard hints for touch, sentences and cards in words, gin and game over
announced, focus never on <body> while cards fly, and names that stay text, never markup."""

from __future__ import annotations

import re

from browser_play import discard_choice, ending_button, mouse_turn, moved, progress, seeded_game, wait_my_move
from conftest import shot
from playwright.sync_api import Browser, Page, expect
from server_process import ServerProcess
from table_helpers import opened, play_planned_hand
from test_browser_rooms import _close_contexts, host_room, play_together, rooms_server, sit

__all__ = ["_close_contexts", "rooms_server"]  # fixtures shared with the room tests

WAIT = 20_000
GIN_SEED = 1  # with the plan (pass, draw, throw the highest loose card), Ruby goes gin
SUITS = re.compile("[♠♥♦♣]")
ON_BODY = "document.activeElement === document.body || document.activeElement === null"


def test_a_room_header_says_its_rules_target_and_real_names(
    browser: Browser, rooms_server: ServerProcess,
) -> None:
    errors: list[str] = []
    host, link = host_room(browser, rooms_server, 4, errors)  # oklahoma-multiplayer, first to 10
    expect(host.locator("#tagline")).to_contain_text("first to 10")
    expect(host).to_have_title("Oklahoma Gin — a table for 4 with friends")  # not "against the computer"
    for seat in (2, 3):
        host.locator(f'#seats .seat[data-seat="{seat}"] .add-computer').click()
    for seat, name in ((2, "Ruby"), (3, "Sam")):
        row = host.locator(f'#seats .seat[data-seat="{seat}"]')
        expect(row).to_contain_text(f"{name} (computer, normal)", timeout=WAIT)
    sit(browser, link, 1, "Bob", errors)
    host.click("#start-game")
    host.wait_for_selector("#hand .card", timeout=WAIT)
    tagline = host.locator("#tagline")
    expect(tagline).to_contain_text(re.compile(r"^You against Bob, Ruby and Sam — .*first to 10$"))
    expect(tagline).to_contain_text("Oklahoma Gin for 2 to 4 players")
    expect(tagline).not_to_contain_text("150")
    expect(host.locator('#opponents .opponent[data-seat="2"] .name')).to_contain_text("Ruby · normal")
    assert not errors, errors


def test_one_list_of_computer_names_on_each_side(page: Page) -> None:
    from okgin.server.rooms.room import COMPUTER_NAMES  # here, so its absence fails only this test

    assert page.evaluate("Okgin.Words.COMPUTERS") == list(COMPUTER_NAMES)
    page.click("#open-options")
    page.locator('#options-form [name="count"]').select_option("3")
    expect(page.locator("#levels label")).to_have_text([re.compile(f"^{n}") for n in COMPUTER_NAMES[:3]])


def test_touch_players_are_not_told_keys(browser: Browser, server: ServerProcess) -> None:
    with opened(browser, server.url, width=375, height=740, touch=True) as page:
        for _ in range(3):
            wait_my_move(page)
            said = page.locator("#status").inner_text()
            assert not re.search(r"\((S|D|G|K|Enter)", said), said
            assert page.locator("#actions kbd").count() == 0
            assert "(S)" not in (page.locator("#stock").get_attribute("aria-label") or "")
            expect(page.locator(".keys-line")).to_be_hidden()
            if page.evaluate("document.body.dataset.phase") == "discard":
                break
            before = progress(page)
            page.click("#stock")
            moved(page, before)  # the next look is at the state after this move, not before its answer
        expect(page.locator("#status")).to_contain_text("tap a card twice to discard it")
    with opened(browser, server.url) as page:  # a keyboard still gets its keys
        wait_my_move(page)
        assert page.locator("#actions kbd").count() > 0


def test_sentences_start_with_a_capital_and_hints_name_cards(page: Page) -> None:
    while wait_my_move(page) == "you" and page.evaluate("document.body.dataset.phase") != "discard":
        mouse_turn(page)
    hand = page.evaluate("Okgin.state().view.hand")
    absent = next(f"{r}{s}" for s in "CDHS" for r in "A23456789TJQK" if f"{r}{s}" not in hand)
    before = page.locator("#status").inner_text()
    page.evaluate(f"Okgin.send({{type: 'act', action: 'discard {absent}'}})")  # refused by the server
    page.wait_for_function(f"document.getElementById('status').textContent !== {before!r}", timeout=WAIT)
    refused = page.locator("#status").inner_text()
    assert refused[0].isupper(), refused
    page.keyboard.press("h")
    page.wait_for_function(f"document.getElementById('status').textContent !== {refused!r}", timeout=WAIT)
    hint = page.locator("#status").inner_text()
    assert not SUITS.search(hint) and hint[0].isupper(), hint
    expect(page.locator("#live p").last).to_have_text(hint)
    page.click("#open-rules")
    page.locator("#preset").select_option("oklahoma-big-gin")
    expect(page.locator("#preset-text")).to_contain_text("As Oklahoma Gin, plus")


def test_the_coach_panel_reads_cards_in_words(browser: Browser, server: ServerProcess) -> None:
    with opened(browser, server.url, coach=True) as page:
        while wait_my_move(page) == "you" and page.evaluate("document.body.dataset.phase") != "discard":
            mouse_turn(page)
        expect(page.locator("#coach")).to_contain_text("Discard the", timeout=WAIT)
        read = page.locator("#coach").aria_snapshot()
        assert " of " in read and not SUITS.search(read), read
        expect(page.locator("#coach")).to_contain_text(SUITS)  # shown as written


def test_gin_and_game_over_are_announced_as_such(browser: Browser, server: ServerProcess) -> None:
    with opened(browser, server.url) as page:
        seeded_game(page, GIN_SEED, target=1)
        play_planned_hand(page)
        state = page.evaluate("Okgin.state()")
        assert (state["view"]["result"]["outcome"], state["view"]["result"]["knocker"]) == ("gin", 1)
        live = page.locator("#live")
        expect(live).to_contain_text("Ruby goes gin, discarding the ")
        expect(live).not_to_contain_text("Ruby knocks")
        expect(live).to_contain_text("Game over: Ruby wins the game")


PLACES = """card => { const cards = [...document.querySelectorAll('#hand .card')];
  return [cards.indexOf(document.activeElement), cards.findIndex(c => c.dataset.card === card)]; }"""


def _walk_turn(page: Page, take: bool) -> str:
    """One move by keyboard, taking the discard instead of drawing when ``take``."""
    turn = wait_my_move(page)
    if turn != "you":
        return turn
    phase = str(page.evaluate("document.body.dataset.phase"))
    before = progress(page)
    if phase == "draw" and take and page.evaluate("Okgin.state().view.legal.includes('take')"):
        page.keyboard.press("d")
        phase = "take"
    elif phase in ("offer", "last-chance", "draw"):
        page.keyboard.press("s")
    elif word := ending_button(page):
        page.keyboard.press("k" if word.startswith("Knock") else "g")
        if page.evaluate("document.activeElement.classList.contains('gin-choice')"):
            page.keyboard.press("Enter")
    else:
        card = discard_choice(page)
        at, to = page.evaluate(PLACES, card)
        assert at >= 0, "focus is not in the hand"
        for _ in range(abs(to - at)):
            page.keyboard.press("ArrowRight" if to > at else "ArrowLeft")
        assert page.evaluate("document.activeElement.dataset.card") == card
        page.keyboard.press("Enter")
        page.keyboard.press("Enter")
    moved(page, before)
    return phase


WATCH_FOCUS = """() => {
  window.focusFaults = [];
  const look = () => {
    const a = document.activeElement;
    // Shown: not hidden, nor transparent itself (a dialog fading in may hold the focus).
    const shown = a && a !== document.body && a.checkVisibility({visibilityProperty: true})
      && getComputedStyle(a).opacity !== "0";
    if (!shown) window.focusFaults.push(`${document.body.dataset.turn} ${document.body.dataset.phase}: ` +
      (a ? a.tagName + (a.className ? "." + a.className : "") : "nothing"));
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}"""


def test_keyboard_focus_never_falls_to_body_while_cards_fly(browser: Browser, server: ServerProcess) -> None:
    with opened(browser, server.url, reduce=False, speed="instant") as page:
        seeded_game(page, 5, target=500)
        wait_my_move(page)
        page.locator("#hand .card").first.focus()
        page.evaluate(WATCH_FOCUS)  # every frame from here on: focus on something visible
        hands, draws, takes, moves = 0, 0, 0, 0
        while hands < 3:
            played = _walk_turn(page, take=(draws + takes) % 3 == 2)
            moves += 1
            assert moves < 400, "three hands never ended"
            assert not page.evaluate(ON_BODY), f"focus fell to <body> after {played}"
            if played in ("draw", "take"):
                draws += played == "draw"
                takes += played == "take"
                if page.evaluate("document.body.dataset.turn") == "you":
                    page.wait_for_function("!document.querySelector('#hand .arriving')")
                    assert page.evaluate("document.activeElement.classList.contains('drawn')"), played
            if played == "hand-over":
                hands += 1
                assert page.evaluate("document.activeElement.textContent") == "Next hand"
                page.keyboard.press("Enter")
                page.wait_for_function("document.body.dataset.turn !== 'hand-over'")
            assert page.evaluate("window.focusFaults") == [], (played, moves)
        assert draws > 6 and takes > 1, (draws, takes)
        assert page.evaluate("Okgin.Motion.log.some(f => f.what === 'draw' && f.ms > 1)")


HTML_NAMES = ("<i id=pwn>x</i>", "<img src=x>", "<a href=//x>y</a>")
MADE = "document.querySelector('#pwn, img[src=\"x\"], a[href=\"//x\"]') === null"


def test_names_are_text_never_markup(browser: Browser, rooms_server: ServerProcess) -> None:
    errors: list[str] = []
    host, link = host_room(browser, rooms_server, 3, errors, name=HTML_NAMES[0])
    guests = [sit(browser, link, seat, HTML_NAMES[seat], errors) for seat in (1, 2)]
    players = [host, *guests]
    for page in players:  # the lobby
        expect(page.locator("#seats")).to_contain_text(HTML_NAMES[2])
        assert page.evaluate(MADE)
    host.click("#start-game")
    for seat, page in enumerate(players):
        page.wait_for_selector("#hand .card", timeout=WAIT)
        expect(page.locator("#tagline")).to_contain_text(HTML_NAMES[(seat + 1) % 3])
        assert page.evaluate(MADE)
    play_together(players)
    for seat, page in enumerate(players):  # the final tally, its heading, the score sheet
        expect(page.locator("#final h3")).to_contain_text(re.compile("wins? the game"))
        expect(page.locator("#final thead")).to_contain_text(HTML_NAMES[(seat + 1) % 3])
        expect(page.locator("#sheet thead")).to_contain_text(HTML_NAMES[(seat + 2) % 3])
        page.locator("#sheet-box summary").click(force=True)
        assert page.evaluate(MADE), page.locator("#final").inner_html()
    shot(host, "names-as-text-game-over")
    host.goto(f"{rooms_server.url}/history")
    expect(host.locator("table")).to_contain_text(HTML_NAMES[2])
    assert host.evaluate(MADE)
    for link_text in ("review", "replay"):
        host.goto(f"{rooms_server.url}/history")
        host.locator("td a", has_text=link_text).first.click()
        host.wait_for_load_state()
        if link_text == "replay":  # the review names a seat only in a mistake's words, if any
            expect(host.locator("main")).to_contain_text(HTML_NAMES[0])
        assert host.evaluate(MADE), link_text
    assert not errors, errors
