"""Several tables saving rounds at once through Streamlit's own websocket protocol.

The clients of the load test (``benchmarks/load_test.py``) are browser-less tabs: this runs
a small level of it against a real server on PostgreSQL, so the harness the benchmark relies
on is itself tested, and so is the promise behind it: with tables saving concurrently,
every round is stored exactly once.
"""

from __future__ import annotations

from benchmarks.load_test import SECRET_KEY, run_level

# Three tables of two rounds each: the clients wait between saves, as people do, far more
# than they work, and nothing here is timed against a limit, so it shares the machine with
# the other browser tests.


def test_tables_saving_at_once_store_every_round_exactly_once(
    fresh_postgres_database, streamlit_server
):
    url = fresh_postgres_database()
    from dutch_app.storage.db import get_engine

    get_engine(url).dispose()  # migrated before the server starts, as a host does
    env = {"DUTCH_DATABASE_URL": url, "DUTCH_SECRET_KEY": SECRET_KEY, "DUTCH_AUTH_BACKEND": "local"}
    server = streamlit_server(env=env)
    level = run_level(server, None, url, tables=3, rounds=2)
    assert level.saves == 6
    assert level.stored_rounds == level.expected_rounds == 6
    assert 0 < level.open_p50 <= level.open_p95  # every table's opening of Play was timed
    assert 0 < level.p50 <= level.p95
