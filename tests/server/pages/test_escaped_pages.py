"""The pages are rendered from templates that escape every value (okgin/server/pages/templates/,
autoescape on): a name holding markup is shown as text on every page that shows it, and no page
module escapes by hand (nor marks text safe), so none can forget to."""

from __future__ import annotations

import re
from pathlib import Path

from starlette.applications import Starlette
from test_tournament_server import SWISS, cookie_of, make, visit

PAGES = Path(__file__).resolve().parents[3] / "okgin" / "server" / "pages"
NAME = "<b>Eve</b>&'"
SHOWN = "&lt;b&gt;Eve&lt;/b&gt;&amp;&#39;"


def test_a_name_with_markup_is_text_on_every_page_that_shows_it(app: Starlette) -> None:
    cookie = cookie_of(app)
    code = make(app, cookie, {**SWISS, "name": " "})  # named "Swiss": its host has no name yet
    event = app.state.tournaments.store.load(code)
    app.state.players.set_name(event.host, NAME)
    joined = visit(app, [("GET", f"/t/{code}", {}), ("POST", f"/t/{code}/join", {"name": NAME})], cookie)
    assert joined[1].status_code == 303, joined[1].text
    other = make(app, cookie, {**SWISS, "name": " "})
    pages = visit(app, [("GET", path, {}) for path in
                        ("/profile", f"/t/{code}", f"/t/{code}/live", "/t", f"/t/{other}", "/leaderboard",
                         "/history", "/stats")], cookie)
    for page in pages:
        assert page.status_code == 200, page.url
        assert "<b>Eve" not in page.text, page.url
    profile, tournament, live, listing, named, *_ = (page.text for page in pages)
    assert f"You are {SHOWN}" in profile and f'value="{SHOWN}"' in profile
    assert f"<li>{SHOWN}</li>" in tournament and f"<li>{SHOWN}</li>" in live
    assert f"{SHOWN}&#39;s Swiss" in listing and f"<h1>{SHOWN}&#39;s Swiss</h1>" in named


def test_no_page_module_escapes_by_hand_or_marks_text_safe() -> None:
    """Only template.py makes Markup, of a template's own (escaped) rendering; no template
    turns escaping off."""
    by_hand = {path.name: len(re.findall(r"\bescape\(|Markup\(", path.read_text(encoding="utf-8")))
               for path in PAGES.glob("*.py")}
    assert {name: count for name, count in by_hand.items() if count} == {"template.py": 1}
    for template in (PAGES / "templates").glob("*.html"):
        text = template.read_text(encoding="utf-8")
        assert "|safe" not in text.replace(" ", "") and "autoescape false" not in text, template.name
