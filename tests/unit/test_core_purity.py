"""The core stays pure: no user interface, storage, network, clock, or shell behind it."""

import ast
import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import dutch_core

CORE_DIR = Path(dutch_core.__file__).parent
PROJECT_ROOT = CORE_DIR.parent

# Whatever the core imports, none of these may come along.
FORBIDDEN_LOADED = [
    "streamlit",
    "sqlalchemy",
    "alembic",
    "psycopg",
    "psycopg2",
    "sqlite3",
    "requests",
    "urllib3",
    "httpx",
    "aiohttp",
    "firebase_admin",
    "google.cloud",
    "grpc",
    "altair",
    "argon2",
    "dutch_app",
]
# The scoring itself (everything but the pandas statistics) pulls in no network code at all.
FORBIDDEN_FOR_SCORING = [*FORBIDDEN_LOADED, "socket", "ssl", "http.client", "urllib.request"]
# Nothing in the core's source may import these (top-level package names).
FORBIDDEN_IMPORTS = {
    *(name.split(".")[0] for name in FORBIDDEN_LOADED),
    "socket",
    "ssl",
    "http",
    "urllib",
    "asyncio",
    "time",
    "os",
    "random",
    "dutch_app",
}
# Reading the clock, however it is spelled.
CLOCK_CALLS = {"now", "utcnow", "today", "time_ns", "monotonic", "perf_counter"}


def loaded_modules(code: str) -> set[str]:
    completed = subprocess.run(
        [sys.executable, "-c", code + "\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return set(json.loads(completed.stdout.strip().splitlines()[-1]))


def offenders(loaded: set[str], forbidden: list[str]) -> list[str]:
    return sorted(
        name for name in loaded for bad in forbidden if name == bad or name.startswith(bad + ".")
    )


def core_modules() -> list[str]:
    return sorted(
        info.name for info in pkgutil.walk_packages([str(CORE_DIR)], prefix="dutch_core.")
    )


def test_importing_the_scoring_core_loads_no_ui_storage_or_network_code():
    scoring = [name for name in core_modules() if not name.startswith("dutch_core.stats")]
    loaded = loaded_modules("\n".join(["import dutch_core", *(f"import {m}" for m in scoring)]))
    assert "dutch_core.game" in loaded
    assert offenders(loaded, FORBIDDEN_FOR_SCORING) == []


def test_importing_every_core_module_loads_no_ui_storage_or_service_library():
    loaded = loaded_modules("\n".join(f"import {module}" for module in core_modules()))
    assert offenders(loaded, FORBIDDEN_LOADED) == []


def source_files() -> list[Path]:
    files = sorted(CORE_DIR.rglob("*.py"))
    assert CORE_DIR / "scoring.py" in files
    return files


def forbidden_in(source: str) -> list[str]:
    """Forbidden imports and clock readings in a piece of Python source."""
    problems = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            names = []
        problems += [name for name in names if name.split(".")[0] in FORBIDDEN_IMPORTS]
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in CLOCK_CALLS
        ):
            problems.append(f"{ast.unparse(node.func)}() on line {node.lineno}")
    return problems


@pytest.mark.parametrize("path", source_files(), ids=lambda path: str(path.relative_to(CORE_DIR)))
def test_core_source_imports_nothing_forbidden_and_reads_no_clock(path):
    assert forbidden_in(path.read_text(encoding="utf-8")) == []


def test_the_scans_catch_what_they_are_meant_to_catch():
    """Guard against checks that would silently pass everything."""
    sample = (
        "import streamlit as st\n"
        "from sqlalchemy.orm import Session\n"
        "import datetime\n"
        "from .errors import DutchError\n"
        "stamp = datetime.datetime.now()\n"
    )
    assert forbidden_in(sample) == [
        "streamlit",
        "sqlalchemy.orm",
        "datetime.datetime.now() on line 5",
    ]
    assert offenders({"streamlit.runtime", "pandas"}, FORBIDDEN_LOADED) == ["streamlit.runtime"]


def core_imports(path: Path) -> set[str]:
    """The dutch_core modules a core file imports, including those only for type checking."""
    imported = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            imported.add(node.module)
        elif isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
    return {name for name in imported if name.split(".")[0] == "dutch_core"}


def module_name(path: Path) -> str:
    parts = path.relative_to(PROJECT_ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One cycle of the import graph (a list of modules that ends where it starts), or []."""
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> list[str]:
        if module in path:
            return [*path[path.index(module) :], module]
        if module in done:
            return []
        for imported in sorted(graph.get(module, ())):
            cycle = visit(imported, [*path, module])
            if cycle:
                return cycle
        done.add(module)
        return []

    for module in sorted(graph):
        cycle = visit(module, [])
        if cycle:
            return cycle
    return []


def test_the_core_modules_import_each_other_without_a_cycle():
    """Each core module imports only modules below it (packages only gather their own)."""
    graph = {}
    for path in source_files():
        name = module_name(path)
        # A package's __init__ re-exports its modules; a module importing its package is a
        # cycle, so the package's own edges count and the edge back to it is the offence.
        graph[name] = core_imports(path) - {name}
    assert import_cycle(graph) == []
    assert import_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


def test_core_names_are_imported_from_the_module_that_defines_them():
    """No module imports a name through another module that merely passes it on."""
    defined: dict[str, set[str]] = {}
    for path in source_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = set()
        for node in tree.body:
            if isinstance(node, ast.FunctionDef | ast.ClassDef | ast.AsyncFunctionDef):
                names.add(node.name)
            elif isinstance(node, ast.Assign):
                for target in node.targets:
                    names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names.add(node.target.id)
        defined[module_name(path)] = names
    folders = ("dutch_core", "dutch_app", "tests", "benchmarks")
    project = [p for f in folders for p in (PROJECT_ROOT / f).rglob("*.py")]
    wrong = []
    for path in [*PROJECT_ROOT.glob("*.py"), *PROJECT_ROOT.glob("pages/*.py"), *project]:
        if "node_modules" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.ImportFrom) and node.level == 0 and node.module):
                continue
            # The packages themselves are the public front doors; their modules are not.
            if node.module not in defined or node.module in ("dutch_core", "dutch_core.stats"):
                continue
            for alias in node.names:
                if alias.name not in defined[node.module]:
                    wrong.append(f"{path.relative_to(PROJECT_ROOT)}: {node.module}.{alias.name}")
    assert wrong == []
