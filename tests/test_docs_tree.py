"""docs/web.md's module table and the README's Layout name every module of the tree as it is."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SERVER = ROOT / "okgin" / "server"


def _modules(root: Path) -> list[Path]:
    """Every module under ``root`` but packages' ``__init__`` and Alembic's migrations (named by
    their folder, ``store/migrations/``)."""
    return [p for p in root.rglob("*.py") if p.name != "__init__.py"
            and "__pycache__" not in p.parts and "migrations" not in p.parts]


def _server_modules() -> list[str]:
    return sorted(str(p.relative_to(SERVER)) for p in _modules(SERVER))


def test_docs_web_names_every_server_module_and_no_other() -> None:
    text = (ROOT / "docs" / "web.md").read_text(encoding="utf-8")
    table = text[text.index("| Module | Its one job |"):text.index("The page, `okgin/server/pages/static/`")]
    named = set(re.findall(r"`(?:okgin/server/)?((?:\w+/)?\w+\.py)`", table))
    assert named == set(_server_modules())
    assert "`store/migrations/`" in table


def test_the_readme_layout_names_every_module() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    layout = text[text.index("## Layout"):]
    layout = layout[layout.index("```"):layout.index("```", layout.index("```") + 3)]
    words = set(re.findall(r"\w+", layout))
    assert {p.stem for p in _modules(ROOT / "okgin")} - words == set()
    assert "migrations" in words
