"""The history frame: its schema, an empty instance, and filtering.

The history frame is tidy: one row per player per round, sorted by
``game_started_at``, ``game_id``, ``round_number``, ``seat``. Every statistic
in :mod:`dutch_core.stats` is a function of this frame.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

import numpy as np
import pandas as pd

HISTORY_DTYPES: dict[str, str] = {
    "game_id": "int32",
    "game_started_at": "datetime64[ns, UTC]",
    "game_status": "category",
    "round_id": "int32",
    "round_number": "int32",
    "played_at": "datetime64[ns, UTC]",
    "player_id": "int32",
    "player": "category",
    "seat": "int8",
    "cards": "string",
    "hand_total": "int32",
    "is_caller": "bool",
    "caller": "category",
    "caller_hand_total": "Int32",
    "call_type": "category",
    "outcome": "category",
    "penalty_cards_due": "int16",
    "penalty": "string",
    "penalty_points": "int32",
    "round_score": "int32",
    "game_total": "int32",
}
"""Column name -> pandas dtype, in the frame's column order."""

HISTORY_COLUMNS: tuple[str, ...] = tuple(HISTORY_DTYPES)
HISTORY_ORDER: list[str] = ["game_started_at", "game_id", "round_number", "seat"]
"""The sort order of a history frame."""


def empty_history() -> pd.DataFrame:
    """An empty history frame with the schema's columns and dtypes.

    >>> frame = empty_history()
    >>> len(frame), frame["game_total"].dtype.name
    (0, 'int32')
    """
    return pd.DataFrame({name: pd.Series(dtype=dtype) for name, dtype in HISTORY_DTYPES.items()})


def conform_history(df: pd.DataFrame) -> pd.DataFrame:
    """The frame with exactly the schema's columns, dtypes and sort order.

    Extra columns are dropped; a missing column raises ``KeyError`` naming it.
    """
    missing = [name for name in HISTORY_COLUMNS if name not in df.columns]
    if missing:
        raise KeyError(f"history frame lacks column(s) {missing!r}")
    frame = df.loc[:, list(HISTORY_COLUMNS)].astype(HISTORY_DTYPES)
    return frame.sort_values(HISTORY_ORDER, kind="stable", ignore_index=True)


def filter_history(
    df: pd.DataFrame,
    date_from: dt.date | None = None,
    date_to: dt.date | None = None,
    players: Iterable[str] | None = None,
) -> pd.DataFrame:
    """The rows of the games that started in a date range and include any of ``players``.

    Whole games are kept or dropped together, so that wins, ranks and call
    outcomes (which compare players of the same game) stay right. Dates are
    inclusive calendar days in UTC; a ``datetime`` bound is used as is (naive
    means UTC). ``None`` leaves that side open; ``players=None`` keeps every
    game. The tables then still list every player of the kept games; use
    :func:`only_players` to show just the chosen ones.
    """
    started = df["game_started_at"]
    keep = pd.Series(True, index=df.index)
    if date_from is not None:
        keep &= started >= _utc_bound(date_from, end=False)
    if date_to is not None:
        if isinstance(date_to, dt.datetime):
            keep &= started <= _utc_bound(date_to, end=False)
        else:
            keep &= started < _utc_bound(date_to, end=True)
    if players is not None:
        chosen = df["player"].isin(list(players))
        games = df.loc[chosen, "game_id"].unique()
        keep &= df["game_id"].isin(games)
    return df.loc[keep.to_numpy(dtype=bool)].reset_index(drop=True)


def only_players(table: pd.DataFrame, players: Iterable[str] | None) -> pd.DataFrame:
    """The rows of a statistics table whose ``player`` is one of ``players`` (all if None)."""
    if players is None:
        return table
    keep = np.asarray(table["player"].array.isin(list(players)), dtype=bool)
    kept = table if keep.all() else table.loc[keep]
    return kept.reset_index(drop=True)


def _utc_bound(value: dt.date, *, end: bool) -> pd.Timestamp:
    """A bound in UTC: the instant itself for a datetime; else the day's start (or the next's)."""
    if isinstance(value, dt.datetime):
        stamp = pd.Timestamp(value)
        return stamp.tz_localize("UTC") if stamp.tzinfo is None else stamp.tz_convert("UTC")
    day = pd.Timestamp(value.year, value.month, value.day, tz="UTC")
    return day + pd.Timedelta(days=1) if end else day
