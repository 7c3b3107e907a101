"""The README's Layout names every module of the tree and every script of the page as they are,
and every relative link in the docs leads to a file and heading that exist (the docs' module and
file tables: tests/test_docs_tables.py)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "okgin" / "server" / "pages" / "static"


def _modules(root: Path) -> list[Path]:
    """Every module under ``root`` but packages' ``__init__`` and Alembic's migrations (named by
    their folder, ``store/migrations/``)."""
    return [p for p in root.rglob("*.py") if p.name != "__init__.py"
            and "__pycache__" not in p.parts and "migrations" not in p.parts]


def test_the_readme_layout_names_every_module() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    layout = text[text.index("## Layout"):]
    layout = layout[layout.index("```"):layout.index("```", layout.index("```") + 3)]
    words = set(re.findall(r"\w+", layout))
    assert {p.stem for p in _modules(ROOT / "okgin")} - words == set()
    assert "migrations" in words


def test_the_readme_layout_names_every_script_of_the_page() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    static = text[text.index("static/ is pages/static/"):]
    static = static[:static.index("```")]
    named = set(re.findall(r"[\w/-]+\.(?:js|mjs)", static))
    scripts = {str(p.relative_to(STATIC)) for p in STATIC.rglob("*") if p.suffix in (".js", ".mjs")}
    assert scripts - named == set()


def _anchors(doc: Path) -> set[str]:
    """A Markdown file's heading anchors, made as GitHub makes them."""
    headings = (line.lstrip("#").strip().lower() for line in doc.read_text(encoding="utf-8").splitlines()
                if line.startswith("#"))
    return {re.sub(r"[^\w\- ]", "", heading).replace(" ", "-") for heading in headings}


def test_every_relative_link_in_the_docs_leads_somewhere() -> None:
    """After a section moves to another file, a link to it from anywhere else is found here."""
    broken = []
    for doc in [*(ROOT / "docs").rglob("*.md"), ROOT / "README.md", ROOT / "deploy" / "README.md"]:
        for target, anchor in re.findall(r"\]\(([^)#\s]*)(#[^)\s]*)?\)", doc.read_text(encoding="utf-8")):
            if target.startswith(("http:", "https:", "mailto:")):
                continue
            path = doc.parent / target if target else doc
            if not path.exists() or (anchor and path.suffix == ".md" and anchor[1:] not in _anchors(path)):
                broken.append(f"{doc.relative_to(ROOT)}: {target}{anchor}")
    assert broken == []
