"""The pages' scripts are ES modules under the one content security policy: every script a page
names, and every module those import, is served as JavaScript from this server, and every file
of static/ is one of them (okgin/server/pages/static/, site.py, template.py); docs/web.md's
table of the page's files and the README's layout name each of them."""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

import httpx
from scripted_client import run
from starlette.applications import Starlette

from okgin.puzzles.puzzle import shipped
from okgin.server.pages.site import STATIC

ROOT = Path(__file__).resolve().parents[3]

BASE = "http://127.0.0.1"
PAGES = ("/", "/r/abcd", "/replay", "/profile", "/t", "/play-online", "/tables",
         f"/puzzles/{shipped()[0].id}")
SCRIPT = re.compile(r"<script\b([^>]*)>")
IMPORT = re.compile(r'^(?:import\s+(?:[^";]*?\sfrom\s+)?|export\s+[^";]*?\sfrom\s+)"([^"]+)";', re.M)


def _get_all(app: Starlette, paths: list[str]) -> dict[str, httpx.Response]:
    async def go() -> dict[str, httpx.Response]:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=BASE) as web:
            return {path: await web.get(path) for path in paths}

    return run(go())


def _imports(path: str, text: str) -> list[str]:
    """The paths of the modules the module at ``path`` imports (relative names resolved)."""
    folder = posixpath.dirname(path)
    return [posixpath.normpath(posixpath.join(folder, name)) for name in IMPORT.findall(text)]


def test_every_script_is_a_module_served_as_javascript(app: Starlette) -> None:
    pages = _get_all(app, list(PAGES))
    named: set[str] = set()
    for path, page in pages.items():
        assert page.status_code == 200, path
        for attributes in SCRIPT.findall(page.text):
            assert 'type="module"' in attributes, (path, attributes)
            named.add(re.findall(r'src="([^"]+)"', attributes)[0])
    assert {"/static/game.js", "/static/coach.js", "/static/room.js", "/static/replay.js",
            "/static/passkeys.js", "/static/tournament.js", "/static/play-online.js",
            "/static/tables.js"} <= named
    seen: set[str] = set()
    waiting = set(named)
    while waiting:
        answers = _get_all(app, sorted(waiting))
        seen |= waiting
        waiting = set()
        for path, answer in answers.items():
            assert answer.status_code == 200, path
            assert answer.headers["content-type"].split(";")[0] == "text/javascript", path
            assert "default-src 'self'" in answer.headers["content-security-policy"], path
            waiting |= set(_imports(path, answer.text)) - seen
    on_disk = {"/static/" + str(p.relative_to(STATIC)) for p in Path(STATIC).rglob("*.js")}
    assert seen == on_disk  # no script is left unused, none is missing


def test_the_game_page_names_the_room_and_the_player_in_its_own_html(app: Starlette) -> None:
    page = _get_all(app, ["/"])["/"].text
    assert '<meta name="okgin-name" content="">' in page and "$" not in page
    assert page.index('src="/static/game.js"') < page.index('src="/static/coach.js"') < page.index(
        'src="/static/room.js"')  # the table first: the others join its table object
    sheets = re.findall(r'<link rel="stylesheet" href="([^"]+)">', page)
    assert "/static/room.css" in sheets
    for path, answer in _get_all(app, sheets).items():
        assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/css"), path


def test_the_docs_name_every_file_of_the_page() -> None:
    web = (ROOT / "docs" / "web.md").read_text(encoding="utf-8")
    table = web[web.index("The page, `okgin/server/pages/static/`"):web.index("### The table object")]
    named = set(re.findall(r"`([\w/.-]+\.(?:js|css|html))`", table))
    files = {str(p.relative_to(STATIC)) for p in Path(STATIC).rglob("*") if p.is_file()}
    assert named == files
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    layout = readme[readme.index("static/ is pages/static/"):]
    layout = layout[:layout.index("```")]
    words = set(re.findall(r"[\w-]+", layout))
    assert {Path(f).stem for f in files if f.endswith(".js")} <= words


def test_no_module_imports_itself_back() -> None:
    """The modules' imports form no circle: each part of the table depends only on the parts
    below it (table/table.js at the bottom), so any one can be read, and changed, alone."""
    graph = {}
    for file in Path(STATIC).rglob("*.js"):
        path = "/static/" + str(file.relative_to(STATIC))
        graph[path] = _imports(path, file.read_text(encoding="utf-8"))

    def circle(path: str, above: tuple[str, ...]) -> tuple[str, ...] | None:
        if path in above:
            return (*above[above.index(path):], path)
        return next((found for below in graph[path] if (found := circle(below, (*above, path)))), None)

    assert [found for path in graph if (found := circle(path, ()))] == []
