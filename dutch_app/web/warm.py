"""Getting a server process ready before it serves its first page.

A server keeps a few hundred thousand objects that live as long as it does: the modules
the pages import (Streamlit, pandas, Altair, SQLAlchemy, the app's own), the Vega-Lite
schema Altair checks charts against, the translation catalogues. Python's collector walks
all of them in every full collection, which then takes 90-140 ms and stops every session
of the process meanwhile: at 50 tables saving at once, the saves that fell on one were
among the slowest. Warming imports and loads those once at start-up, collects, and
freezes what is left (``gc.freeze``): the collector no longer walks it, and a full
collection walks only what was made since (22-32 ms, measured at 50 tables). Nothing made later
is frozen, so a session's objects are freed as before; the frozen ones were never going
to be.
"""

from __future__ import annotations

import ast
import contextvars
import gc
import importlib
import logging
from pathlib import Path

log = logging.getLogger(__name__)

PROJECT_ROOT = Path(__file__).resolve().parents[2]


def page_modules(root: Path = PROJECT_ROOT) -> list[str]:
    """The modules that ``app.py`` and the scripts in ``pages/`` import, by name."""
    names: set[str] = set()
    for script in [root / "app.py", *sorted((root / "pages").glob("*.py"))]:
        tree = ast.parse(script.read_text(encoding="utf-8"), filename=str(script))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module)
    return sorted(names)


def _load_lazy_data() -> None:
    """What the first pages would load on first use: the Vega-Lite schema and its
    validator (loaded by the first chart), every language's catalogue, and the
    templates of the chart the Play page draws after every round, in every language."""
    from dutch_app.charts import CUMULATIVE_TOTALS
    from dutch_app.i18n import LANGUAGES, translations, use_language

    def in_every_language() -> None:
        for language in LANGUAGES:
            translations(language)
            use_language(language)
            CUMULATIVE_TOTALS.prepare()

    # The language chosen here stays in this copy of the caller's context.
    contextvars.copy_context().run(in_every_language)


def warm_up(root: Path = PROJECT_ROOT) -> int:
    """Import what the pages import, load what they load lazily, then freeze every object
    the process holds; returns how many were frozen."""
    for name in page_modules(root):
        importlib.import_module(name)
    _load_lazy_data()
    gc.collect()
    gc.freeze()
    frozen = gc.get_freeze_count()
    log.info("warmed up: %d long-lived objects left out of the collector's walks", frozen)
    return frozen
