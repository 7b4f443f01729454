"""The history frame, filled batch by batch from the Arrow rows of the history SELECT.

The rows are counted first, so every column of the frame is made once, at its
final size and type, and each record batch is written into it as soon as it is
read (integers narrowed, times parsed, text with few distinct values numbered)
and then let go: the driver's wide rows never exist whole, and no column is
joined from pieces at the end, except the two free-text columns. The categories
are sorted as pandas's ``astype("category")`` sorts them, and the caller's hand
total is spread over the rows of each round, once every row is in.
"""

from __future__ import annotations

import functools

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from dutch_app.storage.arrow_read import Batches
from dutch_core.stats import HISTORY_DTYPES, empty_history

_TIMES = ("game_started_at", "played_at")

POOL = pa.system_memory_pool()
"""Where the load's Arrow arrays come from: the C library's allocator, which hands a
freed block of some size back to the system at once. Arrow's default allocator keeps
freed pages for reuse, about 2 MB more for a 10,000-row load (and no less for the
next one), which is more than twice that frame."""
_DERIVED = "caller_hand_total"


def history_frame(read: Batches) -> pd.DataFrame:
    """The history frame (see ``dutch_core.stats.HISTORY_DTYPES``) of the SELECT's rows."""
    if read.rows == 0:
        return empty_history()
    columns = _Columns(read.rows)
    for batch in read:
        columns.add(batch)
        del batch
    return columns.frame()


class _Columns:
    """The frame's columns at their final size, filled in the order the rows come."""

    def __init__(self, rows: int) -> None:
        self._rows = rows
        self._filled = 0
        self._arrays: dict[str, np.ndarray] = {}
        self._coded: dict[str, _Coded] = {}
        self._texts: dict[str, list[pa.Array]] = {}
        for name, dtype in HISTORY_DTYPES.items():
            if name in _TIMES:
                self._arrays[name] = np.empty(rows, dtype="datetime64[ns]")
            elif dtype == "category":
                self._coded[name] = _Coded(rows)
            elif dtype == "string":
                self._texts[name] = []
            elif name != _DERIVED:
                self._arrays[name] = np.empty(rows, dtype=dtype)

    def add(self, batch: pa.RecordBatch) -> None:
        """Write one batch's rows after those already in."""
        start, stop = self._filled, self._filled + batch.num_rows
        if stop > self._rows:
            raise RuntimeError(f"The history has more rows than the {self._rows} counted.")
        rows = slice(start, stop)
        is_caller = np.asarray(batch.column("is_caller").to_numpy(zero_copy_only=False), bool)
        for name, array in self._arrays.items():
            column = batch.column(name)
            if name in _TIMES:
                array[rows] = _moments(column)
            elif name == "is_caller":
                array[rows] = is_caller
            else:
                array[rows] = column.to_numpy()
                if name == "penalty_cards_due":  # due from the caller only
                    array[rows][~is_caller] = 0
        for name, coded in self._coded.items():
            coded.add(rows, batch.column(name))
        for name, pieces in self._texts.items():
            # Copied: a piece that shared the batch's buffers would keep the whole batch,
            # every column, alive.
            pieces.append(pa.concat_arrays([_text(batch.column(name))], POOL))
        self._filled = stop

    def frame(self) -> pd.DataFrame:
        """The finished frame; the columns' arrays become the frame's own."""
        if self._filled != self._rows:
            raise RuntimeError(f"The history has {self._filled} of the {self._rows} rows counted.")
        arrays = self._arrays
        columns: dict[str, object] = {}
        for name, dtype in HISTORY_DTYPES.items():
            if name == _DERIVED:  # after the three columns it is made of, which stay
                columns[name] = _caller_totals(
                    arrays["round_id"], arrays["is_caller"], arrays["hand_total"]
                )
            elif name in _TIMES:
                columns[name] = pd.array(arrays.pop(name), copy=False).tz_localize("UTC")
            elif dtype == "category":
                columns[name] = self._coded.pop(name).categorical()
            elif dtype == "string":
                text = pa.concat_arrays(self._texts.pop(name), memory_pool=POOL)
                if name == "penalty":  # the penalty belongs to the caller's row only
                    text = pc.if_else(arrays["is_caller"], text, None, memory_pool=POOL)
                # With 64-bit offsets, as pandas keeps text.
                wide = text.cast(pa.large_string(), memory_pool=POOL)
                columns[name] = pd.array(wide, dtype="string")
            else:
                columns[name] = arrays[name]
        return pd.DataFrame(columns, copy=False)


class _Coded:
    """A text column with few distinct values, as the number of each row's value among
    the values in the order they first came (-1 where the text is missing).

    Each batch is looked up among the values already known in one call; only a batch with
    a value not seen before (the first batch, all of its values) adds its new values and
    is looked up again. Numbering the first batch by one dictionary encoding instead was
    no faster and raised a 10,000-row load's peak memory from 2.45 to 3.3 times the
    frame (measured side by side; which allocation holds the rest was not pinned down)."""

    def __init__(self, rows: int) -> None:
        self._numbers: dict[str, int] = {}
        self._known = pa.array([None], pa.string())
        """The missing text, then the values known so far, in the order they came."""
        self._codes = np.empty(rows, dtype=np.int8)

    def add(self, rows: slice, column: pa.Array) -> None:
        text = _text(column)
        found = pc.index_in(text, value_set=self._known, skip_nulls=False, memory_pool=POOL)
        if found.null_count:  # values not seen before (every value of the first batch)
            self._learn(text)
            found = pc.index_in(text, value_set=self._known, skip_nulls=False, memory_pool=POOL)
        # Position 0 of the known values is the missing text: one less is its -1.
        np.subtract(found.to_numpy(), 1, out=self._codes[rows], casting="unsafe")

    def _learn(self, text: pa.Array) -> None:
        """Number the values of ``text`` not known yet after those known."""
        numbers = self._numbers
        for value in pc.unique(text, memory_pool=POOL).to_pylist():
            if value is not None:
                numbers.setdefault(value, len(numbers))
        wider = _code_type(len(numbers))
        if wider.itemsize > self._codes.itemsize:
            self._codes = self._codes.astype(wider)
        self._known = pa.array([None, *numbers], pa.string())

    def categorical(self) -> pd.Categorical:
        """The column as a categorical, its categories sorted (as pandas's
        ``astype("category")`` sorts them: by code point); missing text stays missing."""
        values = list(self._numbers)
        order = sorted(range(len(values)), key=values.__getitem__)
        rank = np.empty(len(order) + 1, dtype=self._codes.dtype)
        rank[order] = np.arange(len(order))
        rank[-1] = -1
        dtype = _categories(tuple(values[number] for number in order))
        # Every code is a category's or -1, by construction: no need to check them again.
        return pd.Categorical.from_codes(rank[self._codes], dtype=dtype, validate=False)


@functools.lru_cache(maxsize=256)
def _categories(values: tuple[str, ...]) -> pd.CategoricalDtype:
    """The categorical type of these sorted values. A group's loads meet the same few
    (its players, the statuses, the kinds of call) again and again, and making the type
    checks its values each time (a fifth of finishing a 10,000-row frame); a type is
    never changed once made, so frames can share it."""
    return pd.CategoricalDtype(pd.Index(values, dtype="str"))


def _code_type(values: int) -> np.dtype:
    """The narrowest integer that numbers ``values`` values and -1."""
    return np.min_scalar_type(-max(values, 1))


def _moments(column: pa.Array) -> np.ndarray:
    """Moments in UTC (naive; the frame says UTC): PostgreSQL sends them typed; SQLite
    keeps them as text (``2026-01-31 20:15:00.000000``, written in UTC), which Arrow
    parses in one pass (about half the time of parsing each distinct value once and
    spreading them, the way it was done before)."""
    if pa.types.is_timestamp(column.type):
        return column.to_numpy()
    return column.cast(pa.timestamp("ns"), memory_pool=POOL).to_numpy()


def _text(column: pa.Array) -> pa.Array:
    # A text column that is NULL in every row comes back untyped from SQLite.
    return column if pa.types.is_string(column.type) else column.cast(pa.string(), memory_pool=POOL)


def _caller_totals(round_ids: np.ndarray, is_caller: np.ndarray, hand_totals: np.ndarray):
    """The caller's hand total on every row of their round (missing where nobody called).
    Rows of a round are adjacent: the SELECT orders by game, round and seat."""
    starts = np.flatnonzero(np.r_[True, round_ids[1:] != round_ids[:-1]])
    caller_rows = np.flatnonzero(is_caller)
    of_round = np.searchsorted(starts, caller_rows, side="right") - 1
    per_round = np.zeros(len(starts), dtype=hand_totals.dtype)
    per_round[of_round] = hand_totals[caller_rows]
    has_caller = np.zeros(len(starts), dtype=bool)
    has_caller[of_round] = True
    sizes = np.diff(np.r_[starts, len(round_ids)])
    return pd.arrays.IntegerArray(np.repeat(per_round, sizes), ~np.repeat(has_caller, sizes))
