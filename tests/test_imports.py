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
    """cards → melds → rules/actions → hand → view → match/record: nothing imports a later module."""
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


SERVER = PACKAGE / "server"
FLOORS = [
    "serve", "app", "pages", "tournaments", "pool", "wire", "players", "coach", "rooms", "store", "refusals",
]
"""The server's floors from the top: each module imports only its own floor and those below
(``refusals``, the error codes every floor refuses with, is the bottom)."""


def floor_of(module: str) -> int | None:
    """The floor of ``okgin.server.<...>`` (None: not a server module, or the package itself)."""
    parts = module.split(".")
    if parts[:2] != ["okgin", "server"] or len(parts) < 3:
        return None
    return FLOORS.index(parts[2]) if parts[2] in FLOORS else None


def server_modules(root: Path) -> list[str]:
    """Every module under ``root`` (okgin/server), as ``okgin.server.…`` names."""
    return sorted(".".join(("okgin", "server", *p.relative_to(root).with_suffix("").parts))
                  for p in root.rglob("*.py") if "__pycache__" not in p.parts)


def upward_imports(root: Path) -> list[str]:
    """Each import, anywhere in a module under ``root``, of a module on a higher floor."""
    found = []
    for module in server_modules(root):
        path = root.joinpath(*module.split(".")[2:]).with_suffix(".py")
        own = floor_of(module.removesuffix(".__init__"))
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for name in names:
                floor = floor_of(name)
                if own is not None and floor is not None and floor < own:
                    found.append(f"{module} imports {name}")
    return found


def test_every_server_module_is_on_a_floor() -> None:
    for module in server_modules(SERVER):
        assert module == "okgin.server.__init__" or floor_of(module) is not None, module




def test_no_server_module_imports_a_higher_floor() -> None:
    """app → pages → wire → players → coach → rooms → store (→ refusals): nothing runs back up."""
    assert upward_imports(SERVER) == []


def test_the_floor_check_sees_an_import_running_back_up(tmp_path: Path) -> None:
    (tmp_path / "store").mkdir()
    (tmp_path / "store" / "bad.py").write_text(
        "def load():\n    from okgin.server.rooms.room import Room\n    return Room\n", encoding="utf-8")
    (tmp_path / "rooms").mkdir()
    (tmp_path / "rooms" / "good.py").write_text("from okgin.server.store import bad\n", encoding="utf-8")
    assert upward_imports(tmp_path) == ["okgin.server.store.bad imports okgin.server.rooms.room"]
