"""Small vectorised helpers shared by the statistics modules."""

from __future__ import annotations

import numpy as np
import pandas as pd


def is_value(series: pd.Series, value: str) -> np.ndarray:
    """A plain boolean mask: the cells equal to ``value`` (missing cells are False)."""
    return series.eq(value).to_numpy(dtype=bool, na_value=False)


def rate(numerator: pd.Series, denominator: pd.Series) -> pd.Series:
    """``numerator / denominator`` as floats, NaN where the denominator is 0."""
    den = denominator.astype("float64")
    return numerator.astype("float64") / den.where(den > 0)


def ended_only(df: pd.DataFrame) -> pd.DataFrame:
    """The rows of ended games."""
    return df.loc[is_value(df["game_status"], "ended")]
