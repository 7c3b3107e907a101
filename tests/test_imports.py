"""The engine never imports the server, the CLI or a bot; arrows run one way (STYLE.md)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "okgin"
ENGINE = [
    "cards", "melds", "rules", "actions", "hand", "match", "record", "view", "layoffs", "scoring",
    "errors",
]
FORBIDDEN = ("okgin.server", "okgin.cli", "okgin.bots", "okgin.runner", "okgin.terminal", "okgin.advice",
             "okgin.sim")


def imports_of(module: str) -> set[str]:
    """Every module that ``okgin/<module>.py`` imports, anywhere in the file."""
    tree = ast.parse((PACKAGE / f"{module}.py").read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = "okgin." + base if base else "okgin"
            found.add(base)
            found |= {f"{base}.{alias.name}" for alias in node.names if base == "okgin"}
    return found


@pytest.mark.parametrize("module", ENGINE)
def test_engine_modules_import_only_the_engine_and_the_standard_library(module):
    for name in imports_of(module):
        assert not name.startswith(FORBIDDEN), f"okgin/{module}.py imports {name}"
        top = name.split(".")[0]
        if top == "okgin":
            assert name.split(".")[1] in ENGINE, f"okgin/{module}.py imports {name}"
        else:
            assert top in sys.stdlib_module_names or top == "__future__", f"okgin/{module}.py imports {name}"


def test_the_check_sees_a_forbidden_import(tmp_path, monkeypatch):
    (tmp_path / "bad.py").write_text("from okgin.bots import make_player\nimport rich\n", encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", tmp_path)
    found = imports_of("bad")
    assert "okgin.bots" in found and "rich" in found


ORDER = [
    "errors", "cards", "melds", "rules", "actions", "layoffs", "scoring", "hand", "view", "match", "record",
]


@pytest.mark.parametrize("module", ENGINE)
def test_arrows_run_one_way(module):
    """cards → melds → rules/actions → hand → match/record → view: nothing imports a later module."""
    place = ORDER.index(module)
    for name in imports_of(module):
        parts = name.split(".")
        if parts[0] == "okgin" and len(parts) > 1 and parts[1] in ORDER:
            assert ORDER.index(parts[1]) < place, f"okgin/{module}.py imports okgin.{parts[1]}"


@pytest.mark.parametrize("module", [*sorted(f"advice/{p.stem}" for p in (PACKAGE / "advice").glob("*.py")),
                                    "steps"])
def test_the_coach_is_engine_code_without_the_web(module):
    """The coach reads views and uses the players' inference, but knows nothing of the server."""
    for name in imports_of(module):
        assert not name.startswith(("okgin.server", "okgin.cli", "okgin.terminal", "starlette")), name
        top = name.split(".")[0]
        assert top in ("okgin", "__future__") or top in sys.stdlib_module_names, name


@pytest.mark.parametrize("module", ["prizes", "pairing"])
def test_prizes_and_pairing_are_pure_logic_beside_the_engine(module):
    """Used by the command line and the server alike: the engine and the standard library only."""
    for name in imports_of(module):
        top = name.split(".")[0]
        if top == "okgin":
            assert name.split(".")[1] in ENGINE, f"okgin/{module}.py imports {name}"
        else:
            assert top in sys.stdlib_module_names or top == "__future__", f"okgin/{module}.py imports {name}"
