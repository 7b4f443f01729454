"""Fixtures for AppTest runs of the whole app.

Each test gets its own SQLite database and a clean Streamlit cache, so the
shared resources (engine, account store) are made afresh for it.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import pytest
import streamlit as st

from dutch_app.ui.context import Resources, resources
from tests.app.apptools import Table, make_table


@pytest.fixture
def app_resources(tmp_path, monkeypatch, migrated_sqlite) -> Iterator[Resources]:
    """A fresh database and account store, exactly as the app will make them (on a copy
    of a migrated file: the app's start still checks the schema and finds it at head;
    starting on an empty file is what the browser tests' servers and the migration
    tests do)."""
    shutil.copy(migrated_sqlite, tmp_path / "app.db")
    monkeypatch.setenv("DUTCH_DATABASE_URL", f"sqlite:///{tmp_path / 'app.db'}")
    monkeypatch.setenv("DUTCH_SECRET_KEY", "app-test-secret-key-that-is-long-enough")
    monkeypatch.setenv("DUTCH_AUTH_BACKEND", "local")
    st.cache_resource.clear()
    st.cache_data.clear()
    yield resources()
    resources().engine.dispose()
    st.cache_resource.clear()
    st.cache_data.clear()


@pytest.fixture
def table(app_resources) -> Table:
    """A signed-up person with a group of four players."""
    return make_table(app_resources)
