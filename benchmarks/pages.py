"""Ratios of page reruns, measured with Streamlit's AppTest on the real app.py.

Each rerun is timed with ``time.perf_counter`` around ``AppTest.run()`` after
warm-up runs, the two pages of a ratio taking turns. AppTest compiles every
script afresh on each run, where a server compiles it once and keeps the
bytecode; here one script cache is kept across runs, as a server does, so the
times are those of the pages' own work.

AppTest also forgets before every run that the app routes with
``st.navigation``, so each run first takes Streamlit's old ``pages/``-folder path
(listing the folder, then :func:`dutch_app.ui.routing.ensure_routed` running
``app.py`` afresh). A server takes that path once per process, on its very first
run. The timed runs follow the server (:func:`dutch_app.ui.routing.routed_as_on_a_server`); the runs
that open a page beforehand still go the AppTest way.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

import streamlit as st
from sqlalchemy.orm import Session
from streamlit.runtime.scriptrunner.script_cache import ScriptCache
from streamlit.testing.v1 import AppTest

from benchmarks.databases import PLAYER_NAMES, BenchDatabase
from benchmarks.service_ratios import HANDS, load_frame
from benchmarks.timing import Comparison, compare
from dutch_app.accounts.tokens import account_of
from dutch_app.services import games, groups, players, rounds
from dutch_app.services.unit_of_work import perform
from dutch_app.stats_sections import TrendWindows
from dutch_app.stats_view import compute_bundle
from dutch_app.storage.models import User
from dutch_app.ui import play_entry
from dutch_app.ui.context import GROUP_KEY, Resources, resources
from dutch_app.ui.history_view import rounds_word
from dutch_app.ui.routing import routed_as_on_a_server
from dutch_core import PRESETS

ROOT = Path(__file__).resolve().parents[1]
APP = str(ROOT / "app.py")
BARE_STATS = str(Path(__file__).resolve().parent / "bare_stats.py")
SECRET_KEY = "benchmark-secret-key-not-for-production"  # noqa: S105 - a throwaway key
TIMEOUT = 900  # a cold Stats page over a million rows on a busy machine
ROUNDS_PLAYED = 5


@contextmanager
def app_on(database: BenchDatabase) -> Iterator[Resources]:
    """The app's shared resources made for ``database``, as a server would make them."""
    settings = {
        "DUTCH_DATABASE_URL": database.url,
        "DUTCH_SECRET_KEY": SECRET_KEY,
        "DUTCH_AUTH_BACKEND": "local",
    }
    before = {name: os.environ.get(name) for name in settings}
    os.environ.update(settings)
    st.cache_resource.clear()
    st.cache_data.clear()
    compiled_once = ScriptCache()
    try:
        with (
            mock.patch("streamlit.testing.v1.app_test.ScriptCache", return_value=compiled_once),
            mock.patch(
                "streamlit.testing.v1.local_script_runner.ScriptCache", return_value=compiled_once
            ),
        ):
            yield resources()
    finally:
        resources().engine.dispose()
        st.cache_resource.clear()
        st.cache_data.clear()
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _run(at: AppTest) -> AppTest:
    at.run()
    if at.exception:
        raise RuntimeError(f"The page failed: {at.exception}")
    return at


def open_page(res: Resources, user_id: int, group_id: int, page: str | None) -> AppTest:
    """app.py signed in as ``user_id``, with ``group_id`` active, switched to ``page``."""
    with res.sessions() as session:
        account = account_of(session.get_one(User, user_id))
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.session_state["account"] = account
    at.session_state["session_token"] = res.accounts.issue_token(user_id)
    at.session_state["cookie_checked"] = True
    at.session_state[GROUP_KEY] = group_id
    _run(at)
    if page is not None:
        at.switch_page(page)
        _run(at)
    return at


def _game_in_progress(session: Session, owner: int, group_id: int) -> None:
    """End the group's games in progress and start one of four players with a few rounds."""
    for game in perform(session, games.list_games, owner, group_id, status="active"):
        perform(session, games.end_game, owner, game.id)
    seats = [p.id for p in perform(session, players.list_players, owner, group_id)[: len(HANDS)]]
    game = perform(session, games.start_game, owner, group_id, seats, PRESETS["classic_open"])
    hands = dict(zip(seats, HANDS, strict=True))
    for _ in range(ROUNDS_PLAYED):
        perform(session, rounds.add_round, owner, game.id, hands, seats[0], "dutch")


def _entry_numbers(at: AppTest) -> list[int]:
    """The round number each round entry on the page is drawn for (the entry is drawn in
    the browser from this data, so the page has no heading of its own for it)."""
    return [
        json.loads(node.proto.json)["number"]
        for node in at.get("bidi_component")
        if getattr(node.proto, "component_name", None) == play_entry.ELEMENT_NAME
    ]


def play_rerun(database: BenchDatabase, repeats: int) -> Comparison:
    """3. A Play page rerun in the group with its history ÷ the same in a new, empty group.

    Both groups belong to the same person in the same database and show one game
    of four players after five rounds.
    """
    owner = database.owner_id
    with app_on(database) as res:
        with res.sessions() as session:
            empty_group = perform(session, groups.create_group, owner, "Benchmark newcomers").id
            for name in PLAYER_NAMES:
                perform(session, players.add_player, owner, empty_group, name)
            for group_id in (database.group_id, empty_group):
                _game_in_progress(session, owner, group_id)
        with_history = open_page(res, owner, database.group_id, "pages/play.py")
        without = open_page(res, owner, empty_group, "pages/play.py")
        for at in (with_history, without):
            numbers = _entry_numbers(at)
            if numbers != [ROUNDS_PLAYED + 1]:
                raise RuntimeError(f"The Play page shows no form for the next round: {numbers!r}")
        with routed_as_on_a_server():
            return compare(lambda: _run(with_history), lambda: _run(without), repeats, warmups=2)


def stats_rerun(database: BenchDatabase, repeats: int) -> Comparison:
    """4. A warm Stats page rerun ÷ a bare page drawing the same table and charts from memory."""
    bundle = compute_bundle(load_frame(database), None, TrendWindows())
    with app_on(database) as res:
        app = open_page(res, database.owner_id, database.group_id, "pages/stats.py")
        shown = " ".join(caption.value for caption in app.caption)
        if rounds_word(bundle.rounds_played) not in shown:
            raise RuntimeError(f"The Stats page does not show the history: {shown!r}")
        bare = AppTest.from_file(BARE_STATS, default_timeout=TIMEOUT)
        bare.session_state["bench_bundle"] = bundle
        _run(bare)
        with routed_as_on_a_server():
            comparison = compare(lambda: _run(app), lambda: _run(bare), repeats, warmups=2)
        if rounds_word(bundle.rounds_played) not in " ".join(c.value for c in app.caption):
            raise RuntimeError("The Stats page lost its history during the timed runs.")
        return comparison
