"""Small vectorised helpers shared by the statistics modules."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from pandas.api.extensions import ExtensionArray


def is_value(values: pd.Series | ExtensionArray, value: str) -> np.ndarray:
    """A plain boolean mask: the cells equal to ``value`` (missing cells are False)."""
    # A categorical column compares to a numpy array, a text column to a pandas one.
    compared: Any = values == value
    return np.asarray(pd.array(compared, dtype="boolean").to_numpy(dtype=bool, na_value=False))


def rate(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """``numerator / denominator`` as floats, NaN where the denominator is 0."""
    out = np.full(len(denominator), np.nan)
    result: np.ndarray = np.divide(numerator, denominator, out=out, where=denominator > 0)
    return result


def take(column: pd.Series, rows: np.ndarray) -> Any:
    """The column's values at ``rows``, keeping its dtype (a numpy or pandas array)."""
    if isinstance(column.dtype, np.dtype):
        return column.to_numpy()[rows]
    return column.array.take(rows)


def moments(column: pd.Series) -> np.ndarray:
    """A datetime column as integers that sort like its instants."""
    return column.to_numpy(dtype="datetime64[ns]").view("int64")


def frame_of(columns: dict[str, Any]) -> pd.DataFrame:
    """A DataFrame of ``columns``, arrays made for it alone: they are not copied."""
    return pd.DataFrame(columns, copy=False)


def nullable(values: np.ndarray, present: np.ndarray) -> pd.arrays.IntegerArray:
    """``values`` as an ``Int64`` array, missing where not ``present``."""
    return pd.arrays.IntegerArray(values.astype("int64"), ~present)
