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
_SCHEMA = pa.schema((name, _ARROW_TYPES[dtype]) for name, dtype in HISTORY_DTYPES.items())
"""The frame's columns in the Arrow types that become its own."""
_CAST = {name: dtype for name, dtype in HISTORY_DTYPES.items() if dtype in ("string", "Int32")}
"""What ``to_pandas`` leaves to do: free text in pandas's form, with a missing value as
``NA``, and a whole number with gaps comes as a float."""


def history_frame(batches: Iterable[pa.RecordBatch]) -> pd.DataFrame:
    """The history frame (see ``dutch_core.stats.HISTORY_DTYPES``) of the SELECT's rows."""
    table = pa.Table.from_batches([_narrowed(batch) for batch in batches], schema=_SCHEMA)
    if table.num_rows == 0:
        return empty_history()
    # Each column of the table is let go as soon as it is converted.
    frame = table.to_pandas(self_destruct=True, split_blocks=True)
    del table
    for name, dtype in HISTORY_DTYPES.items():
        if dtype == "category":  # sorted, as pandas's astype("category") sorts them
            categories = frame[name].cat.categories
            frame[name] = frame[name].cat.reorder_categories(categories.sort_values())
    return frame.astype(_CAST)


def _narrowed(batch: pa.RecordBatch) -> pa.RecordBatch:
    """``batch`` in the frame's Arrow types. SQLite gives moments as text in UTC and
    booleans as 0 and 1; both are cast on the way."""
    columns = []
    for field in _SCHEMA:
        column = batch.column(field.name)
        if pa.types.is_timestamp(field.type) and pa.types.is_string(column.type):
            column = column.cast(pa.timestamp("ns"))
        columns.append(column.cast(field.type))
    return pa.RecordBatch.from_arrays(columns, schema=_SCHEMA)
