"""Small things players met (issue 14): the phone's coach panel closes and covers no control,
the game-over screen opens at its top, the end-of-hand tags stay inside their frames and
uncovered, the House rules selects show their whole choice, the lobby is a page's main content,
and the statistics page's one-game charts and tables read properly."""

from __future__ import annotations

from browser_play import seeded_game, wait_my_move
from conftest import new_context, shot
from playwright.sync_api import Browser, expect
from server_process import ServerProcess
from table_helpers import axe, opened, play_planned_hand
from test_browser_coach import session_cookie
from test_browser_layout import create_room, start_room
from test_coach_server import seed_games

KNOCK_SEED = 19  # Ruby knocks with one card of deadwood; you lay off the jack of diamonds

UNCOVERED = """el => { const r = el.getBoundingClientRect();
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return !!top && el.contains(top) && r.top >= 0 && r.bottom <= innerHeight; }"""


def test_the_phone_coach_panel_closes_and_covers_no_control(browser: Browser, server: ServerProcess) -> None:
    for width, height in ((375, 740), (360, 640), (740, 360)):
        with opened(browser, server.url, width, height, coach=True) as page:
            wait_my_move(page)
            toggle = page.locator("#coach-toggle")
            toggle.click()
            expect(page.locator("#coach .coach-suggestion")).to_be_visible()
            for control in ("#coach-toggle", "#menu-toggle", "#coach-close"):
                assert page.eval_on_selector(control, UNCOVERED), f"{control} covered at {width}x{height}"
            coach = page.locator("#coach").bounding_box()
            hand = page.locator("#mine").bounding_box()
            assert coach and hand and coach["y"] + coach["height"] <= hand["y"], (coach, hand)
            shot(page, f"phone-coach-open-{width}x{height}", full_page=False)
            page.click("#coach-close")
            expect(page.locator("#coach")).to_be_hidden()
            expect(toggle).to_have_attribute("aria-expanded", "false")
            expect(toggle).to_be_focused()


def test_game_over_opens_at_its_top(browser: Browser, server: ServerProcess) -> None:
    for width, height in ((1280, 800), (375, 740)):
        with opened(browser, server.url, width, height) as page:
            seeded_game(page, KNOCK_SEED, target=1)  # one hand ends the game
            play_planned_hand(page)
            expect(page.locator("#result-title")).to_have_text("Game over")
            for seen in ("#result-title", "#final h3", "#final table", "#result-buttons button.primary"):
                assert page.eval_on_selector(seen, UNCOVERED), f"{seen} off-screen at {width}x{height}"
            assert page.evaluate("document.getElementById('result-body').scrollTop") == 0
            shot(page, f"game-over-top-{width}x{height}", full_page=False)


def test_end_of_hand_tags_stay_inside_and_uncovered(browser: Browser, server: ServerProcess) -> None:
    with opened(browser, server.url, 1280, 800) as page:
        seeded_game(page, KNOCK_SEED)
        play_planned_hand(page)
        expect(page.locator("#result-body .card.laid")).to_have_count(1)
        groups = page.eval_on_selector_all("#result-body .shown .group", """groups => groups.map(g => {
            const tag = g.querySelector('.tag').getBoundingClientRect(), box = g.getBoundingClientRect();
            const t = document.elementFromPoint(tag.left + tag.width / 2, tag.top + tag.height / 2);
            return {kind: g.classList.contains('meld') ? 'meld' : 'deadwood',
                    cards: g.querySelectorAll('.card').length, laid: !!g.querySelector('.laid'),
                    inside: tag.left >= box.left && tag.right <= box.right && tag.top >= box.top,
                    seen: !!t && g.querySelector('.tag').contains(t)}; })""")
        assert any(g["cards"] == 1 and g["kind"] == "deadwood" for g in groups), groups  # the case at hand
        assert any(g["laid"] for g in groups), groups
        for group in groups:
            assert group["inside"] and group["seen"], group
        shot(page, "end-of-hand-tags", full_page=False)


# A knock drawn by result.js (its render) from a hand-written result: Ruby knocks, and you lay
# off the 2 of diamonds at the front of her run, so the raised laid-off card is the first card
# under the MELD tag.
LAYOFF_FIRST = """() => {
  const s = structuredClone(Okgin.state());
  s.final = null;
  s.view.result = {outcome: "knock", knocker: 1, winner: 1, points: [0, 24], deadwood: [26, 2],
    layoffs: [[0, ["2D"]]], knocker_melds: [["2D", "3D", "4D", "5D"], ["KC", "KH", "KS"]],
    shown: [{melds: [["7C", "8C", "9C"]], unmatched: ["QH", "JS", "6S"]},
            {melds: [["3D", "4D", "5D"], ["KC", "KH", "KS"]], unmatched: ["2S"]}],
    working: ["", "26 − 2 = 24"]};
  Okgin.Result.render(s);
  document.getElementById('result').showModal();
}"""
TAGS = """() => [...document.querySelectorAll('#result-body .shown .group')].map(g => {
  const tag = g.querySelector('.tag').getBoundingClientRect(), box = g.getBoundingClientRect();
  const clear = [...g.querySelectorAll('.card')].every(c => { const r = c.getBoundingClientRect();
    return r.left >= tag.right || r.right <= tag.left || r.top >= tag.bottom || r.bottom <= tag.top; });
  const inside = tag.left >= box.left && tag.right <= box.right;
  return {text: g.getAttribute('aria-label'), inside, clear}; })"""


def test_a_laid_off_card_at_the_front_of_a_meld_leaves_its_tag_clear(
    browser: Browser, server: ServerProcess,
) -> None:
    with opened(browser, server.url, 1280, 800) as page:
        wait_my_move(page)
        page.evaluate(LAYOFF_FIRST)
        expect(page.locator("#result-body .card.laid")).to_have_count(1)
        groups = page.evaluate(TAGS)
        assert len(groups) == 5, groups
        for group in groups:
            assert group["inside"] and group["clear"], group
        shot(page, "end-of-hand-layoff-first", full_page=False)


def test_house_rules_selects_show_their_whole_choice(browser: Browser, server: ServerProcess) -> None:
    for width, height in ((1280, 800), (375, 740)):
        with opened(browser, server.url, width, height) as page:
            page.click("#menu-toggle") if width < 700 else None
            page.click("#open-rules")
            expect(page.locator("#rule-fields select").first).to_be_visible()
            cut = page.evaluate("""() => {
              const box = document.getElementById('rules').getBoundingClientRect();
              const span = document.createElement('span');
              document.body.append(span);
              const out = [];
              for (const s of document.querySelectorAll('#rules select')) {
                span.style.font = getComputedStyle(s).font;
                const shown = s.id === 'preset' ? [s.selectedOptions[0]] : [...s.options];
                const need = Math.max(...shown.map(o => {
                  span.textContent = o.text; return span.offsetWidth; }));
                const r = s.getBoundingClientRect();
                // the text's room: the box less its padding and the arrow (about 20px)
                const room = s.clientWidth - parseFloat(getComputedStyle(s).paddingLeft) - 20;
                const outside = r.left < box.left || r.right > box.right;
                if (need > room || outside) out.push([s.name, need, Math.round(room)]);
              }
              span.remove();
              return out; }""")
            assert not cut, f"cut off at {width}x{height}: {cut}"
            shot(page, f"house-rules-{width}x{height}", full_page=False)


def test_the_lobby_is_the_pages_main_content(browser: Browser, server: ServerProcess) -> None:
    with opened(browser, server.url, 1280, 800) as page:
        create_room(page, 3, {"preset": "oklahoma-multiplayer", "target": 50})
        assert page.evaluate("!!document.querySelector('main #room') && "
                             "document.querySelector('main').getBoundingClientRect().height > 0")
        assert page.evaluate("document.querySelector('main').getAttribute('aria-busy')") != "true"
        axe(page, "lobby", rules=("landmark-one-main", "region"))


def test_statistics_after_one_game(browser: Browser, server: ServerProcess) -> None:
    context = new_context(browser, viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(server.url + "/history")  # a guest from this first visit: the game is theirs
    seed_games(server.db, range(1), session_cookie(page))
    page.goto(server.url + "/stats")
    line = page.locator("#points svg.chart")
    expect(line).to_be_visible()
    dots = page.eval_on_selector_all("#points svg.chart .dot", "ds => ds.map(d => d.getBBox().width)")
    assert len(dots) == 1 and dots[0] >= 10, dots  # a lone point is drawn big enough to see
    expect(line.locator("text.label")).to_have_text(["Game 1"])  # and says which game it is
    axe(page, "statistics", rules=("empty-table-header",))
    shot(page, "statistics-one-game")
    context.close()


def test_a_phone_folds_the_room_panel_into_the_menu(browser: Browser, server: ServerProcess) -> None:
    with opened(browser, server.url, 1280, 800) as page:
        create_room(page, 2, {"preset": "oklahoma-big-gin", "target": 50})
        start_room(page)
        expect(page.locator("#room")).to_be_visible()  # beside the table on a desktop
        page.set_viewport_size({"width": 375, "height": 740})
        expect(page.locator("#room")).to_be_hidden()
        page.click("#menu-toggle")
        expect(page.locator("#room")).to_be_visible()
        for seen in ("#room h2", "#menu-toggle"):
            assert page.eval_on_selector(seen, UNCOVERED), seen
        shot(page, "phone-room-menu-375x740", full_page=False)
        page.click("#menu-toggle")
        expect(page.locator("#room")).to_be_hidden()


LONG_NAME = "W" * 20  # a room's longest name, of its widest letter, with no space to break at
LONG_NAMES = f"""() => {{
  const s = structuredClone(Okgin.state());
  s.names[1] = "{LONG_NAME}";
  Okgin.Words.use(s);
  Okgin.Result.render(s);
}}"""
OUTSIDE = """() => {
  const body = document.getElementById('result-body'), out = [];
  const room = Math.min(innerWidth, body.getBoundingClientRect().right);
  for (const el of body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.width && (r.left < 0 || r.right > room + 0.5)) {
      out.push(`${el.tagName}: ${el.textContent.slice(0, 40)} ends at ${Math.round(r.right)} of ${room}`);
    }
  }
  if (body.scrollWidth > body.clientWidth) out.push(`#result-body scrolls sideways: ${body.scrollWidth}`);
  return out; }"""


def test_a_long_name_stays_inside_a_small_phones_tally(browser: Browser, server: ServerProcess) -> None:
    """A 20-character name with no space in it, on a 360×640 phone: the game-over tally and the
    last hand's screen wrap it inside the screen (nothing sticks out, nothing scrolls sideways)."""
    with opened(browser, server.url, 360, 640) as page:
        seeded_game(page, KNOCK_SEED, target=1)  # one hand ends the game
        play_planned_hand(page)
        expect(page.locator("#result-title")).to_have_text("Game over")
        page.evaluate(LONG_NAMES)
        expect(page.locator("#final thead")).to_contain_text(LONG_NAME)
        expect(page.locator("#result-body .totals")).to_contain_text(LONG_NAME)
        shot(page, "long-name-tally-360x640", full_page=False)
        outside = page.evaluate(OUTSIDE)
        assert outside == [], "\n".join(outside)
