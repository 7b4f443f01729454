"""The shell's layers (docs/architecture.md, "What each package may import"): its modules
import each other without a cycle, the screens' package ``dutch_app.ui`` is imported only
by itself (and the pages), and each lower package keeps away from what it must never import.

Every import counts, those inside a function or for type checking too: an import put off
to run later is still a dependency, and only hides a cycle from Python."""

from __future__ import annotations

import ast
import graphlib
from pathlib import Path

import pytest

import dutch_app

APP_DIR = Path(dutch_app.__file__).parent
PROJECT_ROOT = APP_DIR.parent

NEVER = {
    "dutch_app.storage": ("dutch_app.services", "dutch_app.accounts", "streamlit"),
    "dutch_app.csv_io": ("dutch_app.storage", "dutch_app.services", "streamlit"),
    "dutch_app.services": ("dutch_app.accounts", "dutch_app.web", "streamlit"),
    "dutch_app.accounts": ("dutch_app.web", "streamlit"),
    "dutch_app.charts": ("dutch_app.services", "dutch_app.storage"),
    "dutch_app.stats_view": ("dutch_app.services", "dutch_app.storage", "streamlit"),
    "dutch_app.stats_sections": ("dutch_app.services", "dutch_app.storage", "streamlit"),
    "dutch_app.stats_columns": ("dutch_app.services", "dutch_app.storage"),
    "dutch_app.round_payload": ("dutch_app.services", "dutch_app.storage", "streamlit"),
}
"""What each package or module below the screens must never import, besides the screens'
own ``dutch_app.ui`` (which none of them may)."""


def modules_under(root: Path, package: str) -> dict[str, Path]:
    """The modules of ``package`` (a folder of ``root``) by name, each with its file."""
    found = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


APP_MODULES = modules_under(PROJECT_ROOT, "dutch_app")


def imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """Everything ``path`` imports anywhere in it: a module of ``modules`` where the import
    names one (``from dutch_app.services import games`` is ``dutch_app.services.games``),
    otherwise the imported name as written."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:  # relative: from the package of ``name``, up level - 1 more
                package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
                module = ".".join([*package[: len(package) - node.level + 1], module]).strip(".")
            for alias in node.names:
                inner = f"{module}.{alias.name}"
                found.add(inner if inner in modules else module)
    return found


def graph_of(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Each module and the modules of ``modules`` it imports."""
    return {
        name: (imports(name, path, modules) & modules.keys()) - {name}
        for name, path in modules.items()
    }


def cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle of ``graph`` (a list of modules that ends where it starts), or []."""
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as error:
        return list(error.args[1])
    return []


def inside(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def wrong_imports(modules: dict[str, Path]) -> list[str]:
    """Imports of the screens' package from below it, and of what :data:`NEVER` forbids."""
    wrong = []
    for name, path in modules.items():
        if inside(name, "dutch_app.ui"):
            continue
        never = [bad for package, bads in NEVER.items() if inside(name, package) for bad in bads]
        for imported in sorted(imports(name, path, modules)):
            if any(inside(imported, bad) for bad in ["dutch_app.ui", *never]):
                wrong.append(f"{name} imports {imported}")
    return wrong


def test_the_shells_modules_import_each_other_without_a_cycle():
    assert cycle(graph_of(APP_MODULES)) == []


def test_nothing_below_the_screens_imports_them_or_what_its_layer_must_not():
    assert wrong_imports(APP_MODULES) == []


def test_the_checks_catch_a_cycle_and_an_upward_import(tmp_path):
    """Guard against checks that would pass everything: a cycle through a deferred import
    and a chart module that reaches up into the screens' package are both found."""
    package = tmp_path / "dutch_app"
    (package / "ui").mkdir(parents=True)
    sources = {
        "__init__.py": "",
        "a.py": "from dutch_app import b\n",
        "b.py": "def later():\n    from dutch_app.a import thing\n",
        "charts.py": "from dutch_app.ui.text import md\nimport streamlit\n",
        "ui/__init__.py": "",
        "ui/text.py": "from . import helper\n",
        "ui/helper.py": "",
    }
    for relative, source in sources.items():
        (package / relative).write_text(source)
    modules = modules_under(tmp_path, "dutch_app")
    assert sorted(cycle(graph_of(modules))[:-1]) == ["dutch_app.a", "dutch_app.b"]
    assert graph_of(modules)["dutch_app.ui.text"] == {"dutch_app.ui.helper"}
    assert wrong_imports(modules) == ["dutch_app.charts imports dutch_app.ui.text"]


@pytest.mark.parametrize("package", sorted(NEVER))
def test_every_rule_names_a_module_that_exists(package):
    assert any(inside(name, package) for name in APP_MODULES)
