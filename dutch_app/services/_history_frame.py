"""The history frame, made from the Arrow record batches of the history SELECT.

Each batch is cast to the frame's narrow types as it comes (moments in UTC, numbers the
narrow integers of ``HISTORY_DTYPES``), so the driver's wide rows never exist whole; the
batches then become one frame, in which text with few distinct values (names, status,
call type, outcome) becomes categorical columns.
"""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd
import pyarrow as pa

from dutch_core.stats import HISTORY_DTYPES, empty_history

_ARROW_TYPES = {
    "int8": pa.int8(),
    "int16": pa.int16(),
    "int32": pa.int32(),
    "Int32": pa.int32(),
    "bool": pa.bool_(),
    "datetime64[ns, UTC]": pa.timestamp("ns", "UTC"),
    "category": pa.dictionary(pa.int32(), pa.string()),
    "string": pa.large_string(),
}
_POOL = pa.system_memory_pool()
"""Where the frame's Arrow columns are made: the C library's allocator, which hands a
large freed block back to the system at once (Arrow's default one keeps freed memory for
reuse, and a load's peak grew by about half the frame with it)."""
_SCHEMA = pa.schema((name, _ARROW_TYPES[dtype]) for name, dtype in HISTORY_DTYPES.items())
"""The frame's columns in the Arrow types that become its own."""
_PANDAS_TYPES = {pa.large_string(): pd.StringDtype()}.get
"""Free text in pandas's form, with a missing value as ``NA``."""


def history_frame(batches: Iterable[pa.RecordBatch]) -> pd.DataFrame:
    """The history frame (see ``dutch_core.stats.HISTORY_DTYPES``) of the SELECT's rows."""
    table = pa.Table.from_batches([_narrowed(batch) for batch in batches], schema=_SCHEMA)
    if table.num_rows == 0:
        return empty_history()
    # Each column of the table is let go as soon as it is converted.
    frame = table.to_pandas(self_destruct=True, split_blocks=True, types_mapper=_PANDAS_TYPES)
    del table
    for name, dtype in HISTORY_DTYPES.items():
        if dtype == "category":  # sorted, as pandas's astype("category") sorts them
            frame[name] = frame[name].cat.set_categories(sorted(frame[name].cat.categories))
        elif dtype == "Int32":  # a whole number with gaps comes as a float
            frame[name] = frame[name].astype(dtype)
    return frame


def _narrowed(batch: pa.RecordBatch) -> pa.RecordBatch:
    """``batch`` in the frame's Arrow types, in memory of its own. SQLite gives moments as
    text in UTC and booleans as 0 and 1; both are cast on the way."""
    columns = []
    for field in _SCHEMA:
        column = batch.column(field.name)
        if pa.types.is_timestamp(field.type) and pa.types.is_string(column.type):
            column = column.cast(pa.timestamp("ns"), memory_pool=_POOL)
        column = column.cast(field.type, memory_pool=_POOL)
        # Copied: a column that shared the driver's memory (a cast may keep its buffers)
        # would keep the whole batch.
        columns.append(pa.concat_arrays([column], memory_pool=_POOL))
    return pa.RecordBatch.from_arrays(columns, schema=_SCHEMA)
