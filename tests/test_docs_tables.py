"""Every module and file table in docs/ names only files that exist, and every module of the
folder it covers: after a move, a rename or a new module, this test names the stale rows. So do
the move's path in docs/server/architecture.md (its files and functions), the protocol's tables of
messages (the types ``wire.messages`` reads) and of HTTP paths (the app's routes), and the store's
tables (the schema's).

A table is a Markdown table whose first column is headed ``Module`` or ``File``. Each one is
listed in ``TABLES`` with the folder it covers, so a new table cannot go unchecked either."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

from okgin.server.app import create_app
from okgin.server.store.schema import metadata
from okgin.server.wire import messages

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
HEADED = re.compile(r"^\| *(Module|File) *\|", re.MULTILINE)
NAME = re.compile(r"`([\w./-]+\.(?:py|js|mjs|css|html|txt))`")


@dataclass(frozen=True)
class Table:
    """One module or file table: the doc it is in, its header row, and the folder it covers."""

    doc: str
    header: str
    folder: str
    suffixes: tuple[str, ...]
    """The kinds of file that must each have a row: ``(".py",)`` for a package."""


TABLES = (
    Table("server/architecture.md", "| Module | Its one job |", "okgin/server", (".py",)),
    Table("web.md", "| File | Its one job |", "okgin/server/pages/static", (".js", ".mjs", ".css", ".html")),
    Table("players.md", "| Module | Its one job |", "okgin/server/players", (".py",)),
    Table("puzzles.md", "| Module | Its one job |", "okgin/puzzles", (".py",)),
)


def _rows_of(text: str) -> list[str]:
    """The rows of the table ``text`` starts with (its header and rule left out)."""
    rows = []
    for line in text.splitlines()[2:]:
        if not line.startswith("|"):
            break
        rows.append(line)
    return rows


def _rows(table: Table) -> list[str]:
    text = (DOCS / table.doc).read_text(encoding="utf-8")
    return _rows_of(text[text.index(table.header):])


def _first_cell(row: str) -> str:
    return row.split("|")[1]


def _resolve(name: str, table: Table, row_dirs: list[Path]) -> Path | None:
    """Where a name in a row is: from the repository's root, the table's folder or one above it,
    or the folder of a path named before it in the same row (``x.py``, ``y.py`` beside it)."""
    folder = ROOT / table.folder
    bases = [ROOT, *row_dirs, folder, *folder.parents]
    for base in bases:
        if (base / name).is_file():
            return base / name
    return None


def _named(table: Table) -> tuple[set[Path], list[str]]:
    """The files a table's rows name, and the rows' names that are no file at all."""
    found: set[Path] = set()
    missing: list[str] = []
    for row in _rows(table):
        row_dirs: list[Path] = []
        for name in NAME.findall(_first_cell(row)):
            path = _resolve(name, table, row_dirs)
            if path is None:
                missing.append(name)
            else:
                found.add(path.resolve())
                row_dirs.append(path.parent)
    return found, missing


def _covered(table: Table) -> set[Path]:
    """Every file of the table's folder that must have a row: a package's modules but its
    ``__init__`` files and Alembic's migrations (named by their folder, ``store/migrations/``)."""
    return {
        path.resolve() for path in (ROOT / table.folder).rglob("*")
        if path.is_file() and path.suffix in table.suffixes and path.name != "__init__.py"
        and "__pycache__" not in path.parts and "migrations" not in path.parts
    }


def test_every_module_and_file_table_in_the_docs_is_checked() -> None:
    found = set()
    for doc in DOCS.rglob("*.md"):
        text = doc.read_text(encoding="utf-8")
        for match in HEADED.finditer(text):
            line = text[match.start():text.index("\n", match.start())]
            found.add((str(doc.relative_to(DOCS)), line))
    assert found == {(table.doc, table.header) for table in TABLES}


def test_every_row_names_a_file_that_exists() -> None:
    stale = {table.doc: missing for table in TABLES if (missing := _named(table)[1])}
    assert stale == {}, "rows naming no file (moved, renamed or removed?)"


def test_every_module_of_a_tables_folder_has_its_row() -> None:
    unlisted = {
        table.doc: sorted(str(path.relative_to(ROOT)) for path in left)
        for table in TABLES if (left := _covered(table) - _named(table)[0])
    }
    assert unlisted == {}, "modules with no row in their folder's table"


def test_the_server_table_names_the_migrations_by_their_folder() -> None:
    rows = "\n".join(_rows(TABLES[0]))
    assert "`store/migrations/`" in rows
    assert (ROOT / "okgin/server/store/migrations").is_dir()


def test_the_protocol_lists_each_message_type_once() -> None:
    text = (DOCS / "server" / "protocol.md").read_text(encoding="utf-8")
    table = text[text.index("## Messages a page sends"):text.index("## Frames the server sends")]
    listed = re.findall(r'^\| `\{"type": "([a-z_]+)"', table, flags=re.MULTILINE)
    assert sorted(listed) == sorted(messages.FIELDS)


def _definitions(path: Path) -> tuple[set[str], dict[str, set[str]]]:
    """A module's top-level names, and each of its classes' methods and fields."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    functions = (ast.FunctionDef, ast.AsyncFunctionDef)
    names: set[str] = set()
    classes: dict[str, set[str]] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            members = {n.name for n in ast.walk(node) if isinstance(n, functions)}
            members |= {n.target.id for n in node.body
                        if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)}
            classes[node.name] = members
        if isinstance(node, (*functions, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {target.id for target in targets if isinstance(target, ast.Name)}
    return names, classes


CODE = re.compile(r"`([A-Za-z_][\w.]*)`")


def _is_code(word: str) -> bool:
    """A name the path's step gives as code (``LiveRoom.commit``, ``parse_message``, ``HANDLERS``),
    not a word of the protocol (``ack``, ``version``)."""
    return not word.endswith(".py") and ("." in word or "_" in word or word[0].isupper())


def test_every_step_of_how_a_change_travels_names_code_that_exists() -> None:
    """Each step's files exist, and each function or class it names is defined in one of the
    files the path names (a method in its class, ``module.name`` in that module)."""
    text = (DOCS / "server" / "architecture.md").read_text(encoding="utf-8")
    path = text[text.index("## How a change travels"):text.index("The same path, in words:")]
    steps = re.split(r"^\d+\. ", path, flags=re.MULTILINE)[1:]
    assert len(steps) >= 5
    files = {ROOT / "okgin" / "server" / name for name in NAME.findall(path) if name.endswith(".py")}
    stale = [str(f.relative_to(ROOT)) for f in sorted(files) if not f.is_file()]
    modules = {f.stem: _definitions(f) for f in files if f.is_file()}
    names = set().union(*(names for names, _ in modules.values()))
    classes: dict[str, set[str]] = {}
    for _, found in modules.values():
        for name, members in found.items():
            classes.setdefault(name, set()).update(members)
    for number, step in enumerate(steps, 1):
        for word in filter(_is_code, CODE.findall(step)):
            head, _, tail = word.partition(".")
            if tail:
                known = tail in classes.get(head, set()) or tail in modules.get(head, (set(), {}))[0]
            else:
                known = word in names or any(word in members for members in classes.values())
            if not known:
                stale.append(f"step {number}: {word}")
    assert stale == [], "names in the move's path that its files do not define: " + ", ".join(stale)


STORE_TABLE = re.compile(r"^\| Table \| What a row is \|\n\|[-|]+\|\n((?:\|.*\n)+)", re.MULTILINE)


def test_the_store_tables_in_the_docs_are_the_schemas_tables() -> None:
    """Every ``| Table | What a row is |`` row names tables of the one schema, and every table
    of the schema has its row in one of them (docs/server/architecture.md, docs/players.md)."""
    named: set[str] = set()
    for doc in DOCS.rglob("*.md"):
        text = doc.read_text(encoding="utf-8")
        for match in STORE_TABLE.finditer(text):
            for row in match.group(1).splitlines():
                named |= set(re.findall(r"`(\w+)`", _first_cell(row)))
    assert sorted(set(metadata.tables) - named) == [], "tables of the schema with no row in the docs"
    assert sorted(named - set(metadata.tables) - {"alembic_version"}) == [], "rows naming no table"


def _documented_paths(cell: str) -> list[str]:
    """The paths a cell of the HTTP table names, as route templates: ``POST`` and queries left
    out, ``<id>`` made ``{}``."""
    return [re.sub(r"<[^>]+>", "{}", name) for name in re.findall(r"`(?:POST )?(/[^`?]*)", cell)]


def test_the_http_table_names_every_route_of_the_app(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'routes.db'}")
    routes = {re.sub(r"\{[^}]+\}", "{}", route.path) for route in app.routes if hasattr(route, "path")}
    text = (DOCS / "server" / "protocol.md").read_text(encoding="utf-8")
    table = text[text.index("| Path | |"):]
    named = [path for row in _rows_of(table) for path in _documented_paths(_first_cell(row))]
    prefixes = [path.removesuffix("…").rstrip("/") for path in named if path.endswith("…")]
    exact = {path for path in named if not path.endswith("…")}

    def documented(route: str) -> bool:
        return route in exact or any(route.startswith(prefix) for prefix in prefixes)

    assert sorted(route for route in routes if not documented(route)) == [], "routes with no row"
    assert sorted(exact - routes) == [], "rows naming no route"
