"""The server's warm-up (dutch_app/web/warm.py): what the pages need is loaded before the
first page, the long-lived objects are left out of the collector's walks, and what sessions
make later is still freed."""

from __future__ import annotations

import asyncio
import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from dutch_app.web.warm import PROJECT_ROOT, page_modules


def test_page_modules_are_the_absolute_imports_of_the_router_and_the_pages(tmp_path: Path):
    (tmp_path / "pages").mkdir()
    (tmp_path / "app.py").write_text("import json\nimport os.path as p\n", encoding="utf-8")
    (tmp_path / "pages" / "a.py").write_text(
        "from html import escape\nfrom . import sibling\n\ndef f():\n    import csv\n",
        encoding="utf-8",
    )
    (tmp_path / "pages" / "notes.txt").write_text("import nothing", encoding="utf-8")
    assert page_modules(tmp_path) == ["csv", "html", "json", "os.path"]


def test_the_projects_page_modules_include_what_play_and_stats_use():
    modules = page_modules()
    assert {"dutch_app.ui.round_form", "dutch_app.ui.stats_cache", "streamlit"} <= set(modules)


WARM_IN_A_FRESH_PROCESS = """
import gc, json, sys, weakref
from dutch_app.web.warm import page_modules, warm_up
frozen = warm_up()
from dutch_app import charts
from dutch_app.i18n import LANGUAGES
class Cycle:
    pass
made = Cycle()
made.me = made  # garbage only the collector can free
alive = weakref.ref(made)
del made
gc.collect()
print(json.dumps({
    "frozen": frozen,
    "count": gc.get_freeze_count(),
    "missing": [name for name in page_modules() if name not in sys.modules],
    "schema": any(name.startswith("jsonschema") for name in sys.modules),
    "freed_later": alive() is None,
    # Play's chart after every round: a template per language, with point marks or not,
    # each different from the others' languages if it was built in its own.
    "languages": len({
        json.dumps(charts._template(charts.CUMULATIVE_TOTALS, True, (), language))
        for language in LANGUAGES
    }),
    "built": charts._template.cache_info().currsize,
}))
"""


def test_warming_up_loads_the_pages_modules_freezes_them_and_still_frees_later_garbage():
    completed = subprocess.run(
        [sys.executable, "-c", WARM_IN_A_FRESH_PROCESS],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    seen = json.loads(completed.stdout.strip().splitlines()[-1])
    assert seen["missing"] == []
    assert seen["schema"], "Altair's chart validation was not loaded"
    assert seen["frozen"] == seen["count"] > 50_000
    assert seen["freed_later"], "a cycle made after the warm-up was never freed"
    assert seen["languages"] == 4
    assert seen["built"] == 8  # all built at the warm-up: reading them built none


def test_the_servers_lifespan_warms_up_before_it_serves(monkeypatch):
    # The package exports the function under the module's name.
    lifespan_module = importlib.import_module("dutch_app.web.lifespan")
    steps: list[str] = []
    monkeypatch.setattr(lifespan_module, "warm_up", lambda: steps.append("warmed"))

    class Live:
        def stop(self) -> None:
            steps.append("stopped")

    async def serve() -> None:
        async with lifespan_module.lifespan(Live())(None):  # type: ignore[arg-type]
            steps.append("serving")

    asyncio.run(serve())
    assert steps == ["warmed", "serving", "stopped"]


def test_only_a_chart_kind_without_variants_has_its_templates_built_ahead():
    from dutch_app import charts

    with pytest.raises(ValueError, match="variants"):
        charts.RATING_TREND.prepare()
