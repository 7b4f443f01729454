"""Demo data: games played from a shuffled deck, scored by the core, written in bulk."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pandas as pd
import pytest
from sqlalchemy import event, func, select, text

from dutch_app.i18n import use_language
from dutch_app.services import demo
from dutch_app.services._stored_games import core_game, rounds_of, table_of
from dutch_app.services.errors import NotFound, ValidationError
from dutch_app.services.games import get_game, list_games
from dutch_app.services.groups import create_group, join_group
from dutch_app.services.history import load_history
from dutch_app.services.unit_of_work import perform
from dutch_app.storage.models import Game
from dutch_core import parse_cards
from tests.servers import wait_until

PROJECT_ROOT = Path(__file__).resolve().parents[2]
END = datetime(2025, 6, 1, 22, 0, tzinfo=UTC)
SAME_PLAY = [
    "round_number", "player", "seat", "cards", "hand_total", "caller", "call_type",
    "outcome", "penalty", "round_score", "game_total", "game_status", "game_started_at",
]  # fmt: skip


def generated(session, owner, name: str, rows: int, seed: int) -> tuple[int, pd.DataFrame]:
    group = perform(session, create_group, owner, name)
    demo.generate_history(session, group.id, rows, seed, end=END)
    return group.id, perform(session, load_history, owner, group.id)


@pytest.fixture
def history(session, owner):
    return generated(session, owner, "Demo", 600, 7)


def test_the_size_is_reached_within_one_game(history):
    _, frame = history
    per_game = frame.groupby("game_id").size()
    assert 600 <= len(frame) < 600 + per_game.max()
    assert frame["game_started_at"].max() < pd.Timestamp(END)


def test_the_same_seed_plays_the_same_games(session, owner, history):
    _, frame = history
    _, again = generated(session, owner, "Demo again", 600, 7)
    _, other = generated(session, owner, "Other demo", 600, 8)
    assert again[SAME_PLAY].equals(frame[SAME_PLAY])
    assert not other[SAME_PLAY].equals(frame[SAME_PLAY].iloc[: len(other)])


def test_the_history_looks_like_real_play(history):
    _, frame = history
    rounds = frame.drop_duplicates("round_id")
    assert set(rounds["outcome"].dropna()) == {"lowest", "tied", "beaten"}
    assert {"dutch", "auto_dutch"} <= set(rounds["call_type"].dropna())
    assert (rounds["outcome"] == "lowest").mean() > 0.4  # callers mostly know their hands
    assert 0.05 < frame["cards"].isna().mean() < 0.3  # some hands written down as totals only
    assert frame["hand_total"].between(0, 80).all()
    assert frame.groupby("game_id")["player"].nunique().between(3, 6).all()
    active = frame.loc[frame["game_status"].eq("active"), "game_id"]
    assert set(active) <= {frame["game_id"].max()}  # only the newest game may still go on


def test_penalty_cards_were_really_drawn(history):
    _, frame = history
    callers = frame[frame["is_caller"] & frame["penalty_cards_due"].gt(0)]
    as_cards = callers[callers["penalty"].str.contains(r"[A-Z]", regex=True, na=False)]
    assert len(as_cards) > 10
    for penalty, due in zip(as_cards["penalty"], as_cards["penalty_cards_due"], strict=True):
        assert len(parse_cards(penalty.rstrip(","))) == due
    assert (callers["round_score"] == callers["hand_total"] + callers["penalty_points"]).all()


def test_every_stored_score_is_what_the_core_computes(session, owner, history):
    group_id, frame = history
    for summary in perform(session, list_games, owner, group_id)[:12]:  # newest first
        view = perform(session, get_game, owner, summary.id)
        stored_game = session.get(Game, summary.id)
        core = core_game(stored_game, table_of(session, summary.id), rounds_of(session, summary.id))
        for stored, result, totals in zip(
            view.rounds, core.rounds, core.running_totals(), strict=True
        ):
            assert [h.round_score for h in stored.hands] == [s.round_score for s in result.scores]
            assert [h.game_total for h in stored.hands] == list(totals.values())
        newest = summary.id == frame["game_id"].max()
        assert (view.status == "active") == (newest and not view.is_over)


def test_rows_are_written_in_bulk(session, engine, owner):
    group = perform(session, create_group, owner, "Bulk")
    inserts = []

    def count(_conn, _cursor, statement, *_rest):
        if statement.startswith("INSERT"):
            inserts.append(statement)

    event.listen(engine, "before_cursor_execute", count)
    try:
        summary = demo.generate_history(session, group.id, 1500, 3, end=END)
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert summary.rows >= 1500
    assert len(inserts) < 30  # a few statements per batch, not one per row


def test_on_postgresql_the_written_tables_are_analysed_afterwards(session, engine, owner):
    """So the planner knows their new size at once (see generate_history); SQLite's
    planner keeps no statistics unless asked, and none are made there."""
    group = perform(session, create_group, owner, "Analysed")
    before = session.scalar(select(func.now())) if engine.dialect.name == "postgresql" else None
    session.commit()
    demo.generate_history(session, group.id, 200, 3)
    if engine.dialect.name == "postgresql":

        def analysed() -> dict[str, object]:
            found = dict(
                session.execute(
                    text(
                        "SELECT relname, last_analyze FROM pg_stat_user_tables WHERE relname IN "
                        "('games', 'game_players', 'players', 'rounds', 'round_hands')"
                    )
                ).all()
            )
            session.commit()
            return found

        def all_analysed() -> bool:
            found = analysed()
            return len(found) == 5 and all(
                when is not None and when >= before for when in found.values()
            )

        assert wait_until(all_analysed, timeout=10), analysed()  # the statistics views can lag
    else:
        stats = session.scalar(
            text("SELECT count(*) FROM sqlite_master WHERE name = 'sqlite_stat1'")
        )
        assert stats == 0


@pytest.mark.parametrize("rows", [0, -5, demo.MAX_ROWS + 1, "100"])
def test_an_impossible_size_is_refused(session, group, rows):
    with pytest.raises(ValidationError, match="rows must be a number from 1 to 1000000"):
        demo.generate_history(session, group.id, rows, 1)


def test_an_unknown_group_is_not_found(session):
    with pytest.raises(NotFound, match="No group with id 424242"):
        demo.generate_history(session, 424242, 100, 1)


def test_the_one_click_demo_group_belongs_to_its_user(session, owner):
    made = perform(session, demo.load_demo_group, owner)
    assert (made.name, made.role, [m.user_id for m in made.members]) == (
        "Demo group",
        "owner",
        [owner],
    )
    frame = perform(session, load_history, owner, made.id)
    assert demo.DEMO_GROUP_ROWS <= len(frame) < demo.DEMO_GROUP_ROWS + 400
    assert frame["played_at"].max() <= pd.Timestamp.now(tz="UTC")


def test_the_demo_group_is_named_in_the_language_of_who_loads_it(session, owner):
    try:
        use_language("de")
        made = perform(session, demo.load_demo_group, owner)
    finally:
        use_language("en")
    assert made.name == "Demo-Gruppe"


def test_the_command_line_makes_a_group_to_join(session, engine, make_user):
    url = engine.url.render_as_string(hide_password=False)
    finished = subprocess.run(
        [sys.executable, "-m", "dutch_app.services.demo", "--rows", "120", "--seed", "5",
         "--database-url", url],
        cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert finished.returncode == 0, finished.stderr
    code = finished.stdout.strip().split()[-1].rstrip(".")
    joined = perform(session, join_group, make_user("Visitor"), code)
    assert joined.name == "Demo (120 rows, seed 5)"
    assert len(perform(session, load_history, joined.members[0].user_id, joined.id)) >= 120
