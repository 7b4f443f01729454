"""The history frame, filled batch by batch from the Arrow rows of the history SELECT.

The rows are counted first (or expected: as many as the group's last load gave), so
every column of the frame is made once, at its final size and type, and each record
batch is written into it as soon as it is read (integers narrowed, times parsed, text
with few distinct values numbered, free text put in pandas's form) and then let go: the
driver's wide rows never exist whole, and no column is joined from pieces at the end.
The caller's hand total is spread over the rows of each round as soon as the round is
whole. What is left once the last batch is in is the last round's spread and sorting
the categories as pandas's ``astype("category")`` sorts them.
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
TEXT_PIECES = 16
"""A free-text column's pieces are joined sixteen at a time as the batches come, so that
a long history's column is not a chunk a batch. Filtering a million-row frame took
20.0 ms with a chunk for each of its 489 batches, 17.3 ms with 39 chunks and 15.7 ms
with one; joining them all once the last batch is in would copy every text again after
the read, when the load has nothing else left to wait on."""

_DERIVED = "caller_hand_total"
_CALLED = "caller_called"
"""Where :data:`_DERIVED` has a value (a round with a caller)."""


def history_frame(read: Batches) -> pd.DataFrame:
    """The history frame (see ``dutch_core.stats.HISTORY_DTYPES``) of the SELECT's rows."""
    columns = _Columns(read.rows, read.exact)
    for batch in read:
        columns.add(batch)
        del batch
    if columns.filled == 0:
        return empty_history()
    return columns.frame()


def _room(rows: int) -> int:
    """Room for ``rows`` rows expected but not counted: a little more, for the rounds saved
    since the rows were last counted."""
    return rows + max(64, rows // 64)


class _Columns:
    """The frame's columns made once at their final size, filled in the order the rows
    come. When the rows were not counted but only expected (see
    :class:`~dutch_app.storage.arrow_read.Batches`), the columns are made a little larger
    (:func:`_room`) and cut to the rows that came; should more come, they are made larger
    on the way.

    What can be worked out batch by batch is, while the next batch is being read: the
    caller's hand total spread over the rounds that are whole, and the text columns in
    pandas's form, kept in pieces. Finishing the frame after the last batch is then only
    the last round's spread and the categories' order."""

    def __init__(self, rows: int, exact: bool = True) -> None:
        self._exact = exact
        self._rows = rows = rows if exact else _room(rows)
        self.filled = 0
        self._spread_from = 0
        """The first row of the round not spread yet (see :meth:`_spread`)."""
        self._arrays: dict[str, np.ndarray] = {}
        self._coded: dict[str, _Coded] = {}
        self._texts: dict[str, _Text] = {}
        for name, dtype in HISTORY_DTYPES.items():
            if name in _TIMES:
                self._arrays[name] = np.empty(rows, dtype="datetime64[ns]")
            elif dtype == "category":
                self._coded[name] = _Coded(rows)
            elif dtype == "string":
                self._texts[name] = _Text()
            elif name != _DERIVED:
                self._arrays[name] = np.empty(rows, dtype=dtype)
        self._spread_arrays = {
            _DERIVED: np.empty(rows, dtype=HISTORY_DTYPES["hand_total"]),
            _CALLED: np.empty(rows, dtype=bool),
        }

    def add(self, batch: pa.RecordBatch) -> None:
        """Write one batch's rows after those already in."""
        start, stop = self.filled, self.filled + batch.num_rows
        if stop > self._rows:
            if self._exact:
                raise RuntimeError(f"The history has more rows than the {self._rows} counted.")
            self._widen(max(stop, self._rows + self._rows // 2))
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
            text = batch.column(name)
            if name == "penalty":  # the penalty belongs to the caller's row only
                text = pc.if_else(is_caller, text, None, memory_pool=POOL)
            else:
                # Copied: a piece that shared the batch's buffers would keep the whole
                # batch, every column, alive.
                text = pa.concat_arrays([text], POOL)
            pieces.add(text)
        self.filled = stop
        self._spread(last=False)

    def _spread(self, last: bool) -> None:
        """Spread each caller's hand total over the rows of their round, for the rounds
        read whole since the last spread (the last round read may go on in the next batch,
        unless this is the ``last`` spread). Rows of a round are adjacent: the SELECT
        orders by game, round and seat."""
        start, stop = self._spread_from, self.filled
        round_ids = self._arrays["round_id"][start:stop]
        if not last:
            # Up to the start of the last round read.
            changes = np.flatnonzero(round_ids[1:] != round_ids[:-1])
            if not len(changes):
                return
            stop = start + int(changes[-1]) + 1
            round_ids = round_ids[: stop - start]
        totals, called = _caller_totals(
            round_ids,
            self._arrays["is_caller"][start:stop],
            self._arrays["hand_total"][start:stop],
        )
        self._spread_arrays[_DERIVED][start:stop] = totals
        self._spread_arrays[_CALLED][start:stop] = called
        self._spread_from = stop

    def _widen(self, rows: int) -> None:
        """Make room for ``rows`` rows, keeping those in."""
        for arrays in (self._arrays, self._spread_arrays):
            for name, array in arrays.items():
                arrays[name] = _resized(array, self.filled, rows)
        for coded in self._coded.values():
            coded.resize(self.filled, rows)
        self._rows = rows

    def _cut(self) -> None:
        """Cut the columns to the rows that came (copied when the room left over is more
        than a little)."""
        filled = self.filled
        copy = self._rows - filled > _room(filled) - filled
        for arrays in (self._arrays, self._spread_arrays):
            for name, array in arrays.items():
                arrays[name] = _resized(array, filled, filled) if copy else array[:filled]
        for coded in self._coded.values():
            coded.resize(filled, filled, copy)
        self._rows = filled

    def frame(self) -> pd.DataFrame:
        """The finished frame; the columns' arrays become the frame's own."""
        if self.filled != self._rows:
            if self._exact:
                raise RuntimeError(
                    f"The history has {self.filled} of the {self._rows} rows counted."
                )
            self._cut()
        self._spread(last=True)
        arrays = self._arrays
        columns: dict[str, object] = {}
        for name, dtype in HISTORY_DTYPES.items():
            if name == _DERIVED:
                spread = self._spread_arrays
                columns[name] = pd.arrays.IntegerArray(spread[_DERIVED], ~spread[_CALLED])
            elif name in _TIMES:
                columns[name] = pd.array(arrays.pop(name), copy=False).tz_localize("UTC")
            elif dtype == "category":
                columns[name] = self._coded.pop(name).categorical()
            elif dtype == "string":
                columns[name] = self._texts.pop(name).array()
            else:
                columns[name] = arrays[name]
        return pd.DataFrame(columns, copy=False)


class _Text:
    """A free-text column, kept in pieces joined :data:`TEXT_PIECES` at a time."""

    def __init__(self) -> None:
        self._joined: list[pa.Array] = []
        self._recent: list[pa.Array] = []

    def add(self, text: pa.Array) -> None:
        """Add a batch's text (its own copy, not the batch's buffers)."""
        # With 64-bit offsets, as pandas keeps text.
        self._recent.append(text.cast(pa.large_string(), memory_pool=POOL))
        if len(self._recent) == TEXT_PIECES:
            self._joined.append(pa.concat_arrays(self._recent, POOL))
            self._recent.clear()

    def array(self) -> pd.api.extensions.ExtensionArray:
        """The column as pandas's text, its pieces as the chunks of one Arrow array."""
        pieces = pa.chunked_array(self._joined + self._recent, pa.large_string())
        return pd.array(pieces, dtype="string")


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

    def resize(self, filled: int, rows: int, copy: bool = True) -> None:
        """Room for ``rows`` codes, keeping the first ``filled``; a cut without ``copy``
        is a view of the codes there were."""
        if copy:
            self._codes = _resized(self._codes, filled, rows)
        else:
            self._codes = self._codes[:rows]

    def add(self, rows: slice, column: pa.Array) -> None:
        found = pc.index_in(column, value_set=self._known, skip_nulls=False, memory_pool=POOL)
        if found.null_count:  # values not seen before (every value of the first batch)
            self._learn(column)
            found = pc.index_in(column, value_set=self._known, skip_nulls=False, memory_pool=POOL)
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


def _resized(array: np.ndarray, filled: int, rows: int) -> np.ndarray:
    """A new array of ``rows`` of ``array``'s type, starting with its first ``filled``."""
    resized = np.empty(rows, dtype=array.dtype)
    resized[:filled] = array[:filled]
    return resized


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


def _caller_totals(
    round_ids: np.ndarray, is_caller: np.ndarray, hand_totals: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The caller's hand total on every row of their round, and where there is one (rows
    of a round are adjacent)."""
    starts = np.flatnonzero(np.r_[True, round_ids[1:] != round_ids[:-1]])
    caller_rows = np.flatnonzero(is_caller)
    of_round = np.searchsorted(starts, caller_rows, side="right") - 1
    per_round = np.zeros(len(starts), dtype=hand_totals.dtype)
    per_round[of_round] = hand_totals[caller_rows]
    has_caller = np.zeros(len(starts), dtype=bool)
    has_caller[of_round] = True
    sizes = np.diff(np.r_[starts, len(round_ids)])
    return np.repeat(per_round, sizes), np.repeat(has_caller, sizes)
