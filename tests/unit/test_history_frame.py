"""The history frame made from Arrow record batches, as either database gives them.

SQLite gives moments as text and booleans as 0 and 1, PostgreSQL gives them typed; text
with few values may meet a new value in a later batch. Whatever the batches, the frame
has the agreed types, and its categories are sorted as pandas sorts them.
"""

from datetime import UTC, datetime

import pandas as pd
import pyarrow as pa

from dutch_app.services._history_frame import history_frame
from dutch_core.stats import HISTORY_DTYPES, empty_history

ROW = {
    "game_id": 1,
    "game_started_at": "2026-01-31 20:15:00.000000",
    "game_status": "active",
    "round_id": 1,
    "round_number": 1,
    "played_at": "2026-01-31 20:16:30.500000",
    "player_id": 1,
    "player": "Ann",
    "seat": 0,
    "cards": None,
    "hand_total": 4,
    "is_caller": 1,
    "caller": "Ann",
    "caller_hand_total": 4,
    "call_type": "dutch",
    "outcome": "lowest",
    "penalty_cards_due": 0,
    "penalty": None,
    "penalty_points": 0,
    "round_score": 0,
    "game_total": 0,
}
SQLITE = pa.schema(
    (name, pa.string() if isinstance(value, str) or value is None else pa.int64())
    for name, value in ROW.items()
)


def batch(*rows: dict) -> pa.RecordBatch:
    """SQLite's batch of ``rows`` (each a change of :data:`ROW`)."""
    return pa.RecordBatch.from_pylist([{**ROW, **row} for row in rows], schema=SQLITE)


def test_no_batch_is_the_empty_history():
    pd.testing.assert_frame_equal(history_frame([]), empty_history())
    assert history_frame([batch()][:0]).dtypes.equals(empty_history().dtypes)


def test_sqlite_batches_become_the_agreed_types():
    frame = history_frame([batch({}, {"seat": 1, "player": "Bo", "is_caller": 0})])
    assert frame.dtypes.astype(str).to_dict() == HISTORY_DTYPES
    assert frame["played_at"].iloc[0] == pd.Timestamp("2026-01-31 20:16:30.5", tz="UTC")
    assert frame["is_caller"].tolist() == [True, False]
    assert frame["cards"].isna().all()


def test_postgresql_batches_give_the_same_frame():
    sqlite = [batch({}, {"seat": 1, "player": "Bo", "is_caller": 0, "cards": "KH"})]
    typed = pa.Table.from_batches(sqlite).to_pylist()
    for row in typed:
        for name in ("game_started_at", "played_at"):
            row[name] = datetime.fromisoformat(row[name]).replace(tzinfo=UTC)
        row["is_caller"] = bool(row["is_caller"])
    postgresql = pa.RecordBatch.from_pylist(typed)  # Arrow's own types for these values
    pd.testing.assert_frame_equal(history_frame([postgresql]), history_frame(sqlite))


def test_categories_are_sorted_over_every_batch():
    """A value first met in a later batch, and names in any script, sorted by code point
    as ``astype("category")`` sorts them."""
    names = ["Zoë", "Émile", "anna", "Åsa", "Bo", "ßen", "李"]
    batches = [
        batch({"player": "Bo", "caller": None}, {"player": "Ann"}),
        batch(*({"player": name, "caller": name} for name in names)),
    ]
    frame = history_frame(batches)
    everyone = ["Bo", "Ann", *names]
    expected = pd.Series(everyone, dtype="str").astype("category")
    pd.testing.assert_series_equal(frame["player"], expected, check_names=False)
    assert list(frame["player"].cat.categories) == sorted(set(everyone))
    assert frame["caller"].isna().tolist() == [True] + [False] * len(names) + [False]
